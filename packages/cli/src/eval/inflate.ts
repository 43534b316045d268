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

/** Output room of gunzipFileChunks: large enough to amortise each chunk's scan, small enough to stay in cache. */
export const CHUNK_OUT_BYTES = 1 << 20;
const CHUNK_IN_BYTES = 1 << 20;

/**
 * A gzip file too large to inflate whole (see job-runner.ts WHOLE_FILE_BYTES), inflated on this thread in chunks
 * into ONE output buffer reused for every chunk: each chunk yielded is overwritten when the next is asked for,
 * so the consumer must be done with it (and copy what it keeps: lineBlocks with `reused`). Node's Gunzip stream
 * allocates a fresh buffer per chunk and inflates on libuv's thread pool: measured 0.43–0.50 s of CPU against
 * 0.30 s this way for 200 MB, and 40 MB more peak RSS; a worker that takes whole files already keeps one core
 * busy, so the thread pool's overlap buys nothing there. Multi-member files are followed by the handle itself.
 * Throws zlib's error on damaged or cut-short data (the caller then streams the file, which reports exactly
 * what it could read), and where the zlib internals are missing.
 */
export function* gunzipFileChunks(fd: number, size: number): Generator<Buffer> {
  const gz = zlib().createGunzip() as Internals;
  const handle = gz._handle;
  const state = gz._writeState;
  if (!handle || typeof handle.writeSync !== 'function' || !state) throw new Error('zlib internals missing: the file is streamed');
  gz.on('error', () => {});
  const input = Buffer.allocUnsafe(CHUNK_IN_BYTES);
  const out = Buffer.allocUnsafe(CHUNK_OUT_BYTES);
  const { Z_NO_FLUSH, Z_FINISH } = zlib().constants;
  try {
    let pos = 0;
    for (;;) {
      const got = pos < size ? fs.readSync(fd, input, 0, Math.min(CHUNK_IN_BYTES, size - pos), pos) : 0;
      pos += got;
      const last = got === 0;
      let off = 0;
      for (;;) {
        handle.writeSync(last ? Z_FINISH : Z_NO_FLUSH, input, off, got - off, out, 0, out.length);
        if (gz.destroyed) throw Object.assign(new Error('invalid or cut-short gzip data'), { code: 'Z_DATA_ERROR' });
        const [availOut, availIn] = [state[0]!, state[1]!];
        off = got - availIn;
        const n = out.length - availOut;
        if (n > 0) yield out.subarray(0, n);
        if (availOut === 0) continue;
        // Output room left: the input is consumed, unless the data ended before it (zero padding after the last
        // member, which the handle leaves unread): that rare case is left to the streaming reader.
        if (availIn > 0) throw Object.assign(new Error('data after the end of the gzip data'), { code: 'Z_DATA_ERROR' });
        break;
      }
      // Z_FINISH with no error: the data ended cleanly (cut-short data is an error, which destroys the handle).
      if (last) return;
    }
  } finally {
    if (!gz.destroyed) gz.close();
  }
}
