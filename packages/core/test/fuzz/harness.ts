/**
 * The fuzzer: seeded, reproducible inputs (mutated valid sources, mutated filter JSON, random token soup and
 * hostile shapes) through every entry point of the core, in-process: parse, compile, check, decompile, format,
 * and the evaluator (createMatcher, createLineMatcher, createExplainer on log lines built from the filter's own
 * values). It records any exception, the slowest call, and breaks of the promises the core makes:
 * - decompile's output compiles back to the same filter (or decompile reports an error itself);
 * - format's output formats to itself and compiles to the same JSON;
 * - the line matcher (with its raw-text shortcut) agrees with the object matcher on every line;
 * - parse()'s fast path, when it accepts a text, returns exactly what the reference (Chevrotain) parser does,
 *   with no diagnostics (src/filter/syntax/fast-parse.ts).
 * Used by `fuzz.test.ts` (a 10^4 slice in `npm test`) and by `npm run fuzz` (scripts/fuzz.mjs, 10^6).
 */
import * as core from '../../src/index.js';
import type { FilterDocument } from '../../src/index.js';
import { fastParse } from '../../src/filter/syntax/fast-parse.js';
import { parse as referenceParse } from '../../src/filter/syntax/parse.js';

export interface FuzzFailure {
  seed: number;
  index: number;
  step: string;
  input: string;
  problem: string;
}

export interface FuzzReport {
  inputs: number;
  calls: number;
  failures: FuzzFailure[];
  slowest: { step: string; ms: number; input: string };
  /** How many calls took longer than the limit (1 s) twice in a row. */
  overLimit: number;
  /** Calls over the limit once but not when run again (the machine stalled). */
  stalls: number;
  /** Calls and total milliseconds per entry point. */
  byStep: Record<string, { calls: number; ms: number }>;
  ms: number;
}

/** xorshift32: small, fast, and the same sequence for the same seed everywhere. */
function rng(seed: number) {
  let s = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x1_0000_0000;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
  };
}
type Rng = ReturnType<typeof rng>;

const SEED_SOURCES = [
  'ClientRequestHost == "api.example.com"\nand EdgeResponseStatus >= 500\nand ClientCountry in ["us", "ca"]\nand ClientRequestPath not startsWith "/static/"\nand not (BotScore < 30 or ClientRequestMethod == "OPTIONS")',
  'dataset http_requests\n# comment\nClientRequestHost == "a" or EdgeResponseStatus in [500, 502, 503,]',
  'dataset any\nBotTags contains "api" and `x-custom` == "a\\"b" and EdgeStartTimestamp > 1700000000123456789',
  'not not (a == 1 and (b != "x" or c < 2.5)) or d !in [1, 2] and e endsWith "z"',
  'dataset firewall_events\nAction == "block" and ClientIP startsWith "10."',
  'EdgeResponseStatus geq 400 and EdgeResponseStatus lt 500 and CacheCacheStatus eq "miss"',
  'ClientRequestUserAgent contains "curl" # trailing\n',
  'EdgeResponseCompressionRatio > 1.5 and WAFAttackScore <= 20',
];

const TOKENS = [
  ' ', '\n', '\t', '(', ')', '[', ']', ',', '"', '\\', '`', '#', '==', '!=', '<', '<=', '>', '>=', 'and', 'or', 'not',
  'in', 'contains', 'startsWith', 'endsWith', '!in', 'eq', 'leq', 'dataset', 'any', 'true', 'false', '-', '.', '0',
  '1e5', '99999999999999999999999', '-0', '"x"', '""', 'ClientIP', 'BotScore', 'x', '\u0000', '\u2028', '\ud800',
  '\udc00', '😀', 'é', '\r\n', '${', '%{', '{', '}', ':', '__proto__', 'constructor', 'toString', '\\u12', '\\ud800',
];

const JSON_TOKENS = [
  '{', '}', '[', ']', ':', ',', '"', '\\"', '\\\\', 'null', 'true', 'false', '1e2', '-1.5e-7', '1e999', '0', '-0',
  '12345678901234567890', '"where"', '"and"', '"or"', '"key"', '"operator"', '"value"', '"eq"', '"neq"', '"in"',
  '"!in"', '"contains"', '[]', '{}', '"__proto__"', '"constructor"', '"\\ud800"', '"\\u0000"', '"filter"', '"result"',
  '"success"', ' ', '\n', '"ClientIP"', '"BotScore"', '"x"',
];

function mutate(r: Rng, text: string, tokens: readonly string[]): string {
  let t = text;
  // Mostly one mutation, so that many inputs stay valid and reach the round trips and the evaluator.
  const n = r.int(2) ? 1 : 1 + r.int(4);
  for (let i = 0; i < n; i++) {
    const at = r.int(t.length + 1);
    switch (r.int(7)) {
      case 0:
        t = t.slice(0, at) + r.pick(tokens) + t.slice(at);
        break;
      case 1:
        t = t.slice(0, at) + t.slice(at + 1 + r.int(8));
        break;
      case 2: {
        const len = 1 + r.int(20);
        t = t.slice(0, at) + t.slice(at, at + len).repeat(1 + r.int(3)) + t.slice(at);
        break;
      }
      case 3:
        t = t.slice(0, at);
        break;
      case 4:
        t = t.slice(0, at) + String.fromCharCode(r.int(0x10000)) + t.slice(at + 1);
        break;
      case 5: {
        const b = r.int(t.length + 1);
        t = t.slice(0, Math.min(at, b)) + t.slice(Math.max(at, b)) + t.slice(Math.min(at, b), Math.max(at, b));
        break;
      }
      default:
        t = t.slice(0, at) + r.pick(tokens) + r.pick(tokens) + t.slice(at);
    }
  }
  return t;
}

/** Hostile shapes that mutation rarely reaches: depth, width, length. */
function hostile(r: Rng): string {
  const n = 50 + r.int(250);
  switch (r.int(8)) {
    case 0:
      return `${'('.repeat(n)}a == 1${')'.repeat(r.int(2) ? n : 0)}`;
    case 1:
      return `${'not '.repeat(n)}a == 1`;
    case 2:
      return Array.from({ length: n }, (_, i) => `f${i % 7} == ${i}`).join(r.pick([' and ', ' or ']));
    case 3:
      return `x in [${Array.from({ length: n * 3 }, (_, i) => i).join(',')}]`;
    case 4:
      return `{"where":${'{"and":['.repeat(n)}{"key":"a","operator":"eq","value":1}${']}'.repeat(n)}}`;
    case 5:
      return `{"where":{"or":[${Array.from({ length: n }, (_, i) => `{"key":"k${i}","operator":"eq","value":${i}}`).join(',')}]}}`;
    case 6:
      return `a == "${'\\'.repeat(n)}"`;
    default:
      return JSON.stringify(JSON.stringify({ where: { key: 'a'.repeat(n), operator: 'in', value: Array.from({ length: 50 }, (_, i) => `v${i}`) } }));
  }
}

const SEED_JSON = SEED_SOURCES.map((s) => core.compile(s, { dataset: 'any' }).json).filter((j): j is string => j !== undefined);

function makeInput(r: Rng): { text: string; kind: 'source' | 'json' } {
  const roll = r.int(100);
  if (roll < 45) return { text: mutate(r, r.pick(SEED_SOURCES), TOKENS), kind: 'source' };
  if (roll < 80) {
    const base = r.pick(SEED_JSON);
    const form = r.int(4);
    const wrapped = form === 0 ? base : form === 1 ? JSON.stringify(base) : form === 2 ? JSON.stringify({ name: 'j', destination_conf: 's3://b?region=x', filter: base }) : base.replace(/"/g, '\\"');
    return { text: mutate(r, wrapped, JSON_TOKENS), kind: 'json' };
  }
  if (roll < 98) return { text: Array.from({ length: 1 + r.int(30) }, () => r.pick(r.int(2) ? TOKENS : JSON_TOKENS)).join(r.pick(['', ' '])), kind: r.int(2) ? 'source' : 'json' };
  const h = hostile(r);
  return { text: h, kind: h.startsWith('{') || h.startsWith('"') ? 'json' : 'source' };
}

/** Log lines that exercise a filter: each condition's own value, its neighbours, wrong types, absent fields. */
function logLines(r: Rng, doc: FilterDocument): string[] {
  const conds: { key: string; value: unknown }[] = [];
  const walk = (n: FilterDocument['where']) => {
    if ('key' in n) conds.push({ key: n.key, value: n.value });
    else for (const c of 'and' in n ? n.and : n.or) walk(c);
  };
  walk(doc.where);
  const lines: string[] = ['', '   ', 'not json', '[1,2]', '{"a":', '{}'];
  for (let i = 0; i < 6; i++) {
    const o: Record<string, unknown> = {};
    for (const c of conds) {
      if (r.int(5) === 0) continue;
      const v = Array.isArray(c.value) ? r.pick(c.value.length ? c.value : [null]) : c.value;
      o[c.key] = r.pick([v, typeof v === 'number' ? v + 1 : `${v}x`, typeof v === 'string' ? `x${v}` : String(v), [v], null, true, { v }]);
    }
    lines.push(JSON.stringify(o));
    if (r.int(3) === 0) lines.push(JSON.stringify(o).replace(/"/g, ' "').replace(/:/g, ': ')); // spaced, as some exporters write
  }
  return lines;
}

const LIMIT_CODES = new Set(['too-many-operators', 'too-large', 'too-deep']);
const errorCodes = (ds: readonly core.Diagnostic[]) => ds.filter((d) => d.severity === 'error').map((d) => d.code);

export function runFuzz(options: { count: number; seed?: number; limitMs?: number; onProgress?: (done: number) => void }): FuzzReport {
  const seed = options.seed ?? 1;
  const limitMs = options.limitMs ?? 1000;
  const r = rng(seed);
  const failures: FuzzFailure[] = [];
  let slowest = { step: '', ms: 0, input: '' };
  let calls = 0;
  let overLimit = 0;
  let stalls = 0;
  const byStep: Record<string, { calls: number; ms: number }> = Object.create(null);
  const started = performance.now();

  for (let index = 0; index < options.count; index++) {
    const { text, kind } = makeInput(r);
    const fail = (step: string, problem: string) => {
      if (failures.length < 50) failures.push({ seed, index, step, input: text.length > 2000 ? `${text.slice(0, 2000)}…(${text.length})` : text, problem });
    };
    const call = <T>(step: string, fn: () => T): T | undefined => {
      const t = performance.now();
      calls++;
      try {
        return fn();
      } catch (e) {
        fail(step, `threw ${(e as Error)?.stack ?? String(e)}`);
        return undefined;
      } finally {
        const ms = performance.now() - t;
        const b = (byStep[step] ??= { calls: 0, ms: 0 });
        b.calls++;
        b.ms += ms;
        if (ms > slowest.ms) slowest = { step, ms, input: text.slice(0, 200) };
        if (ms > limitMs) {
          // Timed once more: on a busy machine a single call can stall for the scheduler or the collector. Only a
          // call that is over the limit twice is slow in itself.
          const again = performance.now();
          try {
            fn();
          } catch {
            /* already reported */
          }
          const retry = performance.now() - again;
          if (retry > limitMs) {
            overLimit++;
            fail(step, `took ${ms.toFixed(0)} ms, then ${retry.toFixed(0)} ms`);
          } else stalls++;
        }
      }
    };

    if (kind === 'source') {
      call('parse', () => core.parse(text));
      const fast = call('parse(fast path)', () => fastParse(text));
      if (fast) {
        const reference = call('parse(reference)', () => referenceParse(text));
        if (reference && reference.diagnostics.length > 0) fail('parse', `the fast path accepted a text the reference reports: ${reference.diagnostics[0]!.code} at ${reference.diagnostics[0]!.start}`);
        else if (reference && JSON.stringify(reference) !== JSON.stringify(fast)) fail('parse', 'the fast path returned another tree than the reference');
      }
      const compiled = call('compile', () => core.compile(text, { dataset: r.pick([undefined, 'any', 'http_requests']) }));
      const formatted = call('format', () => core.format(text));
      if (formatted?.ok) {
        const again = call('format(format)', () => core.format(formatted.text));
        if (again && again.text !== formatted.text) fail('format', 'format is not idempotent');
        const a = call('compile(formatted)', () => core.compile(formatted.text, { dataset: 'any' }));
        const b = call('compile(any)', () => core.compile(text, { dataset: 'any' }));
        if (a && b?.ok && a.json !== b.json) fail('format', `formatting changed the compiled filter: ${b.json} → ${a.json}`);
      }
      if (compiled?.ok && compiled.json) evalChecks(compiled.json);
    } else {
      call('check', () => core.check(text, { dataset: r.pick([undefined, 'any']) }));
      const d = call('decompile', () => core.decompile(text, { dataset: 'any' }));
      if (d?.ok) {
        const back = call('compile(decompiled)', () => core.compile(d.source!, { dataset: 'any' }));
        const errors = back ? errorCodes(back.diagnostics).filter((c) => !LIMIT_CODES.has(c)) : [];
        if (back && errors.length) fail('decompile', `its output does not compile: ${errors.join(', ')}`);
        else if (back?.json && d.filter && !core.filtersEqual(JSON.parse(back.json) as FilterDocument, d.filter)) fail('decompile', `round trip changed the filter: ${back.json}`);
        if (d.filter) evalChecks(JSON.stringify(d.filter));
      }
    }
    if (options.onProgress && index % 10_000 === 9_999) options.onProgress(index + 1);

    function evalChecks(json: string) {
      let doc: FilterDocument;
      try {
        doc = JSON.parse(json) as FilterDocument;
      } catch {
        return;
      }
      // the evaluators get the filter's integers beyond 2^53 exact, and parsed lines keep them too (parseExact)
      const exact = core.exactFilter(json);
      const m = call('createMatcher', () => core.createMatcher(exact));
      const lm = call('createLineMatcher', () => core.createLineMatcher(exact));
      const ex = call('createExplainer', () => core.createExplainer(exact));
      if (!m || !lm) return;
      for (const line of logLines(r, doc)) {
        let parsed: unknown;
        try {
          parsed = core.parseExact(line);
        } catch {
          parsed = undefined;
        }
        const expected = parsed !== undefined && m.test(parsed);
        const verdict = call('lineMatcher.classify', () => lm.classify(line));
        if (verdict !== undefined && (verdict === 'match') !== expected) fail('eval', `line matcher says ${verdict}, object matcher ${expected} on ${line}`);
        if (ex && core.isLogObject(parsed)) {
          const held = call('explain.add', () => ex.add(parsed as Record<string, unknown>));
          if (held !== undefined && held !== expected) fail('eval', `explainer says ${held}, matcher ${expected} on ${line}`);
        }
      }
      if (ex) call('explain.report', () => ex.report());
    }
  }
  return { inputs: options.count, calls, failures, slowest, overLimit, stalls, byStep, ms: performance.now() - started };
}
