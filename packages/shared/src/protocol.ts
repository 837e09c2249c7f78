import { z } from 'zod';
import { ClientSchema, ConfigurationSchema, OPERATIONS } from './spec';

/** What the runner gives a driver process on stdin: everything one cell needs, nothing more. */
export const DriverCellSchema = z.strictObject({
  endpoint: z.strictObject({ host: z.string(), port: z.number().int() }),
  projectId: z.string(),
  instanceId: z.string(),
  databaseId: z.string(),
  client: ClientSchema,
  /** Folder holding node_modules/@google-cloud/spanner at the requested version (Node driver). */
  clientDir: z.string().optional(),
  configuration: ConfigurationSchema,
  concurrency: z.number().int().min(1),
  operation: z.enum(OPERATIONS),
  warmupOps: z.number().int().min(0),
  measuredOps: z.number().int().min(1).optional(),
  durationMs: z.number().min(1).optional(),
  /** The driver exits by itself at this many ms after start, result or not. */
  deadlineMs: z.number().min(1000),
});
export type DriverCell = z.infer<typeof DriverCellSchema>;

export const ProgressMessageSchema = z.object({
  type: z.literal('progress'),
  phase: z.enum(['connecting', 'warmup', 'measure']),
  done: z.number(),
  total: z.number().optional(),
  elapsedMs: z.number(),
  qps: z.number(),
});
export type ProgressMessage = z.infer<typeof ProgressMessageSchema>;

/** One bucket of the measured phase: a second, except the last, which is what was left (`ms`). */
export const TimelinePointSchema = z.object({ second: z.number(), count: z.number(), errors: z.number(), p99Ms: z.number(), ms: z.number().optional() });
export type TimelinePoint = z.infer<typeof TimelinePointSchema>;

export const ResultMessageSchema = z.object({
  type: z.literal('result'),
  count: z.number().int(),
  errors: z.record(z.string(), z.number().int()),
  elapsedMs: z.number(),
  /** HDR histogram of successful operation latencies in microseconds, compressed base64. */
  histogram: z.string(),
  timeline: z.array(TimelinePointSchema),
  cpuMs: z.number(),
});
export type ResultMessage = z.infer<typeof ResultMessageSchema>;

export const DriverMessageSchema = z.discriminatedUnion('type', [ProgressMessageSchema, ResultMessageSchema]);
export type DriverMessage = z.infer<typeof DriverMessageSchema>;
