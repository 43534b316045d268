/** Adds block results into the run's totals, turning block-relative line indexes into file line numbers. */
import type { ScanCounts } from '@logfilter/core';
import { MALFORMED_REPORTED, type MalformedLine } from './types.js';

export class Totals {
  total = 0;
  matched = 0;
  malformed = 0;
  parsed = 0;
  bytes = 0;
  malformedLines: MalformedLine[] = [];
  stoppedAt?: MalformedLine;
  /** Physical lines seen so far in the current file. */
  private fileLines = 0;
  private file = '';

  startFile(name: string): void {
    this.file = name;
    this.fileLines = 0;
  }

  add(counts: ScanCounts, malformed: readonly number[]): void {
    this.total += counts.total;
    this.matched += counts.matched;
    this.malformed += counts.malformed;
    this.parsed += counts.parsed;
    for (const i of malformed) {
      if (this.malformedLines.length < MALFORMED_REPORTED) this.malformedLines.push({ file: this.file, line: this.fileLines + i + 1 });
    }
    if (counts.stopped && malformed.length > 0) this.stoppedAt = { file: this.file, line: this.fileLines + counts.lines };
    this.fileLines += counts.lines;
  }

  /** A line too long to hold: counted as one malformed line. */
  addTooLong(): void {
    this.total++;
    this.malformed++;
    this.fileLines++;
    if (this.malformedLines.length < MALFORMED_REPORTED) this.malformedLines.push({ file: this.file, line: this.fileLines });
  }
}
