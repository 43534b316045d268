/** Runs every evaluation path of the core over one NDJSON text, for comparison with the reference. */
import { Buffer, isUtf8 } from 'node:buffer';
import { expect } from 'vitest';
import { type ScanCounts, createBlockScanner, createLineMatcher, createMatcher, createExplainer, isLogObject, parseExact } from '../../src/eval/index.js';
import type { FilterDocument } from '../../src/filter/filter.js';

/** Node's Buffer search and decoder, as the CLI injects them. */
export const nodeHooks = {
  search: (hay: Uint8Array, needle: Uint8Array, from: number, to: number) => {
    const b = Buffer.from(hay.buffer, hay.byteOffset + from, to - from);
    const i = b.indexOf(needle);
    return i < 0 ? -1 : i + from;
  },
  decode: (hay: Uint8Array, start: number, end: number) => {
    const b = Buffer.from(hay.buffer, hay.byteOffset + start, end - start);
    return isUtf8(b) ? b.toString('utf8') : null;
  },
};

export interface PathResult {
  total: number;
  matched: number;
  malformed: number;
  matches: number[];
}

/** Line index of each byte offset that starts a line. */
function lineIndexer(bytes: Uint8Array): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
}

/** The block scanner, optionally over several blocks split at line ends, with or without validation. */
/** `kernel: false` takes the pure-JS path (extractor and JSON.parse), as where WebAssembly is unavailable. */
export function scanPath(filter: FilterDocument, bytes: Uint8Array, opts: { validate?: boolean; node?: boolean; blocks?: number; kernel?: boolean } = {}): PathResult {
  const scanner = createBlockScanner(filter, { ...(opts.node ? nodeHooks : {}), kernel: opts.kernel });
  const index = lineIndexer(bytes);
  const out: PathResult = { total: 0, matched: 0, malformed: 0, matches: [] };
  // Cut points at line ends so that each block holds whole lines.
  const cuts = [0];
  const blocks = opts.blocks ?? 1;
  for (let k = 1; k < blocks; k++) {
    const target = Math.floor((bytes.length * k) / blocks);
    const nl = bytes.indexOf(10, Math.max(target, cuts[cuts.length - 1]!));
    if (nl >= 0) cuts.push(nl + 1);
  }
  cuts.push(bytes.length);
  for (let k = 0; k + 1 < cuts.length; k++) {
    if (cuts[k]! >= cuts[k + 1]!) continue;
    const c = scanner.scan(bytes, cuts[k]!, cuts[k + 1]!, {
      validate: opts.validate,
      onMatch: (_t, s) => out.matches.push(index(s)),
    });
    out.total += c.total;
    out.matched += c.matched;
    out.malformed += c.malformed;
  }
  return out;
}

/** The compiled predicate on parsed objects and the line matcher, line by line. */
export function linePaths(filter: FilterDocument, text: string): { object: PathResult; line: PathResult; explain: PathResult } {
  const matcher = createMatcher(filter);
  const lm = createLineMatcher(filter);
  const ex = createExplainer(filter);
  const object: PathResult = { total: 0, matched: 0, malformed: 0, matches: [] };
  const line: PathResult = { total: 0, matched: 0, malformed: 0, matches: [] };
  const explain: PathResult = { total: 0, matched: 0, malformed: 0, matches: [] };
  text.split('\n').forEach((raw, i) => {
    const verdict = lm.classify(raw, true);
    if (verdict === 'blank') return;
    line.total++;
    if (verdict === 'malformed') line.malformed++;
    if (verdict === 'match') {
      line.matched++;
      line.matches.push(i);
    }
    if (lm.test(raw) !== (verdict === 'match')) throw new Error(`line matcher shortcut disagrees on line ${i}`);
    object.total++;
    explain.total++;
    let v: unknown;
    try {
      // the object API's callers parse the line; parseExact keeps integers beyond 2^53 exact
      v = parseExact(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    } catch {
      object.malformed++;
      explain.malformed++;
      return;
    }
    if (!isLogObject(v)) {
      object.malformed++;
      explain.malformed++;
      return;
    }
    if (matcher.test(v)) {
      object.matched++;
      object.matches.push(i);
    }
    if (ex.add(v)) {
      explain.matched++;
      explain.matches.push(i);
    }
  });
  return { object, line, explain };
}

export interface BlockRun extends ScanCounts {
  matches: number[];
  malformedAt: number[];
  seen: string[];
  clauses: number;
}

/**
 * One block scanner over `text` cut into `blocks` blocks at line ends, summed. `lineByLine` asks for the other
 * lines too (`onOther`: the JS line walk, no block read); `kernelWalk` forces the kernel's prefilter walk
 * whatever the sample says; `stopAt` stops at that many malformed lines.
 */
export function scanBlocks(filter: FilterDocument, text: string, opts: { lineByLine?: boolean; stopAt?: number; blocks?: number; kernelWalk?: boolean } = {}): BlockRun {
  const bytes = new TextEncoder().encode(text);
  const scanner = createBlockScanner(filter, opts.kernelWalk ? { ...nodeHooks, kernelWalk: true } : nodeHooks);
  const out: BlockRun = { lines: 0, total: 0, matched: 0, malformed: 0, parsed: 0, read: 0, stopped: false, matches: [], malformedAt: [], seen: [], clauses: 0 };
  const cuts = [0];
  for (let k = 1; k < (opts.blocks ?? 1); k++) {
    const nl = bytes.indexOf(10, Math.max(Math.floor((bytes.length * k) / (opts.blocks ?? 1)), cuts[cuts.length - 1]!));
    if (nl >= 0) cuts.push(nl + 1);
  }
  cuts.push(bytes.length);
  for (let k = 0; k + 1 < cuts.length && !out.stopped; k++) {
    const base = out.lines;
    const c = scanner.scan(bytes, cuts[k]!, cuts[k + 1]!, {
      onMatch: (t, s, e) => {
        expect(t).toBe(new TextDecoder().decode(bytes.subarray(s, e)).replace(/\r$/, ''));
        out.matches.push(s);
      },
      onMalformed: (line) => {
        out.malformedAt.push(base + line);
        return opts.stopAt === undefined || out.malformedAt.length < opts.stopAt;
      },
      onOther: opts.lineByLine ? () => {} : undefined,
    });
    for (const key of ['lines', 'total', 'matched', 'malformed', 'parsed', 'read'] as const) out[key] += c[key];
    out.stopped = c.stopped;
  }
  out.seen = scanner.seenFields();
  out.clauses = scanner.plan().length;
  return out;
}
