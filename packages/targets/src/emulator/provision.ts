// The emulator's instance, database, schema and seed rows, through the client's admin API (and commits
// of mutations over the low-level data client, which needs no session pool); for a `scan` workload also
// the result set's table, filled with the generated values.
import type { Spanner, v1 } from '@google-cloud/spanner';
import { setImmediate } from 'node:timers/promises';
import type { DriverCell, ResultSet } from '@scb/shared';
import { LEADERBOARD_DDL } from '@scb/shared/catalogue';
import { columnDdlType, columnName, estimatedBytes, generateValue, RESULT_SET_KEY, resultSetDdl, resultSetTable, type WireValue } from '@scb/shared/result-set';

const ALREADY_EXISTS = 6;

type Names = DriverCell['database'];

const ignoreExisting = (e: unknown) => {
  if ((e as { code?: number }).code !== ALREADY_EXISTS) throw e;
  return false;
};

/** Spanner's limit of mutated cells per commit (each column of each row inserted counts one). */
export const MUTATIONS_PER_COMMIT = 80_000;
/** What one commit of the result set's rows may weigh (estimated): well under Spanner's 100 MB request limit. */
const BYTES_PER_COMMIT = 16 * 1024 * 1024;

/**
 * Creates the instance and the database with its schema where missing (an emulator the user runs
 * keeps them between cells), and seeds Players 1..seedPlayers into a database it created. With a
 * `resultSet`, also its table (resultSetDdl) where missing, filled with the generated rows.
 */
export async function provision(host: string, port: number, names: Names, seedPlayers: number, resultSet?: ResultSet): Promise<void> {
  // google-gax (0.4 s of CPU) loads with the first emulator cell, not with every runner.
  const { grpc } = await import('google-gax');
  // A universe domain of its own keeps the client from probing for a GCE metadata server.
  const options = { projectId: names.projectId, servicePath: host, port, sslCreds: grpc.credentials.createInsecure(), universeDomain: 'googleapis.com' };
  // Loaded here, not with the runner: a runner whose jobs use the fake never pays for the client.
  const client = await import('@google-cloud/spanner');
  const spanner = new client.Spanner(options);
  const data = new client.v1.SpannerClient(options);
  try {
    const instances = spanner.getInstanceAdminClient();
    await instances
      .createInstance({
        instanceId: names.instanceId,
        parent: instances.projectPath(names.projectId),
        instance: { config: instances.instanceConfigPath(names.projectId, 'emulator-config'), displayName: names.instanceId, nodeCount: 1 },
      })
      .then(([op]) => op.promise())
      .catch(ignoreExisting);
    const databases = spanner.getDatabaseAdminClient();
    const created = await databases
      .createDatabase({ parent: databases.instancePath(names.projectId, names.instanceId), createStatement: `CREATE DATABASE \`${names.databaseId}\``, extraStatements: [...LEADERBOARD_DDL] })
      .then(([op]) => op.promise().then(() => true))
      .catch(ignoreExisting);
    const database = databases.databasePath(names.projectId, names.instanceId, names.databaseId);
    if (created && seedPlayers > 0) {
      const [session] = await data.createSession({ database });
      const values = Array.from({ length: seedPlayers }, (_, i) => ({ values: [{ stringValue: String(i + 1) }, { stringValue: `player ${i + 1}` }] }));
      await data.commit({ session: session.name, singleUseTransaction: { readWrite: {} }, mutations: [{ insert: { table: 'Players', columns: ['PlayerId', 'PlayerName'], values } }] });
      await data.deleteSession({ name: session.name });
    }
    if (resultSet) await provisionResultSet(databases, data, database, resultSet);
  } finally {
    await data.close();
    spanner.close();
  }
}

type DatabaseAdmin = ReturnType<Spanner['getDatabaseAdminClient']>;

/** A generated value as a mutation carries it (google.protobuf.Value): the wire forms are already its kinds. */
export function protobufValue(v: WireValue): Record<string, unknown> {
  if (v === null) return { nullValue: 'NULL_VALUE' };
  if (Array.isArray(v)) return { listValue: { values: v.map(protobufValue) } };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return { numberValue: v };
  return { stringValue: v };
}

/** Rows per commit: within the mutation limit (the key column counts too) and the weight per commit. */
export function rowsPerCommit(s: Pick<ResultSet, 'columns'>): number {
  const byCells = Math.floor(MUTATIONS_PER_COMMIT / (s.columns.length + 1));
  const byBytes = Math.floor(BYTES_PER_COMMIT / Math.max(1, estimatedBytes({ rows: 1, columns: s.columns })));
  return Math.max(1, Math.min(byCells, byBytes));
}

/**
 * The result set's table where it is missing, and its rows where they are not all there. The table's
 * name is a hash of the values' shape and seed, so a table of that name that an earlier cell (or runner)
 * filled holds these values; one left half-filled is completed (rows are written with insertOrUpdate,
 * so two provisioners at once write the same values).
 */
async function provisionResultSet(databases: DatabaseAdmin, data: v1.SpannerClient, database: string, s: ResultSet): Promise<void> {
  const table = resultSetTable(s);
  const [session] = await data.createSession({ database });
  try {
    const count = async (sql: string, params?: Record<string, string>) => {
      const [result] = await data.executeSql({
        session: session.name,
        sql,
        ...(params
          ? {
              params: { fields: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, { stringValue: v }])) },
              paramTypes: Object.fromEntries(Object.keys(params).map((k) => [k, { code: 'STRING' as const }])),
            }
          : {}),
      });
      return Number(result.rows?.[0]?.values?.[0]?.stringValue ?? 0);
    };
    const exists = (await count(`SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = '' AND TABLE_NAME = @table`, { table })) > 0;
    if (!exists) {
      await databases
        .updateDatabaseDdl({ database, statements: [resultSetDdl(s)] })
        .then(([op]) => op.promise())
        .catch((e: { code?: number; message?: string }) => {
          // Another provisioner created it meanwhile: fine. Anything else is the target refusing a type.
          if (e.code === ALREADY_EXISTS || /duplicate name/i.test(e.message ?? '')) return;
          const types = [...new Set(s.columns.map((c) => `${c.type} (${columnDdlType(c.type)})`))].join(', ');
          throw new Error(`the emulator refused the table of workload.resultSet, whose columns are ${types}: ${e.message}`);
        });
    } else if ((await count(`SELECT COUNT(*) FROM ${table}`)) === s.rows) {
      return;
    }
    // The emulator runs one transaction at a time (a second commit in flight aborts: "The emulator only
    // supports one transaction at a time"), so the commits go one after another; the next batch's values
    // are generated while the emulator applies the previous one.
    const columns = [RESULT_SET_KEY, ...s.columns.map((_, i) => columnName(i))];
    const batch = rowsPerCommit(s);
    let committing: Promise<unknown> = Promise.resolve();
    for (let from = 0; from < s.rows; from += batch) {
      const values = [];
      for (let row = from; row < Math.min(s.rows, from + batch); row++) {
        values.push({ values: [{ stringValue: String(row) }, ...s.columns.map((c, col) => protobufValue(generateValue(s.seed, col, row, c)))] });
        // Now and then the event loop runs: the commit in flight goes out (the client sends it a few ticks after the call).
        if (row % 256 === 0) await setImmediate();
      }
      await committing;
      committing = data.commit({ session: session.name, singleUseTransaction: { readWrite: {} }, mutations: [{ insertOrUpdate: { table, columns, values } }] });
      committing.catch(() => {}); // awaited above on the next round, or below
    }
    await committing;
  } finally {
    await data.deleteSession({ name: session.name }).catch(() => {});
  }
}
