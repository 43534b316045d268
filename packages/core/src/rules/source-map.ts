/**
 * Where the characters of a decoded string value sit in the text it was read from, for formats whose
 * escapes and folding the core does not parse itself (YAML scalars: plain, quoted, block). Each character of
 * the value is matched to the next equal character of the node's text; what the format adds (quotes, escape
 * backslashes, indentation, a block header) is skipped. A character the format produced from something else
 * (an escape such as `\n`, a folded line break) keeps the position reached so far: positions never go back
 * and never leave the node.
 */
import type { JsonString } from '../lang/located-json.js';

export function alignedOffsetMapper(text: string, node: JsonString): (offset: number) => number {
  const value = node.value;
  const offsets = new Int32Array(value.length + 1);
  let r = node.start;
  for (let k = 0; k < value.length; k++) {
    const c = value.charCodeAt(k);
    let at = r;
    while (at < node.end && text.charCodeAt(at) !== c) at++;
    if (at < node.end) {
      offsets[k] = at;
      r = at + 1;
    } else offsets[k] = Math.min(r, node.end);
  }
  offsets[value.length] = Math.min(r, node.end);
  return (d) => offsets[Math.min(value.length, Math.max(0, d))];
}
