export { startFakeSpanner, type FakeSpanner, type FakeSpannerOptions } from './server';
export { StatementRegistry, type StatementResult } from './statements';
export type { ConnectionStat, FakeStats } from './accounting';
