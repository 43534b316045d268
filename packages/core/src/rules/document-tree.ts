/**
 * A rules document's JSON tree carried from one version of the text to the next. Typing inside an
 * `expression` string of a 1 MB ruleset changes one string: parsing the whole document again for each
 * keystroke's completion takes tens of milliseconds, while moving the offsets of the nodes after the edit
 * takes a few. Anything else (an edit that touches the JSON structure, a key, or leaves the string invalid)
 * is left to a full parse, so the tree is always the one `parseJson` would give for the new text.
 */
import type { JsonString, JsonValue } from '../lang/located-json.js';

/**
 * Updates `tree` (located in `before`) in place for `after`, if the two texts differ only inside one string
 * value (not a key) and that string is still one valid JSON string. Returns whether it did; when it returns
 * false the tree is untouched and the caller parses `after` itself.
 */
export function carryJsonTree(tree: JsonValue, before: string, after: string): boolean {
  if (before === after) return true;
  const min = Math.min(before.length, after.length);
  const p = commonPrefix(before, after, min);
  const s = commonSuffix(before, after, min - p);
  // before[p, oldEnd) became after[p, p + delta + (oldEnd - p))
  const oldEnd = before.length - s;
  const delta = after.length - before.length;
  const node = stringHolding(tree, p, oldEnd);
  if (!node) return false;
  // the string's new raw text, quotes included: JSON.parse accepts it only if it is still exactly one
  // string (a typed `"` or a broken escape would end it elsewhere)
  const raw = after.slice(node.start, node.end + delta);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return false;
  }
  if (typeof value !== 'string') return false;
  node.value = value;
  node.escaped = raw.includes('\\');
  shift(tree, oldEnd, delta);
  return true;
}

/**
 * Chunks are compared whole first (a native comparison of two slices), then the differing chunk character by
 * character: a 1 MB text costs a fraction of a millisecond instead of a loop over every character.
 */
const CHUNK = 4096;

/** How many characters `a` and `b` share at their start, at most `max`. */
function commonPrefix(a: string, b: string, max: number): number {
  let p = 0;
  while (p + CHUNK <= max && a.slice(p, p + CHUNK) === b.slice(p, p + CHUNK)) p += CHUNK;
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  return p;
}

/** How many characters `a` and `b` share at their end, at most `max`. */
function commonSuffix(a: string, b: string, max: number): number {
  let s = 0;
  while (s + CHUNK <= max && a.slice(a.length - s - CHUNK, a.length - s) === b.slice(b.length - s - CHUNK, b.length - s)) s += CHUNK;
  while (s < max && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  return s;
}

/** The string value (not a key) whose inside (between its quotes) holds [from, to), if any. */
function stringHolding(tree: JsonValue, from: number, to: number): JsonString | undefined {
  let node: JsonValue | undefined = tree;
  while (node) {
    if (!(node.start < from && to < node.end)) return undefined;
    if (node.type === 'string') return node;
    let next: JsonValue | undefined;
    if (node.type === 'array') next = node.items.find((v) => v.start < from && to < v.end);
    else if (node.type === 'object') {
      // an edit in a key lies in no value: it changes which properties the document has, so parse again
      next = node.properties.find((prop) => prop.value.start < from && to < prop.value.end)?.value;
    }
    node = next;
  }
  return undefined;
}

/** Moves every offset at or after `at` by `delta` (the nodes after the edit, and the ends of those holding it). */
function shift(tree: JsonValue, at: number, delta: number): void {
  const stack: JsonValue[] = [tree];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.end < at) continue; // wholly before the edit, and so is everything inside it
    if (n.start >= at) n.start += delta;
    n.end += delta;
    if (n.type === 'array') for (const v of n.items) stack.push(v);
    else if (n.type === 'object') {
      for (const prop of n.properties) {
        if (prop.end < at) continue;
        if (prop.start >= at) prop.start += delta;
        prop.end += delta;
        if (prop.key.start >= at) {
          prop.key.start += delta;
          prop.key.end += delta;
        }
        stack.push(prop.value);
      }
    }
  }
}
