/** Reading inputs (a file or standard input) and writing files, with errors as one clear line (exit 2). */
import { isUtf8 } from 'node:buffer';
// Named imports of Node's modules: a default import makes the bundler copy all of a module's exports at load
// (esbuild's __toESM: ~1.5 M instructions of `compile-filter`'s start for node:fs and node:path).
import { closeSync, fstatSync, openSync, promises as fs, readFileSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';
import type { CliContext } from './context.js';
import { UsageError, CliError, EXIT_USAGE } from './errors.js';

export interface Input {
  /** The name diagnostics print: the path as given, or `<stdin>`. */
  name: string;
  /** Absolute path, for files. */
  path?: string;
  /** The text, without a leading byte-order mark. */
  text: string;
  /** True when the file began with a UTF-8 byte-order mark (which `fmt --write` keeps). */
  bom?: boolean;
}

export const STDIN_NAME = '<stdin>';

/**
 * The most a filter source or filter JSON may be: 4 MiB, thousands of times any real filter (the API takes 1000
 * bytes), and still read and checked in about a second. Reading stops there, so `/dev/zero` or an endless pipe
 * gives this error (exit 2) rather than filling memory.
 */
export const MAX_INPUT_BYTES = 4 * 1024 * 1024;

function tooLarge(name: string): CliError {
  return new CliError(`cannot read ${name}: it is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB, the input limit (a filter is at most 1000 bytes)`, EXIT_USAGE, name);
}

/** Reads FILE, or standard input for `-` or when no file is given and input is piped. */
export async function readInput(file: string | undefined, ctx: CliContext): Promise<Input> {
  if (file === undefined || file === '-') {
    if (file === undefined && ctx.stdin.isTTY) {
      throw new UsageError('no input: give a FILE, or pipe the filter on standard input (use - to read it explicitly)');
    }
    // Node reads a directory on standard input (`< dir`) as empty: it would be judged as an empty filter
    if (ctx.stdin === process.stdin && stdinIsDirectory()) throw new CliError(`cannot read ${STDIN_NAME}: it is a directory`, EXIT_USAGE, STDIN_NAME);
    return { name: STDIN_NAME, text: await readStream(ctx.stdin) };
  }
  const abs = resolvePath(ctx.cwd, file);
  try {
    const buf = await readFileLimited(abs, file);
    const text = decodeUtf8(buf, file);
    return buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? { name: file, path: abs, text, bom: true } : { name: file, path: abs, text };
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`cannot read ${file}: ${describeFsError(e)}`, EXIT_USAGE, file);
  }
}

function stdinIsDirectory(): boolean {
  try {
    return fstatSync(0).isDirectory();
  } catch {
    return false;
  }
}

export async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > MAX_INPUT_BYTES) {
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw tooLarge(STDIN_NAME);
    }
    chunks.push(buf);
  }
  return decodeUtf8(Buffer.concat(chunks), STDIN_NAME);
}

/**
 * Reads a file (or device, or FIFO) sequentially, never more than the limit plus one byte. Synchronous reads:
 * the input is at most 4 MiB and nothing else runs meanwhile, and `fs.promises` would load readline and the fs
 * watchers at every start-up of `compile-filter` (11 internal modules; start-up is what its callers wait for).
 */
async function readFileLimited(abs: string, name: string): Promise<Buffer> {
  // A regular file within the limit is read whole: readFileSync is already compiled by the bin's loader, so this
  // path costs `compile-filter` no more of Node's own functions to compile at start-up (each is parsed on its first
  // call). Size 0 may be a file of /proc, which only reading tells: it takes the bounded loop.
  const st = statSync(abs);
  if (st.isFile() && st.size > 0 && st.size <= MAX_INPUT_BYTES) {
    const whole = readFileSync(abs);
    if (whole.length > MAX_INPUT_BYTES) throw tooLarge(name);
    return whole;
  }
  const fd = openSync(abs, 'r');
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(1024 * 1024, MAX_INPUT_BYTES + 1 - size));
      const bytesRead = readSync(fd, buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > MAX_INPUT_BYTES) throw tooLarge(name);
      chunks.push(buf.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks);
  } finally {
    closeSync(fd);
  }
}

function decodeUtf8(buf: Buffer, name: string): string {
  // isUtf8 and toString rather than a fatal TextDecoder: the same verdict, without loading the encoding module's
  // functions at start-up
  if (!isUtf8(buf)) throw new CliError(`cannot read ${name}: it is not UTF-8 text`, EXIT_USAGE, name);
  const text = buf.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Replaces a file's content without losing it or what it is:
 * - a symbolic link is followed: the file it points to is rewritten, the link stays a link;
 * - the usual case is atomic: the new text goes to a temporary file beside the real one, with the same mode (and
 *   owner, when allowed), is flushed, then renamed over it, so an interrupted write leaves the old or the new file;
 * - a file with several hard links is rewritten in place (a rename would split it from its other names): the new
 *   text is first saved and flushed beside it as `.NAME.logfilter-new`, which stays there if the write in place
 *   fails half-way, and the error names it;
 * - a directory is refused with nothing written, and a FIFO or device is written through (never replaced).
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  let real = file;
  let tmp: string | undefined;
  try {
    const st = await existing(file);
    if (!st) {
      // A new file: nothing to keep; created with the usual mode (0666 less the umask), atomically all the same.
      tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
      await writeFlushed(tmp, text, undefined);
      await fs.rename(tmp, file);
      return;
    }
    // Not a regular file: a directory is refused before anything is written (its link count is not a hard link's);
    // a FIFO, a device or /dev/stdout is written through as a shell redirection does, never renamed over (that
    // would replace the node itself, /dev/null included when run as root).
    if (st.isDirectory()) throw new CliError(`cannot write ${file}: it is a directory`, EXIT_USAGE, file);
    if (!st.isFile()) {
      await fs.writeFile(file, text);
      return;
    }
    real = await fs.realpath(file);
    const mode = st.mode & 0o7777;
    if (st.nlink > 1) {
      const saved = join(dirname(real), `.${basename(real)}.logfilter-new`);
      await writeFlushed(saved, text, mode);
      try {
        await writeFlushed(real, text, mode, 'r+');
      } catch (e) {
        throw new CliError(`cannot write ${file}: ${describeFsError(e)}; the formatted text is kept in ${saved}`, EXIT_USAGE, file);
      }
      await fs.rm(saved, { force: true });
      return;
    }
    tmp = join(dirname(real), `.${basename(real)}.${process.pid}.tmp`);
    await writeFlushed(tmp, text, mode);
    await fs.chown(tmp, st.uid, st.gid).catch(() => {}); // keeps the owner when we may (root); else ours
    await fs.rename(tmp, real);
  } catch (e) {
    if (tmp) await fs.rm(tmp, { force: true }).catch(() => {});
    if (e instanceof CliError) throw e;
    throw new CliError(`cannot write ${file}: ${describeFsError(e)}`, EXIT_USAGE, file);
  }
}

/** The file's status (following links), or undefined when it does not exist (a dangling link counts as absent). */
async function existing(file: string) {
  try {
    return await fs.stat(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Writes `text` to `file` (created with `mode`, or opened with `flags` and truncated) and flushes it to disk. */
async function writeFlushed(file: string, text: string, mode: number | undefined, flags = 'w'): Promise<void> {
  const handle = await fs.open(file, flags, mode ?? 0o666);
  try {
    if (flags === 'r+') await handle.truncate(0);
    await handle.write(text, 0, 'utf8');
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function describeFsError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return (e as Error)?.message ?? String(e);
  }
}
