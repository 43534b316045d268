/**
 * Structural equality of filter documents, the meaning of "round trip" in docs/language.md#decompiling-and-formatting:
 * two documents are structurally equal when they are equal after the normalisation the compiler applies
 * (chains of the same connective flattened, single-item and/or nodes unwrapped), whatever their white
 * space and key order. The language cannot write a one-item `and`, so `{"and":[c]}` round-trips to `c`.
 */
import type { FilterDocument, FilterNode } from '../filter.js';
import { pushAll } from '../util/push-all.js';

export function normalizeFilter(doc: FilterDocument): FilterDocument {
  return { where: normalizeNode(doc.where) };
}

function normalizeNode(n: FilterNode): FilterNode {
  if ('key' in n) {
    return { key: n.key, operator: n.operator, value: Array.isArray(n.value) ? [...n.value] : n.value };
  }
  const kind = 'and' in n ? 'and' : 'or';
  const items: FilterNode[] = [];
  for (const child of (n as unknown as Record<string, FilterNode[]>)[kind]) {
    const c = normalizeNode(child);
    if (kind in c) pushAll(items, (c as unknown as Record<string, FilterNode[]>)[kind]);
    else items.push(c);
  }
  if (items.length === 1) return items[0];
  return (kind === 'and' ? { and: items } : { or: items }) as FilterNode;
}

export function filtersEqual(a: FilterDocument, b: FilterDocument): boolean {
  return canonicalText(normalizeFilter(a).where) === canonicalText(normalizeFilter(b).where);
}

function canonicalText(n: FilterNode): string {
  if ('key' in n) return JSON.stringify([n.key, n.operator, n.value]);
  const kind = 'and' in n ? 'and' : 'or';
  return `${kind}(${(n as unknown as Record<string, FilterNode[]>)[kind].map(canonicalText).join(',')})`;
}
