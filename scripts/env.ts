// The scripts' environment variables (npm start, db:migrate, gate), read and validated once
// (docs/configuration.md). A bad value stops the script with one sentence naming the variable.
import { z } from 'zod';

/** Unset and empty are the same: the variable is not given. */
const given = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());
const port = (fallback: number) =>
  given(z.coerce.number({ error: 'must be a port number' }).int('must be a port number').min(1, 'must be a port number (1-65535)').max(65535, 'must be a port number (1-65535)')).transform(
    (v) => v ?? fallback,
  );

const ScriptEnvSchema = z.object({
  /** A PostgreSQL to use instead of the embedded one. */
  DATABASE_URL: given(z.string().trim()),
  /** The web app's port and address. */
  PORT: port(3000),
  HOST: given(z.string().trim()).transform((v) => v ?? '127.0.0.1'),
  /** The embedded PostgreSQL's port and where its data and the web build stamp live. */
  SCB_PG_PORT: port(54329),
  SCB_DATA_DIR: given(z.string().trim()),
  /** The API token `npm run gate` presents to a server that needs one to write. */
  SCB_TOKEN: given(z.string().trim()),
});

export type ScriptEnv = z.output<typeof ScriptEnvSchema>;

function read(): ScriptEnv {
  const r = ScriptEnvSchema.safeParse(process.env);
  if (r.success) return r.data;
  const i = r.error.issues[0]!;
  process.stderr.write(`${String(i.path[0])}: ${i.message}\n`);
  process.exit(2);
}

export const env: ScriptEnv = read();
