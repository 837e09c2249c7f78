import * as grpc from '@grpc/grpc-js';
import type { Fault, RetryInfoEncoding } from '@scb/shared';

// google.rpc.RetryInfo / Status / Any, hand-encoded: a few varint and length-delimited fields.
function varint(n: number): Buffer {
  const out: number[] = [];
  let v = Math.floor(n);
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
}
const field = (no: number, wire: number) => varint((no << 3) | wire);
const bytesField = (no: number, b: Buffer) => Buffer.concat([field(no, 2), varint(b.length), b]);
const intField = (no: number, n: number) => (n ? Buffer.concat([field(no, 0), varint(n)]) : Buffer.alloc(0));

export function encodeRetryInfo(delayMs: number): Buffer {
  const duration = Buffer.concat([intField(1, Math.floor(delayMs / 1000)), intField(2, Math.round((delayMs % 1000) * 1e6))]);
  return bytesField(1, duration);
}

function encodeStatus(code: number, message: string, details: { typeUrl: string; value: Buffer }[]): Buffer {
  return Buffer.concat([intField(1, code), bytesField(2, Buffer.from(message)), ...details.map((d) => bytesField(3, Buffer.concat([bytesField(1, Buffer.from(d.typeUrl)), bytesField(2, d.value)])))]);
}

/**
 * A gRPC error as Spanner sends it; with a retry delay (ABORTED), RetryInfo both as its own trailer and
 * in the status details, or one of them (`retryInfoIn`).
 */
export function spannerError(code: grpc.status, message: string, retryDelayMs?: number, retryInfoIn: RetryInfoEncoding = 'both'): grpc.ServiceError {
  const metadata = new grpc.Metadata();
  if (retryDelayMs !== undefined) {
    const info = encodeRetryInfo(retryDelayMs);
    if (retryInfoIn !== 'status-details') metadata.set('google.rpc.retryinfo-bin', info);
    if (retryInfoIn !== 'trailer') metadata.set('grpc-status-details-bin', encodeStatus(code, message, [{ typeUrl: 'type.googleapis.com/google.rpc.RetryInfo', value: info }]));
  }
  return Object.assign(new Error(message), { code, details: message, metadata });
}

export function faultError(fault: Fault): grpc.ServiceError {
  if (fault.code === 'ABORTED') return spannerError(grpc.status.ABORTED, 'Transaction was aborted (fake-spanner: injected)', fault.retryDelayMs ?? 0, fault.retryInfoIn);
  return spannerError(grpc.status[fault.code], `fake-spanner: injected ${fault.code}`);
}

/** Whether the fault's error follows response headers (Spanner's way for ABORTED) or comes trailers-only. */
export function headersBefore(fault: Fault): boolean {
  return !(fault.trailersOnly ?? fault.code !== 'ABORTED');
}
