/**
 * Evaluation worker: reads its own input — byte ranges of a large plain file, or whole files (gzip included,
 * decompressed here) — so no log line passes through messages; returns counts, the first malformed line
 * indexes and the lines to print. Spawned before the filter is known; the filter arrives as the first
 * message. Built as its own bundle, `eval-worker.cjs`, beside the CLI bundle.
 */
import fs from 'node:fs';
import { Buffer } from 'node:buffer';
import { parentPort, workerData } from 'node:worker_threads';
import { BlockRunner } from './block-runner.js';
import { lineBlocks, splitLongLines } from './line-blocks.js';
import { openBytes, readError } from './sources.js';
import { FileTally } from './totals.js';
import type { FileJob, FromWorker, RangeJob, ToWorker, WorkerInit } from './protocol.js';

const EXTEND = 1 << 20;

function start(): void {
  const port = parentPort!;
  const init = workerData as WorkerInit;
  const maxLine = init.maxLine;
  let runner: BlockRunner | undefined;
  let buf = Buffer.allocUnsafe(EXTEND);
  const fds = new Map<string, number>();

  const ensure = (n: number) => {
    if (buf.length >= n) return;
    const bigger = Buffer.allocUnsafe(Math.max(n, buf.length * 2));
    buf.copy(bigger);
    buf = bigger;
  };
  const readAt = (fd: number, into: Buffer, at: number, len: number, pos: number): number => {
    let done = 0;
    while (done < len) {
      const n = fs.readSync(fd, into, at + done, len - done, pos + done);
      if (n <= 0) break;
      done += n;
    }
    return done;
  };
  const fdOf = (path: string): number => {
    let fd = fds.get(path);
    if (fd === undefined) {
      fd = fs.openSync(path, 'r');
      fds.set(path, fd);
    }
    return fd;
  };

  /** Runs the whole lines of buf[start, end) into the tally, counting too-long lines without reading them. */
  const runLines = (tally: FileTally, start: number, end: number, out: Buffer[]) => {
    for (const seg of splitLongLines(buf, start, end, maxLine)) {
      if (tally.stopped) return;
      if (seg.kind === 'too-long') tally.addTooLong(seg.bytes, runner!.options.strict);
      else {
        const r = runner!.run(buf, seg.start, seg.end);
        tally.add(r.counts, r.malformed, seg.end - seg.start);
        if (r.out.length > 0) out.push(r.out);
      }
    }
  };

  const rangeJob = (job: RangeJob): FromWorker => {
    const fd = fdOf(job.path);
    const tally = new FileTally();
    const out: Buffer[] = [];
    // One byte before the range tells whether a line starts exactly at `start`.
    const from = job.start > 0 ? job.start - 1 : 0;
    ensure(job.end - from + EXTEND);
    let len = readAt(fd, buf, 0, job.end - from, from);
    let begin = 0;
    if (job.start > 0) {
      const nl = buf.indexOf(10, 0);
      begin = nl < 0 || nl >= len ? len : nl + 1;
    }
    let tooLong = -1; // bytes of a last line over the limit, not held
    if (begin < len && buf[len - 1] !== 10 && from + len < job.size) {
      // Finish the last line, which runs past the range, unless it grows beyond the limit.
      const lastStart = Math.max(begin, buf.lastIndexOf(10, len - 1) + 1);
      for (;;) {
        if (len - lastStart > maxLine) {
          tooLong = skipLine(fd, from + len, job.size) + (len - lastStart);
          len = lastStart;
          break;
        }
        ensure(len + EXTEND);
        const n = readAt(fd, buf, len, EXTEND, from + len);
        if (n <= 0) break;
        const nl = buf.indexOf(10, len);
        if (nl >= 0 && nl < len + n) {
          len = nl + 1;
          break;
        }
        len += n;
      }
    }
    if (begin < len) runLines(tally, begin, len, out);
    if (tooLong >= 0 && !tally.stopped) tally.addTooLong(tooLong, runner!.options.strict);
    // Release a buffer grown for one long line.
    if (buf.length > 4 * (job.end - job.start + EXTEND)) buf = Buffer.allocUnsafe(job.end - job.start + EXTEND);
    return { type: 'result', id: job.id, tally: tally.data(), out: out.length ? Buffer.concat(out) : new Uint8Array(0), bytes: job.end - job.start };
  };

  /** Bytes from `pos` to the end of its line (its `\n` included), read in small pieces. */
  const skipLine = (fd: number, pos: number, size: number): number => {
    const scratch = Buffer.allocUnsafe(EXTEND);
    let p = pos;
    while (p < size) {
      const n = readAt(fd, scratch, 0, Math.min(EXTEND, size - p), p);
      if (n <= 0) break;
      const nl = scratch.indexOf(10);
      if (nl >= 0 && nl < n) return p + nl + 1 - pos;
      p += n;
    }
    return p - pos;
  };

  const fileJob = async (job: FileJob): Promise<FromWorker> => {
    const tally = new FileTally();
    let bytes = 0;
    try {
      for await (const block of lineBlocks(openBytes({ name: job.name, path: job.path, regular: true, size: job.size, gzip: job.gzip }, noStdin(), (n) => (bytes += n)), maxLine)) {
        if (block.kind === 'too-long') tally.addTooLong(block.bytes, runner!.options.strict);
        else {
          const r = runner!.run(block.buf, 0, block.buf.length);
          tally.add(r.counts, r.malformed, block.buf.length);
        }
        if (tally.stopped) break;
      }
    } catch (e) {
      // The counts made before the damage stand; the error names the file.
      tally.error = readError({ name: job.name }, e).message;
    }
    return { type: 'result', id: job.id, tally: tally.data(), out: new Uint8Array(0), bytes };
  };

  // Jobs run one after another: a file job awaits its stream, so messages are queued behind it.
  let chain = Promise.resolve();
  port.on('message', (msg: ToWorker) => {
    chain = chain.then(async () => {
      try {
        if (msg.type === 'filter') runner = new BlockRunner(msg.filter, init.options);
        else if (msg.type === 'range') port.postMessage(rangeJob(msg));
        else if (msg.type === 'file') port.postMessage(await fileJob(msg));
        else {
          for (const fd of fds.values()) fs.closeSync(fd);
          port.postMessage({ type: 'final', seen: runner?.scanner.seenFields() ?? [], explain: runner?.explainer?.counts() } satisfies FromWorker);
          port.close();
        }
      } catch (e) {
        port.postMessage({ type: 'error', message: (e as Error).message ?? String(e) } satisfies FromWorker);
      }
    });
  });
}

/** Workers read files only; they have no standard input. */
async function* noStdin(): AsyncGenerator<Uint8Array> {}

if (parentPort) start();
