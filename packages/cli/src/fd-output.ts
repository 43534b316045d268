/**
 * Stdout and stderr written with fs.writeSync on their descriptors instead of through process.stdout and
 * process.stderr. Creating either stream loads Node's whole stream stack (and `net` for a pipe): ~3.5 ms of CPU
 * of every start of `compile-filter` and `eval` (measured: -13 M of ~133 M instructions of a whole
 * `compile-filter` run, with picocolors' probe below), for output that is a line or two.
 *
 * Node writes files, pipes and terminals synchronously on Linux and macOS anyway, so the bytes and their order
 * are the same. What a stream does beyond that is kept by handing over to the real stream, for good, when it is
 * needed: a descriptor that is non-blocking (a pipe shared with a process that set O_NONBLOCK) answers EAGAIN
 * when full, and the rest of that write and every later one then go through the stream, which waits for the
 * reader (nothing is lost, and `write` returns false with `drain` to wait for, as eval's printing expects); a
 * progress bar needs the terminal stream itself (`stream`). A closed pipe (`logfilter eval --print | head`)
 * ends the process with the status so far, as the bins did on the stream's EPIPE.
 *
 * `isTTY` is asked of the descriptor only when read, which only colour choices and the progress bar do.
 */
import { fstatSync, statSync, writeSync } from 'node:fs';
import { CliError, EXIT_USAGE } from './errors.js';

/** A CliContext's stdout or stderr (context.ts's Output, not imported: context.ts imports this module). */
export interface FdOutput {
  write(chunk: string | Uint8Array): boolean;
  readonly isTTY: boolean;
  readonly columns: number | undefined;
  /** The real process stream; every later write goes through it. */
  readonly stream: NodeJS.WriteStream;
  once(event: string, listener: () => void): unknown;
}

/** What fdOutput needs of the process (injected in tests). */
export interface FdHost {
  writeSync(fd: number, bytes: Uint8Array, offset: number, length: number): number;
  stream(fd: 1 | 2): NodeJS.WriteStream;
  isatty(fd: number): boolean;
  /** A closed pipe on stdout: the reader is gone. */
  closed(): void;
}

/** process.stdout or process.stderr; on stdout, as on the descriptor, a closed pipe ends the process with the status so far. */
export function processStream(fd: 1 | 2): NodeJS.WriteStream {
  const s = fd === 1 ? process.stdout : process.stderr;
  if (fd === 1) s.on('error', (e: NodeJS.ErrnoException) => e.code === 'EPIPE' && processHost.closed());
  return s;
}

const processHost: FdHost = {
  writeSync: (fd, bytes, offset, length) => writeSync(fd, bytes, offset, length),
  stream: processStream,
  isatty: (fd) => {
    // A file, a pipe or a socket is no terminal, and neither is /dev/null (where scripts send what they do not
    // read): told by a stat, without node:tty, which loads the stream modules (Node >= 20.16 has
    // getBuiltinModule, which loads it only here).
    try {
      const st = fstatSync(fd);
      if (!st.isCharacterDevice() || st.rdev === statSync('/dev/null').rdev) return false;
    } catch {
      // no such device here (Windows): the terminal check says
    }
    return process.getBuiltinModule('node:tty').isatty(fd);
  },
  closed: () => process.exit(process.exitCode ?? 0),
};

export function fdOutput(fd: 1 | 2, host: FdHost = processHost): FdOutput {
  let stream: NodeJS.WriteStream | undefined;
  let closed = false;
  let tty: boolean | undefined;
  const real = () => (stream ??= host.stream(fd));
  return {
    write(chunk: string | Uint8Array): boolean {
      if (stream) return stream.write(chunk);
      if (closed) return true;
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      let at = 0;
      while (at < bytes.length) {
        try {
          at += host.writeSync(fd, bytes, at, bytes.length - at);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'EAGAIN') return real().write(bytes.subarray(at));
          // a full disk or a failing device: the user's output is lost, an I/O error (exit 2) that says where
          if (code !== 'EPIPE') throw new CliError(`cannot write ${fd === 1 ? 'standard output' : 'standard error'}: ${code === 'ENOSPC' ? 'no space left on the device' : (e as Error).message}`, EXIT_USAGE);
          closed = true;
          if (fd === 1) host.closed();
          return true;
        }
      }
      return true;
    },
    get isTTY() {
      return (tty ??= stream ? stream.isTTY === true : host.isatty(fd));
    },
    get columns() {
      return this.isTTY ? real().columns : undefined;
    },
    get stream() {
      return real();
    },
    once(event: string, listener: () => void) {
      return real().once(event, listener);
    },
  };
}
