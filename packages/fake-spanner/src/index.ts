export { startFakeSpanner, type FakeSpanner, type FakeSpannerOptions } from './server';
export { StatementRegistry, defaultStatements, type StatementHandler, type StatementOutcome } from './statements';
export { Store, leaderboardStore } from './store';
export type { ConnectionStat, FakeStats, KindLatency } from './accounting';
export { startAdmin, type AdminServer } from './admin';
export { startFakeSpannerThread, type FakeSpannerThread, type FakeThreadStats } from './thread';
export type { LoopLoad } from './loop';
export { checkToken, issueToken, newTokenSecret, type TokenVerdict } from './tokens';
