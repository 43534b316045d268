/**
 * A gzip file read member by member, for when Node's one-shot gunzip fails. Node's Gunzip restarts on each
 * following member by itself, but when the bytes after the last member are not gzip (trailing junk: a torn
 * upload, a footer appended by some tool) it fails with "incorrect header check" and discards the output of
 * the write that reached the junk: valid lines lost. `gzip -dc` prints every member, then
 * warns about the junk; so does this reader: each member's deflate data is inflated by a raw inflate stream,
 * whose `bytesWritten` says where the member ended; its 8-byte trailer is skipped; what follows is either
 * another member, zero bytes (padding, ignored as gzip does), the end of the file, or junk, reported only
 * after every member's content was given.
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import type * as Zlib from 'node:zlib';
import { zlib } from './zlib-lazy.js';

/** The error for bytes after the last member that are neither gzip nor zero padding. */
export class TrailingJunkError extends Error {
  constructor(readonly offset: number) {
    super(`data after the last gzip member (from byte ${offset}) is not gzip; ignored, as gzip -d does`);
  }
}

const RESERVED_FLAGS = 0xe0; // must be zero
const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;

/**
 * The length of the member header at the start of `b` (RFC 1952 section 2.3), 0 when `b` ends inside it, -1
 * when `b` does not start with a gzip header (magic, method 8, no reserved flags).
 */
export function gzipHeaderLength(b: Uint8Array): number {
  if (b.length < 10) {
    const magic = [0x1f, 0x8b, 8];
    return magic.some((m, i) => i < b.length && b[i] !== m) ? -1 : 0;
  }
  if (b[0] !== 0x1f || b[1] !== 0x8b || b[2] !== 8 || (b[3]! & RESERVED_FLAGS) !== 0) return -1;
  const flags = b[3]!;
  let p = 10;
  if (flags & FEXTRA) {
    if (p + 2 > b.length) return 0;
    p += 2 + (b[p]! | (b[p + 1]! << 8));
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (!(flags & flag)) continue;
    const end = b.indexOf(0, p);
    if (end < 0) return 0;
    p = end + 1;
  }
  if (flags & FHCRC) p += 2;
  return p > b.length ? 0 : p;
}

/** Largest header read at once: a member's name or comment longer than this is taken as damage. */
const HEADER_BYTES = 64 * 1024;
const READ_CHUNK = 1 << 20;

function readAt(fd: number, len: number, pos: number): Buffer {
  const b = Buffer.allocUnsafe(len);
  let done = 0;
  while (done < len) {
    const n = readSync(fd, b, done, len - done, pos + done);
    if (n <= 0) break;
    done += n;
  }
  return b.subarray(0, done);
}

/** True when every byte of the file from `pos` is zero. */
function zeroTail(fd: number, pos: number, size: number): boolean {
  for (let p = pos; p < size; p += READ_CHUNK) {
    const b = readAt(fd, Math.min(READ_CHUNK, size - p), p);
    if (b.length === 0 || b.some((x) => x !== 0)) return false;
  }
  return true;
}

/**
 * The content of the gzip file at `file` (of `size` bytes), member after member, in chunks. Throws zlib's
 * error for damaged or cut-short data, and a TrailingJunkError for junk after the last member, in both cases
 * after yielding everything before it.
 */
export async function* gunzipMembers(file: string, size: number, options: Zlib.ZlibOptions): AsyncGenerator<Uint8Array> {
  const fd = openSync(file, 'r');
  try {
    let offset = 0;
    for (let member = 0; offset < size; member++) {
      const head = readAt(fd, Math.min(HEADER_BYTES, size - offset), offset);
      const h = gzipHeaderLength(head);
      if (h < 0 || (h === 0 && member > 0)) {
        if (member === 0) throw Object.assign(new Error('incorrect header check'), { code: 'Z_DATA_ERROR' });
        if (zeroTail(fd, offset, size)) return;
        throw new TrailingJunkError(offset);
      }
      if (h === 0) throw Object.assign(new Error('unexpected end of file'), { code: 'Z_BUF_ERROR' });
      // The raw inflate stream ends at the end of the member's deflate data (whatever input follows), and its
      // bytesWritten is then the input it consumed.
      const inflate = zlib().createInflateRaw(options);
      const raw = createReadStream(file, { start: offset + h, highWaterMark: READ_CHUNK });
      raw.on('error', (e) => inflate.destroy(e));
      raw.pipe(inflate);
      try {
        for await (const chunk of inflate) yield chunk as Uint8Array;
      } finally {
        raw.unpipe(inflate);
        raw.destroy();
      }
      offset += h + inflate.bytesWritten + 8;
      if (offset > size) throw Object.assign(new Error('unexpected end of file'), { code: 'Z_BUF_ERROR' });
    }
  } finally {
    closeSync(fd);
  }
}

/** Chunks of a stream read in order, with bytes handed back to be read again (the input after a member). */
class ChunkReader {
  private readonly it: AsyncIterator<Uint8Array | string>;
  private readonly back: Buffer[] = [];
  /** Offset in the stream of the next byte `read` returns. */
  offset = 0;
  constructor(chunks: AsyncIterable<Uint8Array | string>) {
    this.it = chunks[Symbol.asyncIterator]();
  }
  async read(): Promise<Buffer | undefined> {
    let b = this.back.shift();
    if (!b) {
      const n = await this.it.next();
      if (n.done) return undefined;
      b = typeof n.value === 'string' ? Buffer.from(n.value) : Buffer.from(n.value.buffer, n.value.byteOffset, n.value.byteLength);
    }
    this.offset += b.length;
    return b;
  }
  unread(b: Buffer): void {
    if (b.length === 0) return;
    this.back.unshift(b);
    this.offset -= b.length;
  }
  /** At least `n` bytes (fewer only at the end of the stream), read as one buffer. */
  async readAtLeast(n: number, first?: Buffer): Promise<Buffer> {
    const parts = first ? [first] : [];
    let have = first?.length ?? 0;
    while (have < n) {
      const b = await this.read();
      if (!b) break;
      parts.push(b);
      have += b.length;
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }
  close(): void {
    void this.it.return?.();
  }
}

/**
 * The content of a gzip stream (standard input, a pipe), member after member, as `gunzipMembers` gives a
 * file's: a stream cannot be read again, so each member's deflate data goes through a raw inflate stream
 * (on libuv's thread pool, as Node's Gunzip) fed chunk by chunk, and the input it did not consume when its
 * deflate data ended is handed back for the trailer and the next member. Throws zlib's error for damaged or
 * cut-short data and a TrailingJunkError (with the junk's offset in the stream) after yielding every member.
 */
export async function* gunzipStream(chunks: AsyncIterable<Uint8Array | string>, options: Zlib.ZlibOptions): AsyncGenerator<Uint8Array> {
  const input = new ChunkReader(chunks);
  try {
    for (let member = 0; ; member++) {
      const start = input.offset;
      let head = await input.readAtLeast(10);
      let h = gzipHeaderLength(head);
      while (h === 0 && head.length < HEADER_BYTES) {
        const more = await input.read();
        if (!more) break;
        head = Buffer.concat([head, more]);
        h = gzipHeaderLength(head);
      }
      if (head.length === 0) return;
      if (h <= 0) {
        if (member === 0) throw Object.assign(new Error(h < 0 ? 'incorrect header check' : 'unexpected end of file'), { code: h < 0 ? 'Z_DATA_ERROR' : 'Z_BUF_ERROR' });
        // zero padding after the last member is ignored, as gzip does; anything else is junk
        let zeros = !head.some((x) => x !== 0);
        for (let b = await input.read(); zeros && b; b = await input.read()) zeros = !b.some((x) => x !== 0);
        if (zeros) return;
        throw new TrailingJunkError(start);
      }
      input.unread(head.subarray(h));
      yield* inflateMember(input, options);
      const trailer = await input.readAtLeast(8);
      if (trailer.length < 8) throw Object.assign(new Error('unexpected end of file'), { code: 'Z_BUF_ERROR' });
      input.unread(trailer.subarray(8));
    }
  } finally {
    input.close();
  }
}

/**
 * One member's deflate data from `input`, inflated; afterwards `input` holds what follows it. A raw inflate
 * stream ends (pushes its end) at the end of the deflate data and consumes nothing after it; its bytesWritten
 * is then the input it consumed, and the rest of what was written to it is handed back.
 */
async function* inflateMember(input: ChunkReader, options: Zlib.ZlibOptions): AsyncGenerator<Uint8Array> {
  const inflate = zlib().createInflateRaw(options);
  // chunks written and not yet known to be consumed, from stream offset `writtenFrom`
  const written: Buffer[] = [];
  let writtenFrom = 0;
  let done = false;
  const ended = new Promise<void>((resolve) => {
    inflate.once('end', resolve);
    inflate.once('close', resolve);
  }).then(() => {
    done = true;
  });
  const pump = (async () => {
    while (!done) {
      const b = await input.read();
      if (done) {
        if (b) input.unread(b);
        return;
      }
      if (!b) {
        inflate.end();
        return;
      }
      written.push(b);
      // drop what the inflater has consumed (bounded memory on a long member)
      while (written.length > 1 && writtenFrom + written[0]!.length <= inflate.bytesWritten) writtenFrom += written.shift()!.length;
      if (!inflate.write(b)) await Promise.race([new Promise((resolve) => inflate.once('drain', resolve)), ended]);
    }
  })();
  try {
    for await (const chunk of inflate) yield chunk as Uint8Array;
  } finally {
    done = true;
    inflate.destroy();
  }
  await pump;
  // hand back everything written beyond what the inflater consumed
  let skip = inflate.bytesWritten - writtenFrom;
  const rest: Buffer[] = [];
  for (const b of written) {
    if (skip >= b.length) skip -= b.length;
    else {
      rest.push(skip > 0 ? b.subarray(skip) : b);
      skip = 0;
    }
  }
  for (const b of rest.reverse()) input.unread(b);
}
