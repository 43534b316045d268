/**
 * Gzip files inflated into buffers the caller owns: whole small files into a buffer reused from file to file,
 * larger ones a chunk at a time (GzipFileReader). `zlib.gunzipSync` returns a fresh buffer per file; in a run
 * over many files those buffers are dead as soon as each file is scanned, but V8 frees external memory only
 * when a collection happens, and a scan that allocates little (a needle search) triggers almost none: measured
 * peak RSS 170 MB against 120 MB for 24 files of 8.7 MB on two threads. Writing into our own buffer leaves no
 * garbage at all.
 *
 * Two inflaters behind one interface (Inflater): ISA-L's, when @logfilter/native-inflate was built at install
 * (native-inflate.ts; 1.7x Node's zlib on log export files, see the cli README), else Node's zlib handle,
 * driven the way Node's own `zlibBufferSync` does (`_handle.writeSync` and `_writeState`, stable since Node 0.x
 * but not documented); where those are missing, gunzipInto falls back to `gunzipSync` and a copy. Both follow
 * several members (the next gzip header after a member's end) and leave zero padding after the last unread.
 */
import { readSync } from 'node:fs';
import type * as Zlib from 'node:zlib';
import { zlib } from './zlib-lazy.js';
import { nativeInflate } from './native-inflate.js';
import { Buffer } from 'node:buffer';

interface ZlibHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
}

type Internals = Zlib.Gunzip & { _handle?: ZlibHandle; _writeState?: Uint32Array };

/** One gzip stream being inflated into caller-owned bytes. */
interface Inflater {
  /**
   * Inflates from input[inOff, inOff + inLen) into out[outOff, outOff + outLen); `finish`: no input follows.
   * False when the data is damaged (or, with `finish`, cut short): the inflater is then unusable. After a
   * true answer, availOut is the output room left and availIn the input left unread (> 0 with room left: the
   * data ended before the input did).
   */
  write(finish: boolean, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): boolean;
  readonly availOut: number;
  readonly availIn: number;
  close(): void;
}

/** An Inflater over a state array whose slots 0 and 1 are the output room and the input left after a write. */
function withState(state: Uint32Array, write: Inflater['write'], close: () => void): Inflater {
  return {
    write,
    get availOut() {
      return state[0]!;
    },
    get availIn() {
      return state[1]!;
    },
    close,
  };
}

/** Node's zlib handle; undefined where its internals are missing. */
function zlibInflater(): Inflater | undefined {
  const gz = zlib().createGunzip() as Internals;
  const { _handle: handle, _writeState: state } = gz;
  if (!handle || typeof handle.writeSync !== 'function' || !state) {
    gz.close();
    return undefined;
  }
  // A zlib error destroys the stream synchronously (and closes the handle, which must not be written to
  // again); the 'error' event itself comes later, and is only swallowed here.
  gz.on('error', () => {});
  const { Z_NO_FLUSH, Z_FINISH } = zlib().constants;
  return withState(
    state,
    (finish, input, inOff, inLen, out, outOff, outLen) => {
      if (gz.destroyed) return false;
      handle.writeSync(finish ? Z_FINISH : Z_NO_FLUSH, input, inOff, inLen, out, outOff, outLen);
      return !gz.destroyed;
    },
    () => {
      if (!gz.destroyed) gz.close();
    },
  );
}

/**
 * ISA-L's, when the addon is there. Its `write` fails cut-short data itself (zlib's is caught by the callers),
 * and keeps failing once it has failed.
 */
function isalInflater(): Inflater | undefined {
  const native = nativeInflate();
  if (!native) return undefined;
  const handle = native.create();
  const state = new Uint32Array(2);
  return withState(
    state,
    (finish, input, inOff, inLen, out, outOff, outLen) => native.write(handle, finish, input, inOff, inLen, out, outOff, outLen, state) >= 0,
    () => native.close(handle),
  );
}

/** The fastest inflater there is; undefined only where neither the addon nor zlib's internals are. */
function inflater(): Inflater | undefined {
  return isalInflater() ?? zlibInflater();
}

/**
 * Inflates `raw` into the buffer given by `room` (called with the length needed; it returns a buffer at least
 * that long holding the bytes written so far). Returns the content's length, or -1 when the data is damaged,
 * cut short, or inflates beyond `max` bytes (the caller then streams the file and reports what it could read).
 */
export function gunzipInto(raw: Uint8Array, room: (n: number) => Buffer, max: number, sizeHint: number): number {
  let inf: Inflater | undefined;
  try {
    inf = inflater();
    if (!inf) {
      const out = zlib().gunzipSync(raw, { maxOutputLength: max });
      out.copy(room(out.length));
      return out.length;
    }
    // One byte beyond the bound: a buffer exactly full cannot tell whether more output is pending.
    const limit = max + 1;
    let out = room(Math.min(limit, Math.max(sizeHint + 1, 64 * 1024)));
    let written = 0;
    let inOff = 0;
    for (;;) {
      const inLen = raw.length - inOff;
      const outLen = out.length - written;
      if (!inf.write(true, raw, inOff, inLen, out, written, outLen)) return -1;
      written += outLen - inf.availOut;
      inOff += inLen - inf.availIn;
      if (written > max) return -1;
      if (inf.availOut > 0) return inf.availIn === 0 ? written : -1;
      // Output full: more room.
      out = room(Math.min(limit, Math.max(written * 2, written + 64 * 1024)));
    }
  } catch {
    return -1;
  } finally {
    inf?.close();
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
 * could read. The constructor throws where neither inflater is there (no addon, zlib's internals missing).
 */
export class GzipFileReader {
  private readonly inf: Inflater;
  private readonly input = Buffer.allocUnsafe(CHUNK_IN_BYTES);
  private pos = 0; // file offset of the next read
  private got = 0; // bytes in input
  private off = 0; // bytes of input consumed
  private last = false; // the file's end was read: finish
  private done = false;

  constructor(
    private readonly fd: number,
    private readonly size: number,
  ) {
    const inf = inflater();
    if (!inf) throw new Error('zlib internals missing: the file is streamed');
    this.inf = inf;
  }

  /** Inflates up to `len` bytes into out[at, at + len); the number written, 0 only at the content's end. */
  read(out: Uint8Array, at: number, len: number): number {
    while (!this.done) {
      if (this.off >= this.got && !this.last) {
        this.got = this.pos < this.size ? readSync(this.fd, this.input, 0, Math.min(CHUNK_IN_BYTES, this.size - this.pos), this.pos) : 0;
        this.pos += this.got;
        this.off = 0;
        this.last = this.got === 0;
      }
      if (!this.inf.write(this.last, this.input, this.off, this.got - this.off, out, at, len)) throw dataError('invalid or cut-short gzip data');
      const { availOut, availIn } = this.inf;
      this.off = this.got - availIn;
      const n = len - availOut;
      // Output full: more may be pending.
      if (availOut === 0) return n;
      // Output room left: the input is consumed, unless the data ended before it.
      if (availIn > 0) throw dataError('data after the end of the gzip data');
      // Finishing with no error: the data ended cleanly (cut-short data fails the write).
      if (this.last) this.done = true;
      if (n > 0) return n;
    }
    return 0;
  }

  close(): void {
    this.inf.close();
  }
}
