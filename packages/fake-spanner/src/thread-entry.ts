// The fake inside a worker thread (thread.ts starts it): its own event loop, answering stats and
// stop requests from the thread that started it.
import { parentPort, workerData } from 'node:worker_threads';
import { startFakeSpanner, type FakeSpannerOptions } from './server';

const fake = await startFakeSpanner(workerData as FakeSpannerOptions);
const port = parentPort!;
port.on('message', async (m: { id: number; op: 'stats' | 'stop' }) => {
  if (m.op === 'stats') port.postMessage({ id: m.id, stats: fake.stats() });
  else {
    await fake.stop();
    port.postMessage({ id: m.id });
    port.close();
  }
});
port.postMessage({ ready: { host: fake.host, port: fake.port } });
