/**
 * `--optimize`: rewrites that never change the result on any log line (docs/language.md#compilation):
 * - duplicates in one and/or are dropped (a ∧ a = a, a ∨ a = a): conditions and groups alike, judged as the checker's
 *   `duplicate-condition` judges them (nodeKey: a group is its operator and the set of its members, in any order);
 * - in an `or`, `x == a`, `x == b`, `x in [c]` on one scalar field merge into `x in [a, b, c]`;
 * - in an `and`, `x != a`, `x !in [b]` on one scalar field merge into `x !in [a, b]`.
 *
 * The merges hold because `in` on a scalar is "equals some member" with the same equality as `eq`, and an
 * absent field makes `eq`/`in` false and `!eq`/`!in` true alike. On array fields `in` means "any element
 * equals any member" while `eq` never holds, so merges only touch fields whose schema says scalar
 * (string, int, int or string) — never under dataset `any`, where the type is unknown.
 */
import type { ListValue, ScalarValue } from '../ast.js';
import { nodeKey } from './condition-key.js';
import type { DatasetSchema } from '../datasets/index.js';
import { valueKey } from '../util/values.js';
import type { NCondition, NNode } from './normalize.js';
import { pushAll } from '../util/push-all.js';

const MERGEABLE_TYPES = new Set(['string', 'int', 'int or string']);

export function optimize(root: NNode, schema: DatasetSchema | undefined, keys = new WeakMap<NNode, string>()): NNode {
  if (root.kind === 'condition') return root;
  const items: NNode[] = [];
  // Repeats are dropped before their members are rewritten (two merges of one group in another order would give
  // lists in another order), and again after flattening, which can bring a repeat up from a nested group.
  for (const item of dropDuplicates(root.items, keys)) {
    const o = optimize(item, schema, keys);
    if (o.kind === root.kind) pushAll(items, o.items);
    else items.push(o);
  }
  const deduped = dropDuplicates(items, keys);
  const merged = merge(deduped, root.kind, schema);
  return merged.length === 1 ? merged[0] : { ...root, items: merged };
}

/** The items without the repeats of an earlier one (the first is kept, at its place). */
function dropDuplicates(items: NNode[], keys: WeakMap<NNode, string>): NNode[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const k = nodeKey(i, keys);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function merge(items: NNode[], kind: 'and' | 'or', schema: DatasetSchema | undefined): NNode[] {
  const [single, list] = kind === 'or' ? (['eq', 'in'] as const) : (['!eq', '!in'] as const);
  const mergeable = (n: NNode): n is NCondition => {
    if (n.kind !== 'condition' || (n.op !== single && n.op !== list)) return false;
    const field = schema?.byName.get(n.key);
    return field !== undefined && MERGEABLE_TYPES.has(field.type) && (n.op === list ? n.value.kind === 'list' : n.value.kind !== 'list');
  };
  const groups = new Map<string, NCondition[]>();
  for (const n of items) {
    if (!mergeable(n)) continue;
    const g = groups.get(n.key) ?? [];
    g.push(n);
    groups.set(n.key, g);
  }
  const out: NNode[] = [];
  for (const n of items) {
    if (!mergeable(n)) {
      out.push(n);
      continue;
    }
    const g = groups.get(n.key)!;
    if (g.length < 2) {
      out.push(n);
      continue;
    }
    if (g[0] !== n) continue; // merged into the first member, at its position
    const values: ScalarValue[] = [];
    const seen = new Set<string>();
    for (const c of g) {
      for (const v of c.value.kind === 'list' ? c.value.items : [c.value]) {
        const k = valueKey(v);
        if (!seen.has(k)) {
          seen.add(k);
          values.push(v);
        }
      }
    }
    const value: ListValue = { kind: 'list', items: values, start: g[0].src.start, end: g[g.length - 1].src.end };
    out.push({ kind: 'condition', key: n.key, op: list, value, src: n.src, sources: g.flatMap((c) => c.sources) });
  }
  return out;
}
