/**
 * Checks on the normalised tree (after `not` is pushed down), where the meaning is explicit:
 * `duplicate-condition` (the same condition or group twice in one and/or) and `always-false` (an `and` that can
 * never hold, such as `x == 1 and x == 2` or `x > 10 and x < 5`).
 */
import type { ScalarValue } from '../ast.js';
import { nodeKey } from '../compile/condition-key.js';
import type { NCondition, NLogical, NNode } from '../compile/normalize.js';
import type { DatasetSchema } from '../datasets/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { isNumericString, numericValue, printScalar, valueKey } from '../util/values.js';

export function checkLogic(root: NNode, schema: DatasetSchema | undefined, out: Diagnostic[]): void {
  const keys = new WeakMap<NNode, string>();
  const visit = (n: NNode) => {
    if (n.kind === 'condition') return;
    duplicates(n.items, n.kind, out, keys);
    if (n.kind === 'and') contradictions(n.items, schema, out);
    n.items.forEach(visit);
  };
  visit(root);
}

function duplicates(items: NNode[], kind: 'and' | 'or', out: Diagnostic[], keys: WeakMap<NNode, string>): void {
  const seen = new Map<string, NNode>();
  for (const item of items) {
    const k = nodeKey(item, keys);
    const first = seen.get(k);
    if (!first) {
      seen.set(k, item);
      continue;
    }
    const c = item.src;
    const what = item.kind === 'condition' ? 'condition' : 'group';
    out.push(
      diag('duplicate-condition', `this ${what} appears twice in the same '${kind}'`, c.start, c.end, {
        path: 'path' in c ? c.path : undefined,
        related: [{ message: 'first written here', start: first.src.start, end: first.src.end }],
      }),
    );
  }
}

/** Value identity as the evaluator sees it: numbers (and numeric strings on number fields) by value. */
function valueId(v: ScalarValue, numeric: boolean): string {
  if (v.kind === 'bool') return `b:${v.value}`;
  if (v.kind === 'string' && !(numeric && isNumericString(v.value))) return `s:${v.value}`;
  // A numeric string with an exponent is identified by its value's shortest decimal (`"1e3"` is 1000).
  const n = v.kind === 'string' ? (/[eE]/.test(v.value) ? String(numericValue(v.value)) : v.value) : printScalar(v);
  return `n:${normalNumber(n)}`;
}

function normalNumber(s: string): string {
  let [i, f = ''] = s.replace(/^-/, '').split('.');
  i = i.replace(/^0+(?=\d)/, '');
  f = f.replace(/0+$/, '');
  const neg = s.startsWith('-') && (i !== '0' || f !== '');
  return `${neg ? '-' : ''}${i}${f ? `.${f}` : ''}`;
}

function numberOf(v: ScalarValue): number | undefined {
  if (v.kind === 'int' || v.kind === 'float') return Number(v.raw);
  if (v.kind === 'string' && isNumericString(v.value)) return numericValue(v.value);
  return undefined;
}

/**
 * For each field in one `and`: the set of values it may take (from eq/in), the values it may not (from
 * !eq/!in) and the numeric range (from lt/leq/gt/geq). Only fields known to be scalars are reasoned about:
 * `in` on an array field holds for any element, so two `in`s on it do not contradict each other.
 */
function contradictions(items: NNode[], schema: DatasetSchema | undefined, out: Diagnostic[]): void {
  const byKey = new Map<string, NCondition[]>();
  for (const node of items) {
    const item = node.kind === 'condition' ? node : valueSet(node);
    if (!item) continue;
    const list = byKey.get(item.key) ?? [];
    list.push(item);
    byKey.set(item.key, list);
  }
  for (const [key, conds] of byKey) {
    if (conds.length < 2) continue;
    const field = schema?.byName.get(key);
    const scalarField = field !== undefined && !field.type.startsWith('array') && field.type !== 'object';
    const numeric = !field || field.type === 'int' || field.type === 'float' || field.type === 'int or string';
    let allowed: Set<string> | undefined;
    const excluded = new Set<string>();
    let lo = -Infinity;
    let loStrict = false;
    let hi = Infinity;
    let hiStrict = false;
    // only on a field that holds one string: the string operators hold only for a string log value
    const text = field?.type === 'string' ? new TextConstraints() : undefined;
    const seen: NCondition[] = [];
    for (const c of conds) {
      const values = c.value.kind === 'list' ? c.value.items : [c.value];
      const ids = values.map((v) => valueId(v, numeric));
      switch (c.op) {
        case 'eq':
          allowed = intersect(allowed, ids);
          break;
        case 'in':
          if (!scalarField) break;
          allowed = intersect(allowed, ids);
          break;
        case '!eq':
        case '!in':
          if (c.op === '!in' && !scalarField) break;
          ids.forEach((i) => excluded.add(i));
          break;
        case 'lt':
        case 'leq':
        case 'gt':
        case 'geq': {
          const n = numberOf(values[0]);
          if (n === undefined || Number.isNaN(n)) break;
          if (c.op === 'gt' || c.op === 'geq') {
            if (n > lo || (n === lo && c.op === 'gt')) {
              lo = n;
              loStrict = c.op === 'gt';
            }
          } else if (n < hi || (n === hi && c.op === 'lt')) {
            hi = n;
            hiStrict = c.op === 'lt';
          }
          break;
        }
        default:
          if (text && c.value.kind === 'string') text.add(c.op, c.value.value);
          break;
      }
      seen.push(c);
      if (impossible()) {
        out.push(
          diag('always-false', `this 'and' can never hold: no value of ${key} satisfies all of its conditions`, c.src.start, c.src.end, {
            path: c.src.path,
            related: seen.slice(0, -1).map((s) => ({ message: 'conflicts with this condition', start: s.src.start, end: s.src.end })),
          }),
        );
        return;
      }
    }
    function impossible(): boolean {
      const inRange = (id: string) => {
        if (!id.startsWith('n:')) return lo === -Infinity && hi === Infinity;
        const n = Number(id.slice(2));
        return (loStrict ? n > lo : n >= lo) && (hiStrict ? n < hi : n <= hi);
      };
      if (lo > hi || (lo === hi && (loStrict || hiStrict))) return true;
      if (text?.impossible()) return true;
      const fits = (id: string) => !text || (id.startsWith('s:') && text.fits(id.slice(2)));
      if (allowed) return [...allowed].every((id) => excluded.has(id) || !inRange(id) || !fits(id));
      return false;
    }
  }
}

/**
 * An `or` whose members are all `==`/`in` on one field is the set of their values: an `in` standing for the group
 * (its range, parentheses and `not` included), so `x == 1 and (x == 2 or x == 3)` is judged like `x == 1 and x in
 * [2, 3]`. It is reasoned about only where an `in` is (single-valued fields).
 */
function valueSet(n: NLogical): NCondition | undefined {
  if (n.kind !== 'or') return undefined;
  const members = n.items.filter((i): i is NCondition => i.kind === 'condition' && (i.op === 'eq' || i.op === 'in'));
  if (members.length !== n.items.length || members.some((m) => m.key !== members[0].key)) return undefined;
  const values = members.flatMap((m) => (m.value.kind === 'list' ? m.value.items : [m.value]));
  const first = members[0];
  const src = { ...first.src, start: n.src.start, end: n.src.end, path: 'path' in n.src ? n.src.path : undefined } as NCondition['src'];
  return { kind: 'condition', key: first.key, op: 'in', value: { ...first.value, kind: 'list', items: values } as NCondition['value'], src, sources: members.flatMap((m) => m.sources) };
}

function intersect(a: Set<string> | undefined, ids: string[]): Set<string> {
  if (!a) return new Set(ids);
  return new Set(ids.filter((i) => a.has(i)));
}

/**
 * What startsWith/endsWith/contains (and their negations) in one `and` ask of one string: two prefixes must be
 * prefixes of one another, a required prefix, suffix or substring must not hold a refused one, and a value
 * from `==`/`in` must pass them all.
 */
class TextConstraints {
  private readonly pos: Record<'startsWith' | 'endsWith' | 'contains', string[]> = { startsWith: [], endsWith: [], contains: [] };
  private readonly neg: Record<'startsWith' | 'endsWith' | 'contains', string[]> = { startsWith: [], endsWith: [], contains: [] };

  add(op: string, v: string): void {
    const negated = op.startsWith('!');
    const base = negated ? op.slice(1) : op;
    if (base === 'startsWith' || base === 'endsWith' || base === 'contains') (negated ? this.neg : this.pos)[base].push(v);
  }

  /** A value from `==`/`in` that every string condition lets through. */
  fits(v: string): boolean {
    const { pos, neg } = this;
    // `== "5"` also holds for the log number 5, on which every string negation holds
    const number = isNumericString(v);
    return (
      pos.startsWith.every((p) => v.startsWith(p)) &&
      pos.endsWith.every((p) => v.endsWith(p)) &&
      pos.contains.every((p) => v.includes(p)) &&
      (number ||
        (!neg.startsWith.some((p) => v.startsWith(p)) &&
          !neg.endsWith.some((p) => v.endsWith(p)) &&
          !neg.contains.some((p) => v.includes(p))))
    );
  }

  impossible(): boolean {
    const { pos, neg } = this;
    const longest = (xs: string[]) => xs.reduce((a, b) => (b.length > a.length ? b : a), '');
    const prefix = longest(pos.startsWith);
    const suffix = longest(pos.endsWith);
    if (!pos.startsWith.every((p) => prefix.startsWith(p))) return true;
    if (!pos.endsWith.every((p) => suffix.endsWith(p))) return true;
    // every string the positives allow holds the prefix, the suffix and each needle; without a positive the
    // negations alone hold on an absent field, so they contradict nothing
    if (pos.startsWith.length && neg.startsWith.some((q) => prefix.startsWith(q))) return true;
    if (pos.endsWith.length && neg.endsWith.some((q) => suffix.endsWith(q))) return true;
    const held = [...(pos.startsWith.length ? [prefix] : []), ...(pos.endsWith.length ? [suffix] : []), ...pos.contains];
    return neg.contains.some((m) => held.some((h) => h.includes(m)));
  }
}
