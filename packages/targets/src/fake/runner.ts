import { startFakeSpannerThread, type FakeStats } from '@scb/fake-spanner';
import type { CellEvent, FakeTarget } from '@scb/shared';
import { startTap, tapBehaviour, type WireTimes } from '../tap';
import { startCredentials } from './credentials';
import { DNS_NAME, dnsEvents, startDnsServer } from './dns';
import type { AddedLatency, TargetPlugin } from '@scb/shared/target-plugin';

/**
 * The bundled fake, on a free port and a worker thread of its own; it counts every RPC per connection
 * itself. With measureOnWire or a network the driver reaches it through the connection tap, which times its
 * RPCs on the wire and plays the network.
 */
export const runner: TargetPlugin<FakeTarget> = {
  kind: 'fake',
  available: () => true,
  async start(target, spec) {
    const creds = target.credentials ? await startCredentials(target.credentials, spec.timeScale, DATABASE.projectId) : null;
    let server: Awaited<ReturnType<typeof startFakeSpannerThread>>;
    try {
      server = await startFakeSpannerThread({
        ...target.server,
        latencyMs: target.latencyMs,
        timeScale: spec.timeScale,
        ...(spec.workload.resultSet && { resultSets: [spec.workload.resultSet] }),
        ...(creds && { tls: { certChain: creds.ca.certChain, privateKey: creds.ca.privateKey }, tokenSecret: creds.tokenSecret }),
      });
    } catch (e) {
      await creds?.stop();
      throw e;
    }
    let tap: Awaited<ReturnType<typeof startTap>> | null = null;
    let dns: Awaited<ReturnType<typeof startDnsServer>> | null = null;
    try {
      tap = target.measureOnWire || target.network ? await startTap(server, tapBehaviour(target.network, spec.timeScale)) : null;
      dns = target.dns ? await startDnsServer({ name: DNS_NAME, delayMs: target.dns.lookupDelayMs * spec.timeScale, ttlSeconds: 30 }) : null;
    } catch (e) {
      await tap?.stop();
      await server.stop();
      await creds?.stop();
      throw e;
    }
    let measureStart: number | null = null;
    const resolver = dns ? { resolver: { server: dns.host, name: DNS_NAME } } : {};
    return {
      endpoint: creds
        ? { host: server.host, port: server.port, security: 'tls', tlsRootsFile: creds.ca.caFile, ...resolver }
        : { host: (tap ?? server).host, port: (tap ?? server).port, security: 'plaintext', ...resolver },
      database: DATABASE,
      ...(creds && { environment: creds.environment, failureHint: creds.failureHint }),
      async stats() {
        const s = await server.stats();
        return {
          channels: { source: 'fake', totalRpcs: s.totalRpcs, connections: s.connections },
          added: s.added,
          wireAdded: tap && target.measureOnWire ? wireAdded(tap.wire(), s.applied) : null,
          load: s.loop,
          cpuShare: null,
          serverByOperation: s.operations,
          events: [
            ...(s.measureStartMs === null ? [] : fakeEvents(s, s.measureStartMs)),
            ...(tap?.events() ?? []),
            ...(creds && measureStart !== null ? creds.events(measureStart) : []),
            ...(dns && measureStart !== null ? dnsEvents(dns.lookups(), measureStart) : []),
          ].sort((a, b) => a.atMs - b.atMs),
          tokens: s.tokens,
          wireBytes: tap ? tap.wireBytes() : s.wireBytesSent,
        };
      },
      markMeasuring: async () => {
        measureStart = performance.now();
        tap?.markMeasuring();
        await server.mark();
      },
      async stop() {
        await tap?.stop();
        await dns?.stop();
        await server.stop();
        await creds?.stop();
      },
    };
  },
};

// The fake serves any names: fixed ones keep logs readable.
const DATABASE = { projectId: 'bench-project', instanceId: 'bench-instance', databaseId: 'bench-db' };

/**
 * The wire's time per RPC beyond the latency the fake applied, at p50 and p99: exact where every RPC
 * had the same applied latency (one operation kind, sessions aside), an approximation for a mix.
 */
function wireAdded(wire: WireTimes, applied: FakeStats['applied']): AddedLatency | null {
  if (!wire.count || !applied) return null;
  return { p50Ms: Math.max(0, wire.p50Ms - applied.p50Ms), p99Ms: Math.max(0, wire.p99Ms - applied.p99Ms) };
}

/**
 * Everything the fake saw happen after the measured phase began, ms into it, in time order: connections
 * opened and closed, schedule entries beginning and ending, injected faults per second.
 */
function fakeEvents(s: FakeStats, measureStartMs: number): CellEvent[] {
  const events: CellEvent[] = [];
  const since = (ms: number | null) => (ms !== null && ms >= measureStartMs ? ms - measureStartMs : null);
  for (const c of s.connections) {
    const opened = since(c.openedMs);
    const closed = since(c.closedMs);
    if (opened !== null) events.push({ atMs: opened, kind: 'connection-opened', connection: c.connection });
    if (closed !== null) events.push({ atMs: closed, kind: 'connection-closed', connection: c.connection });
  }
  for (const c of s.schedule) {
    const atMs = since(c.atMs);
    if (atMs !== null) events.push({ atMs, kind: 'schedule-change', text: c.text });
  }
  for (const f of s.faultsBySecond) events.push({ atMs: f.second * 1000, kind: 'faults-injected', rpc: f.rpc, code: f.code, count: f.count });
  return events.sort((a, b) => a.atMs - b.atMs);
}
