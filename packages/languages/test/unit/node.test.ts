import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DriverCell } from '@scb/shared';
import { CACHE_DIR } from '../../../../apps/runner/src/paths';
import { ClientInstallError, installContext } from '../../src/index';
import { nodeClientSetup, UnsupportedOption } from '../../src/node/driver/options';
import { ensureNodeClient } from '../../src/node/install';

test('a version that is not plain semver never reaches npm', async () => {
  for (const v of ['latest; rm -rf /', 'file:../x', '$(id)', '9.0.0 --registry=http://evil']) {
    await assert.rejects(ensureNodeClient(v, installContext('node', { cacheDir: CACHE_DIR })), (e) => e instanceof ClientInstallError && /not a plain semver/.test(e.message), v);
  }
});

const cell = (configuration: object) =>
  ({
    endpoint: { host: '127.0.0.1', port: 1234, security: 'plaintext' },
    database: { projectId: 'p', instanceId: 'i', databaseId: 'd' },
    client: { language: 'node', version: '9.0.0' },
    configuration: { label: 'x', grpcGcp: 'default', ...configuration },
  }) as unknown as DriverCell;
const deps = {
  grpc: { credentials: { createInsecure: () => 'insecure' } },
  grpcGcp: { createGcpApiConfig: (c: object) => ({ built: c }) },
  gcpConfig: { channelPool: { maxSize: 10 }, method: [] },
};

test('grpc-gcp off sets the three grpc-gcp options to undefined; on and default leave them alone', () => {
  const off = nodeClientSetup(cell({ grpcGcp: 'off' }), deps).clientOptions;
  for (const k of ['grpc.callInvocationTransformer', 'grpc.channelFactoryOverride', 'grpc.gcpApiConfig']) {
    assert.ok(k in off && off[k] === undefined, k);
  }
  for (const grpcGcp of ['on', 'default']) assert.ok(!('grpc.gcpApiConfig' in nodeClientSetup(cell({ grpcGcp }), deps).clientOptions));
  assert.equal(off.servicePath, '127.0.0.1');
  assert.equal(off.port, 1234);
  assert.equal(off.sslCreds, 'insecure');
});

test('numChannels sets the grpc-gcp pool maximum without touching the bundled config', () => {
  const o = nodeClientSetup(cell({ grpcGcp: 'on', numChannels: 4 }), deps).clientOptions;
  assert.deepEqual(o['grpc.gcpApiConfig'], { built: { channelPool: { maxSize: 4 }, method: [] } });
  assert.equal(deps.gcpConfig.channelPool.maxSize, 10);
  assert.throws(() => nodeClientSetup(cell({ grpcGcp: 'off', numChannels: 4 }), deps), /option numChannels is not supported by node 9.0.0/);
});

test('multiplexed sessions are environment switches; the pool takes min and max', () => {
  const on = nodeClientSetup(cell({ multiplexedSessions: true }), deps);
  assert.equal(on.env.GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS, 'true');
  const off = nodeClientSetup(cell({ multiplexedSessions: false, sessionPool: { minSessions: 5, maxSessions: 50 } }), deps);
  assert.equal(off.env.GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS, 'false');
  assert.equal(off.env.GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS_FOR_RW, 'false');
  assert.deepEqual(off.poolOptions, { min: 5, max: 50 });
  assert.deepEqual(nodeClientSetup(cell({ sessionPool: { maxIdle: 3 } }), deps).poolOptions, { maxIdle: 3 }, 'options left out keep the pool defaults');
  assert.deepEqual(nodeClientSetup(cell({}), deps).env, {});
});

test('options the Node client lacks fail with "option X is not supported by node <version>"', () => {
  for (const [configuration, option] of [
    [{ dynamicChannelPool: true }, 'dynamicChannelPool'],
    [{ sessionPool: { writeSessionsFraction: 0.2 } }, 'sessionPool.writeSessionsFraction'],
    [{ decodeMode: 'LAZY_PER_COL' }, 'decodeMode'],
  ] as const) {
    assert.throws(
      () => nodeClientSetup(cell(configuration), deps),
      (e) => e instanceof UnsupportedOption && e.message.startsWith(`option ${option} is not supported by node 9.0.0`),
    );
  }
});

test('the Node driver counts the sessions of a BatchCreateSessionsResponse from its bytes', async () => {
  const { repeatedField1 } = await import('../../src/node/driver/sessions');
  const { Writer } = (await import('protobufjs')).default;
  const session = (name: string) => {
    // Session { name = 1; labels = 2 (a map entry); multiplexed = 6 }: nested fields are not counted.
    const w = Writer.create().uint32(0x0a).string(name).uint32(0x12).fork().uint32(0x0a).string('k').uint32(0x12).string('v').ldelim().uint32(0x30).bool(true);
    return w.finish();
  };
  const response = (n: number) => {
    const w = Writer.create();
    for (let i = 0; i < n; i++) w.uint32(0x0a).bytes(session(`projects/p/instances/i/databases/d/sessions/${i}`));
    return Buffer.from(w.finish());
  };
  for (const n of [0, 1, 25, 100]) assert.equal(repeatedField1(response(n)), n);
  // Another field beside the sessions (fixed64, varint, fixed32) is skipped; a cut message counts what was whole.
  const mixed = Buffer.concat([response(2), Buffer.from(Writer.create().uint32(0x11).fixed64(7).uint32(0x18).uint32(300).uint32(0x25).fixed32(1).finish()), response(1)]);
  assert.equal(repeatedField1(mixed), 3);
  assert.equal(repeatedField1(response(3).subarray(0, -5)), 3, 'the third entry began before the cut');
});

test('a target resolved through a DNS server becomes a dns:// servicePath; a grpc-js before 1.11.0 refuses it by name', () => {
  const through = (grpcVersion?: string) => {
    const c = cell({});
    c.endpoint.resolver = { server: '127.0.0.1:5353', name: 'spanner.bench.test' };
    return nodeClientSetup(c, { ...deps, grpcVersion });
  };
  const o = through('1.14.7').clientOptions;
  assert.equal(o.servicePath, 'dns://127.0.0.1:5353/spanner.bench.test');
  assert.equal(o.port, 1234);
  assert.equal(through('1.11.0').clientOptions.servicePath, 'dns://127.0.0.1:5353/spanner.bench.test');
  for (const v of ['1.10.11', '1.8.3', undefined])
    assert.throws(
      () => through(v),
      (e) => e instanceof UnsupportedOption && /^option target\.dns is not supported by node 9\.0\.0 \(its grpc-js .* asks the system's resolver/.test(e.message),
      String(v),
    );
  assert.equal(nodeClientSetup(cell({}), deps).clientOptions.servicePath, '127.0.0.1', 'no resolver: the host as it is');
});
