/**
 * Counting: a FileTally adds up the block results of one input (turning block-relative line indexes into
 * file line indexes), on the main thread or in a worker; Totals adds the tallies of a run in input order, so
 * the first malformed lines reported are the first in input order whichever thread finished first.
 */
import type { ScanCounts } from '@logfilter/core';
import { MALFORMED_REPORTED, type InputError, type MalformedLine } from './types.js';

export interface TallyData {
  lines: number;
  total: number;
  matched: number;
  malformed: number;
  parsed: number;
  /** Lines read past the prefilter (see ScanCounts.read). */
  read: number;
  /** Uncompressed bytes read. */
  bytes: number;
  /** 0-based line indexes (in the file) of the first malformed lines. */
  malformedAt: number[];
  /** Set when `--strict` stopped at a malformed line (its 0-based index). */
  stoppedAt?: number;
  /** Why reading stopped early (truncated gzip, unreadable file); the counts before it stand. */
  error?: string;
}

export class FileTally implements TallyData {
  lines = 0;
  total = 0;
  matched = 0;
  malformed = 0;
  parsed = 0;
  read = 0;
  bytes = 0;
  malformedAt: number[] = [];
  stoppedAt?: number;
  error?: string;

  /** Adds one block's counts; `malformed` holds block-relative line indexes. */
  add(counts: ScanCounts, malformed: readonly number[], bytes: number): void {
    for (const i of malformed) if (this.malformedAt.length < MALFORMED_REPORTED) this.malformedAt.push(this.lines + i);
    if (counts.stopped && malformed.length > 0) this.stoppedAt = this.lines + counts.lines - 1;
    this.sum(counts, bytes);
  }

  /** The line counts and bytes of a part that follows what is counted so far. */
  private sum(c: Pick<TallyData, 'lines' | 'total' | 'matched' | 'malformed' | 'parsed' | 'read'>, bytes: number): void {
    this.lines += c.lines;
    this.total += c.total;
    this.matched += c.matched;
    this.malformed += c.malformed;
    this.parsed += c.parsed;
    this.read += c.read;
    this.bytes += bytes;
  }

  /** Adds the tally of the next part of the same input (a worker's byte range). */
  addData(t: TallyData): void {
    for (const i of t.malformedAt) if (this.malformedAt.length < MALFORMED_REPORTED) this.malformedAt.push(this.lines + i);
    if (t.stoppedAt !== undefined) this.stoppedAt = this.lines + t.stoppedAt;
    this.sum(t, t.bytes);
    if (t.error && !this.error) this.error = t.error;
  }

  /** A line too long to hold (see line-blocks.ts): one malformed line, never read. */
  addTooLong(bytes: number, strict: boolean): void {
    if (this.malformedAt.length < MALFORMED_REPORTED) this.malformedAt.push(this.lines);
    if (strict) this.stoppedAt = this.lines;
    this.lines++;
    this.total++;
    this.malformed++;
    this.bytes += bytes;
  }

  get stopped(): boolean {
    return this.stoppedAt !== undefined;
  }

  data(): TallyData {
    const { lines, total, matched, malformed, parsed, read, bytes, malformedAt, stoppedAt, error } = this;
    return { lines, total, matched, malformed, parsed, read, bytes, malformedAt, ...(stoppedAt !== undefined ? { stoppedAt } : {}), ...(error ? { error } : {}) };
  }
}

export class Totals {
  total = 0;
  matched = 0;
  malformed = 0;
  parsed = 0;
  bytes = 0;
  malformedLines: MalformedLine[] = [];
  stoppedAt?: MalformedLine;
  errors: InputError[] = [];

  /** Adds one input's tally; call in input order. */
  addFile(file: string, t: TallyData): void {
    this.total += t.total;
    this.matched += t.matched;
    this.malformed += t.malformed;
    this.parsed += t.parsed;
    this.bytes += t.bytes;
    for (const i of t.malformedAt) if (this.malformedLines.length < MALFORMED_REPORTED) this.malformedLines.push({ file, line: i + 1 });
    if (t.stoppedAt !== undefined) this.stoppedAt = { file, line: t.stoppedAt + 1 };
    if (t.error) this.errors.push({ file, message: t.error });
  }
}
