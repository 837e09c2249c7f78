import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDb } from './client';
import { rebuildTrendSummaries } from './trend-summary';

/** The migration that created the across-versions summary (filled from the stored cells once applied). */
const TREND_SUMMARY_MIGRATION = '20261209090000_trend_summary';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../prisma/migrations');

// Same table Prisma's `migrate deploy` keeps, so either tool can continue where the other stopped.
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;
// Prisma's own advisory lock key for migrations.
const LOCK_KEY = 72707369;

export interface MigrationReport {
  applied: string[];
  skipped: string[];
}

/** Applies pending migrations of prisma/migrations in name order, each in one transaction. */
export async function migrate(url: string, dir = MIGRATIONS_DIR): Promise<MigrationReport> {
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const report: MigrationReport = { applied: [], skipped: [] };
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(CREATE_TABLE);
    const done = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
    );
    const byName = new Map(done.rows.map((r) => [r.migration_name, r]));
    for (const name of names) {
      const sql = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      const prior = byName.get(name);
      if (prior) {
        if (!prior.finished_at) throw new Error(`migration ${name} started earlier and did not finish; repair the database by hand`);
        if (prior.checksum !== checksum) throw new Error(`migration ${name} was changed after it was applied (checksum differs)`);
        report.skipped.push(name);
        continue;
      }
      const id = randomUUID();
      await client.query('BEGIN');
      try {
        await client.query('INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)', [id, checksum, name]);
        await client.query(sql);
        await client.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [id]);
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${name} failed: ${(e as Error).message}`);
      }
      report.applied.push(name);
    }
    // The summary that migration created is derived from the stored results: fill it now.
    if (report.applied.includes(TREND_SUMMARY_MIGRATION)) {
      const db = createDb(url);
      try {
        await rebuildTrendSummaries(db);
      } finally {
        await db.$disconnect();
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {});
    await client.end();
  }
  return report;
}
