// The web app's environment variables, read and validated once, on first use (not at build time:
// `next build` imports these modules without a database).
import { z } from 'zod';

const WebEnvSchema = z.object({
  /** The runners' heartbeat period: a runner silent for 4 of them is shown as gone. */
  SCB_HEARTBEAT_MS: z.coerce.number().int().min(200).max(60_000).default(5000),
  DATABASE_URL: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string({ error: 'DATABASE_URL is not set: start the app with `npm start`, which sets it' }).trim()),
});

export type WebEnv = z.output<typeof WebEnvSchema>;

let cached: WebEnv | undefined;

/** The validated environment; throws one sentence naming the first missing or malformed variable. */
export function webEnv(): WebEnv {
  if (cached) return cached;
  const r = WebEnvSchema.safeParse(process.env);
  if (!r.success) throw new Error(r.error.issues[0]!.message);
  return (cached = r.data);
}
