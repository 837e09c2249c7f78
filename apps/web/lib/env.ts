// The web app's environment variables, read and validated once, on first use (not at build time:
// `next build` imports these modules without a database).
import { commaList, isLoopbackHost, isPublicUrl, policyFromEnv, PUBLIC_URL_ERROR, publicOriginOf, type Policy } from '@scb/shared/policy';
import { adminEntryIssue } from '@scb/shared/identity';
import { z } from 'zod';

/** Unset and empty are the same: the variable is not given. */
const given = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());
const onOnly = (name: string) => given(z.literal('on', { error: `${name} is "on" or unset` }));
const list = z.preprocess(commaList, z.array(z.string()));

const WebEnvSchema = z
  .object({
    /** The runners' heartbeat period: a runner silent for 4 of them is shown as gone. */
    SCB_HEARTBEAT_MS: z.coerce.number().int().min(200).max(60_000).default(5000),
    DATABASE_URL: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string({ error: 'DATABASE_URL is not set: start the app with `npm start`, which sets it' }).trim()),
    /** The address the app is bound to: anything but loopback is a team deployment. */
    PORT: z.coerce.number({ error: 'PORT must be a port number' }).int().min(1).max(65_535).default(3000),
    HOST: given(z.string().trim()).transform((v) => v ?? '127.0.0.1'),
    /** Where users reach the app: every permanent link is built from it, never from a request's headers. */
    SCB_PUBLIC_URL: given(z.string().trim().refine(isPublicUrl, PUBLIC_URL_ERROR)),
    SCB_AUTH: onOnly('SCB_AUTH'),
    SCB_AUTH_READ: onOnly('SCB_AUTH_READ'),
    /** Identities that may cancel anyone's job, each in its kind's form: a person's e-mail, token:<name>, proxy:<user>. */
    SCB_ADMINS: list.superRefine((entries, ctx) => {
      for (const entry of entries) {
        const issue = adminEntryIssue(entry);
        if (issue) ctx.addIssue({ code: 'custom', message: issue });
      }
    }),
    /** A header a trusted auth proxy (IAP, oauth2-proxy) sets to the signed-in user, and the proxy addresses allowed to set it. */
    SCB_AUTH_PROXY_HEADER: given(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(/^[a-z0-9-]+$/, 'SCB_AUTH_PROXY_HEADER must be a header name'),
    ),
    SCB_AUTH_PROXY_ADDRESSES: list,
    /** A Unix socket the app's server also listens on for the auth proxy alone (server.mjs): its requests may carry the header. */
    SCB_AUTH_PROXY_SOCKET: given(
      z
        .string()
        .trim()
        .refine((p) => p.startsWith('/'), 'SCB_AUTH_PROXY_SOCKET must be an absolute path'),
    ),
    /** Browser sign-in through the operator's OpenID Connect provider (Google, GitHub through a bridge, a company's SSO). */
    SCB_OIDC_ISSUER: given(
      z
        .string()
        .trim()
        .refine((u) => URL.canParse(u), "SCB_OIDC_ISSUER must be the provider's issuer URL"),
    ),
    SCB_OIDC_CLIENT_ID: given(z.string().trim()),
    SCB_OIDC_CLIENT_SECRET: given(z.string().trim()),
    /** The sign-in button's name for the provider. */
    SCB_OIDC_NAME: given(z.string().trim().max(40)).transform((v) => v ?? 'single sign-on'),
    /** Auth.js's secret for its session cookies; required with SCB_OIDC_ISSUER. */
    AUTH_SECRET: given(z.string().min(32, 'AUTH_SECRET must be at least 32 characters (e.g. openssl rand -base64 32)')),
  })
  .superRefine((e, ctx) => {
    if (e.SCB_OIDC_ISSUER && (!e.SCB_OIDC_CLIENT_ID || !e.SCB_OIDC_CLIENT_SECRET || !e.AUTH_SECRET))
      ctx.addIssue({ code: 'custom', message: 'SCB_OIDC_ISSUER needs SCB_OIDC_CLIENT_ID, SCB_OIDC_CLIENT_SECRET and AUTH_SECRET too' });
  });

export type WebEnv = z.output<typeof WebEnvSchema> & {
  /** The origin links are built from. */
  publicOrigin: string;
  /** local: bound to loopback, writes from this machine need no sign-in; team: every write needs an identity. */
  mode: 'local' | 'team';
};

let cached: WebEnv | undefined;

/** The validated environment; throws one sentence naming the first missing or malformed variable. */
export function webEnv(): WebEnv {
  if (cached) return cached;
  const r = WebEnvSchema.safeParse(process.env);
  if (!r.success) throw new Error(r.error.issues[0]!.message);
  const e = r.data;
  const mode = e.SCB_AUTH === 'on' || !isLoopbackHost(e.HOST) ? 'team' : 'local';
  const publicOrigin = publicOriginOf(e.SCB_PUBLIC_URL, e.PORT);
  return (cached = { ...e, mode, publicOrigin });
}

let cachedPolicy: Policy | undefined;

/** The operator's policy (what a spec may make a runner reach), read once; throws naming a malformed variable. */
export function webPolicy(): Policy {
  if (cachedPolicy) return cachedPolicy;
  const r = policyFromEnv(process.env);
  if (!r.ok) throw new Error(r.error);
  return (cachedPolicy = r.policy);
}
