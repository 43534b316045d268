/** The worker-thread side of `runner.ts`: runs tasks for large documents off the server's main thread. */
import { parentPort } from 'node:worker_threads';
import { runTask, type Task } from './tasks.js';

export function runWorker(): void {
  const port = parentPort;
  if (!port) return;
  port.on('message', (m: { id: number; task: Task }) => {
    try {
      const result = runTask(m.task);
      // typed arrays (semantic tokens) are moved, not copied
      port.postMessage({ id: m.id, result }, result instanceof Uint32Array ? [result.buffer as ArrayBuffer] : []);
    } catch (e) {
      port.postMessage({ id: m.id, error: e instanceof Error ? e.stack ?? e.message : String(e) });
    }
  });
  // tells the runner the code loaded: a task lost before this never ran and may be run elsewhere
  port.postMessage({ ready: true });
}
