export const metadata = { title: 'Sign-in refused' };

const WHY: Record<string, string> = {
  'no-email': 'your identity provider sent no e-mail address for your account; this server names people by a verified e-mail address only.',
  unverified: 'your identity provider has not verified the e-mail address of your account; this server names people by a verified e-mail address only.',
};

/** Where Auth.js sends a sign-in this server refused (lib/auth/oidc.ts): open to anyone, it names no one. */
export default async function SignInRefusedPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const reason = (await searchParams).reason;
  const why = typeof reason === 'string' ? WHY[reason] : undefined;
  return (
    <>
      <h1>Sign-in refused</h1>
      <p data-testid="signin-refused">You were not signed in: {why ?? 'the sign-in was refused.'} Verify your e-mail address with the provider, or ask this server&apos;s operator for an API token.</p>
    </>
  );
}
