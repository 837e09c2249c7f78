// `npm run bench:delay-precision -- [--waits 200] [--delays 0.8,1.6,3.6,7.2]`: how long the waits that
// the calibration's slowed builds inject really take, side by side in one run (issue 38): Node's timer
// (slowedNodeBuild), Go's time.Sleep (slowedGoBuild) and Python's time.sleep (slowedPythonBuild), each
// asked `--waits` times per delay, one at a time. Prints the median and the p10-p90 of each, in ms.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { waits: { type: 'string', default: '200' }, delays: { type: 'string', default: '0.8,1.6,3.6,7.2' } } });
const waits = Number(values.waits);
const delays = values.delays.split(',').map(Number);
if (!Number.isInteger(waits) || waits < 10 || waits > 100_000) throw new Error(`--waits must be a whole number from 10 to 100000, not ${values.waits}`);
if (delays.some((d) => !(d > 0 && d <= 1000))) throw new Error(`--delays must be milliseconds above 0 and at most 1000, not ${values.delays}`);

/** Each delay's measured waits in ms, from a program that prints one JSON array per delay. */
type Measured = number[][];

async function node(): Promise<Measured> {
  const out: Measured = [];
  for (const d of delays) {
    const ms: number[] = [];
    for (let i = 0; i < waits; i++) {
      const t0 = process.hrtime.bigint();
      await new Promise((r) => setTimeout(r, d));
      ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    out.push(ms);
  }
  return out;
}

const GO = `package main

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	waits, _ := strconv.Atoi(os.Args[1])
	out := [][]float64{}
	for _, s := range strings.Split(os.Args[2], ",") {
		d, _ := strconv.ParseFloat(s, 64)
		ms := []float64{}
		for i := 0; i < waits; i++ {
			t0 := time.Now()
			time.Sleep(time.Duration(d * 1e6))
			ms = append(ms, float64(time.Since(t0).Nanoseconds())/1e6)
		}
		out = append(out, ms)
	}
	json.NewEncoder(os.Stdout).Encode(out)
}
`;

const PYTHON = `import json, sys, time
waits = int(sys.argv[1])
out = []
for d in [float(s) for s in sys.argv[2].split(",")]:
    ms = []
    for _ in range(waits):
        t0 = time.perf_counter_ns()
        time.sleep(d / 1000)
        ms.append((time.perf_counter_ns() - t0) / 1e6)
    out.append(ms)
print(json.dumps(out))
`;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'scb-delays-'));
try {
  writeFileSync(path.join(dir, 'main.go'), GO);
  writeFileSync(path.join(dir, 'go.mod'), 'module delays\n\ngo 1.21\n');
  writeFileSync(path.join(dir, 'main.py'), PYTHON);
  const args = [String(waits), delays.join(',')];
  execFileSync('go', ['build', '-o', 'delays', '.'], { cwd: dir, env: { ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' } });
  const measured: Record<string, Measured> = {
    'Node (setTimeout)': await node(),
    'Go (time.Sleep)': JSON.parse(execFileSync(path.join(dir, 'delays'), args, { encoding: 'utf8' })),
    'Python (time.sleep)': JSON.parse(execFileSync('python3', [path.join(dir, 'main.py'), ...args], { encoding: 'utf8' })),
  };
  const names = Object.keys(measured);
  console.log(`${waits} waits of each delay, one at a time; load average ${os.loadavg()[0]!.toFixed(2)} at the end; median (p10-p90), ms`);
  console.log(`| delay asked | ${names.map((n) => `${n} median (p10–p90)`).join(' | ')} |`);
  console.log(`| --- | ${names.map(() => '---').join(' | ')} |`);
  delays.forEach((d, i) => {
    const cells = names.map((n) => {
      const ms = measured[n]![i]!;
      return `${quantile(ms, 0.5).toFixed(2)} (${quantile(ms, 0.1).toFixed(2)}–${quantile(ms, 0.9).toFixed(2)}) ms`;
    });
    console.log(`| ${d} ms | ${cells.join(' | ')} |`);
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
