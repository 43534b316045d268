/**
 * A YAML document as the core's located JSON tree (offsets into the YAML text), so that the rules checker
 * walks YAML rulesets exactly as JSON ones and reports at the line and column of the YAML file. Strings map
 * their value back to the text with the core's alignedOffsetMapper (YAML quoting and block scalars).
 */
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import type { JsonString, JsonValue } from '@logfilter/core';

export interface LocatedYaml {
  tree?: JsonValue;
  /** The first YAML error: message and offset. */
  error?: { message: string; offset: number };
}

export function parseLocatedYaml(text: string): LocatedYaml {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const [first] = doc.errors;
  if (first) return { error: { message: first.message.split('\n')[0] ?? 'not valid YAML', offset: first.pos[0] } };
  return { tree: convert(doc.contents as Node | null, text.length) };
}

function span(node: Node | null | undefined, fallback: number): { start: number; end: number } {
  const r = node?.range;
  return r ? { start: r[0], end: r[1] } : { start: fallback, end: fallback };
}

function convert(node: Node | null | undefined, fallback: number): JsonValue {
  const { start, end } = span(node, fallback);
  if (!node || isAlias(node)) return { type: 'null', start, end };
  if (isMap(node)) {
    return {
      type: 'object',
      start,
      end,
      properties: node.items.map((pair) => {
        const key = convert(pair.key as Node, start);
        const k: JsonString = key.type === 'string' ? key : { type: 'string', value: String(isScalar(pair.key) ? pair.key.value : ''), escaped: true, start: key.start, end: key.end };
        const value = convert(pair.value as Node, k.end);
        return { key: k, value, start: k.start, end: value.end, duplicate: false };
      }),
    };
  }
  if (isSeq(node)) return { type: 'array', start, end, items: node.items.map((item) => convert(item as Node, start)) };
  if (isScalar(node)) {
    const v = node.value;
    if (typeof v === 'string') return { type: 'string', value: v, escaped: true, start, end };
    if (typeof v === 'number' || typeof v === 'bigint') return { type: 'number', raw: String(v), integer: Number.isInteger(Number(v)), start, end };
    if (typeof v === 'boolean') return { type: 'boolean', value: v, start, end };
    return { type: 'null', start, end };
  }
  return { type: 'null', start, end };
}
