// Sessions the client creates on the server, counted at the channel: one per CreateSession answer,
// and per BatchCreateSessions answer the sessions it holds. A job-wide Cloud Spanner budget bounds them.
import { onEveryCall, type GrpcJs } from './calls';

const SPANNER = '/google.spanner.v1.Spanner/';

/** Counts the sessions created from here on; returns the count so far. */
export function countSessions(grpc: GrpcJs): () => number {
  let created = 0;
  onEveryCall(grpc, (_channel, method) => {
    if (method === `${SPANNER}CreateSession`) return { onReceiveMessage: () => void created++ };
    if (method === `${SPANNER}BatchCreateSessions`) return { onReceiveMessage: (m) => void (created += repeatedField1(m)) };
    return undefined;
  });
  return () => created;
}

/**
 * How many times field 1 occurs at the top level of a serialized message: BatchCreateSessionsResponse's
 * `repeated Session session = 1` (each a length-delimited entry).
 */
export function repeatedField1(buf: Buffer): number {
  let n = 0;
  let i = 0;
  const varint = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      if (i >= buf.length) throw new RangeError('truncated varint');
      const b = buf[i++]!;
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
      shift += 7;
    }
  };
  try {
    while (i < buf.length) {
      const key = varint();
      const wire = key % 8;
      if (Math.floor(key / 8) === 1 && wire === 2) n++;
      if (wire === 0) varint();
      else if (wire === 1) i += 8;
      else if (wire === 2) {
        const length = varint(); // read before `i` is: `i += varint()` would add to the old `i`
        i += length;
      } else if (wire === 5) i += 4;
      else break;
    }
  } catch {
    // A message cut short counts what was read.
  }
  return n;
}
