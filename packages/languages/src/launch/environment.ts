// What a Driver process sees of the Runner's environment, and what a stored error never shows of it.
// A Driver runs a client version a user picked: it gets an allowlist, never the Runner's secrets.
import { policyVariables } from '@scb/shared/policy';

/** Passed to every Driver, when the Runner has them. */
const PASSED = [
  // The process basics: programs, the user's files (and gcloud's ADC there), locale, temporary files, time zone.
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'TZ',
  // The JVM the `java` on PATH belongs to, for launchers that look it up.
  'JAVA_HOME',
  // Trusted TLS roots on machines whose trust store is not the system's: Node, Go and OpenSSL, grpc-js.
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'GRPC_DEFAULT_SSL_ROOTS_FILE_PATH',
] as const;

/** Application Default Credentials: only a Cell on real Cloud Spanner authenticates. */
const CREDENTIALS = ['GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_CLOUD_PROJECT', 'CLOUDSDK_CONFIG', 'GCE_METADATA_HOST', 'GCE_METADATA_IP'] as const;

/** Set by the Runner for every Driver, whatever its own environment says. */
const SET: Record<string, string> = {
  // No metrics export: it may not differ between the clients compared.
  SPANNER_DISABLE_BUILTIN_METRICS: 'true',
};

/**
 * Set for a Driver without credentials: no probe of the GCE metadata server. A Cell on Cloud Spanner
 * keeps the probe: on Google Cloud the metadata server is where its credentials come from.
 */
const SET_WITHOUT_CREDENTIALS: Record<string, string> = { METADATA_SERVER_DETECTION: 'none' };

/**
 * A Driver's whole environment for a Cell; `credentials`: the Cell's target is one the Runner reaches
 * with its own Google credentials (its TargetPlugin says so). Not passed on purpose, besides the
 * Runner's secrets: NODE_OPTIONS, JAVA_TOOL_OPTIONS, GOMAXPROCS, PYTHONPATH and the like (they would
 * change what is measured) and proxies (the Driver only reaches the Target).
 */
export function driverEnvironment(credentials: boolean, runner: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const names: readonly string[] = credentials ? [...PASSED, ...CREDENTIALS, 'METADATA_SERVER_DETECTION'] : PASSED;
  const env: Record<string, string> = {};
  for (const name of names) {
    const v = runner[name];
    if (v !== undefined) env[name] = v;
  }
  return { ...env, ...SET, ...(credentials ? {} : SET_WITHOUT_CREDENTIALS) };
}

/** Variables whose values are everyday words or paths in messages, unless their name says secret. */
const PLAIN = new Set(['PATH', 'HOME', 'PWD', 'OLDPWD', 'SHELL', 'USER', 'LOGNAME', 'LANG', 'TERM', 'HOSTNAME', 'SHLVL', '_']);
const SECRET_NAME = /SECRET|TOKEN|PASSW|PASSPHRASE|(^|_)KEY($|_)|CREDENTIAL|AUTH|PRIVATE|COOKIE|SESSION|DATABASE_URL|DSN/i;
/** An absolute path, or a list of them. */
const PATH_LIKE = /^\/[^\s:]*(:\/[^\s:]*)*$/;
const NUMBER = /^[+-]?\d+(\.\d+)?$/;
const MIN_LENGTH = 8;

/** The password of a URL that carries credentials (user:password@ or token@), or null when it has none. */
function urlCredentials(value: string): { password: string } | null {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/\s]*@/i.test(value)) return null;
  try {
    const u = new URL(value);
    return u.username || u.password ? { password: u.password } : null;
  } catch {
    return { password: '' };
  }
}

/** The Runner's values a stored message must not show: longest first, so a value containing another goes whole. */
function secretValues(runner: NodeJS.ProcessEnv): string[] {
  // What Drivers are given, and the operator's policy (the endpoints and databases specs name anyway).
  const shown = new Set<string>([...PASSED, ...CREDENTIALS, ...Object.keys(SET), ...policyVariables()]);
  const values = new Set<string>();
  for (const [name, value] of Object.entries(runner)) {
    if (value === undefined || value.trim().length < MIN_LENGTH || shown.has(name)) continue;
    const credentials = urlCredentials(value.trim());
    const secret = SECRET_NAME.test(name) || credentials !== null;
    if (!secret && (PLAIN.has(name) || NUMBER.test(value.trim()) || PATH_LIKE.test(value.trim()))) continue;
    // A multi-line value (a PEM) may show in part: each of its lines goes too.
    for (const v of [value, ...value.split(/\r?\n/)].map((s) => s.trim())) if (v.length >= MIN_LENGTH) values.add(v);
    if (credentials?.password) {
      values.add(credentials.password);
      values.add(safeDecode(credentials.password));
    }
  }
  return [...values].filter((v) => v.length >= MIN_LENGTH).sort((a, b) => b.length - a.length);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The text with every value of the Runner's environment that a Driver is not given replaced by [redacted]. */
export function redactEnvironment(text: string, runner: NodeJS.ProcessEnv = process.env): string {
  let out = text;
  for (const v of secretValues(runner)) if (out.includes(v)) out = out.split(v).join('[redacted]');
  return out;
}
