/**
 * Properties (fast-check): random valid filters round-trip through decompile and compile byte for byte;
 * format is idempotent and keeps the meaning of randomly spelled sources; random and mutated text never
 * throws and always gets diagnostics with ranges inside the text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, compile, decompile, format, parse } from '@logfilter/core';

const OPS = ['eq', '!eq', 'lt', 'leq', 'gt', 'geq', 'startsWith', 'endsWith', '!startsWith', '!endsWith', 'contains', '!contains', 'in', '!in'] as const;
const SPELL: Record<string, string[]> = {
  eq: ['==', 'eq'], '!eq': ['!=', '!eq'], lt: ['<', 'lt'], leq: ['<=', 'leq'], gt: ['>', 'gt'], geq: ['>=', 'geq'],
  startsWith: ['startsWith'], '!startsWith': ['!startsWith', 'not startsWith'], endsWith: ['endsWith'], '!endsWith': ['!endsWith', 'not endsWith'],
  contains: ['contains'], '!contains': ['!contains', 'not contains'], in: ['in'], '!in': ['!in', 'not in'],
};

type Scalar = { t: 'string'; v: string } | { t: 'int'; v: string } | { t: 'bool'; v: boolean };
type Node = { k: 'cond'; key: string; op: (typeof OPS)[number]; value: Scalar | Scalar[] } | { k: 'and' | 'or'; items: Node[] };

const key = fc.oneof(
  fc.constantFrom('ClientRequestHost', 'EdgeResponseStatus', 'x', '_y1', 'in', 'and', 'not'),
  fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !/[`\r\n]/.test(s)),
);
const scalar: fc.Arbitrary<Scalar> = fc.oneof(
  fc.string({ maxLength: 12, unit: 'binary' }).map((v) => ({ t: 'string' as const, v })),
  fc.constantFrom('\\', '"', '/', '\u2028', 'é', '🚀', '\u0000', '').map((v) => ({ t: 'string' as const, v })),
  fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map((n) => ({ t: 'int' as const, v: n.toString() })),
  fc.boolean().map((v) => ({ t: 'bool' as const, v })),
);
const cond: fc.Arbitrary<Node> = fc.record({ key, op: fc.constantFrom(...OPS), one: scalar, list: fc.array(scalar, { minLength: 1, maxLength: 4 }) }).map(
  ({ key, op, one, list }) => ({ k: 'cond' as const, key, op, value: op === 'in' || op === '!in' ? list : one }),
);
const tree = (parent: 'and' | 'or' | 'root'): fc.Arbitrary<Node> =>
  fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, cond, tie('group')) as fc.Arbitrary<Node>,
    group: fc.constantFrom('and' as const, 'or' as const).chain((k) =>
      fc.array(tie('node') as fc.Arbitrary<Node>, { minLength: 2, maxLength: 4 }).map((items) => ({ k, items })),
    ),
  })).node.filter((n) => parent === 'root' || n.k !== parent);

/** A canonical document: groups alternate (the compiler flattens same-connective nesting). */
function canonical(n: Node, parent?: string): boolean {
  if (n.k === 'cond') return true;
  return n.k !== parent && n.items.every((i) => canonical(i, n.k));
}

const json = (s: Scalar) => (s.t === 'string' ? JSON.stringify(s.v) : String(s.v));
function toJson(n: Node): string {
  if (n.k === 'cond') {
    const v = Array.isArray(n.value) ? `[${n.value.map(json).join(',')}]` : json(n.value);
    return `{"key":${JSON.stringify(n.key)},"operator":${JSON.stringify(n.op)},"value":${v}}`;
  }
  return `{"${n.k}":[${n.items.map(toJson).join(',')}]}`;
}

/** A randomly spelled source of the same tree: word/symbol forms, extra parentheses, double negation, comments. */
function toSource(n: Node, rnd: () => number): string {
  const pick = <T,>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const ws = () => pick([' ', '  ', '\n', ' # note\n', '\t']);
  const field = (k: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && !['in', 'and', 'or', 'not', 'true', 'false', 'dataset', 'eq', 'lt', 'leq', 'gt', 'geq', 'contains', 'startsWith', 'endsWith'].includes(k) ? k : `\`${k}\``);
  let s: string;
  if (n.k === 'cond') {
    const v = Array.isArray(n.value) ? `[${n.value.map(json).join(`,${ws()}`)}${pick(['', ','])}]` : json(n.value);
    s = `${field(n.key)}${ws()}${pick(SPELL[n.op])}${ws()}${v}`;
  } else {
    s = `(${n.items.map((i) => toSource(i, rnd)).join(`${ws()}${n.k}${ws()}`)})`;
  }
  if (rnd() < 0.2) s = `not not ${s.startsWith('(') ? s : `(${s})`}`;
  if (rnd() < 0.2) s = `(${s})`;
  return s;
}

// fast-check runs hundreds of cases per property: allow for a slow, shared machine
const SLOW = 120_000;

describe('round trips', () => {
  it('compile(decompile(J)) == J, byte for byte, for random canonical filters', () => {
    fc.assert(
      fc.property(tree('root').filter((n) => canonical(n)), (n) => {
        const J = `{"where":${toJson(n)}}`;
        const d = decompile(J);
        expect(d.diagnostics.filter((x) => x.severity === 'error')).toEqual([]);
        const c = compile(d.source!, { dataset: 'any', maxOperators: 10_000, maxBytes: 1e9 });
        expect(c.json).toBe(J);
        expect(format(d.source!).text).toBe(d.source);
      }),
      { numRuns: 200 },
    );
  }, SLOW);

  it('format is idempotent and keeps the compiled meaning of randomly spelled sources', () => {
    fc.assert(
      fc.property(tree('root'), fc.integer(), (n, seed) => {
        let x = seed;
        const rnd = () => ((x = (Math.imul(x, 1103515245) + 12345) | 0) >>> 8) / 16777216;
        const src = `dataset any\n${toSource(n, rnd)}\n`;
        const opts = { maxOperators: 10_000, maxBytes: 1e9 };
        const before = compile(src, opts);
        expect(before.ok).toBe(true);
        const f = format(src);
        expect(f.ok).toBe(true);
        expect(format(f.text).text).toBe(f.text);
        expect(compile(f.text, opts).json).toBe(before.json);
      }),
      { numRuns: 200 },
    );
  }, SLOW);
});

describe('random input never throws', () => {
  const inRange = (len: number) => (d: { start: number; end: number }) => d.start >= 0 && d.start <= d.end && d.end <= len;
  it('random strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'binary' }), (s) => {
        for (const ds of [compile(s).diagnostics, format(s).diagnostics, parse(s).diagnostics, check(s).diagnostics, decompile(s).diagnostics]) {
          expect(ds.every(inRange(s.length))).toBe(true);
        }
        const c = compile(s);
        expect(c.ok).toBe(!c.diagnostics.some((d) => d.severity === 'error'));
        if (!c.ok) expect(c.diagnostics.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  }, SLOW);
  it('mutations of valid sources: every failure has a ranged diagnostic', () => {
    const base = 'dataset http_requests\nClientRequestHost == "api.example.com" and (EdgeResponseStatus >= 500 or ClientCountry in ["us", "ca"]) and not BotScore < 30\n';
    const tokens = ['(', ')', '[', ']', ',', '"', '`', '#', 'and', 'or', 'not', '==', '!', '=', 'in', '\\', '\n', '-', '.', '5'];
    fc.assert(
      fc.property(fc.array(fc.record({ at: fc.nat(base.length), del: fc.nat(4), ins: fc.constantFrom(...tokens) }), { minLength: 1, maxLength: 5 }), (edits) => {
        let s = base;
        for (const e of edits) {
          const at = Math.min(e.at, s.length);
          s = s.slice(0, at) + e.ins + s.slice(at + e.del);
        }
        const c = compile(s);
        expect(c.diagnostics.every(inRange(s.length))).toBe(true);
        if (!c.ok) expect(c.diagnostics.some((d) => d.severity === 'error')).toBe(true);
        const f = format(s);
        if (f.ok) expect(compile(f.text).json).toBe(c.json);
      }),
      { numRuns: 300 },
    );
  }, SLOW);
});
