/**
 * The filter's plan (plan.ts) compiled for the line kernel: node records (kernel-layout.mjs, NODE_*) that
 * kernel.wat's $eval runs over a valid line's value spans, so a line the filter rejects is never seen by the JS
 * side. Each condition becomes the leaf its span decision (span-decision.ts) allows, with the same verdicts as
 * span-conditions.ts:
 * - a string decision (`equals`, `startsWith`, `endsWith`, `contains` and their `!` forms) on a string: its
 *   bytes, or for a string with escapes the UTF-8 of its decoded text ($unescape: exact as UTF-16 when the text
 *   holds no lone surrogate, see span-decision.ts); on an absent field or null: the negative operator's `true`;
 *   `startsWith`/`endsWith` on any other value: false (true for the negative);
 * - a comparison with a number (a double) on an integer token of 1 to 15 digits: exact as a double;
 * - `eq`/`in` with numbers only, or booleans only (`equality` below);
 * - an unknown operator: never holds.
 * Everything else is undecided in the kernel (an escaped string decoding to a lone surrogate or longer than
 * UNESCAPE_BYTES, a numeric string, an array for `contains`,
 * a comparison with an integer beyond 2^53, a condition whose value must be decoded), and so is a line whose
 * verdict depends on one: the JS side's span tests read such a line as before. `and`/`or` decide as soon as one
 * child decides them, so an undecided child costs nothing when a sibling rejects the line.
 */
import { KERNEL_LAYOUT as L } from './line-kernel.generated.js';
import { rareOffsets } from './line-kernel.js';
import type { PlanCondition, PlanNode } from './plan.js';
import { asList, asScalar, toExact } from './values.js';

/** Deeper filters stay with the JS side ($eval recurses once per level, on the kernel's call stack). */
const MAX_DEPTH = 64;

/**
 * `eq`/`in` with numbers only (doubles: a bigint's digits are compared by the JS side) or booleans only, as
 * equalsTo/equalsAny (values.ts) decide them on a value token: a number equals an integer token of the same
 * value (other numbers and numeric strings are decoded by the JS side) and never `true`, `false` or an object;
 * a boolean equals only the same literal. Anything else stays undecided.
 */
function equality(c: PlanCondition, node: Node): Node {
  const op = c.operator!.positive;
  if (op !== 'eq' && op !== 'in') return node;
  const list = op === 'eq' ? [asScalar(c.source.value)] : asList(c.source.value);
  node.arrays = op === 'in' ? 1 : 0;
  if (list.length > 0 && list.every((m) => typeof m === 'number')) {
    node.kind = L.NODE_NUMEQ;
    node.numbers = list as number[];
  } else if (list.length > 0 && list.every((m) => typeof m === 'boolean')) {
    node.kind = L.NODE_BOOLEQ;
    node.bools = (list.includes(true) ? 1 : 0) | (list.includes(false) ? 2 : 0);
  }
  return node;
}

interface Node {
  kind: number;
  child: number;
  next: number;
  field: number;
  neg: number;
  /** a leaf's needle, or its members */
  bytes?: Uint8Array;
  members?: readonly Uint8Array[];
  rare?: [number, number];
  num: number;
  /** NODE_NUMEQ's members, NODE_BOOLEQ's (1: true, 2: false), and whether arrays are decoded (NODE_ARRAYS) */
  numbers?: readonly number[];
  bools?: number;
  arrays?: number;
}

const COMPARISON: Record<string, number> = { lt: L.NODE_LT, leq: L.NODE_LEQ, gt: L.NODE_GT, geq: L.NODE_GEQ };
const STRING_KIND: Record<string, number> = { startsWith: L.NODE_STARTS, endsWith: L.NODE_ENDS, contains: L.NODE_CONTAINS };

function leaf(c: PlanCondition): Node {
  const node: Node = { kind: L.NODE_UNKNOWN, child: 0, next: 0, field: c.field, neg: 0, num: 0 };
  if (c.operator === undefined) {
    node.kind = L.NODE_FALSE;
    return node;
  }
  node.neg = c.operator.negative ? 1 : 0;
  const span = c.span;
  if (span === undefined) return equality(c, node);
  if (span.kind === 'digits') {
    // the value positiveTest compares with (conditions.ts)
    const b = toExact(asScalar(c.source.value));
    if (typeof b !== 'number') return node;
    if (b !== b) node.kind = L.NODE_FALSE;
    else {
      node.kind = COMPARISON[c.operator.positive]!;
      node.num = b;
    }
    return node;
  }
  if (span.kind === 'equals') {
    node.kind = L.NODE_EQUALS;
    node.members = span.members;
    return node;
  }
  node.kind = STRING_KIND[span.kind]!;
  node.bytes = span.needle;
  node.rare = span.needle.length > 0 ? rareOffsets(span.needle) : [0, 0];
  return node;
}

/**
 * The kernel program of a plan's root (node 0 is the root), or undefined when the kernel could decide no
 * condition of it (or it nests deeper than MAX_DEPTH): the JS side then reads every line as before.
 */
export function kernelProgram(root: PlanNode): Uint8Array | undefined {
  const nodes: Node[] = [];
  let decided = 0;
  const add = (n: PlanNode, depth: number): number | undefined => {
    if (depth > MAX_DEPTH) return undefined;
    const index = nodes.length;
    if (n.kind === 'condition') {
      const node = leaf(n);
      if (node.kind !== L.NODE_UNKNOWN) decided++;
      nodes.push(node);
      return index;
    }
    if (n.kind === 'never') {
      nodes.push({ kind: L.NODE_FALSE, child: 0, next: 0, field: 0, neg: 0, num: 0 });
      return index;
    }
    const group: Node = { kind: n.kind === 'and' ? L.NODE_AND : L.NODE_OR, child: 0, next: 0, field: 0, neg: 0, num: 0 };
    nodes.push(group);
    let previous: Node | undefined;
    for (const c of n.children) {
      const at = add(c, depth + 1);
      if (at === undefined) return undefined;
      if (previous) previous.next = at + 1;
      else group.child = at + 1;
      previous = nodes[at]!;
    }
    return index;
  };
  if (add(root, 0) === undefined || decided === 0) return undefined;

  // The node records, then the needles and members (offsets from the program's start).
  let size = nodes.length * L.NODE_BYTES;
  for (const n of nodes) {
    if (n.numbers) size += n.numbers.length * 8;
    if (n.bytes) size += n.bytes.length;
    if (n.members) size += n.members.length * 8 + n.members.reduce((t, m) => t + m.length, 0);
  }
  const out = new Uint8Array((size + 7) & ~7);
  const view = new DataView(out.buffer);
  // the numbers first (aligned: the node records are a multiple of 8 bytes), then the bytes
  let at = nodes.length * L.NODE_BYTES;
  nodes.forEach((n, i) => {
    const r = i * L.NODE_BYTES;
    view.setInt32(r + L.NODE_ARRAYS, n.arrays ?? 0, true);
    if (n.bools !== undefined) view.setInt32(r + L.NODE_LEN, n.bools, true);
    if (n.numbers) {
      view.setInt32(r + L.NODE_AT, at, true);
      view.setInt32(r + L.NODE_LEN, n.numbers.length, true);
      for (const m of n.numbers) {
        view.setFloat64(at, m, true);
        at += 8;
      }
    }
  });
  nodes.forEach((n, i) => {
    const r = i * L.NODE_BYTES;
    view.setInt32(r + L.NODE_KIND, n.kind, true);
    view.setInt32(r + L.NODE_CHILD, n.child, true);
    view.setInt32(r + L.NODE_NEXT, n.next, true);
    view.setInt32(r + L.NODE_FIELD, n.field, true);
    view.setInt32(r + L.NODE_NEG, n.neg, true);
    view.setFloat64(r + L.NODE_NUM, n.num, true);
    if (n.bytes) {
      view.setInt32(r + L.NODE_AT, at, true);
      view.setInt32(r + L.NODE_LEN, n.bytes.length, true);
      view.setInt32(r + L.NODE_RARE_A, n.rare![0], true);
      view.setInt32(r + L.NODE_RARE_B, n.rare![1], true);
      out.set(n.bytes, at);
      at += n.bytes.length;
    }
    if (n.members) {
      const list = at;
      view.setInt32(r + L.NODE_AT, list, true);
      view.setInt32(r + L.NODE_LEN, n.members.length, true);
      at += n.members.length * 8;
      n.members.forEach((m, k) => {
        view.setInt32(list + k * 8, at, true);
        view.setInt32(list + k * 8 + 4, m.length, true);
        out.set(m, at);
        at += m.length;
      });
    }
  });
  return out;
}
