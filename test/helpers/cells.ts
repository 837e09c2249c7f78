import { driverWorkload, type Client, type DriverCell, type JobSpec } from '@scb/shared';

export interface Budget {
  warmupOps: number;
  measuredOps?: number;
  durationSeconds?: number;
  /** Operations and think time besides select1 in a closed loop. */
  mix?: JobSpec['workload']['mix'];
  thinkTime?: JobSpec['workload']['thinkTime'];
  /** An open loop: the level is then operations per second. */
  arrivals?: JobSpec['workload']['arrivals'];
  /** One operation in place of select1 (scan: with its resultSet). */
  operation?: JobSpec['workload']['operation'];
  resultSet?: JobSpec['workload']['resultSet'];
}

/** A cell (select1 unless the budget has a mix) against a fake at host:port with the client's default configuration (tests and benchmarks); `concurrency` is a rate with `budget.arrivals`. */
export function defaultCellOn(fake: { host: string; port: number }, client: Client, budget: Budget, concurrency: number, deadlineMs = 120_000): DriverCell {
  return {
    endpoint: { host: fake.host, port: fake.port, security: 'plaintext' },
    database: { projectId: 'p', instanceId: 'i', databaseId: 'd' },
    client,
    configuration: { label: 'default', grpcGcp: 'default' },
    ...driverWorkload({ operation: 'select1', ...budget }, concurrency, 1, budget.arrivals !== undefined),
    deadlineMs,
  };
}
