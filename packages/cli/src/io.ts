/** Reading inputs (a file or standard input) and writing files, with errors as one clear line (exit 2). */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { CliContext } from './context.js';
import { UsageError, CliError, EXIT_USAGE } from './errors.js';

export interface Input {
  /** The name diagnostics print: the path as given, or `<stdin>`. */
  name: string;
  /** Absolute path, for files. */
  path?: string;
  text: string;
}

export const STDIN_NAME = '<stdin>';

/** Reads FILE, or standard input for `-` or when no file is given and input is piped. */
export async function readInput(file: string | undefined, ctx: CliContext): Promise<Input> {
  if (file === undefined || file === '-') {
    if (file === undefined && ctx.stdin.isTTY) {
      throw new UsageError('no input: give a FILE, or pipe the filter on standard input (use - to read it explicitly)');
    }
    return { name: STDIN_NAME, text: await readStream(ctx.stdin) };
  }
  const abs = path.resolve(ctx.cwd, file);
  try {
    const buf = await fs.readFile(abs);
    return { name: file, path: abs, text: decodeUtf8(buf, file) };
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`cannot read ${file}: ${describeFsError(e)}`, EXIT_USAGE);
  }
}

export async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return decodeUtf8(Buffer.concat(chunks), STDIN_NAME);
}

function decodeUtf8(buf: Buffer, name: string): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    throw new CliError(`cannot read ${name}: it is not UTF-8 text`, EXIT_USAGE);
  }
}

/** Replaces a file's content atomically (write beside it, then rename), so an interrupted write loses nothing. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    await fs.writeFile(tmp, text);
    await fs.rename(tmp, file);
  } catch (e) {
    await fs.rm(tmp, { force: true }).catch(() => {});
    throw new CliError(`cannot write ${file}: ${describeFsError(e)}`, EXIT_USAGE);
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
