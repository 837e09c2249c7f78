/**
 * Who counted a cell's connections: the fake server itself, the connection tap in front of a plaintext
 * target (the emulator), or the client, per gRPC channel (where no tap can read the streams: TLS).
 */
export const CHANNEL_SOURCES = ['fake', 'tap', 'client'] as const;
export type ChannelSource = (typeof CHANNEL_SOURCES)[number];

export const CHANNEL_SOURCE_TEXT: Record<ChannelSource, string> = {
  fake: 'counted by the fake server',
  tap: 'counted by the connection tap',
  client: 'counted by the client, per gRPC channel',
};

/** The counts a page shows: the target side's where there are any, else the client's. */
export function shownChannels<C extends { source: string }>(channels: C[]): { source: ChannelSource | null; channels: C[] } {
  const source = CHANNEL_SOURCES.find((s) => channels.some((c) => c.source === s)) ?? null;
  return { source, channels: channels.filter((c) => c.source === source) };
}

/** How a cell's traffic spread over the client's HTTP/2 connections. */
export interface ChannelSummary {
  /** Connections the client opened to the fake. */
  opened: number;
  /** Connections that carried at least one RPC. */
  used: number;
  /** Share of all RPCs on the busiest connection, 0..1. */
  hottestShare: number;
  /** Peak streams in flight on the busiest connection (the stream limit is 100). */
  hottestPeakInFlight: number;
}

export function summarizeChannels(channels: { rpcs: number; peakInFlight: number }[]): ChannelSummary {
  const total = channels.reduce((a, c) => a + c.rpcs, 0);
  const hottest = channels.reduce<{ rpcs: number; peakInFlight: number } | undefined>((h, c) => (!h || c.rpcs > h.rpcs ? c : h), undefined);
  return {
    opened: channels.length,
    used: channels.filter((c) => c.rpcs > 0).length,
    hottestShare: total && hottest ? hottest.rpcs / total : 0,
    hottestPeakInFlight: hottest?.peakInFlight ?? 0,
  };
}

/** Above this share of the machine's cores the client, not the server, limits throughput. */
export const CPU_BOUND_SHARE = 0.85;

/** Share of all cores the driver process used while measuring. */
export function cpuShare(cpuMs: number, elapsedMs: number, cores: number): number {
  return elapsedMs > 0 && cores > 0 ? cpuMs / elapsedMs / cores : 0;
}
