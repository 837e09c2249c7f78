// A DNS server for one cell (UDP on 127.0.0.1): it answers one name with 127.0.0.1 after a delay per
// lookup, and records every lookup, so that a client resolving the target through it (a
// `dns://<server>/<name>:<port>` target) shows what each resolution costs it. Other names: NXDOMAIN.
import dgram from 'node:dgram';
import { formatMs, type CellEvent } from '@scb/shared';
import { afterAtLeast } from './delay';

/** The name a cell's client resolves through its DNS server (a reserved top-level domain: never a real host). */
export const DNS_NAME = 'spanner.bench.test';

export interface DnsBehaviour {
  /** The one name it knows (case-insensitive, no trailing dot). */
  name: string;
  /** How long each answer waits, ms. */
  delayMs: number;
  /** The TTL of its answers, seconds. */
  ttlSeconds: number;
}

export interface DnsLookup {
  /** When the query came and when it was answered (performance.now()), the name and record type asked. */
  at: number;
  answeredAt: number | null;
  name: string;
  type: string;
}

export interface DnsServer {
  /** 127.0.0.1:port, the authority of a dns:// target. */
  host: string;
  lookups(): DnsLookup[];
  stop(): Promise<void>;
}

const TYPES: Record<number, string> = { 1: 'A', 28: 'AAAA', 16: 'TXT', 33: 'SRV' };

/** The question of a query: its name, type and where it ends; null for a packet that is not one. */
export function parseQuestion(msg: Buffer): { name: string; type: number; end: number } | null {
  if (msg.length < 12 || msg.readUInt16BE(4) !== 1) return null;
  const labels: string[] = [];
  let at = 12;
  for (;;) {
    const n = msg[at];
    if (n === undefined || n > 63) return null;
    at++;
    if (n === 0) break;
    labels.push(msg.toString('latin1', at, at + n));
    at += n;
  }
  if (at + 4 > msg.length) return null;
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(at), end: at + 4 };
}

/** The answer to a query: 127.0.0.1 for an A question about `name`, no record for its other types, NXDOMAIN otherwise. */
export function answer(msg: Buffer, q: { name: string; type: number; end: number }, b: Pick<DnsBehaviour, 'name' | 'ttlSeconds'>): Buffer {
  const known = q.name === b.name.toLowerCase();
  const header = Buffer.alloc(12);
  header.writeUInt16BE(msg.readUInt16BE(0), 0); // the query's id
  // QR, AA, the query's RD, RA; rcode 0 or 3 (NXDOMAIN)
  header.writeUInt16BE(0x8400 | (msg.readUInt16BE(2) & 0x0100) | 0x0080 | (known ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  const a = known && q.type === 1;
  header.writeUInt16BE(a ? 1 : 0, 6);
  const question = msg.subarray(12, q.end);
  if (!a) return Buffer.concat([header, question]);
  const record = Buffer.alloc(16);
  record.writeUInt16BE(0xc00c, 0); // the question's name
  record.writeUInt16BE(1, 2); // A
  record.writeUInt16BE(1, 4); // IN
  record.writeUInt32BE(b.ttlSeconds, 6);
  record.writeUInt16BE(4, 10);
  Buffer.from([127, 0, 0, 1]).copy(record, 12);
  return Buffer.concat([header, question, record]);
}

export async function startDnsServer(b: DnsBehaviour): Promise<DnsServer> {
  const lookups: DnsLookup[] = [];
  const timers = new Set<{ cancel(): void }>();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, from) => {
    const q = parseQuestion(msg);
    if (!q) return;
    const lookup: DnsLookup = { at: performance.now(), answeredAt: null, name: q.name, type: TYPES[q.type] ?? String(q.type) };
    lookups.push(lookup);
    const reply = answer(msg, q, b);
    const t = afterAtLeast(b.delayMs, () => {
      timers.delete(t);
      lookup.answeredAt = performance.now();
      socket.send(reply, from.port, from.address);
    });
    timers.add(t);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  return {
    host: `127.0.0.1:${socket.address().port}`,
    lookups: () => lookups.map((l) => ({ ...l })),
    async stop() {
      for (const t of timers) t.cancel();
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}

/** Queries from `measureStart` (performance.now()) on, as timeline marks: a resolution is one or more queries (A, AAAA, TXT...). */
export function dnsEvents(lookups: DnsLookup[], measureStart: number): CellEvent[] {
  return lookups.flatMap((l) =>
    l.at >= measureStart
      ? [
          {
            atMs: l.at - measureStart,
            kind: 'schedule-change' as const,
            text: `DNS lookup ${l.type} ${l.name}${l.answeredAt === null ? ', unanswered' : `, answered in ${formatMs(l.answeredAt - l.at)} ms`}`,
          },
        ]
      : [],
  );
}
