// test: yields
// A Driver runs a client version a user picked: it starts with an allowlisted environment, never the
// Runner's secrets, and no value of the Runner's environment reaches a stored cell error.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { driverEnvironment, redactEnvironment } from '../../apps/runner/src/driver-env';

// The Runner reads its environment once, when it is loaded: the secrets go in first.
const secret = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;
const SECRETS = {
  DATABASE_URL: `postgresql://bench:${secret('pw-')}@127.0.0.1:1/bench`,
  AUTH_SECRET: secret('auth-'),
  BENCH_DEPLOY_TOKEN: secret('tok-'),
  NODE_OPTIONS: '--max-old-space-size=3072',
  GOOGLE_APPLICATION_CREDENTIALS: '/nonexistent/scb-test-key.json',
};
Object.assign(process.env, SECRETS);
// The Driver cannot print what it never sees: its own words for an option stand in for a secret
// that reached its stderr (the Node driver fails a cell on dynamicChannelPool with this reason).
process.env.BENCH_NOTIFY_TOKEN = 'a Java client option';
const { useRunner } = await import('../helpers/jobs');

const stack = useRunner();

const RUNNER = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/home/bench',
  LANG: 'C.UTF-8',
  TMPDIR: '/tmp',
  PWD: '/work/bench',
  JAVA_HOME: '/usr/lib/jvm/java-21',
  NODE_EXTRA_CA_CERTS: '/etc/ssl/extra.pem',
  METADATA_SERVER_DETECTION: 'assume-present',
  DATABASE_URL: 'postgresql://bench:s3cret-pa55word@db.internal:5432/bench',
  AUTH_SECRET: 'a1b2c3d4e5f6a7b8c9d0',
  GITHUB_TOKEN: 'ghp_0123456789abcdef',
  SHORT_KEY: 'abc',
  NODE_OPTIONS: '--require /tmp/evil.cjs',
  JAVA_TOOL_OPTIONS: '-javaagent:/tmp/agent.jar',
  HTTPS_PROXY: 'http://user:proxypass99@proxy.internal:3128',
  SCB_CACHE_DIR: '/var/cache/scb',
  SCB_TEST_TLS_ROOTS: '/tmp/ca.pem',
  SCB_SPANNER_ENDPOINTS: 'spanner.googleapis.com:443',
  PIP_DEFAULT_TIMEOUT: '1234567890',
  GOOGLE_APPLICATION_CREDENTIALS: '/home/bench/key.json',
  GOOGLE_CLOUD_PROJECT: 'bench-project',
  CLOUDSDK_CONFIG: '/home/bench/.config/gcloud',
};
const BASICS = {
  PATH: RUNNER.PATH,
  HOME: RUNNER.HOME,
  LANG: RUNNER.LANG,
  TMPDIR: RUNNER.TMPDIR,
  JAVA_HOME: RUNNER.JAVA_HOME,
  NODE_EXTRA_CA_CERTS: RUNNER.NODE_EXTRA_CA_CERTS,
  METADATA_SERVER_DETECTION: 'none',
  SPANNER_DISABLE_BUILTIN_METRICS: 'true',
};

test('a Driver gets the allowlist only, and the Application Default Credentials (and the metadata server probe) only on Cloud Spanner', () => {
  for (const kind of ['fake', 'emulator', undefined] as const) assert.deepEqual(driverEnvironment(kind, RUNNER), BASICS, String(kind));
  assert.deepEqual(driverEnvironment('spanner', RUNNER), {
    ...BASICS,
    // On Google Cloud the metadata server is where the credentials come from: its probe stays as the Runner has it.
    METADATA_SERVER_DETECTION: RUNNER.METADATA_SERVER_DETECTION,
    GOOGLE_APPLICATION_CREDENTIALS: RUNNER.GOOGLE_APPLICATION_CREDENTIALS,
    GOOGLE_CLOUD_PROJECT: RUNNER.GOOGLE_CLOUD_PROJECT,
    CLOUDSDK_CONFIG: RUNNER.CLOUDSDK_CONFIG,
  });
  // This Runner's own environment, as the Runner uses it.
  const fake = driverEnvironment('fake');
  for (const name of ['DATABASE_URL', 'AUTH_SECRET', 'BENCH_DEPLOY_TOKEN', 'NODE_OPTIONS', 'GOOGLE_APPLICATION_CREDENTIALS']) assert.ok(!(name in fake), name);
  assert.equal(fake.PATH, process.env.PATH);
  assert.equal(driverEnvironment('spanner').GOOGLE_APPLICATION_CREDENTIALS, SECRETS.GOOGLE_APPLICATION_CREDENTIALS);
});

test("a stored message shows no value of the Runner's environment that Drivers are not given", () => {
  const password = 's3cret-pa55word';
  const message = [
    `could not connect to ${RUNNER.DATABASE_URL}`,
    `password authentication failed (${password})`,
    `auth ${RUNNER.AUTH_SECRET}, ${RUNNER.GITHUB_TOKEN}, proxy ${RUNNER.HTTPS_PROXY} and its password proxypass99`,
    `the agent ${RUNNER.JAVA_TOOL_OPTIONS}`,
    `kept: ${RUNNER.HOME}/x, ${RUNNER.PWD}, ${RUNNER.SCB_CACHE_DIR}, ${RUNNER.PIP_DEFAULT_TIMEOUT}, ${RUNNER.SCB_SPANNER_ENDPOINTS}, ${RUNNER.SHORT_KEY}, ${RUNNER.GOOGLE_CLOUD_PROJECT}`,
  ].join('\n');
  assert.equal(
    redactEnvironment(message, RUNNER),
    [
      'could not connect to [redacted]',
      'password authentication failed ([redacted])',
      'auth [redacted], [redacted], proxy [redacted] and its password [redacted]',
      'the agent [redacted]',
      'kept: /home/bench/x, /work/bench, /var/cache/scb, 1234567890, spanner.googleapis.com:443, abc, bench-project',
    ].join('\n'),
  );
  // This Runner's own environment, as CellError uses it.
  assert.equal(redactEnvironment(`driver: ${process.env.DATABASE_URL} refused`), 'driver: [redacted] refused');
});

/** The environment each Node Driver started with, read from /proc while it runs (its cmdline first: then exec is done). */
function watchNodeDrivers() {
  const seen = new Map<number, Record<string, string>>();
  const scan = () => {
    for (const name of readdirSync('/proc')) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || seen.has(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) continue;
        if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('drivers/node/driver-')) continue;
        const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
        seen.set(pid, Object.fromEntries(environ.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])));
      } catch {
        // Gone meanwhile.
      }
    }
  };
  const timer = setInterval(scan, 50);
  return {
    stop() {
      clearInterval(timer);
      return [...seen.values()];
    },
  };
}

test('a Node Driver run by the Runner sees none of its secrets, and its failure is stored redacted', { timeout: 600_000 }, async () => {
  const watch = watchNodeDrivers();
  let drivers: Record<string, string>[];
  let job: Awaited<ReturnType<typeof stack.runSpec>>;
  try {
    job = await stack.runSpec(
      {
        clients: [{ language: 'node', version: '9.0.0' }],
        configurations: [{ label: 'default' }, { label: 'dynamic', dynamicChannelPool: true }],
        concurrency: [2],
        target: { kind: 'fake', latencyMs: 5 },
        workload: { warmupOps: 20, measuredOps: 200 },
      },
      180_000,
    );
  } finally {
    drivers = watch.stop();
  }
  const ok = job.cells.find((c) => c.configLabel === 'default')!;
  const failed = job.cells.find((c) => c.configLabel === 'dynamic')!;
  assert.equal(ok.status, 'succeeded', `${ok.error}; log:\n${stack.logs.join('\n')}`);
  assert.equal(failed.status, 'failed');
  assert.match(failed.error ?? '', /option dynamicChannelPool is not supported by node 9\.0\.0 \(\[redacted\]\)/);

  assert.ok(drivers.length >= 1, 'a Node Driver was seen running');
  console.log(`# Node Drivers seen: ${drivers.length}`);
  for (const env of drivers) {
    assert.deepEqual(env, driverEnvironment('fake'), 'the Driver started with exactly the allowlisted environment');
    assert.equal(env.PATH, process.env.PATH);
    for (const name of Object.keys(SECRETS)) assert.ok(!(name in env), `${name} reached the Driver`);
    const all = Object.entries(env).join('\n');
    for (const value of [SECRETS.DATABASE_URL, SECRETS.AUTH_SECRET, SECRETS.BENCH_DEPLOY_TOKEN]) assert.ok(!all.includes(value), 'a secret value reached the Driver');
  }
  const stored = JSON.stringify(job);
  for (const value of [SECRETS.DATABASE_URL, SECRETS.AUTH_SECRET, SECRETS.BENCH_DEPLOY_TOKEN, 'a Java client option']) assert.ok(!stored.includes(value), 'a secret value was stored');
});
