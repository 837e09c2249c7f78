// test: alone
// The trailer reproductions in their smallest form: each fixed version's p50 is a few 10 ms queries and
// is judged against a bound (60 ms) and a ratio (3×), which a machine busy with other test files or the web
// build pushed past (Node 8.2.1 at 53.6 ms once): they run with nothing beside them.
import { test } from 'node:test';
import { useRunner } from '../helpers/jobs';
import { reproduce as reproduceOn, shorter } from '../helpers/reproductions';

const runner = useRunner();

test('Java 6.88.0, Node 8.0.0 and Go 1.79.0 wait for the held trailers; 6.89.0, 8.2.1 and 1.80.0 end on the last part', { timeout: 900_000 }, async () => {
  for (const id of ['java-waits-for-trailers', 'node-waits-for-trailers', 'go-waits-for-trailers']) await reproduceOn(runner, id, shorter);
});
