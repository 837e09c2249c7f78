// The fake on a worker thread of its own, so that it never waits for the work of the process that
// started it (the runner's queue, database writes, the driver's output) and that work never waits for it.
import { Worker } from 'node:worker_threads';
import type { FakeStats } from './accounting';
import type { LoopLoad } from './loop';
import { threadEntryBundle } from './thread-bundle';
import type { FakeSpannerOptions } from './server';

/** The fake's counters, and how busy its thread's event loop was since the last mark (or start). */
export type FakeThreadStats = FakeStats & { loop: LoopLoad };

export interface FakeSpannerThread {
  host: string;
  port: number;
  stats(): Promise<FakeThreadStats>;
  /** Starts the window of the loop figures (the measured phase). */
  mark(): Promise<void>;
  stop(): Promise<void>;
}

const ENTRY = new URL('./thread-entry.ts', import.meta.url).href;

/**
 * Starts the fake on a new worker thread, from its bundled entry (or from its sources, loaded with tsx,
 * where there is none or `sources` asks: `npm run bench:fake-thread` compares the two).
 */
export async function startFakeSpannerThread(opts: FakeSpannerOptions = {}, { sources = false }: { sources?: boolean } = {}): Promise<FakeSpannerThread> {
  const bundled = sources ? null : await threadEntryBundle();
  // The bundle takes none of the process's flags: no TypeScript loader, whose hooks would cost the thread one of its own.
  const worker = bundled
    ? new Worker(bundled, { workerData: opts, execArgv: [] })
    : new Worker(`import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(ENTRY)}); })`, { eval: true, workerData: opts });
  const pending = new Map<number, (m: { stats?: FakeThreadStats }) => void>();
  let next = 0;
  let failure: Error | undefined;
  const ready = new Promise<{ host: string; port: number }>((resolve, reject) => {
    worker.on('message', (m: { ready?: { host: string; port: number }; id?: number; stats?: FakeThreadStats }) => {
      if (m.ready) resolve(m.ready);
      else if (m.id !== undefined) pending.get(m.id)?.(m);
    });
    worker.on('error', (e) => {
      failure = e;
      reject(e);
    });
    worker.on('exit', (code) => reject(new Error(`the fake's thread exited (code ${code}) before it was ready`)));
  });
  const ask = (op: 'stats' | 'mark' | 'stop') =>
    new Promise<{ stats?: FakeThreadStats }>((resolve, reject) => {
      if (failure) return reject(new Error(`the fake's thread failed: ${failure.message}`));
      const id = next++;
      pending.set(id, (m) => {
        pending.delete(id);
        resolve(m);
      });
      worker.postMessage({ id, op });
    });
  const { host, port } = await ready;
  return {
    host,
    port,
    stats: async () => (await ask('stats')).stats!,
    mark: async () => {
      await ask('mark');
    },
    async stop() {
      // An unref'd timer: the process that stopped its fake need not wait it out to exit.
      await Promise.race([ask('stop'), new Promise((r) => setTimeout(r, 5000).unref())]).catch(() => {});
      await worker.terminate();
    },
  };
}
