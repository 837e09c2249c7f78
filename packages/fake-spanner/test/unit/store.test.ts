// The fake's store and the statements the scenario operations send: real rows, not canned answers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LEADERBOARD_DDL, LEADERBOARD_TABLES, SQL } from '@scb/shared/catalogue';
import { defaultStatements } from '../../src/statements';
import { leaderboardStore } from '../../src/store';

const score = (player: number, ts: string, value: number) => ({ op: 'insert' as const, table: 'Scores', columns: ['PlayerId', 'Timestamp', 'Score'], values: [[String(player), ts, String(value)]] });

test("the fake's leaderboard is the catalogue's: the tables, columns, types and keys the emulator's DDL creates", () => {
  const store = leaderboardStore(2);
  for (const t of LEADERBOARD_TABLES) {
    const table = store.table(t.name);
    assert.deepEqual(
      table.columns.map((c) => [c.name, c.type]),
      t.columns.map((c) => [c.name, c.type]),
      t.name,
    );
    assert.equal(table.keyLength, t.keyLength, `${t.name}'s key`);
  }
  // The DDL is the same schema in Spanner's words.
  assert.deepEqual(LEADERBOARD_DDL, [
    'CREATE TABLE Players (PlayerId INT64 NOT NULL, PlayerName STRING(MAX)) PRIMARY KEY (PlayerId)',
    'CREATE TABLE Scores (PlayerId INT64 NOT NULL, Timestamp TIMESTAMP NOT NULL OPTIONS (allow_commit_timestamp=true), Score INT64) PRIMARY KEY (PlayerId, Timestamp)',
  ]);
});

test('the leaderboard query joins a player with their ten best scores, from the rows committed', () => {
  const store = leaderboardStore(5);
  const leaderboard = defaultStatements().get(SQL.leaderboard)!;
  assert.ok(leaderboard, 'registered under the SQL text the drivers send');
  assert.deepEqual(leaderboard({ Id: '3' }, store), { kind: 'rows', columns: [...store.table('Players').columns, ...store.table('Scores').columns], rows: [] });
  for (let i = 0; i < 15; i++) store.apply([score(3, `2026-01-01T00:00:${String(i).padStart(2, '0')}.000001Z`, (i * 7) % 15), score(4, `2026-01-01T00:00:0${i % 10}.00000${i}Z`, 100)]);
  const out = leaderboard({ Id: '3' }, store);
  assert.equal(out.kind, 'rows');
  if (out.kind !== 'rows') return;
  assert.equal(out.rows.length, 10);
  assert.ok(out.rows.every((r) => r[0] === '3' && r[1] === 'Player 3' && r[2] === '3'));
  assert.deepEqual(
    out.rows.map((r) => Number(r[4])),
    [14, 13, 12, 11, 10, 9, 8, 7, 6, 5],
  );
  assert.deepEqual(leaderboard({ Id: '9' }, store), { kind: 'rows', columns: [...store.table('Players').columns, ...store.table('Scores').columns], rows: [] }, 'no such player');
  assert.throws(() => leaderboard({}, store), /missing query parameter @Id/);
});

test('mutations apply all or nothing, and the per-parent index follows inserts and deletes', () => {
  const store = leaderboardStore(2);
  store.apply([score(1, 'a', 1), score(1, 'b', 2), score(2, 'a', 3)]);
  assert.equal(store.readByFirstKey('Scores', ['Score'], '1').rows.length, 2);
  // The second insert collides: nothing of the batch lands.
  assert.throws(() => store.apply([score(1, 'c', 4), score(1, 'a', 5)]), /row already exists/);
  assert.deepEqual(store.readByFirstKey('Scores', ['Score'], '1').rows, [['1'], ['2']]);
  store.apply([{ op: 'delete', table: 'Scores', columns: [], values: [], keys: [['1', 'a']] }]);
  assert.deepEqual(store.readByFirstKey('Scores', ['Timestamp'], '1').rows, [['b']]);
  store.apply([{ op: 'delete', table: 'Scores', columns: [], values: [], all: true }]);
  assert.equal(store.table('Scores').rows.size, 0);
  assert.equal(store.readByFirstKey('Scores', ['Score'], '2').rows.length, 0);
  // Insert then update in one batch sees its own insert.
  store.apply([score(2, 'z', 1), { op: 'update', table: 'Scores', columns: ['PlayerId', 'Timestamp', 'Score'], values: [['2', 'z', '9']] }]);
  assert.deepEqual(store.read('Scores', ['Score'], [['2', 'z']]).rows, [['9']]);
});
