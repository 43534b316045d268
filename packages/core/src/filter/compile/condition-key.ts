/** Identity of a normalised condition: two conditions with the same key mean the same on every log line. */
import { valueKey } from '../util/values.js';
import type { NCondition } from './normalize.js';

/**
 * Field, operator and value (type and exact text): equal keys are duplicates (checker) and merge (optimizer). A list
 * is a set of values (`in`/`!in` hold for any member, in any order), so its members are keyed sorted, once each.
 */
export function conditionKey(c: NCondition): string {
  const v = c.value;
  const value = v.kind === 'list' ? JSON.stringify([...new Set(v.items.map(valueKey))].sort()) : valueKey(v);
  return `${c.key}\u0000${c.op}\u0000${value}`;
}
