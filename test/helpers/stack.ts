import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createDb, createToken } from '@scb/db';
import { embeddedDatabaseUrl } from '@scb/db/setup';
import { freePort, startTestDatabase, TEST_CLUSTER_ENV, type TestDatabase } from './postgres';
import { nodeArgs } from '../../scripts/test-sources.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Stack {
  baseUrl: string;
  /** Its database: the given DATABASE_URL, or its embedded PostgreSQL's (with the password start.ts generated). */
  databaseUrl: string;
  /** The environment it was started with (its embedded PostgreSQL's port and data dir among it). */
  env: NodeJS.ProcessEnv;
  output: string[];
  stop(): Promise<number | null>;
}

/**
 * Runs the README's start command (scripts/start.ts) on free ports with a throw-away data dir: on
 * `databaseUrl` when given; else, under `npm test`, on a database of its own copied from the run's
 * migrated template (one PostgreSQL cluster for every file: no initdb and no migrations per stack);
 * else, or with `embedded`, on its embedded PostgreSQL, as on a fresh machine.
 */
export async function startStack({
  timeoutMs = 240_000,
  databaseUrl: givenUrl,
  embedded = false,
  env: extra = {},
  port: given,
}: {
  timeoutMs?: number;
  databaseUrl?: string;
  /** The embedded PostgreSQL of `npm start` even under `npm test` (the tests of that PostgreSQL itself). */
  embedded?: boolean;
  env?: NodeJS.ProcessEnv;
  port?: number;
} = {}): Promise<Stack> {
  const own: TestDatabase | undefined = !givenUrl && !embedded && process.env[TEST_CLUSTER_ENV] ? await startTestDatabase() : undefined;
  const databaseUrl = givenUrl ?? own?.url;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scb-stack-'));
  const port = given ?? (await freePort());
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), SCB_PG_PORT: String(await freePort()), SCB_DATA_DIR: dataDir, SCB_ALLOW_SPANNER: '', ...extra };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL; // the embedded default, as on a fresh machine
  const child: ChildProcess = spawn(process.execPath, nodeArgs('scripts/start.ts'), {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stack not ready in ${timeoutMs} ms:\n${output.join('\n')}`)), timeoutMs);
    for (const s of [child.stdout!, child.stderr!]) {
      createInterface({ input: s }).on('line', (l) => {
        output.push(l);
        if (l.includes('is ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
    }
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`start exited with ${code}:\n${output.join('\n')}`));
    });
  }).catch(async (e: unknown) => {
    child.kill('SIGKILL');
    await own?.stop();
    throw e;
  });
  const embeddedUrl = databaseUrl ? undefined : embeddedDatabaseUrl(path.join(dataDir, 'postgres'), Number(env.SCB_PG_PORT));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    databaseUrl: databaseUrl ?? embeddedUrl ?? '',
    env,
    output,
    async stop() {
      child.kill('SIGINT');
      // The kill timer is cleared on exit: left running, it holds the test file's process open for 30 s.
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([
        exited,
        new Promise<null>((r) => {
          timer = setTimeout(() => {
            child.kill('SIGKILL');
            r(null);
          }, 30_000);
        }),
      ]);
      clearTimeout(timer);
      rmSync(dataDir, { recursive: true, force: true });
      await own?.stop();
      return code;
    },
  };
}

/** A job no runner takes (it asks for 1024 cores): it stays queued until cancelled. */
export const QUEUED_JOB = {
  clients: [{ language: 'node', version: '9.0.0' }],
  configurations: [{ label: 'a' }],
  concurrency: [1],
  workload: { warmupOps: 1, measuredOps: 5 },
  requirements: { minCores: 1024 },
};

/** The Cloud Spanner database REFUSED_GATE names: list it in the stack's SCB_SPANNER_DATABASES. */
export const REFUSED_GATE_DATABASE = 'my-project/my-instance/my-db';

/** A gate on Cloud Spanner, which the policy allows and a runner without SCB_ALLOW_SPANNER refuses at once: no cell is measured. */
export const REFUSED_GATE = {
  scenario: 'steady-select1',
  language: 'node',
  baseline: '9.0.0',
  candidate: '9.0.0',
  repeats: 3,
  concurrency: [1],
  target: { kind: 'spanner', projectId: 'my-project', instanceId: 'my-instance', databaseId: 'my-db', maxOpsPerCell: 1000, maxSecondsPerCell: 60 },
};

/**
 * An API token made in the stack's database as `npm run token -- create <name> [--admin]` makes it, for a
 * file whose subject is not that command (auth-browser.test.ts runs it; each run of it costs a second of CPU).
 */
export async function stackToken(stack: Stack, name: string, admin = false): Promise<string> {
  const db = createDb(stack.databaseUrl);
  try {
    return await createToken(db, name, admin);
  } finally {
    await db.$disconnect();
  }
}
