/** The worker-thread side of `runner.ts`: runs jobs for large documents off the server's main thread. */
import { parentPort } from 'node:worker_threads';
import { runJob, type Job } from './jobs.js';

export function runWorker(): void {
  const port = parentPort;
  if (!port) return;
  port.on('message', (m: { id: number; job: Job }) => {
    try {
      port.postMessage({ id: m.id, result: runJob(m.job) });
    } catch (e) {
      port.postMessage({ id: m.id, error: e instanceof Error ? e.stack ?? e.message : String(e) });
    }
  });
  // tells the runner the code loaded: a job lost before this never ran and may be run elsewhere
  port.postMessage({ ready: true });
}
