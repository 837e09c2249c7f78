import type { v1 } from '@google-cloud/spanner';

/** The client options of a data client: endpoint, project, and for plaintext targets their sslCreds. */
export type DataClientOptions = ConstructorParameters<typeof v1.SpannerClient>[0];

/**
 * The tables of `tables` the database lacks, read from its information schema over one session of
 * the low-level data client (no pool, nothing left behind).
 */
export async function missingTables(options: DataClientOptions, database: string, tables: string[]): Promise<string[]> {
  if (tables.length === 0) return [];
  // Loaded here, not with the runner: a runner whose jobs use the fake never pays for the client (half a second of CPU).
  const { v1: spanner } = await import('@google-cloud/spanner');
  // An explicit universe domain keeps the client from probing for a GCE metadata server.
  const data = new spanner.SpannerClient({ universeDomain: 'googleapis.com', ...options });
  try {
    const [session] = await data.createSession({ database });
    try {
      const [rs] = await data.executeSql({ session: session.name, sql: "SELECT table_name FROM information_schema.tables WHERE table_schema = ''" });
      const have = new Set((rs.rows ?? []).map((r) => r.values?.[0]?.stringValue));
      return tables.filter((t) => !have.has(t));
    } finally {
      await data.deleteSession({ name: session.name }).catch(() => {});
    }
  } finally {
    await data.close();
  }
}
