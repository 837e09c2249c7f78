// Runs once when the web app's server starts: team mode is refused unless the app was started through
// its own server (server.mjs), whose peer check is the only thing that lets an auth proxy's header count.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { webEnv } = await import('./lib/env');
  const { peerHeaderName } = await import('./lib/auth/peer');
  let mode: string;
  try {
    mode = webEnv().mode;
  } catch {
    return; // a malformed variable is named on every request (lib/env.ts)
  }
  if (mode === 'team' && !peerHeaderName()) {
    console.error("web: team mode (SCB_AUTH=on or a non-loopback HOST) runs only through the app's own server: start it with `npm start` or `node apps/web/server.mjs`, not `next start`");
    process.exit(2);
  }
}
