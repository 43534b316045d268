/**
 * Evaluation worker: reads its own byte ranges of the file (no lines pass through messages) and returns counts,
 * the first malformed line indexes and the lines to print. Built as its own bundle, `eval-worker.cjs`, beside
 * the CLI bundle.
 */
import fs from 'node:fs';
import { Buffer } from 'node:buffer';
import { parentPort, workerData } from 'node:worker_threads';
import { BlockRunner } from './block-runner.js';
import type { FromWorker, JobMessage, WorkerInit } from './protocol.js';

const EXTEND = 1 << 20;

function start(): void {
  const port = parentPort!;
  const init = workerData as WorkerInit;
  const runner = new BlockRunner(init.filter, init.options);
  const fd = fs.openSync(init.path, 'r');
  let buf = Buffer.allocUnsafe(EXTEND);

  const ensure = (n: number) => {
    if (buf.length >= n) return;
    const bigger = Buffer.allocUnsafe(Math.max(n, buf.length * 2));
    buf.copy(bigger);
    buf = bigger;
  };
  const readAt = (at: number, len: number, pos: number): number => {
    let done = 0;
    while (done < len) {
      const n = fs.readSync(fd, buf, at + done, len - done, pos + done);
      if (n <= 0) break;
      done += n;
    }
    return done;
  };

  const runJob = (job: JobMessage): FromWorker => {
    // One byte before the range tells whether a line starts exactly at `start`.
    const from = job.start > 0 ? job.start - 1 : 0;
    ensure(job.end - from + EXTEND);
    let len = readAt(0, job.end - from, from);
    let begin = 0;
    if (job.start > 0) {
      const nl = buf.indexOf(10, 0);
      begin = nl < 0 || nl >= len ? len : nl + 1;
    }
    if (begin < len) {
      // Finish the last line, which may run past the range.
      while (buf[len - 1] !== 10 && from + len < init.size) {
        ensure(len + EXTEND);
        const n = readAt(len, EXTEND, from + len);
        if (n <= 0) break;
        const nl = buf.indexOf(10, len);
        if (nl >= 0 && nl < len + n) {
          len = nl + 1;
          break;
        }
        len += n;
      }
    }
    const r = begin < len ? runner.run(buf, begin, len) : undefined;
    return {
      type: 'result',
      id: job.id,
      counts: r?.counts ?? { lines: 0, total: 0, matched: 0, malformed: 0, parsed: 0, stopped: false },
      malformed: r?.malformed ?? [],
      out: r?.out ?? new Uint8Array(0),
      bytes: job.end - job.start,
    };
  };

  port.on('message', (msg: JobMessage | { type: 'finish' }) => {
    try {
      if (msg.type === 'job') port.postMessage(runJob(msg));
      else {
        fs.closeSync(fd);
        port.postMessage({ type: 'final', seen: runner.scanner.seenFields(), explain: runner.explainer?.counts() } satisfies FromWorker);
        port.close();
      }
    } catch (e) {
      port.postMessage({ type: 'error', message: (e as Error).message ?? String(e) } satisfies FromWorker);
    }
  });
}

if (parentPort) start();
