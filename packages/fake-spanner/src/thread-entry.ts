// A thread that serves one fake at a time (thread.ts starts it and hands it out): each `start` starts a
// fake with its options, answering stats, mark and stop requests for it from the thread that started it;
// after `stop` the thread waits for the next `start`, its modules loaded (the Spanner protos parsed once).
import { parentPort } from 'node:worker_threads';
import { LoopMonitor } from './loop';
import { startFakeSpanner, type FakeSpanner, type FakeSpannerOptions } from './server';

type Request = { id: number; op: 'start'; options: FakeSpannerOptions } | { id: number; op: 'stats' | 'mark' | 'stop' };

const port = parentPort!;
let serving: { fake: FakeSpanner; loop: LoopMonitor } | null = null;

port.on('message', async (m: Request) => {
  try {
    if (m.op === 'start') {
      if (serving) throw new Error('this thread already serves a fake');
      const fake = await startFakeSpanner(m.options);
      // The loop's figures start with this fake: nothing of the one before it counts.
      serving = { fake, loop: new LoopMonitor() };
      port.postMessage({ id: m.id, ready: { host: fake.host, port: fake.port } });
      return;
    }
    if (!serving) throw new Error(`no fake to ${m.op}: none started`);
    const { fake, loop } = serving;
    if (m.op === 'stats') port.postMessage({ id: m.id, stats: { ...fake.stats(), loop: loop.read() } });
    else if (m.op === 'mark') {
      loop.mark();
      fake.markMeasuring();
      port.postMessage({ id: m.id });
    } else {
      serving = null;
      loop.stop();
      await fake.stop();
      port.postMessage({ id: m.id });
    }
  } catch (e) {
    port.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) });
  }
});
port.postMessage({ loaded: true });
