/**
 * Offsets in a parsed text → offsets in the text the user gave, for both languages. An expression often
 * travels as a JSON-encoded string (a job's `filter` field, a rule's `expression`): it is parsed from the
 * decoded string, but every range and every fix must point into the original outer text, through the
 * string's escapes (or, for YAML, through whatever mapper located the string).
 */
import type { Diagnostic, Fix } from './diagnostics.js';
import type { JsonPath } from './positions.js';
import { stringOffsetMapper, type JsonString } from './located-json.js';

export interface TextMapping {
  /** An offset in the parsed text → the offset in the original input. */
  offset(parsed: number): number;
  /** Text to write into the original input so that, once decoded, it reads `text`. */
  encode(text: string): string;
  /** There is an original text that fixes can edit (not for already-parsed values). */
  editable: boolean;
}

export const IDENTITY_MAPPING: TextMapping = {
  offset: (o) => o,
  encode: (t) => t,
  editable: true,
};

/** Already-parsed input: no text, every offset is 0, no fix can be offered. */
export const NO_TEXT_MAPPING: TextMapping = {
  offset: () => 0,
  encode: (t) => t,
  editable: false,
};

/** Escapes `text` for use between the quotes of a JSON string. */
export function escapeJsonStringContent(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** Maps offsets in a string's decoded value to offsets in the text it was read from. */
export type StringOffsetMapper = (text: string, node: JsonString) => (offset: number) => number;

/**
 * The mapping for a text that is the decoded value of the string `node`, itself read from `source` (the
 * parsed text of `outer`).
 */
export function throughString(outer: TextMapping, source: string, node: JsonString, mapper: StringOffsetMapper = stringOffsetMapper): TextMapping {
  const inner = mapper(source, node);
  return {
    offset: (o) => outer.offset(inner(o)),
    encode: (t) => outer.encode(escapeJsonStringContent(t)),
    editable: outer.editable,
  };
}

/** A diagnostic of the parsed text, moved into the original input, its path put under `base`. */
export function mapDiagnostic<D extends Diagnostic>(d: D, mapping: TextMapping, base: JsonPath): D {
  const start = mapping.offset(d.start);
  const out: D = { ...d, start, end: Math.max(start, mapping.offset(d.end)) };
  if (d.path) out.path = [...base, ...d.path];
  if (d.related) out.related = d.related.map((r) => ({ ...r, start: mapping.offset(r.start), end: mapping.offset(r.end) }));
  if (d.fixes) {
    if (mapping.editable) out.fixes = d.fixes.map((f) => mapFix(f, mapping));
    else delete out.fixes;
  }
  return out;
}

function mapFix(fix: Fix, mapping: TextMapping): Fix {
  return {
    ...fix,
    edits: fix.edits.map((e) => ({ start: mapping.offset(e.start), end: mapping.offset(e.end), newText: mapping.encode(e.newText) })),
  };
}
