// The fake server as a product, against the real @google-cloud/spanner 9.0.0 (installed into the
// runner's client cache): every transaction kind, an injected ABORTED, and a GOAWAY reconnect.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startFakeSpanner, type FakeSpanner } from '@scb/fake-spanner';
import { installContext } from '@scb/languages';
import { ensureNodeClient } from '../../packages/languages/src/node/install';
import { CACHE_DIR } from '../../apps/runner/src/paths';

let req: NodeRequire;
const open: { close(): unknown }[] = [];

before(async () => {
  process.env.METADATA_SERVER_DETECTION = 'none';
  req = createRequire(path.join(await ensureNodeClient('9.0.0', installContext('node', { cacheDir: CACHE_DIR })), 'package.json'));
});
after(async () => {
  await Promise.all(open.map((d) => Promise.race([Promise.resolve(d.close()).catch(() => {}), new Promise((r) => setTimeout(r, 1000))])));
});

function connect(fake: FakeSpanner) {
  const { Spanner } = req('@google-cloud/spanner');
  const gax = createRequire(req.resolve('@google-cloud/spanner'))('google-gax');
  const spanner = new Spanner({ projectId: 'p', servicePath: fake.host, port: fake.port, sslCreds: gax.grpc.credentials.createInsecure() });
  const db = spanner.instance('i').database('d');
  open.push(db);
  return db;
}

test('single-use query, read-only transaction, read, read-write transaction with DML and mutations', { timeout: 60_000 }, async () => {
  const fake = await startFakeSpanner({ latencyMs: 5 });
  try {
    const db = connect(fake);
    const [one] = await db.run({ sql: 'SELECT 1' });
    assert.equal(one[0][0].value.value, '1');

    const [snapshot] = await db.getSnapshot();
    const [rows] = await snapshot.run({ sql: 'SELECT PlayerId, PlayerName FROM Players WHERE PlayerId = @playerId', params: { playerId: 7 } });
    assert.equal(rows[0].toJSON().PlayerName, 'Player 7');
    const [read] = await snapshot.read('Players', { keys: ['8'], columns: ['PlayerId', 'PlayerName'] });
    assert.equal(read[0].toJSON().PlayerName, 'Player 8');
    snapshot.end();

    await db.runTransactionAsync(async (tx: any) => {
      const [count] = await tx.runUpdate({ sql: 'UPDATE Players SET PlayerName = @playerName WHERE PlayerId = @playerId', params: { playerId: 3, playerName: 'Renamed' } });
      assert.equal(count, 1);
      tx.insert('Scores', { PlayerId: '3', Timestamp: new Date().toISOString(), Score: '42' });
      await tx.commit();
    });
    assert.deepEqual(fake.store.read('Players', ['PlayerName'], [['3']]).rows, [['Renamed']]);
    assert.equal(fake.store.read('Scores', ['Score'], 'all').rows.length, 1);

    const methods = fake.stats().rpcsByMethod;
    assert.ok(methods.Commit >= 1, `Commit called: ${JSON.stringify(methods)}`);
    assert.ok((methods.ExecuteStreamingSql ?? 0) + (methods.ExecuteSql ?? 0) >= 3);
  } finally {
    await fake.stop();
  }
});

test('an injected ABORTED on commit is retried by the client and counted by the fake', { timeout: 60_000 }, async () => {
  const fake = await startFakeSpanner({ latencyMs: 2, faults: [{ kind: 'commit', code: 'ABORTED', ratio: 1, retryDelayMs: 300 }] });
  try {
    const db = connect(fake);
    let attempts = 0;
    const done = db.runTransactionAsync(async (tx: any) => {
      attempts++;
      tx.insert('Players', { PlayerId: '5001', PlayerName: 'Aborted once' });
      await tx.commit();
    });
    // Once the first commit was aborted, let the retry through.
    for (let i = 0; i < 200 && !fake.stats().faults.commit?.ABORTED; i++) await new Promise((r) => setTimeout(r, 20));
    fake.update({ ...fake.config(), faults: [] });
    await done;
    assert.equal(fake.stats().faults.commit?.ABORTED, 1);
    assert.ok(attempts >= 2, `the transaction ran ${attempts} time(s)`);
    assert.deepEqual(fake.store.read('Players', ['PlayerName'], [['5001']]).rows, [['Aborted once']]);
  } finally {
    await fake.stop();
  }
});

test('GOAWAY after the maximum connection age: the client reconnects without failed requests', { timeout: 60_000 }, async () => {
  const fake = await startFakeSpanner({ latencyMs: 20, maxConnectionAgeMs: 1000, maxConnectionAgeGraceMs: 5000 });
  try {
    const db = connect(fake);
    let ok = 0;
    const end = Date.now() + 3500;
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        while (Date.now() < end) {
          await db.run({ sql: 'SELECT 1' });
          ok++;
        }
      }),
    );
    const s = fake.stats();
    console.log(`# ${ok} requests in 3.5 s over ${s.connections.length} connection(s)`);
    // Requests went on over a connection opened after the one that reached its age.
    const aged = s.connections.find((c) => c.closedMs !== null);
    assert.ok(ok > 0 && aged && s.connections.some((c) => c.rpcs > 0 && c.openedMs !== null && c.openedMs > aged.openedMs!), JSON.stringify(s.connections));
    assert.ok(s.connections.length >= 2, `the fake saw ${s.connections.length} connection(s)`);
    assert.ok(
      s.connections.some((c) => c.closedMs !== null),
      'a connection was closed after its age',
    );
  } finally {
    await fake.stop();
  }
});
