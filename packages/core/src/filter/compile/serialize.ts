/**
 * Canonical bytes: keys in the order key, operator, value; no white space; values as written (integers
 * keep their exact digits); conditions in source order. The same tree always gives the same bytes.
 */
import type { FilterDocument, FilterNode, FilterScalar } from '../filter.js';
import { printScalar } from '../util/values.js';
import type { NCondition, NNode } from './normalize.js';
import { expectText } from '../../lang/guards.js';

export interface Serialized {
  json: string;
  /** UTF-8 length of `json`. */
  bytes: number;
  /** For each condition in output order: the UTF-8 byte offset where it ends in `json`. */
  conditionEnds: { condition: NCondition; byteEnd: number }[];
}

export function serialize(root: NNode): Serialized {
  const conditionEnds: Serialized['conditionEnds'] = [];
  let json = '{"where":';
  let bytes = 0;
  const write = (s: string) => {
    json += s;
    bytes += utf8Length(s);
  };
  bytes = utf8Length(json);
  const visit = (n: NNode) => {
    if (n.kind === 'condition') {
      write(`{"key":${JSON.stringify(n.key)},"operator":${JSON.stringify(n.op)},"value":${printScalar(n.value)}}`);
      conditionEnds.push({ condition: n, byteEnd: bytes });
      return;
    }
    write(`{"${n.kind}":[`);
    n.items.forEach((item, i) => {
      if (i > 0) write(',');
      visit(item);
    });
    write(']}');
  };
  visit(root);
  write('}');
  return { json, bytes, conditionEnds };
}

/** The filter as a JS object (numbers beyond 2^53 lose precision here; `json` is exact). */
export function toDocument(root: NNode): FilterDocument {
  const node = (n: NNode): FilterNode => {
    if (n.kind === 'condition') {
      const scalar = (v: NCondition['value']): FilterScalar =>
        v.kind === 'string' ? v.value : v.kind === 'bool' ? v.value : v.kind === 'list' ? '' : Number(printScalar(v));
      const value = n.value.kind === 'list' ? n.value.items.map(scalar) : scalar(n.value);
      return { key: n.key, operator: n.op, value };
    }
    return n.kind === 'and' ? { and: n.items.map(node) } : { or: n.items.map(node) };
  };
  return { where: node(root) };
}

export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** The JSON-encoded string of the filter, as a job body's `filter` field carries it. */
export function toFilterString(json: string): string {
  // undefined (the `json` of a failed compile) would become undefined, and a job body without its filter
  expectText(json, 'toFilterString', 'filter JSON text', json === undefined ? ' (compile(...).json is undefined when ok is false)' : '');
  return JSON.stringify(json);
}

/**
 * A Terraform `jsonencode(...)` expression of the filter. HCL object syntax takes JSON, but its quoted strings
 * are templates: `${` and `%{` would start an interpolation or a directive (`"/a${var.x}"` would be evaluated),
 * so they are escaped as `$${` and `%%{`; and HCL knows no `\b`, `\f` or `\/` escapes, which become `\u0008`,
 * `\u000c` and `/`.
 */
export function toTerraform(json: string): string {
  expectText(json, 'toTerraform', 'filter JSON text', json === undefined ? ' (compile(...).json is undefined when ok is false)' : '');
  return `jsonencode(${hclStrings(pretty(json))})`;
}

const HCL_ESCAPE: Record<string, string> = { b: '\\u0008', f: '\\u000c', '/': '/' };

function hclStrings(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (!inString) {
      if (c === '"') inString = true;
      out += c;
      continue;
    }
    if (c === '\\') {
      const e = text[++i];
      out += HCL_ESCAPE[e] ?? `\\${e}`;
    } else if ((c === '$' || c === '%') && text[i + 1] === '{') {
      out += c + c;
    } else {
      if (c === '"') inString = false;
      out += c;
    }
  }
  return out;
}

/** Indented JSON that keeps integer digits exact (JSON.parse would round numbers beyond 2^53). */
export function pretty(json: string, indent = '  '): string {
  expectText(json, 'pretty', 'filter JSON text', json === undefined ? ' (compile(...).json is undefined when ok is false)' : '');
  let out = '';
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      out += c;
      if (c === '\\') out += json[++i];
      else if (c === '"') inString = false;
      continue;
    }
    switch (c) {
      case '"':
        inString = true;
        out += c;
        break;
      case '{':
      case '[': {
        const close = c === '{' ? '}' : ']';
        if (json[i + 1] === close) {
          out += c + close;
          i++;
          break;
        }
        depth++;
        out += `${c}\n${indent.repeat(depth)}`;
        break;
      }
      case '}':
      case ']':
        depth--;
        out += `\n${indent.repeat(depth)}${c}`;
        break;
      case ',':
        out += `,\n${indent.repeat(depth)}`;
        break;
      case ':':
        out += ': ';
        break;
      default:
        out += c;
    }
  }
  return out;
}
