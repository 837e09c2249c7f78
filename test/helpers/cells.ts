import { driverWorkload, type Client, type DriverCell } from '@scb/shared';

export interface Budget {
  warmupOps: number;
  measuredOps?: number;
  durationSeconds?: number;
}

/** A select1 cell against a fake at host:port with the client's default configuration (tests and benchmarks). */
export function defaultCellOn(fake: { host: string; port: number }, client: Client, budget: Budget, concurrency: number, deadlineMs = 120_000): DriverCell {
  return {
    endpoint: { host: fake.host, port: fake.port, security: 'plaintext' },
    database: { projectId: 'p', instanceId: 'i', databaseId: 'd' },
    client,
    configuration: { label: 'default', grpcGcp: 'default' },
    ...driverWorkload({ operation: 'select1', ...budget }, concurrency),
    deadlineMs,
  };
}
