// Setting a database up (start-up scripts and tests only; the web app never imports this).
export { migrate, MIGRATIONS_DIR, type MigrationReport } from './migrate';
export { embeddedDatabaseUrl, keepAlive, PASSWORD_FILE, startEmbeddedPostgres, type EmbeddedDb, type EmbeddedOptions } from './postgres';
