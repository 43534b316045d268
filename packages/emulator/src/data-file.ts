/**
 * Where the `--data` file really is, and who owns it. A symlink is followed (a write replaces the file it leads
 * to, never the link), and one emulator at a time holds the file: a second one on the same file would answer from
 * its own copy and its next write would drop what the first acknowledged.
 */
import { closeSync, linkSync, lstatSync, openSync, readFileSync, readlinkSync, realpathSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { StateFileError } from './state-errors.js';

/** The file `file` leads to through its symlinks, also when that file does not exist yet (a dangling link). */
export function throughLinks(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    // Missing: follow the links by hand as far as they go (realpath refuses a dangling link).
  }
  let path = resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    let link: string;
    try {
      if (!lstatSync(path).isSymbolicLink()) return path;
      link = readlinkSync(path);
    } catch {
      return path;
    }
    path = resolve(dirname(path), link);
  }
  throw new StateFileError(`data file ${file}: too many symbolic links`);
}

export interface DataFileLock {
  readonly path: string;
  release(): void;
}

/** What a lock file says of its holder. */
interface Holder {
  pid: number;
  host: string;
  started: string;
}

/**
 * Takes `<target>.lock`, made whole in a temporary file and then hard-linked into place, so a lock file always
 * names its holder (link() fails if the lock exists; there is no moment when it exists empty). A lock whose process
 * is gone (a kill -9) is stale and taken over; a lock of a live process refuses the start, naming it. Hand-written
 * rather than proper-lockfile: that one marks staleness by mtime (a restart after kill -9 would wait for it to age)
 * and does not say who holds the lock.
 */
export function lockDataFile(target: string, file: string): DataFileLock {
  const path = `${target}.lock`;
  const me: Holder = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  const tmp = `${path}.${process.pid}.tmp`;
  let fd: number;
  try {
    fd = openSync(tmp, 'w', 0o600);
  } catch (e) {
    // the first file made beside the data file: say which file the user named, not this temporary
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' || code === 'ENOTDIR' ? 'its directory does not exist' : code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'its directory cannot be written' : (e as Error).message;
    throw new StateFileError(`cannot lock data file ${file}: ${why}`);
  }
  try {
    writeSync(fd, `${JSON.stringify(me)}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(tmp, path);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw new StateFileError(`cannot lock data file ${file}: ${(e as Error).message}`);
      }
      const holder = readHolder(path);
      if (holder && isAlive(holder)) {
        throw new StateFileError(
          `data file ${file} is in use by process ${holder.pid} on ${holder.host} (since ${holder.started}); stop that emulator or pass another --data file (lock: ${path})`,
        );
      }
      // Stale: its process is gone. Remove it and try again (another starter may win the race; then it is live).
      try {
        unlinkSync(path);
      } catch {
        /* already taken over */
      }
    }
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      /* gone */
    }
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    // Only our own lock: after a takeover by someone else (it judged us dead), theirs stays.
    if (readHolder(path)?.pid === me.pid) {
      try {
        unlinkSync(path);
      } catch {
        /* gone */
      }
    }
  };
  process.on('exit', release);
  return { path, release };
}

function readHolder(path: string): Holder | undefined {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as Holder;
    return typeof h.pid === 'number' && typeof h.host === 'string' ? h : undefined;
  } catch {
    return undefined;
  }
}

/** A holder on another host cannot be checked: it counts as alive (removing its lock is the user's call). */
function isAlive(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
