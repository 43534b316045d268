/**
 * The raw-line evaluator: runs a filter over a block of NDJSON bytes without parsing the lines that provably
 * cannot match (see needles.ts). It stays pure (no Buffer, no I/O): the caller may inject a faster substring
 * search and UTF-8 decoder (Node's Buffer ones) through `ScanHooks`.
 *
 * Per block: every needle of the most selective clause is searched once over the whole block, and escapes that
 * could hide one of its characters are located; a line is a candidate when one of those positions falls inside
 * it and its other clauses hold on the line's bytes. Only candidates are read. Where WebAssembly runs, the line
 * kernel (line-kernel.ts) reads each candidate in one pass: it decides exactly whether the line is a JSON object
 * (as JSON.parse would, UTF-8 included) and finds the filter's fields; the string conditions that a value's bytes
 * decide are tested on them (span-conditions.ts), the others decode the values lazily; no candidate is parsed
 * with JSON.parse. Elsewhere (and in `validate` mode, whose callers want parsed
 * objects) the JS extractor rejects what it can and the rest is parsed with `JSON.parse`. Either way a line
 * matches only when it is a JSON object that the compiled predicate keeps, so `matched` is exact.
 *
 * `scan` splits the block into lines and hands each to these paths, one function each: `prefilter` (is it a
 * candidate), `skipped` (not read: its outline only), `byKernel`, `byFields` (the JS extractor's rejection)
 * and `byParse` (JSON.parse); a path that cannot decide a line leaves it to the next. A block whose every line
 * is read (no prefilter, no `onOther`) goes to the kernel whole instead (`byBlock`): it splits the lines and
 * runs the filter's program (kernel-program.ts) on each, and only the lines it matched, found malformed or
 * could not decide come back, to the same paths.
 *
 * Lines are split on `\n`; one trailing `\r` is ignored; a line of only spaces, tabs and `\r` is blank (skipped,
 * not counted). A line that is not valid UTF-8 or not a JSON object is malformed.
 */
import type { FilterDocument } from '../filter/filter.js';
import { compileNode, isLogObject } from './matcher.js';
import { evalPlan, expectFilterDocument, isEvalPlan, type EvalPlan } from './plan.js';
import type { ObjectTest } from './conditions.js';
import { needlePlan, type NeedleClause, type NeedlePlan } from './needles.js';
import { createExtractor, type Extractor } from './extract.js';
import { createLineKernel, NOT_OBJECT, REC_MALFORMED, REC_MATCH, REC_MAX, VALID, type LineKernel } from './line-kernel.js';
import { kernelProgram } from './kernel-program.js';
import { createSpanRow } from './span-values.js';
import { parseExact } from './exact.js';
import { compileSpanNode, type SpanTest } from './span-conditions.js';

import type { ByteDecode, ByteSearch } from './bytes.js';

export type { ByteDecode, ByteSearch };

export interface ScanHooks {
  search?: ByteSearch;
  decode?: ByteDecode;
  /**
   * False: never use the WebAssembly line kernel, only the JS extractor and JSON.parse (the path taken anyway
   * where WebAssembly is unavailable, as under `node --jitless`).
   */
  kernel?: boolean;
  /**
   * True: the kernel walks every block that has clauses, whatever the sample says (see KERNEL_WALK_SHARE); for
   * tests, which compare both walks on few lines.
   */
  kernelWalk?: boolean;
}

export interface ScanCallbacks {
  /** A matching line: its text (without `\r`) and byte range (`end` excludes `\n` but includes a `\r`). */
  onMatch?(text: string, start: number, end: number): void;
  /** A non-blank line that did not match (malformed ones included), for `--invert`. */
  onOther?(start: number, end: number): void;
  /** A malformed line; `line` is its 0-based index among the block's physical lines. Return false to stop. */
  onMalformed?(line: number, start: number, end: number): boolean | void;
  /**
   * Every parsed object (only in `validate` mode, where every line is parsed). Its return value decides
   * the match, so an explainer can count and decide in one evaluation.
   */
  onObject?(o: Record<string, unknown>): boolean;
}

export interface ScanOptions extends ScanCallbacks {
  /** Parse every line (exact malformed count, explain, strict); no shortcut. */
  validate?: boolean;
  /** A decoder for this block only (e.g. a faster one once the whole block is known to be valid UTF-8). */
  decode?: ByteDecode;
}

export interface ScanCounts {
  /** Physical lines consumed, blank ones included (for line numbers). */
  lines: number;
  /** Non-blank lines. */
  total: number;
  matched: number;
  /** Malformed lines found: exact in validate mode; otherwise among the lines that were read. */
  malformed: number;
  /**
   * Lines parsed with JSON.parse (none of the lines the line kernel reads: it validates them without building
   * values). The kernel reads every candidate, and which lines are candidates depends on each scanner's
   * sampling, so counting them would make this number differ between a run on workers and one without.
   */
  parsed: number;
  /** Lines read past the prefilter (by the line kernel, the field extractor or JSON.parse); all in validate mode. */
  read: number;
  /** True when `onMalformed` asked to stop; `lines` then counts up to and including that line. */
  stopped: boolean;
}

export interface BlockScanner {
  /** Scans `hay[start, end)`, which must hold whole lines (a final line without `\n` is a whole line). */
  scan(hay: Uint8Array, start: number, end: number, options?: ScanOptions): ScanCounts;
  /** The fields the filter reads that some scanned line carried (a literal `"Key":` or a parsed key). */
  seenFields(): string[];
  /** The fields the filter reads. */
  readonly fields: readonly string[];
  /** The prefilter clauses in the order used (most selective first); empty when every line is parsed. */
  plan(): readonly NeedleClause[];
  /**
   * The share of lines (0 to 1) the prefilter would let through to be read, estimated on a sample of the
   * first lines of `hay[start, end)` (whole lines); the sample also orders the clauses, as the first scan would.
   * 1 when the filter gives no clause, and for a scanner given its calibration (it keeps no sample). A caller
   * decides from it how CPU-bound the scan will be.
   */
  readShare(hay: Uint8Array, start: number, end: number): number;
  /**
   * True when the line kernel reads the candidate lines (outside `validate` mode): it checks their UTF-8
   * itself, so only the lines it accepted are ever decoded, and a caller needs no UTF-8 check of its own
   * before passing a non-validating `decode`.
   */
  readonly checksUtf8: boolean;
  /**
   * Once the clauses are ordered (by the first scan or `readShare`), the order as indexes into the filter's
   * needle plan, for another scanner of the same filter to start from (`createBlockScanner`'s `calibration`)
   * instead of sampling lines again; undefined before. A last element of -1 says the sample chose the kernel's
   * walk (KERNEL_WALK_SHARE), which the other scanner then takes too.
   */
  calibration(): number[] | undefined;
  /**
   * Where the line kernel runs, a buffer of `length` bytes in its memory to read the next block into (see
   * LineKernel.region: scanning it there spares one copy of every byte); undefined otherwise. Valid until the
   * next call; with `keep`, the previous region's bytes are kept.
   */
  region(length: number, keep?: boolean): Uint8Array | undefined;
  /**
   * At most how many bytes after `hay[start, end)` a scan of it may overwrite, when `hay` is a `region` (0
   * otherwise, and where no line kernel runs): a caller keeps aside what it still needs there.
   */
  overwrites(length: number): number;
}

const NL = 10;
const CR = 13;
const BACKSLASH = 92;
const OPEN = 123;
const CLOSE = 125;

const fatalDecoder = new TextDecoder('utf-8', { fatal: true });

export const defaultDecode: ByteDecode = (hay, start, end) => {
  try {
    return fatalDecoder.decode(hay.subarray(start, end));
  } catch {
    return null;
  }
};

export const defaultSearch: ByteSearch = (hay, needle, from, to) => {
  const n = needle.length;
  if (n === 0) return from <= to ? from : -1;
  const first = needle[0]!;
  const last = to - n;
  let i = from;
  while (i <= last) {
    i = hay.indexOf(first, i);
    if (i < 0 || i > last) return -1;
    let j = 1;
    while (j < n && hay[i + j] === needle[j]) j++;
    if (j === n) return i;
    i++;
  }
  return -1;
};

function isSpace(b: number): boolean {
  return b === 32 || b === 9 || b === CR;
}

function hexValue(b: number): number {
  if (b >= 48 && b <= 57) return b - 48;
  const l = b | 0x20;
  if (l >= 97 && l <= 102) return l - 87;
  return -1;
}

const SIMPLE_ESCAPES: Record<number, number> = { 34: 34, 92: 92, 47: 47, 98: 8, 102: 12, 110: 10, 114: 13, 116: 9 };

/**
 * Calls `hit(position)` for every escape in `hay[from, to)` that decodes to a code unit in `triggers`. Escapes
 * are consumed left to right so `\\u0041` is an escaped backslash followed by text, not an escaped `A`; an
 * escape never extends over a line end, so one malformed line cannot hide the escapes of the next.
 */
function findTriggers(hay: Uint8Array, from: number, to: number, triggers: ReadonlySet<number>, hit: (p: number) => boolean): void {
  let p = from;
  while (p < to) {
    p = hay.indexOf(BACKSLASH, p);
    if (p < 0 || p >= to) return;
    const c = hay[p + 1] ?? 0;
    let unit = -1;
    let width = 2;
    if (c === 117) {
      const a = hexValue(hay[p + 2] ?? 0);
      const b = hexValue(hay[p + 3] ?? 0);
      const d = hexValue(hay[p + 4] ?? 0);
      const e = hexValue(hay[p + 5] ?? 0);
      if ((a | b | d | e) >= 0 && p + 5 < to) {
        unit = (a << 12) | (b << 8) | (d << 4) | e;
        width = 6;
      }
    } else {
      unit = SIMPLE_ESCAPES[c] ?? -1;
    }
    if (unit >= 0 && triggers.has(unit) && !hit(p)) return;
    p += width;
  }
}

function clauseHoldsIn(hay: Uint8Array, from: number, to: number, clause: NeedleClause, search: ByteSearch): boolean {
  for (const b of clause.bytes) if (search(hay, b, from, to) >= 0) return true;
  if (clause.triggers.size === 0) return false;
  let found = false;
  findTriggers(hay, from, to, clause.triggers, () => {
    found = true;
    return false;
  });
  return found;
}

/**
 * Lines sampled from the first blocks to order the clauses by selectivity (each sampled line is searched for
 * every needle of every clause, a fixed cost per scanner, that is per thread: a few hundred lines tell a
 * clause most lines satisfy from a selective one).
 */
const SAMPLE_LINES = 500;
/** Clauses are judged once the sample holds this many lines (until then they all stay, in filter order). */
const MIN_SAMPLE = 200;
/** A clause that this share of sampled lines satisfy is not worth searching for. */
const MAX_CLAUSE_HITS = 0.5;
/** Hits past which a clause is dropped whatever the rest of the sample holds. */
const SURE_DROP = SAMPLE_LINES * MAX_CLAUSE_HITS;
/**
 * Field extraction pays only when it rejects: after this many tries, it stays on only if it rejected at least
 * EXTRACT_MIN_REJECT of the candidates (otherwise they would be read twice).
 */
const EXTRACT_TRIAL = 256;
/**
 * The kernel walks the lines itself (byBlock with the prefilter's clauses) when the sample shows at least this
 * share of lines holding the first clause; below it the JS walk finds the candidates. Measured with `--workers
 * 0` on the bench's data (2.3 KB lines, 2.1 GB and 200 MB, user CPU, interleaved, load ~8): the JS walk searches
 * the block once for the needle and each line's end with a native memchr, cheaper per byte than the kernel's
 * 16-byte loop (F1, 5% read: 0.96 s against 1.15 s; F2, 15%: 1.17 against 1.28), while candidates decided by
 * the kernel's program cost a fraction of those read one by one from JS (random filter #3 of seed 1, 40% read:
 * 0.62 s against 0.42 s).
 */
const KERNEL_WALK_SHARE = 0.25;
/** Marks a calibration (BlockScanner.calibration) whose sample chose the kernel's walk. */
const KERNEL_WALK_MARK = -1;
/** See `rest` in scan. */
const MAX_KERNEL_REST_NEEDLES = 2;
const EXTRACT_MIN_REJECT = 0.3;

/** One scan's block, counts and callbacks, shared by the paths its lines take. */
interface Block {
  readonly hay: Uint8Array;
  readonly counts: ScanCounts;
  readonly opt: ScanOptions;
  /** The decoder for this block's lines. */
  readonly decode: ByteDecode;
  /** validate mode with `onObject`: the callback decides each parsed line. */
  readonly useObject: boolean;
}

/** What a path did with a line: decided it, stopped the scan, or left it to the next path. */
const DONE = 0;
const STOP = 1;
const UNDECIDED = 2;

/**
 * `calibration`: the clause order another scanner of the same filter found (BlockScanner.calibration), taken
 * as is: each thread of an evaluation would otherwise sample the same kind of lines again, a fixed cost per
 * thread.
 */
export function createBlockScanner(filter: FilterDocument | EvalPlan, hooks: ScanHooks = {}, calibration?: readonly number[]): BlockScanner {
  expectFilterDocument(filter, 'createBlockScanner', true);
  const forceKernelWalk = hooks.kernelWalk === true;
  const search = hooks.search ?? defaultSearch;
  const nativeSearch = search;
  const decode = hooks.decode ?? defaultDecode;
  // The filter compiled once (plan.ts): the object predicate, the prefilter and the span tests derive from it.
  const plan = isEvalPlan(filter) ? filter : evalPlan(filter);
  const root: ObjectTest = compileNode(plan.root);
  const fields = plan.fields;
  const fieldKeys = fields.map((f) => new TextEncoder().encode(JSON.stringify(f)));
  const seen = new Set<string>();
  const planned: NeedlePlan = needlePlan(plan);
  let clauses: NeedlePlan = planned;
  // The extractor decodes with the scanner's own (validating) decoder: cheap, since only values are decoded.
  let extract: Extractor | undefined = createExtractor(fields, decode);
  // The line kernel validates and extracts in one pass, so candidates need no JSON.parse at all; the JS
  // extractor stays for lines whose top-level keys are spelled with escapes.
  // With the filter's program (kernel-program.ts) the kernel decides most lines itself (`byBlock`).
  // It is given the prefilter's clauses too, to skip the lines that hold none of a clause's needles itself.
  const kernel: LineKernel | undefined =
    hooks.kernel === false ? undefined : createLineKernel(fields, fields.some((f) => f in Object.prototype) ? undefined : kernelProgram(plan.root), planned);
  const resolveKeys: Extractor = createExtractor(fields, decode);
  const kernelRow = kernel ? createSpanRow(fields, decode, kernel) : undefined;
  // The filter over the kernel's spans: conditions that the value's bytes decide are tested on them, the others
  // on the lazy row (only built when no field is named like an Object.prototype key: then the row is always lazy).
  const spanRoot: SpanTest | undefined = kernel && !fields.some((f) => f in Object.prototype) ? compileSpanNode(plan.root, kernel) : undefined;
  let extractTries = 0;
  let extractRejects = 0;
  let calibrated = clauses.length === 0;
  /** Whether the kernel walks the lines of a block that has clauses (see KERNEL_WALK_SHARE); set with the sample. */
  let kernelWalks = false;
  if (calibration) {
    const marked = calibration[calibration.length - 1] === KERNEL_WALK_MARK;
    const order = marked ? calibration.slice(0, -1) : calibration;
    // (the mark alone is no calibration: a walk needs a clause)
    if (order.every((i) => Number.isInteger(i) && i >= 0 && i < planned.length) && !(marked && order.length === 0)) {
      clauses = order.map((i) => planned[i]!);
      calibrated = true;
      kernelWalks = marked;
    }
  }

  /**
   * Orders clauses by how many sampled lines satisfy them, rarest first, and drops those that most lines
   * satisfy: searching a line for every needle of such a clause costs more than the few lines it rejects (the
   * field extractor rejects those lines anyway, in one pass).
   */
  const hits = new Map<NeedleClause, number>(clauses.map((c) => [c, 0]));
  let sampled = 0;
  const calibrate = (hay: Uint8Array, start: number, end: number): void => {
    // Blocks may be small (a gzip stream yields ~100 lines at a time): the sample adds up across blocks.
    let pos = start;
    for (; sampled < SAMPLE_LINES && pos < end; sampled++) {
      // A clause already held by more lines than a full sample allows is dropped whatever the rest says: it is
      // not searched again, and once every clause is, the sample ends (the filters that read every line).
      if (clauses.every((c) => hits.get(c)! > SURE_DROP)) break;
      let e = hay.indexOf(NL, pos);
      if (e < 0 || e > end) e = end;
      for (const c of clauses) if (hits.get(c)! <= SURE_DROP && clauseHoldsIn(hay, pos, e, c, search)) hits.set(c, hits.get(c)! + 1);
      pos = e + 1;
    }
    if (sampled < MIN_SAMPLE) return;
    calibrated = true;
    clauses = [...clauses].sort((a, b) => hits.get(a)! - hits.get(b)!);
    clauses = clauses.filter((c) => hits.get(c)! <= sampled * MAX_CLAUSE_HITS);
    kernelWalks = clauses.length > 0 && hits.get(clauses[0]!)! >= sampled * KERNEL_WALK_SHARE;
  };

  /**
   * Marks fields whose literal key appears in the block; only while some field is unseen. With `inKernel` (the
   * block loaded in the kernel), the kernel's search: a key starts with `"`, the byte a native search for its
   * first byte stops at everywhere, while the kernel's compares the key's two rarest bytes.
   */
  const lookForFields = (hay: Uint8Array, start: number, end: number, inKernel: boolean): void => {
    for (let i = 0; i < fields.length; i++) {
      if (seen.has(fields[i]!)) continue;
      const key = fieldKeys[i]!;
      const search = (hay: Uint8Array, key: Uint8Array, from: number, to: number): number => (inKernel ? kernel!.find(key, from, to) : undefined) ?? nativeSearch(hay, key, from, to);
      let p = search(hay, key, start, end);
      while (p >= 0) {
        let q = p + key.length;
        while (q < end && (hay[q] === 32 || hay[q] === 9)) q++;
        if (hay[q] === 58) {
          seen.add(fields[i]!);
          break;
        }
        p = search(hay, key, p + 1, end);
      }
    }
  };
  const noteFields = (o: Record<string, unknown>): void => {
    for (const f of fields) if (!seen.has(f) && Object.prototype.hasOwnProperty.call(o, f)) seen.add(f);
  };
  /** The same for a row of spans, whose absent fields read as undefined (lazy rows have them all as getters). */
  const noteRowFields = (o: Record<string, unknown>): void => {
    for (const f of fields) if (!seen.has(f) && Object.prototype.hasOwnProperty.call(o, f) && o[f] !== undefined) seen.add(f);
  };

  /** The same from the kernel's spans: a field is present when its start is set. */
  const noteSpanFields = (): void => {
    for (let i = 0; i < fields.length; i++) if (kernel!.starts[i]! >= 0) seen.add(fields[i]!);
  };

  /**
   * The prefilter over one block (outside validate mode): the positions of the primary clause's needles and
   * trigger escapes, one ascending list per needle, found once over the whole block; a line is a candidate when
   * one of them falls inside it and the other clauses hold on its bytes. Undefined when every line is one.
   */
  const prefilter = (hay: Uint8Array, start: number, end: number, useKernel: boolean): ((lineStart: number, contentEnd: number) => boolean) | undefined => {
    const primary = clauses[0];
    if (primary === undefined) return undefined;
    // Each clause after the first is searched in each candidate line, one native search per needle; the
    // kernel reads a line in about the time of two such searches, so with it only clauses of one or two
    // needles are worth searching first.
    const rest = clauses.slice(1).filter((c) => !useKernel || (c.bytes.length <= MAX_KERNEL_REST_NEEDLES && c.triggers.size === 0));
    const lists: number[][] = [];
    for (const b of primary.bytes) {
      const list: number[] = [];
      const find = (from: number): number => (useKernel ? kernel!.find(b, from, end) : undefined) ?? search(hay, b, from, end);
      let p = find(start);
      while (p >= 0) {
        list.push(p);
        p = find(p + 1);
      }
      lists.push(list);
    }
    if (primary.triggers.size > 0) {
      const list: number[] = [];
      findTriggers(hay, start, end, primary.triggers, (p) => {
        list.push(p);
        return true;
      });
      lists.push(list);
    }
    const cursors = new Array<number>(lists.length).fill(0);
    return (lineStart, contentEnd) => {
      let candidate = false;
      for (let k = 0; k < lists.length; k++) {
        const list = lists[k]!;
        let c = cursors[k]!;
        while (c < list.length && list[c]! < lineStart) c++;
        cursors[k] = c;
        if (c < list.length && list[c]! < contentEnd) candidate = true;
      }
      for (let k = 0; candidate && k < rest.length; k++) candidate = clauseHoldsIn(hay, lineStart, contentEnd, rest[k]!, search);
      return candidate;
    };
  };

  /**
   * The clauses (indexes into `planned`) the kernel applies in `byBlock`: the ones `prefilter` would (so the same
   * lines are read), or undefined when a needle holds a line break (the kernel searches within each line).
   */
  let kernelChoice: { for: NeedlePlan; chosen: readonly number[] | undefined } | undefined;
  const kernelClauses = (): readonly number[] | undefined => {
    if (kernelChoice?.for === clauses) return kernelChoice.chosen;
    const used = clauses.filter((c, i) => i === 0 || (c.bytes.length <= MAX_KERNEL_REST_NEEDLES && c.triggers.size === 0));
    const breaks = used.some((c) => c.bytes.some((b) => b.includes(NL) || b.includes(CR)));
    kernelChoice = { for: clauses, chosen: breaks ? undefined : used.map((c) => planned.indexOf(c)) };
    return kernelChoice.chosen;
  };

  // The paths a line takes (scan picks them): each returns DONE, STOP (onMalformed asked to stop) or, when
  // it could not decide, UNDECIDED for the next path. `index` is the line's index in the block, `[start,
  // contentEnd)` its content (without `\r`), `nl` its end.

  /** A malformed line: counted, and reported as not matching unless `onMalformed` asks to stop. */
  const malformed = (b: Block, index: number, start: number, nl: number): number => {
    b.counts.malformed++;
    if (b.opt.onMalformed && b.opt.onMalformed(index, start, nl) === false) {
      b.counts.stopped = true;
      return STOP;
    }
    if (b.opt.onOther) b.opt.onOther(start, nl);
    return DONE;
  };

  /** A line whose verdict is known: counted when it matched, and reported. */
  const decided = (b: Block, held: boolean, start: number, contentEnd: number, nl: number, text?: string): number => {
    if (held) {
      b.counts.matched++;
      if (b.opt.onMatch) b.opt.onMatch(text ?? b.decode(b.hay, start, contentEnd)!, start, nl);
    } else if (b.opt.onOther) b.opt.onOther(start, nl);
    return DONE;
  };

  /** Not a candidate, so not read: only its outline is checked, which catches truncated lines and non-objects cheaply. */
  const skipped = (b: Block, index: number, start: number, first: number, contentEnd: number, nl: number): number => {
    const hay = b.hay;
    let last = contentEnd - 1;
    while (last > first && isSpace(hay[last]!)) last--;
    if (hay[first] !== OPEN || hay[last] !== CLOSE) return malformed(b, index, start, nl);
    if (b.opt.onOther) b.opt.onOther(start, nl);
    return DONE;
  };

  /**
   * The line kernel reads the line in the block it loaded: not an object, or a valid one whose fields decide,
   * read from the kernel's spans (or by the JS extractor when a key is spelled with escapes); no JSON.parse.
   */
  const byKernel = (b: Block, index: number, start: number, contentEnd: number, nl: number): number => {
    const verdict = kernel!.scan(start, contentEnd);
    if (verdict === NOT_OBJECT) return malformed(b, index, start, nl);
    if (verdict === VALID && spanRoot !== undefined) {
      const row = kernelRow!(b.hay, b.decode)!;
      if (seen.size < fields.length) noteSpanFields();
      return decided(b, spanRoot(b.hay, row), start, contentEnd, nl);
    }
    const row = verdict === VALID ? kernelRow!(b.hay, b.decode) : resolveKeys(b.hay, start, contentEnd);
    if (row === undefined) return UNDECIDED;
    if (seen.size < fields.length) noteRowFields(row);
    return decided(b, root(row), start, contentEnd, nl);
  };

  /** Without the kernel: the JS extractor rejects on the wanted fields alone; a line kept here is parsed whole. */
  const byFields = (b: Block, start: number, contentEnd: number, nl: number): number => {
    const partial = extract!(b.hay, start, contentEnd);
    extractTries++;
    if (partial !== undefined && !root(partial)) {
      extractRejects++;
      if (b.opt.onOther) b.opt.onOther(start, nl);
      return DONE;
    }
    if (extractTries === EXTRACT_TRIAL && extractRejects < EXTRACT_TRIAL * EXTRACT_MIN_REJECT) extract = undefined;
    return UNDECIDED;
  };

  /** JSON.parse of the whole line (validate mode, no kernel, or a line the others left undecided). */
  const byParse = (b: Block, index: number, start: number, contentEnd: number, nl: number): number => {
    const text = b.decode(b.hay, start, contentEnd);
    let value: unknown;
    let ok = false;
    if (text !== null) {
      try {
        // the integers beyond 2^53 of the fields the filter reads are exact (exact.ts)
        value = parseExact(text, fields);
        ok = isLogObject(value);
      } catch {
        ok = false;
      }
    }
    if (!ok) return malformed(b, index, start, nl);
    b.counts.parsed++;
    const o = value as Record<string, unknown>;
    if (seen.size < fields.length) noteFields(o);
    return decided(b, b.useObject ? b.opt.onObject!(o) : root(o), start, contentEnd, nl, text!);
  };

  /**
   * Every line of the block read in the kernel, one call per REC_MAX lines to see (scanBlock): the lines its
   * program rejects are only counted there, and only the malformed, matched and undecided ones come back here,
   * each to the path that would have taken it line by line (undecided ones to byKernel).
   */
  const byBlock = (b: Block, start: number, end: number, chosen?: readonly number[]): ScanCounts => {
    const counts = b.counts;
    const k = kernel!;
    const rec = k.block!;
    const hay = b.hay;
    let pos = start;
    let fresh = true;
    for (;;) {
      const n = k.scanBlock!(pos, end, fresh, seen.size < fields.length, chosen);
      fresh = false;
      for (let i = 0; i < n; i++) {
        const lineStart = rec.start[i]!;
        const nl = rec.end[i]!;
        let contentEnd = nl;
        if (contentEnd > lineStart && hay[contentEnd - 1] === CR) contentEnd--;
        const code = rec.code[i]!;
        let outcome: number;
        if (code === REC_MALFORMED) outcome = malformed(b, rec.line[i]!, lineStart, nl);
        else if (code === REC_MATCH) outcome = decided(b, true, lineStart, contentEnd, nl);
        else {
          outcome = byKernel(b, rec.line[i]!, lineStart, contentEnd, nl);
          if (outcome === UNDECIDED) outcome = byParse(b, rec.line[i]!, lineStart, contentEnd, nl);
        }
        if (outcome === STOP) {
          counts.lines = rec.line[i]! + 1;
          counts.total = rec.total[i]!;
          counts.read = rec.read[i]!;
          return counts;
        }
      }
      for (let f = 0; f < fields.length; f++) if (rec.seen[f] === 1) seen.add(fields[f]!);
      pos = rec.next;
      if (n < REC_MAX || pos >= end) break;
    }
    counts.lines = rec.lines;
    counts.total = rec.totalLines;
    counts.read = rec.readLines;
    return counts;
  };

  const scan = (hay: Uint8Array, start: number, end: number, opt: ScanOptions = {}): ScanCounts => {
    const counts: ScanCounts = { lines: 0, total: 0, matched: 0, malformed: 0, parsed: 0, read: 0, stopped: false };
    const validate = opt.validate === true;
    if (!calibrated && !validate) calibrate(hay, start, end);
    const b: Block = { hay, counts, opt, decode: opt.decode ?? decode, useObject: validate && opt.onObject !== undefined };
    const useKernel = kernel !== undefined && !validate;
    const useFields = !validate && !useKernel;
    // The block in the kernel's memory (copied, unless it was read into a region there): the kernel searches
    // the needles and reads the candidates in it.
    if (useKernel) kernel.load(hay, start, end);
    if (seen.size < fields.length) lookForFields(hay, start, end, useKernel);
    // No line reported as not matching: the kernel's program decides them (byBlock), the kernel skipping the
    // lines that the prefilter's clauses rule out.
    if (useKernel && kernel.scanBlock !== undefined && spanRoot !== undefined && !opt.onOther && (clauses.length === 0 || (calibrated && kernelWalks) || forceKernelWalk)) {
      const chosen = kernelClauses();
      if (chosen !== undefined) return byBlock(b, start, end, chosen);
    }
    const candidate = validate ? undefined : prefilter(hay, start, end, useKernel);

    let pos = start;
    while (pos < end) {
      let nl = hay.indexOf(NL, pos);
      if (nl < 0 || nl > end) nl = end;
      const index = counts.lines++;
      const lineStart = pos;
      let contentEnd = nl;
      if (contentEnd > lineStart && hay[contentEnd - 1] === CR) contentEnd--;
      pos = nl + 1;

      // Blank lines: only spaces, tabs and CR. The common line starts with `{` and skips this loop.
      let first = lineStart;
      if (hay[first] !== OPEN) {
        while (first < contentEnd && isSpace(hay[first]!)) first++;
        if (first >= contentEnd) continue;
      }
      counts.total++;

      let outcome: number;
      if (candidate !== undefined && !candidate(lineStart, contentEnd)) outcome = skipped(b, index, lineStart, first, contentEnd, nl);
      else {
        counts.read++;
        outcome = useKernel ? byKernel(b, index, lineStart, contentEnd, nl) : UNDECIDED;
        if (outcome === UNDECIDED && useFields && extract) outcome = byFields(b, lineStart, contentEnd, nl);
        if (outcome === UNDECIDED) outcome = byParse(b, index, lineStart, contentEnd, nl);
      }
      if (outcome === STOP) return counts;
    }
    return counts;
  };

  return {
    scan,
    fields,
    seenFields: () => fields.filter((f) => seen.has(f)),
    plan: () => clauses,
    readShare: (hay, start, end) => {
      if (!calibrated) calibrate(hay, start, end);
      if (clauses.length === 0) return 1;
      // Before a full sample, every clause is still kept: the share is that of the rarest one so far.
      return sampled === 0 ? 1 : Math.min(...clauses.map((c) => hits.get(c)!)) / sampled;
    },
    calibration: () => (calibrated ? [...clauses.map((c) => planned.indexOf(c)), ...(kernelWalks ? [KERNEL_WALK_MARK] : [])] : undefined),
    checksUtf8: kernel !== undefined,
    region: (length, keep) => kernel?.region(length, keep),
    overwrites: (length) => (kernel ? kernel.overwrites(length) : 0),
  };
}
