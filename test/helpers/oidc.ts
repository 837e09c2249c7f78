import http from 'node:http';
import { randomBytes } from 'node:crypto';
import Provider from 'oidc-provider';
import type { Page } from 'playwright-core';
import { freePort } from './postgres';

/** An account's claims at the provider, by login name. */
export type Claims = Record<string, unknown>;

export interface OidcProvider {
  issuer: string;
  clientId: string;
  secret: string;
  close(): void;
}

/**
 * A real OpenID Connect provider on loopback (oidc-provider): its own login and consent pages, any
 * password. A login name in `accounts` gets those claims; any other `<name>` is `<name>@example.com`, verified.
 */
export async function startOidcProvider(appOrigin: string, accounts: Record<string, Claims> = {}): Promise<OidcProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const secret = randomBytes(24).toString('hex');
  const provider = new Provider(issuer, {
    clients: [{ client_id: 'bench', client_secret: secret, redirect_uris: [`${appOrigin}/api/auth/callback/oidc`], grant_types: ['authorization_code'], response_types: ['code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    findAccount: async (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: async () => ({ sub: id, ...(accounts[id] ?? { email: `${id}@example.com`, email_verified: true }) }),
    }),
  });
  const server = http.createServer(provider.callback());
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    issuer,
    clientId: 'bench',
    secret,
    // Its keep-alive connections too: an idle one would hold the test file open.
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}

/** The provider's sign-in as a person does it in the browser: the app's Sign-in link, the provider button, login, consent. */
export async function signInThroughProvider(page: Page, appOrigin: string, login: string, providerName: string): Promise<void> {
  await page.goto(`${appOrigin}/api/auth/signin`);
  await page.getByRole('button', { name: new RegExp(providerName) }).click();
  await page.locator('input[name=login]').waitFor({ timeout: 15_000 });
  await page.fill('input[name=login]', login);
  await page.fill('input[name=password]', 'any');
  await page.click('button[type=submit]');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${appOrigin}/**`, { timeout: 30_000 });
}
