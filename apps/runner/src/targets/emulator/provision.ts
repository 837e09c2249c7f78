// The emulator's instance, database, schema and seed rows, through the client's admin API (and one
// commit of mutations over the low-level data client, which needs no session pool).
import { Spanner, v1 } from '@google-cloud/spanner';
import { grpc } from 'google-gax';
import type { DriverCell } from '@scb/shared';
import { LEADERBOARD_DDL } from '@scb/shared/catalogue';

const ALREADY_EXISTS = 6;

type Names = DriverCell['database'];

const ignoreExisting = (e: unknown) => {
  if ((e as { code?: number }).code !== ALREADY_EXISTS) throw e;
  return false;
};

/**
 * Creates the instance and the database with its schema where missing (an emulator the user runs
 * keeps them between cells), and seeds Players 1..seedPlayers into a database it created.
 */
export async function provision(host: string, port: number, names: Names, seedPlayers: number): Promise<void> {
  // A universe domain of its own keeps the client from probing for a GCE metadata server.
  const options = { projectId: names.projectId, servicePath: host, port, sslCreds: grpc.credentials.createInsecure(), universeDomain: 'googleapis.com' };
  const spanner = new Spanner(options);
  const data = new v1.SpannerClient(options);
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
    if (created && seedPlayers > 0) {
      const database = databases.databasePath(names.projectId, names.instanceId, names.databaseId);
      const [session] = await data.createSession({ database });
      const values = Array.from({ length: seedPlayers }, (_, i) => ({ values: [{ stringValue: String(i + 1) }, { stringValue: `player ${i + 1}` }] }));
      await data.commit({ session: session.name, singleUseTransaction: { readWrite: {} }, mutations: [{ insert: { table: 'Players', columns: ['PlayerId', 'PlayerName'], values } }] });
      await data.deleteSession({ name: session.name });
    }
  } finally {
    await data.close();
    spanner.close();
  }
}
