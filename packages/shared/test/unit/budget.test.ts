import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BudgetSpentSchema, budgetWords, capWithinBudget } from '../../src/results/budget';

const cap = { ops: 100, ms: 30_000 };

test('the next cell gets what is left of each bounded part of the budget', () => {
  const budget = { ops: 250, seconds: 600, sessions: 10 };
  assert.deepEqual(capWithinBudget(cap, budget, { ops: 200, seconds: 590, sessions: 4 }), { ops: 50, ms: 10_000, sessions: 6 });
  assert.deepEqual(capWithinBudget(cap, { ops: null, seconds: null, sessions: null }, { ops: 1e9, seconds: 1e9, sessions: 1e9 }), cap);
});

test('a budget spent in any part stops the job, naming what was spent', () => {
  const budget = { ops: null, seconds: 600, sessions: 3 };
  const r = capWithinBudget(cap, budget, { ops: 40, seconds: 12.4, sessions: 3 });
  assert.ok('spent' in r);
  assert.equal(r.spent, "the job's Cloud Spanner budget is spent (40 operations, 12 of 600 s, 3 of 3 sessions created): this cell did not run");
  assert.ok('spent' in capWithinBudget(cap, { ops: 10, seconds: null, sessions: null }, { ops: 10, seconds: 0, sessions: 0 }));
  assert.ok('ops' in capWithinBudget(cap, budget, { ops: 0, seconds: 598.5, sessions: 2 }), 'a second and a session left still run a cell');
});

test('a job stored before sessions were counted reads as none created', () => {
  assert.deepEqual(BudgetSpentSchema.parse({ ops: 3, seconds: 1 }), { ops: 3, seconds: 1, sessions: 0 });
  assert.equal(budgetWords({ ops: 5, seconds: null, sessions: null }, BudgetSpentSchema.parse({ ops: 3, seconds: 1 })), '3 of 5 operations, 1 s, 0 sessions created');
});
