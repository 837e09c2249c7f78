import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClientInstallError, ensureNodeClient } from '../src/clients/node-client';
import { nodeClientOptions } from '../src/drivers/node-options';
import type { DriverCell } from '@scb/shared';

test('a version that is not plain semver never reaches npm', async () => {
  for (const v of ['latest; rm -rf /', 'file:../x', '$(id)', '9.0.0 --registry=http://evil']) {
    await assert.rejects(ensureNodeClient(v), (e) => e instanceof ClientInstallError && /not a plain semver/.test(e.message), v);
  }
});

const cell = (grpcGcp: 'on' | 'off' | 'default') =>
  ({ endpoint: { host: '127.0.0.1', port: 1234 }, projectId: 'p', configuration: { label: 'x', grpcGcp } }) as unknown as DriverCell;
const fakeGrpc = { credentials: { createInsecure: () => 'insecure' } };

test('grpc-gcp off sets the three grpc-gcp options to undefined; on and default leave them alone', () => {
  const off = nodeClientOptions(cell('off'), fakeGrpc);
  for (const k of ['grpc.callInvocationTransformer', 'grpc.channelFactoryOverride', 'grpc.gcpApiConfig']) {
    assert.ok(k in off && off[k] === undefined, k);
  }
  for (const mode of ['on', 'default'] as const) {
    const o = nodeClientOptions(cell(mode), fakeGrpc);
    assert.ok(!('grpc.gcpApiConfig' in o));
  }
  assert.equal(off.servicePath, '127.0.0.1');
  assert.equal(off.port, 1234);
  assert.equal(off.sslCreds, 'insecure');
});
