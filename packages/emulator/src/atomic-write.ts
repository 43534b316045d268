/** The one way a file of the emulator's is replaced whole (the data file's snapshot, the journal's first line). */
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Write to a temporary file in the same directory, fsync it, rename it over the target and fsync the directory:
 * a reader (or a restart after a kill) sees either the old or the new state, never half of one.
 */
export function writeAtomically(file: string, text: string): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw e;
  }
  try {
    const dfd = openSync(dirname(file), 'r');
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    // Some file systems do not allow fsync on a directory; the rename itself is still atomic.
  }
}
