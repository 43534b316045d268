/** Identity of a normalised condition: two conditions with the same key mean the same on every log line. */
import { valueKey } from '../util/values.js';
import type { NCondition } from './normalize.js';

/** Field, operator and value (type and exact text): equal keys are duplicates (checker) and merge (optimizer). */
export function conditionKey(c: NCondition): string {
  return `${c.key}\u0000${c.op}\u0000${valueKey(c.value)}`;
}
