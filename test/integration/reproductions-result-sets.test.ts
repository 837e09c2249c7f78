// test: yields
// The result-set decoding reproductions in their smallest forms (entries/result-sets.ts), end to end on
// real client versions against the fake: the affected version's scan decodes a value or the row count
// wrong and its driver ends the cell (exit 5, mismatchedCells), the fixed version's agrees with the
// fake's checksums. Each entry is already a few scans of 2 s; the Go one runs here without 1.54.0 (the
// switch's first release, one more Go build), its fix shown on 1.96.1 with the switch. Here each measures
// 20 scans, not 1 s: every scan of a cell reads the same rows (a shape and its seed give the same values),
// so an affected version fails on its first, and a fixed version's 20 check the values its second of
// scans checked over and over (some 80 at 10 ms queries; at 1 ms, 250-280 CPU-bound to the end, about a
// second of its driver's CPU and of the fake's for each fixed cell). `npm run bench:reproductions -- <id>`
// runs the entries' own 2 s. The decoding bugs on 10 ms queries.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JobSpecInput } from '@scb/shared';
import { useRunner } from '../helpers/jobs';
import { reproduce } from '../helpers/reproductions';

const runner = useRunner();

/** 20 scans measured, after the entry's warm-up; with `slower`, queries of 10 ms instead of 1 (a wrong value is wrong in every scan). */
const twentyScans =
  (slower: boolean) =>
  (s: JobSpecInput): JobSpecInput => {
    const { durationSeconds: _seconds, ...workload } = s.workload;
    return {
      ...s,
      ...(slower && s.target?.kind === 'fake' ? { target: { ...s.target, latencyMs: 10 } } : {}),
      workload: { ...workload, measuredOps: 20 },
    };
  };

test('Node 5.18.0 reads DATEs of years 0100-0999 without their leading zero; 6.1.3 pads them', { timeout: 600_000 }, () => reproduce(runner, 'node-date-year-padding', twentyScans(true)));

test('Node 8.7.1 reads DATEs of years 0001-0099 as 19xx or 20xx; 8.8.0 keeps them', { timeout: 600_000 }, () => reproduce(runner, 'node-date-before-year-100', twentyScans(true)));

test('Node 8.5.0 loses the rows still buffered when a paused runStream ends (run() does not); 8.6.0 hands over every row', { timeout: 600_000 }, () =>
  reproduce(runner, 'node-runstream-rows-lost', twentyScans(false)),
);

test('Go 1.33.0 and 1.96.1 decode JSON integers beyond 2^53 into float64; 1.96.1 with goJsonUseNumber keeps every digit', { timeout: 900_000 }, () =>
  reproduce(runner, 'go-json-number-float64', (s: JobSpecInput) => {
    // Client i runs configuration i (pairing zip): drop the pair of 1.54.0.
    const keep = s.clients.map((c) => c.version !== '1.54.0');
    assert.equal(keep.filter((k) => !k).length, 1);
    return twentyScans(true)({ ...s, clients: s.clients.filter((_, i) => keep[i]), configurations: s.configurations.filter((_, i) => keep[i]) });
  }),
);
