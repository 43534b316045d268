/**
 * Identity of a normalised condition or group: two nodes with the same key mean the same on every log line. The
 * one structural equality of the checker's `duplicate-condition` and of `--optimize`'s dropping of repeats.
 */
import { valueKey } from '../util/values.js';
import type { NCondition, NNode } from './normalize.js';

/**
 * Field, operator and value (type and exact text): equal keys are duplicates (checker) and merge (optimizer). A list
 * is a set of values (`in`/`!in` hold for any member, in any order), so its members are keyed sorted, once each.
 */
export function conditionKey(c: NCondition): string {
  const v = c.value;
  const value = v.kind === 'list' ? JSON.stringify([...new Set(v.items.map(valueKey))].sort()) : valueKey(v);
  return `${c.key}\u0000${c.op}\u0000${value}`;
}

/**
 * A node's identity: a condition's key, or for a group its operator and the set of its members' identities, so
 * members in another order (or written twice) make the same group. `keys` memoises groups: every level of nesting
 * asks for the keys of the levels below.
 */
export function nodeKey(n: NNode, keys: WeakMap<NNode, string> = new WeakMap()): string {
  if (n.kind === 'condition') return conditionKey(n);
  let k = keys.get(n);
  if (k === undefined) {
    const members = [...new Set(n.items.map((i) => nodeKey(i, keys)))].sort();
    k = JSON.stringify([n.kind, members]); // unambiguous whatever the values hold
    keys.set(n, k);
  }
  return k;
}
