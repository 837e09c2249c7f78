import path from 'node:path';
import { createRequire } from 'node:module';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

const require = createRequire(import.meta.url);
const PROTO_ROOT = path.dirname(require.resolve('google-proto-files/package.json'));

let cached: grpc.ServiceDefinition | undefined;

/** The google.spanner.v1.Spanner service definition, loaded once from google-proto-files. */
export function spannerService(): grpc.ServiceDefinition {
  if (cached) return cached;
  const def = protoLoader.loadSync('google/spanner/v1/spanner.proto', {
    includeDirs: [PROTO_ROOT],
    keepCase: false,
    longs: String,
    enums: String,
    defaults: false,
    oneofs: true,
  });
  const pkg = grpc.loadPackageDefinition(def) as any;
  const service = pkg.google.spanner.v1.Spanner.service as grpc.ServiceDefinition;
  // Replies that never change (SELECT 1) are encoded once and passed through as bytes.
  cached = Object.fromEntries(
    Object.entries(service).map(([name, m]) => [name, { ...m, responseSerialize: (v: unknown) => (Buffer.isBuffer(v) ? v : m.responseSerialize(v)) }]),
  ) as grpc.ServiceDefinition;
  return cached;
}
