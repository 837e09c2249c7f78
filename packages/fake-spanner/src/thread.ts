// The fake on a worker thread of its own, so that it never waits for the work of the process that
// started it (the runner's queue, database writes, the driver's output) and that work never waits for it.
// A thread serves one fake at a time; once that fake stops, the thread is kept (at most KEEP_IDLE, idle,
// holding nothing open) and serves the next one: a new thread costs about 0.35 s of CPU before it answers
// (its isolate, grpc-js, the Spanner protos parsed), a kept one next to nothing (`npm run bench:fake-thread`).
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
  /** The worker thread serving it (a kept thread serves one fake after another). */
  threadId: number;
  stats(): Promise<FakeThreadStats>;
  /** Starts the window of the loop figures (the measured phase). */
  mark(): Promise<void>;
  stop(): Promise<void>;
}

const ENTRY = new URL('./thread-entry.ts', import.meta.url).href;
/** Idle threads kept for the next fakes: a runner serves one cell at a time, a test or bench a few. */
const KEEP_IDLE = 2;
/** How long a fake may take to stop before its thread is terminated instead of kept. */
const STOP_MS = 5000;

/** The kept threads, idle. */
const IDLE: FakeThread[] = [];

type Reply = { ready?: { host: string; port: number }; stats?: FakeThreadStats };
type Request = { op: 'start'; options: FakeSpannerOptions } | { op: 'stats' | 'mark' | 'stop' };

/** A worker thread running thread-entry.ts, and the requests it has yet to answer. */
class FakeThread {
  private readonly pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  private next = 0;
  failure: Error | undefined;

  constructor(
    readonly worker: Worker,
    /** Which entry it runs (the bundle's URL, or the sources'): only a thread of the same entry is handed out again. */
    readonly entry: string,
  ) {
    worker.on('message', (m: Reply & { id: number; error?: string }) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error !== undefined) p?.reject(new Error(m.error));
      else p?.resolve(m);
    });
    const fail = (e: Error) => {
      this.failure ??= e;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
      const i = IDLE.indexOf(this);
      if (i >= 0) IDLE.splice(i, 1);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the fake's thread exited (code ${code})`)));
  }

  ask(request: Request): Promise<Reply> {
    if (this.failure) return Promise.reject(new Error(`the fake's thread failed: ${this.failure.message}`));
    return new Promise((resolve, reject) => {
      const id = this.next++;
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...request });
    });
  }
}

/** A kept thread of `entry`, taken out of the idle ones (where `reuse` allows), or a new one. */
function threadFor(entry: URL | null, reuse: boolean): FakeThread {
  const key = entry?.href ?? ENTRY;
  const i = reuse ? IDLE.findIndex((t) => t.entry === key && !t.failure) : -1;
  if (i >= 0) {
    const [kept] = IDLE.splice(i, 1) as [FakeThread];
    kept.worker.ref();
    return kept;
  }
  // The bundle takes none of the process's flags: no TypeScript loader, whose hooks would cost the thread one of its own.
  const worker = entry ? new Worker(entry, { execArgv: [] }) : new Worker(`import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(ENTRY)}); })`, { eval: true });
  return new FakeThread(worker, key);
}

/**
 * Starts the fake on a worker thread: a kept one if there is one (unless `reuse` is false), else a new one
 * from its bundled entry (or from its sources, loaded with tsx, where there is none or `sources` asks:
 * `npm run bench:fake-thread` compares them).
 */
export async function startFakeSpannerThread(opts: FakeSpannerOptions = {}, { sources = false, reuse = true }: { sources?: boolean; reuse?: boolean } = {}): Promise<FakeSpannerThread> {
  const entry = sources ? null : await threadEntryBundle();
  const thread = threadFor(entry, reuse);
  let ready: { host: string; port: number };
  try {
    ready = (await thread.ask({ op: 'start', options: opts })).ready!;
  } catch (e) {
    // Read before terminating, which ends the thread with code 1.
    const failure = thread.failure;
    await thread.worker.terminate();
    throw failure ? new Error(`the fake's thread failed before it was ready: ${failure.message}`) : e;
  }
  let stopped: Promise<void> | undefined;
  return {
    ...ready,
    threadId: thread.worker.threadId,
    stats: async () => (await thread.ask({ op: 'stats' })).stats!,
    mark: async () => {
      await thread.ask({ op: 'mark' });
    },
    stop() {
      stopped ??= (async () => {
        // An unref'd timer: the process that stopped its fake need not wait it out to exit.
        const answered = await Promise.race([
          thread.ask({ op: 'stop' }).then(
            () => true,
            () => false,
          ),
          new Promise<false>((r) => setTimeout(() => r(false), STOP_MS).unref()),
        ]);
        if (answered && reuse && !thread.failure && IDLE.length < KEEP_IDLE) {
          // Idle, it keeps no process alive.
          thread.worker.unref();
          IDLE.push(thread);
        } else await thread.worker.terminate();
      })();
      return stopped;
    },
  };
}
