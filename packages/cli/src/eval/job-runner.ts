/**
 * The jobs of a parallel evaluation — a byte range of a large plain file, or a whole file (gzip included) —
 * run by a worker thread (worker.ts) or by the main thread itself while it waits for the workers (pool.ts).
 * Each reads its own input, so no log line passes through messages.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { Buffer } from 'node:buffer';
import type { FilterDocument } from '@logfilter/core';
import { BlockRunner } from './block-runner.js';
import { lineBlocks, splitLongLines } from './line-blocks.js';
import { openBytes, readError } from './sources.js';
import { FileTally } from './totals.js';
import { CHUNK_OUT_BYTES, GzipFileReader, gunzipInto } from './inflate.js';
import type { FileJob, JobResultMessage, RangeJob, WorkerInit } from './protocol.js';

/** Bytes read past a chunk's end at a time to finish a line (log lines are a few KB). */
const TAIL_STEP = 64 << 10;
/** A range is read and scanned this much at a time (see range). */
export const CHUNK_BYTES = 512 << 10;

/**
 * A file job whose content is at most this large (uncompressed) is read, and inflated, in one synchronous call
 * and scanned as one block: log export writes files of a few MB, and for those a stream's per-chunk work (async
 * reads, inflate in the thread pool, re-assembling lines across chunks) measured a third of the job's time.
 * Larger files, and any file that fails this way (damaged or cut-short gzip), are streamed, which keeps memory
 * flat and reports the counts made before a failure; a larger gzip file is first inflated here a chunk at a
 * time straight into the scan buffer (gunzipChunked), and streamed only when that fails.
 */
export const WHOLE_FILE_BYTES = 32 << 20;

/** Workers read files only; they have no standard input. */
async function* noStdin(): AsyncGenerator<Uint8Array> {}

export class JobRunner {
  runner?: BlockRunner;
  /** The compressed bytes of a whole gzip file (see readWhole). */
  private buf = Buffer.allocUnsafe(0);
  /** Blocks are read here where the scanner has no region of its own (see block). */
  private content = Buffer.allocUnsafe(0);
  private readonly fds = new Map<string, number>();

  /** `runner`: an evaluation state to share (the main thread's own, when it reads a file in ranges itself). */
  constructor(
    private readonly init: WorkerInit,
    runner?: BlockRunner,
  ) {
    this.runner = runner;
  }

  setFilter(filter: FilterDocument, calibration?: readonly number[]): void {
    this.runner = new BlockRunner(filter, this.init.options, calibration);
  }

  /** Room for n compressed bytes (what it held before is not needed). */
  private compressedRoom(n: number): Buffer {
    if (this.buf.length < n) this.buf = Buffer.allocUnsafe(Math.max(n, this.buf.length * 2));
    return this.buf;
  }

  /**
   * A buffer of at least n bytes to read a block into: a region of the line kernel's memory where the scanner
   * has one (the kernel then scans it where it lies, instead of copying every byte), else our own buffer,
   * reused from job to job. With `keep`, the bytes of the previous call's buffer are kept (a block that grows).
   */
  private block(n: number, keep: boolean): Buffer {
    const region = this.runner!.scanner.region(n, keep);
    if (region) return Buffer.from(region.buffer, region.byteOffset, region.length);
    if (this.content.length < n) {
      const bigger = Buffer.allocUnsafe(Math.max(n, this.content.length * 2));
      if (keep) this.content.copy(bigger);
      this.content = bigger;
    }
    return this.content;
  }

  private closeFd(path: string): void {
    const fd = this.fds.get(path);
    if (fd === undefined) return;
    this.fds.delete(path);
    closeSync(fd);
  }

  private fdOf(path: string): number {
    let fd = this.fds.get(path);
    if (fd === undefined) {
      fd = openSync(path, 'r');
      this.fds.set(path, fd);
    }
    return fd;
  }

  /**
   * Runs the whole lines of buf[start, end) into the tally, counting too-long lines without reading them.
   * buf[end, needed) holds bytes the caller still needs (a partial line): they survive the scan.
   */
  private runLines(tally: FileTally, buf: Buffer, start: number, end: number, out: Buffer[], needed = end): void {
    const runner = this.runner!;
    for (const seg of splitLongLines(buf, start, end, this.init.maxLine)) {
      if (tally.stopped) return;
      if (seg.kind === 'too-long') tally.addTooLong(seg.bytes, runner.options.strict);
      else {
        // Scanning lines in the kernel's region may overwrite a few bytes after them (BlockScanner.overwrites):
        // the next lines after a short over-long line, or the caller's partial line, kept aside meanwhile.
        const reach = Math.min(needed, seg.end + runner.scanner.overwrites(seg.end - seg.start));
        const kept = reach > seg.end ? Buffer.from(buf.subarray(seg.end, reach)) : undefined;
        const r = runner.run(buf, seg.start, seg.end);
        if (kept) kept.copy(buf, seg.end);
        tally.add(r.counts, r.malformed, seg.end - seg.start);
        if (r.out.length > 0) out.push(r.out);
      }
    }
  }

  /**
   * The lines that start in [start, end) of a plain file, read in chunks into the front of one buffer (a partial
   * last line carried over): each chunk is scanned while it is still in the core's cache. Measured on 200 MB:
   * reading a whole 8 MB range and then scanning it took 12% longer than 512 KB chunks, and the scan reads
   * every byte again just after the read wrote it.
   */
  range(job: RangeJob): JobResultMessage {
    const fd = this.fdOf(job.path);
    const maxLine = this.init.maxLine;
    const chunk = this.init.chunkBytes ?? CHUNK_BYTES;
    const strict = this.runner!.options.strict;
    const tally = new FileTally();
    const out: Buffer[] = [];
    // One byte before the range tells whether a line starts exactly at `start`.
    let base = job.start > 0 ? job.start - 1 : 0; // file offset of buf[0]
    let len = 0; // bytes held in buf
    let begin = job.start > 0 ? -1 : 0; // where the range's next line starts in buf; -1 until the first is found
    // buf[0, clean) is a partial line already searched: it holds no `\n`, so only the bytes read after it are
    // searched. Searching the whole held line at every chunk made a line of n chunks cost n^2/2 chunks of search.
    let clean = 0;
    let eof = false;
    let buf = this.block(Math.min(chunk, job.end - base) + TAIL_STEP, false);
    while (!tally.stopped) {
      // Within the range a chunk; past its end only what finishes its last line.
      const inRange = base + len < job.end;
      const want = inRange ? Math.min(chunk, job.end - base - len) : TAIL_STEP;
      if (buf.length < len + want) buf = this.block(Math.max(len + want, buf.length * 2), true);
      const n = readAt(fd, buf, len, want, base + len);
      if (n < want) eof = true; // the file's end (or it shrank since it was inspected)
      len += n;
      if (begin < 0) {
        // The line running into the range is the previous range's: skipped up to its `\n`.
        const nl = newlineIn(buf, 0, len);
        if (nl >= 0) begin = nl + 1;
        else if (base + len < job.end && !eof) {
          base += len;
          len = 0;
          continue;
        } else break;
      }
      // The range's lines end at the `\n` that ends the line holding its last byte (or at the file's end).
      let stop = -1;
      if (base + len >= job.end || eof) {
        const nl = newlineIn(buf, Math.max(clean, job.end - 1 - base), len);
        stop = nl >= 0 ? nl + 1 : eof ? len : -1;
      }
      if (stop >= 0) {
        if (begin < stop) this.runLines(tally, buf, begin, stop, out);
        break;
      }
      // The whole lines so far; the partial one goes to the front for the next read.
      const last = lastNewlineIn(buf, Math.max(begin, clean), len) + 1;
      let carry = begin;
      if (last > begin) {
        this.runLines(tally, buf, begin, last, out, len);
        carry = last;
      }
      if (carry > 0) buf.copyWithin(0, carry, len);
      base += carry;
      len -= carry;
      begin = 0;
      clean = len;
      if (len > maxLine) {
        // A line too long to hold: counted, and skipped to its end.
        const skipped = skipLine(fd, base + len, job.size);
        tally.addTooLong(len + skipped, strict);
        base += len + skipped;
        len = 0;
        clean = 0;
        if (base >= job.end || base >= job.size) break;
      }
    }
    // Release a buffer grown for one long line (the kernel gives back its own memory).
    if (this.content.length > 4 * (chunk + TAIL_STEP)) this.content = Buffer.allocUnsafe(0);
    return { type: 'result', id: job.id, tally: tally.data(), out: out.length ? Buffer.concat(out) : new Uint8Array(0), bytes: job.end - job.start };
  }

  /**
   * The content of a small file (inflated when gzip), or undefined when it is to be streamed. Both the
   * compressed bytes and the content live in buffers reused from job to job (see inflate.ts: a fresh buffer per
   * file is garbage that V8 may keep for long; measured peak RSS +60 MB).
   */
  private readWhole(job: FileJob): Buffer | undefined {
    const whole = this.init.wholeFileBytes ?? WHOLE_FILE_BYTES;
    if (job.size > whole) return undefined;
    try {
      const fd = this.fdOf(job.path);
      const raw = job.gzip ? this.compressedRoom(job.size) : this.block(job.size, false);
      if (readAt(fd, raw, 0, job.size, 0) !== job.size) return undefined; // changed since it was inspected
      if (!job.gzip) return raw.subarray(0, job.size);
      // The trailer's size (of the last member, modulo 2^32) is only a hint; WHOLE_FILE_BYTES is the bound.
      const hint = job.size >= 18 ? raw.readUInt32LE(job.size - 4) : 0;
      if (hint > whole) return undefined;
      let content = raw;
      const length = gunzipInto(raw.subarray(0, job.size), (n) => (content = this.block(n, true)), whole, hint);
      return length < 0 ? undefined : content.subarray(0, length);
    } catch {
      return undefined;
    } finally {
      this.closeFd(job.path);
    }
  }

  /** See BlockScanner.readShare: estimated on the whole lines of buf[0, end). */
  readShare(buf: Uint8Array, end: number): number {
    const last = end > 0 && buf[end - 1] !== 10 ? buf.lastIndexOf(10, end - 1) + 1 : end;
    return this.runner!.scanner.readShare(buf, 0, last > 0 ? last : end);
  }

  /** A whole file (gzip decompressed here); a read failure keeps the counts made before it. */
  async file(job: FileJob): Promise<JobResultMessage> {
    const runner = this.runner!;
    const tally = new FileTally();
    const whole = this.readWhole(job);
    if (whole) {
      this.runLines(tally, whole, 0, whole.length, []);
      return { type: 'result', id: job.id, tally: tally.data(), out: new Uint8Array(0), bytes: job.size };
    }
    if (job.gzip) {
      const done = this.gunzipChunked(job);
      if (done) return done;
    }
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

  /**
   * A gzip file too large to inflate whole, inflated on this thread a chunk at a time straight into the block
   * buffer (the line kernel's memory; inflate.ts GzipFileReader), a partial last line carried to its front as
   * range() does: each chunk is scanned where it was inflated, still in the core's cache. Undefined when it
   * fails (damaged or cut-short data, trailing junk): the counts made are dropped and the caller streams the
   * file, which reports exactly what it could read.
   */
  private gunzipChunked(job: FileJob): JobResultMessage | undefined {
    const runner = this.runner!;
    // --explain counts go into the runner as lines are scanned and cannot be dropped with the tally: a file
    // whose chunks fail part-way would have its first lines counted twice. Such runs stream the file.
    if (runner.options.explain) return undefined;
    const tally = new FileTally();
    const maxLine = this.init.maxLine;
    const strict = runner.options.strict;
    const chunk = this.init.chunkBytes ?? CHUNK_OUT_BYTES;
    let reader: GzipFileReader | undefined;
    try {
      reader = new GzipFileReader(this.fdOf(job.path), job.size);
      let len = 0; // bytes held at buf[0, len): the partial line
      let skipping = -1; // bytes so far of a line too long to hold, being skipped (-1: none)
      let buf = this.block(chunk + TAIL_STEP, false);
      while (!tally.stopped) {
        if (buf.length < len + chunk) buf = this.block(Math.max(len + chunk, buf.length * 2), true);
        const n = reader.read(buf, len, chunk);
        if (n === 0) break;
        let from = len;
        len += n;
        if (skipping >= 0) {
          const nl = buf.subarray(0, len).indexOf(10);
          if (nl < 0) {
            skipping += len;
            len = 0;
            continue;
          }
          tally.addTooLong(skipping + nl + 1, strict);
          skipping = -1;
          buf.copyWithin(0, nl + 1, len);
          len -= nl + 1;
          from = 0;
        }
        // The whole lines so far (only the new bytes can hold the last `\n`); the partial one goes to the front.
        const last = from + buf.subarray(from, len).lastIndexOf(10) + 1;
        if (last > from) {
          this.runLines(tally, buf, 0, last, [], len);
          buf.copyWithin(0, last, len);
          len -= last;
        }
        if (len > maxLine) {
          skipping = len;
          len = 0;
        }
      }
      if (skipping >= 0) tally.addTooLong(skipping, strict);
      else if (len > 0 && !tally.stopped) this.runLines(tally, buf, 0, len, []);
    } catch {
      return undefined;
    } finally {
      reader?.close();
      this.closeFd(job.path);
    }
    return { type: 'result', id: job.id, tally: tally.data(), out: new Uint8Array(0), bytes: job.size };
  }

  /** Fields seen and explain counts, for the final merge; closes the files. */
  finish(): { seen: string[]; explain?: number[] } {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
    return { seen: this.runner?.scanner.seenFields() ?? [], explain: this.runner?.explainer?.counts() };
  }
}

/**
 * Bytes searched for a `\n` by range(), over the process's life: the work of finding line ends, which must stay
 * linear in the bytes read however long a line is (tests read it; nothing else does).
 */
export const newlineSearch = { bytes: 0 };

/** The first `\n` in buf[from, to), or -1. */
function newlineIn(buf: Buffer, from: number, to: number): number {
  if (to <= from) return -1;
  newlineSearch.bytes += to - from;
  const nl = buf.subarray(from, to).indexOf(10);
  return nl < 0 ? -1 : from + nl;
}

/** The last `\n` in buf[from, to), or -1. */
function lastNewlineIn(buf: Buffer, from: number, to: number): number {
  if (to <= from) return -1;
  newlineSearch.bytes += to - from;
  const nl = buf.subarray(from, to).lastIndexOf(10);
  return nl < 0 ? -1 : from + nl;
}

function readAt(fd: number, into: Buffer, at: number, len: number, pos: number): number {
  let done = 0;
  while (done < len) {
    const n = readSync(fd, into, at + done, len - done, pos + done);
    if (n <= 0) break;
    done += n;
  }
  return done;
}

const SKIP_STEP = 1 << 20;

/** Bytes from `pos` to the end of its line (its `\n` included), read in small pieces. */
function skipLine(fd: number, pos: number, size: number): number {
  const scratch = Buffer.allocUnsafe(SKIP_STEP);
  let p = pos;
  while (p < size) {
    const n = readAt(fd, scratch, 0, Math.min(SKIP_STEP, size - p), p);
    if (n <= 0) break;
    const nl = scratch.indexOf(10);
    if (nl >= 0 && nl < n) return p + nl + 1 - pos;
    p += n;
  }
  return p - pos;
}
