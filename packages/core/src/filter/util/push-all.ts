/**
 * Appends every item of `items` to `out`. `out.push(...items)` passes each item as an argument and overflows the
 * stack past about 100,000 items (a filter of 125,000 conditions did); a loop has no such limit.
 */
export function pushAll<T>(out: T[], items: readonly T[]): T[] {
  for (const item of items) out.push(item);
  return out;
}
