// The Node driver: one process, one fresh @google-cloud/spanner client, one cell (docs/architecture.md,
// "Driver protocol"). Reads the cell as JSON on stdin, writes JSON lines on stdout, exits by itself.
// argv: the folder holding the installed client version's node_modules.
import { createRequire } from 'node:module';
import path from 'node:path';
import { DriverCellSchema, type OperationKind } from '@scb/shared';
import { cacheScope, enableCompileCache } from '../compile-cache.mjs';
import { countChannels } from './channels';
import { runPhases } from './load';
import { OPERATIONS, type Operation } from './operations';
import { nodeClientSetup, UnsupportedOption } from './options';
import { poolSampler } from './pool';
import { readServerTiming } from './server-timing';
import { countSessions } from './sessions';

function emit(m: object): void {
  process.stdout.write(JSON.stringify(m) + '\n');
}

function fail(message: string, code = 2): never {
  process.stderr.write(message + '\n');
  process.exit(code);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(): Promise<void> {
  const parsed = DriverCellSchema.safeParse(JSON.parse(await readStdin()));
  if (!parsed.success) fail(`driver: bad cell spec: ${parsed.error.message}`);
  const cell = parsed.data;
  setTimeout(() => fail(`driver: deadline of ${cell.deadlineMs} ms reached before the cell finished`, 3), cell.deadlineMs).unref();
  // grpc-js reads its trusted roots file when it is loaded: before the client is.
  if (cell.endpoint.tlsRootsFile) process.env.GRPC_DEFAULT_SSL_ROOTS_FILE_PATH = cell.endpoint.tlsRootsFile;
  // So does its choice of resolver: only the alternative one asks the DNS server a dns:// target names.
  if (cell.endpoint.resolver) process.env.GRPC_NODE_USE_ALTERNATIVE_RESOLVER = 'true';
  const clientDir = process.argv[2];
  if (!clientDir) fail('driver: the folder of the installed @google-cloud/spanner is required as the first argument');

  // Load the client, and the grpc-js and grpc-gcp its google-gax uses, from the version's own folder,
  // compiled from the code caches kept beside it (made by the first driver of the version; an uploaded
  // build's folder is read-only in its sandbox, so its drivers compile it each time).
  enableCompileCache(path.join(clientDir, '.compile-cache'), cacheScope('driver', process.execArgv));
  const req = createRequire(path.join(clientDir, 'package.json'));
  const { Spanner } = req('@google-cloud/spanner');
  const clientReq = createRequire(req.resolve('@google-cloud/spanner'));
  const grpc = clientReq('google-gax').grpc;
  const optional = (load: () => any) => {
    try {
      return load();
    } catch {
      return undefined;
    }
  };
  let setup: ReturnType<typeof nodeClientSetup>;
  try {
    setup = nodeClientSetup(cell, {
      grpc,
      grpcVersion: optional(() => createRequire(clientReq.resolve('google-gax'))('@grpc/grpc-js/package.json').version),
      grpcGcp: optional(() => clientReq('grpc-gcp')(grpc)),
      gcpConfig: optional(() => req('@google-cloud/spanner/build/src/spanner_grpc_config.json')),
    });
  } catch (e) {
    if (e instanceof UnsupportedOption) fail(e.message, 4);
    throw e;
  }
  Object.assign(process.env, setup.env);
  const clientChannels = countChannels(grpc);
  readServerTiming(grpc);
  const sessionsCreated = countSessions(grpc);
  emit({ type: 'progress', phase: 'connecting', done: 0, elapsedMs: 0, qps: 0 });
  const spanner = new Spanner(setup.clientOptions);
  const database = spanner.instance(cell.database.instanceId).database(cell.database.databaseId, setup.poolOptions);
  // As an application must: an 'error' nobody listens for (8.3.x forwards a failed session creation)
  // would end the process, and what the client does next is the thing measured.
  let databaseErrors = 0;
  database.on('error', (e: Error) => {
    if (databaseErrors++ === 0) process.stderr.write(`driver: the Database emitted 'error': ${e?.message ?? e}\n`);
  });
  const operations = Object.fromEntries(cell.operations.map((o) => [o.kind, OPERATIONS[o.kind](database, cell)])) as Record<OperationKind, Operation>;

  const result = await runPhases(cell, operations, emit, poolSampler(database), sessionsCreated);
  emit({ ...result, clientChannels: clientChannels() });
  // @google-cloud/spanner 7.21's close() may never resolve: give it a moment, then leave anyway.
  await Promise.race([Promise.resolve(database.close()).catch(() => {}), new Promise((r) => setTimeout(r, 1000))]);
  process.exit(0);
}

// The last stderr line is what the user reads on the failed cell: the message, not a stack.
main().catch((e) => fail(`driver: ${(e as Error)?.message ?? e}`));
