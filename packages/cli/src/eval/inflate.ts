/**
 * Whole small gzip files inflated into a buffer reused from file to file. `zlib.gunzipSync` returns a fresh
 * buffer per file; in a run over many files those buffers are dead as soon as each file is scanned, but V8 frees
 * external memory only when a collection happens, and a scan that allocates little (a needle search) triggers
 * almost none: measured peak RSS 170 MB against 120 MB for 24 files of 8.7 MB on two threads. Writing into our
 * own buffer leaves no garbage at all.
 *
 * This drives the zlib handle the way Node's own `zlibBufferSync` does (`_handle.writeSync` and `_writeState`,
 * stable since Node 0.x but not documented); where they are missing, it falls back to `gunzipSync` and a copy.
 * Multi-member files are handled by the handle itself (it restarts on a following gzip header).
 */
import fs from 'node:fs';
import type * as Zlib from 'node:zlib';
import { zlib } from './zlib-lazy.js';
import { Buffer } from 'node:buffer';

interface ZlibHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
}

type Internals = Zlib.Gunzip & { _handle?: ZlibHandle; _writeState?: Uint32Array };

/**
 * Inflates `raw` into the buffer given by `room` (called with the length needed; it returns a buffer at least
 * that long holding the bytes written so far). Returns the content's length, or -1 when the data is damaged,
 * cut short, or inflates beyond `max` bytes (the caller then streams the file and reports what it could read).
 */
export function gunzipInto(raw: Uint8Array, room: (n: number) => Buffer, max: number, sizeHint: number): number {
  const gz = zlib().createGunzip() as Internals;
  const handle = gz._handle;
  const state = gz._writeState;
  try {
    if (!handle || typeof handle.writeSync !== 'function' || !state) {
      const out = zlib().gunzipSync(raw, { maxOutputLength: max });
      out.copy(room(out.length));
      return out.length;
    }
    // A zlib error destroys the stream synchronously (and closes the handle, which must not be written to
    // again); the 'error' event itself comes later, and is only swallowed here.
    gz.on('error', () => {});
    // One byte beyond the bound: a buffer exactly full cannot tell whether more output is pending.
    const limit = max + 1;
    let out = room(Math.min(limit, Math.max(sizeHint + 1, 64 * 1024)));
    let written = 0;
    let inOff = 0;
    for (;;) {
      const inLen = raw.length - inOff;
      const outLen = out.length - written;
      handle.writeSync(zlib().constants.Z_FINISH, raw, inOff, inLen, out, written, outLen);
      if (gz.destroyed) return -1;
      const [availOut, availIn] = [state[0]!, state[1]!];
      written += outLen - availOut;
      inOff += inLen - availIn;
      if (written > max) return -1;
      if (availOut > 0) return availIn === 0 ? written : -1;
      // Output full: more room.
      out = room(Math.min(limit, Math.max(written * 2, written + 64 * 1024)));
    }
  } catch {
    return -1;
  } finally {
    if (!gz.destroyed) gz.close();
  }
}

/**
 * Bytes inflated at a time by a large gzip file's job: the scan then finds them still in the core's cache.
 * 128, 256 and 512 KB were measured against 1 MB (one thread, 8 of the scale bench's 2 GB gzip files, CPU of the
 * process, 3-4 interleaved rounds at load 12-16): within the noise on F1, F2 and F3 (medians F1 1.22 / 1.24 s at
 * 1 MB / 256 KB, F2 1.18 / 1.12 s, F3 1.45 / 1.47 s), so 1 MB stays (fewer calls into zlib per file). The whole
 * run on two threads agreed (all 64 files, user+sys, 3 interleaved rounds at load 13-16): F1 4.81 / 5.28 s,
 * F2 4.88 / 5.26 s at 1 MB / 256 KB; 256 KB saved ~10 MB of peak RSS (94-96 against 97-108 MB).
 */
export const CHUNK_OUT_BYTES = 1 << 20;
const CHUNK_IN_BYTES = 1 << 20;

function dataError(message: string): Error {
  return Object.assign(new Error(message), { code: 'Z_DATA_ERROR' });
}

/**
 * A gzip file too large to inflate whole (see job-runner.ts WHOLE_FILE_BYTES), inflated on this thread a piece
 * at a time into buffers the caller gives: the file job gives a region of the line kernel's memory, so the
 * content is scanned where it was inflated, with no copy of every byte into the kernel (measured on the scale
 * bench's 2 GB of gzip, one thread: the copy was a fifth of the job's CPU; see the cli README). Node's Gunzip
 * stream allocates a fresh buffer per chunk and inflates on libuv's thread pool: measured 0.43–0.50 s of CPU
 * against 0.30 s this way for 200 MB, and 40 MB more peak RSS; a worker that takes whole files already keeps
 * one core busy, so the thread pool's overlap buys nothing there. Multi-member files are followed by the handle
 * itself. `read` throws a Z_DATA_ERROR on damaged or cut-short data, on data after the end (junk, or zero
 * padding, which the handle leaves unread): the caller then streams the file, which reports exactly what it
 * could read. The constructor throws where the zlib internals are missing.
 */
export class GzipFileReader {
  private readonly gz: Internals;
  private readonly handle: ZlibHandle;
  private readonly state: Uint32Array;
  private readonly input = Buffer.allocUnsafe(CHUNK_IN_BYTES);
  private pos = 0; // file offset of the next read
  private got = 0; // bytes in input
  private off = 0; // bytes of input consumed
  private last = false; // the file's end was read: Z_FINISH
  private done = false;

  constructor(
    private readonly fd: number,
    private readonly size: number,
  ) {
    this.gz = zlib().createGunzip() as Internals;
    const { _handle: handle, _writeState: state } = this.gz;
    if (!handle || typeof handle.writeSync !== 'function' || !state) {
      this.gz.close();
      throw new Error('zlib internals missing: the file is streamed');
    }
    this.handle = handle;
    this.state = state;
    this.gz.on('error', () => {});
  }

  /** Inflates up to `len` bytes into out[at, at + len); the number written, 0 only at the content's end. */
  read(out: Uint8Array, at: number, len: number): number {
    const { Z_NO_FLUSH, Z_FINISH } = zlib().constants;
    while (!this.done) {
      if (this.off >= this.got && !this.last) {
        this.got = this.pos < this.size ? fs.readSync(this.fd, this.input, 0, Math.min(CHUNK_IN_BYTES, this.size - this.pos), this.pos) : 0;
        this.pos += this.got;
        this.off = 0;
        this.last = this.got === 0;
      }
      this.handle.writeSync(this.last ? Z_FINISH : Z_NO_FLUSH, this.input, this.off, this.got - this.off, out, at, len);
      if (this.gz.destroyed) throw dataError('invalid or cut-short gzip data');
      const [availOut, availIn] = [this.state[0]!, this.state[1]!];
      this.off = this.got - availIn;
      const n = len - availOut;
      // Output full: more may be pending.
      if (availOut === 0) return n;
      // Output room left: the input is consumed, unless the data ended before it.
      if (availIn > 0) throw dataError('data after the end of the gzip data');
      // Z_FINISH with no error: the data ended cleanly (cut-short data is an error, which destroys the handle).
      if (this.last) this.done = true;
      if (n > 0) return n;
    }
    return 0;
  }

  close(): void {
    if (!this.gz.destroyed) this.gz.close();
  }
}
