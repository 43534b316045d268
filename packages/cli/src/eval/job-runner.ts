/**
 * The jobs of a parallel evaluation — a byte range of a large plain file, or a whole file (gzip included) —
 * run by a worker thread (worker.ts) or by the main thread itself while it waits for the workers (pool.ts).
 * Each reads its own input, so no log line passes through messages.
 */
import fs from 'node:fs';
import { Buffer } from 'node:buffer';
import type { FilterDocument } from '@logfilter/core';
import { BlockRunner } from './block-runner.js';
import { lineBlocks, splitLongLines } from './line-blocks.js';
import { openBytes, readError } from './sources.js';
import { FileTally } from './totals.js';
import type { FileJob, JobResultMessage, RangeJob, WorkerInit } from './protocol.js';

const EXTEND = 1 << 20;

/** Workers read files only; they have no standard input. */
async function* noStdin(): AsyncGenerator<Uint8Array> {}

export class JobRunner {
  runner?: BlockRunner;
  private buf = Buffer.allocUnsafe(EXTEND);
  private readonly fds = new Map<string, number>();

  constructor(private readonly init: WorkerInit) {}

  setFilter(filter: FilterDocument): void {
    this.runner = new BlockRunner(filter, this.init.options);
  }

  private ensure(n: number): void {
    if (this.buf.length >= n) return;
    const bigger = Buffer.allocUnsafe(Math.max(n, this.buf.length * 2));
    this.buf.copy(bigger);
    this.buf = bigger;
  }

  private fdOf(path: string): number {
    let fd = this.fds.get(path);
    if (fd === undefined) {
      fd = fs.openSync(path, 'r');
      this.fds.set(path, fd);
    }
    return fd;
  }

  /** Runs the whole lines of buf[start, end) into the tally, counting too-long lines without reading them. */
  private runLines(tally: FileTally, start: number, end: number, out: Buffer[]): void {
    const runner = this.runner!;
    for (const seg of splitLongLines(this.buf, start, end, this.init.maxLine)) {
      if (tally.stopped) return;
      if (seg.kind === 'too-long') tally.addTooLong(seg.bytes, runner.options.strict);
      else {
        const r = runner.run(this.buf, seg.start, seg.end);
        tally.add(r.counts, r.malformed, seg.end - seg.start);
        if (r.out.length > 0) out.push(r.out);
      }
    }
  }

  /** The lines that start in [start, end) of a plain file. */
  range(job: RangeJob): JobResultMessage {
    const fd = this.fdOf(job.path);
    const maxLine = this.init.maxLine;
    const tally = new FileTally();
    const out: Buffer[] = [];
    // One byte before the range tells whether a line starts exactly at `start`.
    const from = job.start > 0 ? job.start - 1 : 0;
    this.ensure(job.end - from + EXTEND);
    let len = readAt(fd, this.buf, 0, job.end - from, from);
    let begin = 0;
    if (job.start > 0) {
      const nl = this.buf.indexOf(10, 0);
      begin = nl < 0 || nl >= len ? len : nl + 1;
    }
    let tooLong = -1; // bytes of a last line over the limit, not held
    if (begin < len && this.buf[len - 1] !== 10 && from + len < job.size) {
      // Finish the last line, which runs past the range, unless it grows beyond the limit.
      const lastStart = Math.max(begin, this.buf.lastIndexOf(10, len - 1) + 1);
      for (;;) {
        if (len - lastStart > maxLine) {
          tooLong = skipLine(fd, from + len, job.size) + (len - lastStart);
          len = lastStart;
          break;
        }
        this.ensure(len + EXTEND);
        const n = readAt(fd, this.buf, len, EXTEND, from + len);
        if (n <= 0) break;
        const nl = this.buf.indexOf(10, len);
        if (nl >= 0 && nl < len + n) {
          len = nl + 1;
          break;
        }
        len += n;
      }
    }
    if (begin < len) this.runLines(tally, begin, len, out);
    if (tooLong >= 0 && !tally.stopped) tally.addTooLong(tooLong, this.runner!.options.strict);
    // Release a buffer grown for one long line.
    if (this.buf.length > 4 * (job.end - job.start + EXTEND)) this.buf = Buffer.allocUnsafe(job.end - job.start + EXTEND);
    return { type: 'result', id: job.id, tally: tally.data(), out: out.length ? Buffer.concat(out) : new Uint8Array(0), bytes: job.end - job.start };
  }

  /** A whole file, streamed (gzip decompressed here); a read failure keeps the counts made before it. */
  async file(job: FileJob): Promise<JobResultMessage> {
    const runner = this.runner!;
    const tally = new FileTally();
    let bytes = 0;
    try {
      const src = { name: job.name, path: job.path, regular: true, size: job.size, gzip: job.gzip };
      for await (const block of lineBlocks(openBytes(src, noStdin(), (n) => (bytes += n)), this.init.maxLine)) {
        if (block.kind === 'too-long') tally.addTooLong(block.bytes, runner.options.strict);
        else {
          const r = runner.run(block.buf, 0, block.buf.length);
          tally.add(r.counts, r.malformed, block.buf.length);
        }
        if (tally.stopped) break;
      }
    } catch (e) {
      tally.error = readError({ name: job.name }, e).message;
    }
    return { type: 'result', id: job.id, tally: tally.data(), out: new Uint8Array(0), bytes };
  }

  /** Fields seen and explain counts, for the final merge; closes the files. */
  finish(): { seen: string[]; explain?: number[] } {
    for (const fd of this.fds.values()) fs.closeSync(fd);
    this.fds.clear();
    return { seen: this.runner?.scanner.seenFields() ?? [], explain: this.runner?.explainer?.counts() };
  }
}

function readAt(fd: number, into: Buffer, at: number, len: number, pos: number): number {
  let done = 0;
  while (done < len) {
    const n = fs.readSync(fd, into, at + done, len - done, pos + done);
    if (n <= 0) break;
    done += n;
  }
  return done;
}

/** Bytes from `pos` to the end of its line (its `\n` included), read in small pieces. */
function skipLine(fd: number, pos: number, size: number): number {
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
}
