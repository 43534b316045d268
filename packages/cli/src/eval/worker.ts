/**
 * Evaluation worker: runs the jobs of job-runner.ts on its own thread. Spawned before the filter is known; the
 * filter arrives as the first message. Built as its own bundle, `eval-worker.cjs`, beside the CLI bundle.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { adoptLineKernelModule } from '@logfilter/core';
import { JobRunner } from './job-runner.js';
import type { FromWorker, ToWorker, WorkerInit } from './protocol.js';

function start(): void {
  const port = parentPort!;
  // A worker started early (bin/eval-early-worker.cjs) gets its init as its first message. The init carries the
  // main thread's compiled line kernel, adopted before any scanner compiles its own.
  if (workerData) adoptLineKernelModule((workerData as WorkerInit).kernel);
  let jobs = workerData ? new JobRunner(workerData as WorkerInit) : undefined;
  // Jobs run one after another: a file job awaits its stream, so messages are queued behind it.
  let chain = Promise.resolve();
  port.on('message', (msg: ToWorker) => {
    chain = chain.then(async () => {
      try {
        if (msg.type === 'init') {
          adoptLineKernelModule(msg.init.kernel);
          jobs = new JobRunner(msg.init);
        } else if (!jobs) throw new Error('evaluation worker: a job before its init');
        else if (msg.type === 'filter') jobs.setFilter(msg.filter, msg.calibration);
        else if (msg.type === 'range') port.postMessage(jobs.range(msg));
        else if (msg.type === 'file') port.postMessage(await jobs.file(msg));
        else {
          port.postMessage({ type: 'final', ...jobs.finish() } satisfies FromWorker);
          port.close();
        }
      } catch (e) {
        port.postMessage({ type: 'error', message: (e as Error).message ?? String(e) } satisfies FromWorker);
      }
    });
  });
}

if (parentPort) start();
