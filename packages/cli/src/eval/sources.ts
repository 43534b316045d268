/** Opening inputs: files (gzip recognised by its magic bytes), standard input; errors become exit-2 errors. */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { once } from 'node:events';
import { CliError, EXIT_USAGE } from '../errors.js';
import { describeFsError } from '../io.js';

export interface Source {
  /** Name in messages and malformed-line reports (`-` shown as `<stdin>`). */
  name: string;
  /** Absolute path of a regular file (absent for stdin). */
  path?: string;
  /** Size in bytes of a regular uncompressed file (absent when unknown). */
  size?: number;
  gzip: boolean;
}

const READ_CHUNK = 1 << 20;

export function inspectFile(name: string, abs: string): Source {
  let fd: number | undefined;
  try {
    const st = fs.statSync(abs);
    if (st.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    fd = fs.openSync(abs, 'r');
    const magic = Buffer.alloc(2);
    const n = fs.readSync(fd, magic, 0, 2, 0);
    const gzip = n === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
    return { name, path: abs, size: st.isFile() && !gzip ? st.size : undefined, gzip };
  } catch (e) {
    throw new CliError(`cannot read ${name}: ${describeFsError(e)}`, EXIT_USAGE);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** A stream given as chunks, decompressed when its first bytes are the gzip magic (e.g. `zcat`-less stdin). */
async function* sniffGzip(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array | string> {
  const it = chunks[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return;
  const head = first.value;
  if (typeof head === 'string' || head.length < 2 || head[0] !== 0x1f || head[1] !== 0x8b) {
    yield head;
    for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
    return;
  }
  const gunzip = zlib.createGunzip({ chunkSize: 256 * 1024 });
  void (async () => {
    try {
      if (!gunzip.write(head)) await once(gunzip, 'drain');
      for (let n = await it.next(); !n.done; n = await it.next()) if (!gunzip.write(n.value)) await once(gunzip, 'drain');
      gunzip.end();
    } catch (e) {
      gunzip.destroy(e as Error);
    }
  })();
  yield* gunzip;
}

/** The bytes of a source, decompressed when gzip. Stream errors surface as exit-2 errors naming the input. */
export async function* openBytes(src: Source, stdin: AsyncIterable<Uint8Array | string>, onRead?: (n: number) => void): AsyncGenerator<Uint8Array | string> {
  const raw: AsyncIterable<Uint8Array | string> = src.path ? fs.createReadStream(src.path, { highWaterMark: READ_CHUNK }) : sniffGzip(stdin);
  let input: AsyncIterable<Uint8Array | string> = raw;
  if (src.gzip && src.path) {
    const gunzip = zlib.createGunzip({ chunkSize: 256 * 1024 });
    (raw as NodeJS.ReadableStream).pipe(gunzip);
    (raw as NodeJS.ReadableStream).on('error', (e: Error) => gunzip.destroy(e));
    input = gunzip;
  }
  try {
    for await (const chunk of input) {
      onRead?.(chunk.length);
      yield chunk;
    }
  } catch (e) {
    const what = (src.gzip || (e as NodeJS.ErrnoException).code?.startsWith('Z_')) && !(e as NodeJS.ErrnoException).syscall ? `not a valid gzip file (${(e as Error).message})` : describeFsError(e);
    throw new CliError(`cannot read ${src.name}: ${what}`, EXIT_USAGE);
  }
}
