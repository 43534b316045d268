/**
 * One evaluation state (scanner, explain counters) applied to blocks of whole lines; used by the main thread
 * when it streams and by each worker on its byte ranges. It collects the lines to print and the first
 * malformed line numbers of each block.
 */
import { Buffer, isUtf8 } from 'node:buffer';
import { createBlockScanner, createExplainer, evalPlan, type BlockScanner, type Explainer, type FilterDocument, type ScanCounts } from '@logfilter/core';
import { nodeHooks, trustedDecode } from './node-hooks.js';
import { MALFORMED_REPORTED } from './types.js';

export interface RunnerOptions {
  validate: boolean;
  explain: boolean;
  strict: boolean;
  emit?: 'match' | 'other';
}

export interface BlockResult {
  counts: ScanCounts;
  /** 0-based physical line indexes of the first malformed lines in the block. */
  malformed: number[];
  /** The lines to print, each with its `\n`; empty when nothing is printed. */
  out: Buffer;
}

const NEWLINE = Buffer.from('\n');

export class BlockRunner {
  readonly scanner: BlockScanner;
  readonly explainer?: Explainer;

  /** `calibration`: the clause order of another thread's scanner of this filter (BlockScanner.calibration). */
  constructor(
    filter: FilterDocument,
    readonly options: RunnerOptions,
    calibration?: readonly number[],
  ) {
    // one compilation of the filter for the scanner and the explainer
    const plan = evalPlan(filter);
    this.scanner = createBlockScanner(plan, nodeHooks, calibration);
    if (options.explain) this.explainer = createExplainer(plan);
  }

  /** Every line is parsed in these modes: malformed counts are exact. */
  get validating(): boolean {
    return this.options.validate || this.options.explain || this.options.strict;
  }

  run(buf: Buffer, start: number, end: number): BlockResult {
    const malformed: number[] = [];
    const pieces: Buffer[] = [];
    const emit = this.options.emit;
    const strict = this.options.strict;
    const push = (s: number, e: number) => {
      pieces.push(buf.subarray(s, e), NEWLINE);
    };
    const explainer = this.explainer;
    const counts = this.scanner.scan(buf, start, end, {
      validate: this.validating,
      // Lines are decoded only once known to be UTF-8: checked by the line kernel for each line it reads,
      // otherwise by one SIMD validation of the block.
      decode: (this.scanner.checksUtf8 && !this.validating) || isUtf8(buf.subarray(start, end)) ? trustedDecode : undefined,
      onMatch: emit === 'match' ? (_t, s, e) => push(s, e) : undefined,
      onOther: emit === 'other' ? push : undefined,
      onMalformed: (line) => {
        if (malformed.length < MALFORMED_REPORTED) malformed.push(line);
        return !strict;
      },
      onObject: explainer ? (o) => explainer.add(o) : undefined,
    });
    return { counts, malformed, out: pieces.length ? Buffer.concat(pieces) : Buffer.alloc(0) };
  }
}
