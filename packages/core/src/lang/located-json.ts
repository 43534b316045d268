/**
 * A strict JSON (RFC 8259) parser that keeps where everything came from: UTF-16 offsets of every value and
 * every property key, numbers as their raw text (so 1700000000000000000 keeps its digits), and duplicate keys.
 *
 * It never throws on user input and never recurses: containers live on an explicit stack, so a
 * 100,000-deep `[[[[...` costs memory, not the call stack. Nesting is still capped (`maxDepth`) because
 * every consumer of the tree (ajv, the filter reader, the lead's printer) walks it recursively.
 * It stops at the first syntax error and reports exactly where it is; JSON has no sensible recovery.
 */
import { diagnosticFactory, type Diagnostic as LangDiagnostic } from './diagnostics.js';
import { lineColumn, lineStarts, type JsonPath, type LineColumn } from './positions.js';

/** What reading JSON can report, in either language: bad JSON, and JSON nested past the reader's depth. */
export const JSON_DIAGNOSTIC_CODES = { 'invalid-json': 'error', 'too-deep': 'error' } as const;
const diag = diagnosticFactory(JSON_DIAGNOSTIC_CODES);
type Diagnostic = LangDiagnostic<keyof typeof JSON_DIAGNOSTIC_CODES>;

export interface JsonSpan {
  /** UTF-16 offset of the first character (the quote, bracket, sign or digit). */
  start: number;
  /** UTF-16 offset just past the last character. */
  end: number;
}

export interface JsonString extends JsonSpan {
  type: 'string';
  /** The decoded value. */
  value: string;
  /** The raw text holds escapes, so offsets inside `value` do not map 1:1 (see `stringOffsetMapper`). */
  escaped: boolean;
}

export interface JsonNumber extends JsonSpan {
  type: 'number';
  /** The number exactly as written; never rounded through a double. */
  raw: string;
  /** No fraction and no exponent. */
  integer: boolean;
}

export interface JsonBoolean extends JsonSpan {
  type: 'boolean';
  value: boolean;
}

export interface JsonNull extends JsonSpan {
  type: 'null';
}

export interface JsonArray extends JsonSpan {
  type: 'array';
  items: JsonValue[];
}

export interface JsonProperty extends JsonSpan {
  key: JsonString;
  value: JsonValue;
  /** An earlier property of the same object has the same key (JSON.parse would keep this, the last one). */
  duplicate: boolean;
}

export interface JsonObject extends JsonSpan {
  type: 'object';
  properties: JsonProperty[];
}

export type JsonValue = JsonString | JsonNumber | JsonBoolean | JsonNull | JsonArray | JsonObject;

export interface ParseJsonOptions {
  /** Deepest allowed nesting of arrays and objects; deeper gives a `too-deep` diagnostic. Default 512. */
  maxDepth?: number;
}

export interface ParseJsonResult {
  /** The tree; absent when the text is not JSON. */
  value?: JsonValue;
  /** At most one `invalid-json` (or `too-deep`) error. */
  diagnostics: Diagnostic[];
}

export const DEFAULT_MAX_DEPTH = 512;

/** The last property named `key` (JSON.parse semantics), if any. */
export function getProperty(object: JsonObject, key: string): JsonProperty | undefined {
  for (let i = object.properties.length - 1; i >= 0; i--) {
    if (object.properties[i].key.value === key) return object.properties[i];
  }
  return undefined;
}

/** Signals a syntax error inside the parser; caught in `parseJson`, never escapes it. */
class JsonSyntaxError {
  constructor(readonly diagnostic: Diagnostic) {}
}

interface Frame {
  node: JsonObject | JsonArray;
  /** Key of the property whose value is being parsed (objects only). */
  key?: JsonString;
  keys?: Set<string>;
}

export function parseJson(text: string, options: ParseJsonOptions = {}): ParseJsonResult {
  const parser = new Parser(text, options.maxDepth ?? DEFAULT_MAX_DEPTH);
  try {
    return { value: parser.parse(), diagnostics: [] };
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { diagnostics: [e.diagnostic] };
    // A bug in the parser must not take the caller down with it; report it where we stopped.
    const at = Math.min(parser.pos, text.length);
    return { diagnostics: [diag('invalid-json', `internal JSON parser error: ${String(e)}`, at, at)] };
  }
}

const enum Ch {
  Tab = 9,
  Newline = 10,
  Return = 13,
  Space = 32,
  Quote = 34,
  Apostrophe = 39,
  Plus = 43,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Slash = 47,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  OpenBracket = 91,
  Backslash = 92,
  CloseBracket = 93,
  LowerE = 101,
  UpperE = 69,
  OpenBrace = 123,
  CloseBrace = 125,
  Bom = 0xfeff,
}

class Parser {
  pos = 0;
  private readonly stack: Frame[] = [];

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  parse(): JsonValue {
    const text = this.text;
    // RFC 8259 lets parsers ignore a byte order mark; editors on Windows write one.
    if (text.charCodeAt(0) === Ch.Bom) this.pos = 1;
    this.skipWs();
    let value: JsonValue;
    for (;;) {
      // Parse one value at pos (opening containers pushes them and loops back here for their first item).
      const opened = this.openOrScalar();
      if (opened === undefined) continue;
      value = opened;
      // Attach completed values to their containers, closing every container that ends here.
      for (;;) {
        const frame = this.stack[this.stack.length - 1];
        if (!frame) {
          this.skipWs();
          if (this.pos < text.length) {
            throw this.error(this.pos, 'unexpected text after the JSON value');
          }
          return value;
        }
        if (frame.node.type === 'array') {
          frame.node.items.push(value);
          this.skipWs();
          const c = text.charCodeAt(this.pos);
          if (c === Ch.Comma) {
            const comma = this.pos;
            this.pos++;
            this.skipWs();
            if (text.charCodeAt(this.pos) === Ch.CloseBracket) throw this.error(comma, 'trailing comma', 1);
            break; // parse the next item
          }
          if (c === Ch.CloseBracket) {
            value = this.close(frame);
            continue;
          }
          throw this.unexpected(this.pos, "expected ',' or ']'");
        } else {
          const key = frame.key!;
          const duplicate = frame.keys!.has(key.value);
          frame.keys!.add(key.value);
          frame.node.properties.push({ key, value, duplicate, start: key.start, end: value.end });
          frame.key = undefined;
          this.skipWs();
          const c = text.charCodeAt(this.pos);
          if (c === Ch.Comma) {
            const comma = this.pos;
            this.pos++;
            this.skipWs();
            if (text.charCodeAt(this.pos) === Ch.CloseBrace) throw this.error(comma, 'trailing comma', 1);
            frame.key = this.propertyKey();
            break; // parse the property's value
          }
          if (c === Ch.CloseBrace) {
            value = this.close(frame);
            continue;
          }
          throw this.unexpected(this.pos, "expected ',' or '}'");
        }
      }
    }
  }

  /** Parses a scalar, or opens a container: returns the value when it is complete, undefined otherwise. */
  private openOrScalar(): JsonValue | undefined {
    const text = this.text;
    const start = this.pos;
    const c = text.charCodeAt(start);
    if (c === Ch.OpenBrace || c === Ch.OpenBracket) {
      if (this.stack.length >= this.maxDepth) {
        const path = this.path();
        throw new JsonSyntaxError(
          diag('too-deep', `JSON nesting deeper than ${this.maxDepth} levels`, start, start + 1, { path }),
        );
      }
      this.pos++;
      this.skipWs();
      if (c === Ch.OpenBracket) {
        const node: JsonArray = { type: 'array', items: [], start, end: start };
        if (text.charCodeAt(this.pos) === Ch.CloseBracket) {
          this.pos++;
          node.end = this.pos;
          return node;
        }
        this.stack.push({ node });
        return undefined;
      }
      const node: JsonObject = { type: 'object', properties: [], start, end: start };
      if (text.charCodeAt(this.pos) === Ch.CloseBrace) {
        this.pos++;
        node.end = this.pos;
        return node;
      }
      const frame: Frame = { node, keys: new Set() };
      this.stack.push(frame);
      frame.key = this.propertyKey();
      return undefined;
    }
    if (c === Ch.Quote) return this.string();
    if (c === Ch.Minus || (c >= Ch.Zero && c <= Ch.Nine)) return this.number();
    if (text.startsWith('true', start)) return this.literal({ type: 'boolean', value: true, start, end: start + 4 });
    if (text.startsWith('false', start)) return this.literal({ type: 'boolean', value: false, start, end: start + 5 });
    if (text.startsWith('null', start)) return this.literal({ type: 'null', start, end: start + 4 });
    throw this.unexpected(start, 'expected a JSON value');
  }

  private literal<T extends JsonValue>(node: T): T {
    this.pos = node.end;
    return node;
  }

  private close(frame: Frame): JsonValue {
    this.pos++;
    frame.node.end = this.pos;
    this.stack.pop();
    return frame.node;
  }

  /** `"key"` `:` and the white space up to the value. */
  private propertyKey(): JsonString {
    const c = this.text.charCodeAt(this.pos);
    if (c !== Ch.Quote) throw this.unexpected(this.pos, 'expected a property name in double quotes');
    const key = this.string();
    this.skipWs();
    if (this.text.charCodeAt(this.pos) !== Ch.Colon) throw this.unexpected(this.pos, "expected ':' after the property name");
    this.pos++;
    this.skipWs();
    return key;
  }

  private string(): JsonString {
    const text = this.text;
    const start = this.pos;
    let i = start + 1;
    // Fast path: no escapes, one slice.
    for (;;) {
      if (i >= text.length) throw this.unterminated(start);
      const c = text.charCodeAt(i);
      if (c === Ch.Quote) {
        this.pos = i + 1;
        return { type: 'string', value: text.slice(start + 1, i), escaped: false, start, end: i + 1 };
      }
      if (c === Ch.Backslash) break;
      if (c < 0x20) throw this.controlCharacter(i);
      i++;
    }
    const parts: string[] = [text.slice(start + 1, i)];
    let chunk = i;
    for (;;) {
      if (i >= text.length) throw this.unterminated(start);
      const c = text.charCodeAt(i);
      if (c === Ch.Quote) break;
      if (c < 0x20) throw this.controlCharacter(i);
      if (c !== Ch.Backslash) {
        i++;
        continue;
      }
      parts.push(text.slice(chunk, i));
      const length = escapeLength(text, i);
      if (length < 0) {
        if (i + 1 >= text.length) throw this.unterminated(start);
        const bad = text.charCodeAt(i + 1) === 117 /* u */ ? i + 2 + -length - 1 : i + 1;
        if (bad >= text.length) throw this.unterminated(start);
        throw this.error(i, `invalid escape sequence ${JSON.stringify(text.slice(i, bad + 1))}`, bad + 1 - i);
      }
      parts.push(decodeEscape(text, i));
      i += length;
      chunk = i;
    }
    parts.push(text.slice(chunk, i));
    this.pos = i + 1;
    return { type: 'string', value: parts.join(''), escaped: true, start, end: i + 1 };
  }

  private number(): JsonNumber {
    const text = this.text;
    const start = this.pos;
    let i = start;
    let integer = true;
    if (text.charCodeAt(i) === Ch.Minus) i++;
    const first = text.charCodeAt(i);
    if (!isDigit(first)) throw this.unexpected(i, "expected a digit after '-'");
    i++;
    if (first === Ch.Zero && isDigit(text.charCodeAt(i))) throw this.error(i, 'leading zeros are not allowed in JSON numbers');
    while (isDigit(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) === Ch.Dot) {
      integer = false;
      i++;
      if (!isDigit(text.charCodeAt(i))) throw this.unexpected(i, "expected a digit after '.'");
      while (isDigit(text.charCodeAt(i))) i++;
    }
    const e = text.charCodeAt(i);
    if (e === Ch.LowerE || e === Ch.UpperE) {
      integer = false;
      i++;
      const sign = text.charCodeAt(i);
      if (sign === Ch.Plus || sign === Ch.Minus) i++;
      if (!isDigit(text.charCodeAt(i))) throw this.unexpected(i, 'expected a digit in the exponent');
      while (isDigit(text.charCodeAt(i))) i++;
    }
    this.pos = i;
    return { type: 'number', raw: text.slice(start, i), integer, start, end: i };
  }

  private skipWs(): void {
    const text = this.text;
    let i = this.pos;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === Ch.Space || c === Ch.Newline || c === Ch.Return || c === Ch.Tab) i++;
      else break;
    }
    this.pos = i;
  }

  /** The path of the value being parsed, for the error diagnostic. */
  private path(): JsonPath {
    const path: JsonPath = [];
    for (const frame of this.stack) {
      if (frame.node.type === 'array') path.push(frame.node.items.length);
      else if (frame.key) path.push(frame.key.value);
    }
    return path;
  }

  private error(at: number, message: string, length?: number): JsonSyntaxError {
    const text = this.text;
    if (at >= text.length) return this.endOfInput();
    const end = Math.min(text.length, at + (length ?? charLength(text, at)));
    return new JsonSyntaxError(diag('invalid-json', message, at, end, { path: this.path() }));
  }

  private endOfInput(): JsonSyntaxError {
    const n = this.text.length;
    return new JsonSyntaxError(diag('invalid-json', 'unexpected end of input', n, n, { path: this.path() }));
  }

  /** An unexpected character, with a hint for the mistakes people actually make. */
  private unexpected(at: number, expected: string): JsonSyntaxError {
    const text = this.text;
    if (at >= text.length) return this.endOfInput();
    const c = text.charCodeAt(at);
    if (c === Ch.Apostrophe) return this.error(at, `${expected}: JSON strings use double quotes, not single quotes`);
    if (c === Ch.Slash) return this.error(at, `${expected}: JSON does not allow comments`);
    const word = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(at, at + 64));
    // `tru` at the very end is a truncated `true`, not a misspelling.
    if (word && at + word[0].length === text.length && /^(t(r(ue?)?)?|f(a(l(se?)?)?)?|n(u(ll?)?)?)$/.test(word[0])) {
      return this.endOfInput();
    }
    if (word) {
      return this.error(at, `${expected}, found ${word[0]} (JSON names are double-quoted; literals are true, false, null)`, word[0].length);
    }
    return this.error(at, `${expected}, found ${JSON.stringify(text.slice(at, at + charLength(text, at)))}`);
  }

  private unterminated(start: number): JsonSyntaxError {
    const n = this.text.length;
    return new JsonSyntaxError(
      diag('invalid-json', 'unterminated string', n, n, {
        path: this.path(),
        related: [{ message: 'the string starts here', start, end: start + 1 }],
      }),
    );
  }

  private controlCharacter(at: number): JsonSyntaxError {
    const code = this.text.charCodeAt(at).toString(16).padStart(4, '0').toUpperCase();
    return this.error(at, `control character U+${code} must be escaped in a JSON string`, 1);
  }
}

function isDigit(c: number): boolean {
  return c >= Ch.Zero && c <= Ch.Nine;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** UTF-16 length of the character at `at` (2 for a surrogate pair), so ranges never split one. */
function charLength(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = text.charCodeAt(at + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 2;
  }
  return 1;
}

/**
 * Length of the escape sequence at `at` (which holds a backslash): 2, or 6 for `\uXXXX`.
 * Negative when invalid; for a bad `\u`, `-(k + 1)` where k is the number of good hex digits.
 */
function escapeLength(text: string, at: number): number {
  switch (text.charCodeAt(at + 1)) {
    case 34: // "
    case 92: // \
    case 47: // /
    case 98: // b
    case 102: // f
    case 110: // n
    case 114: // r
    case 116: // t
      return 2;
    case 117: {
      // u
      for (let k = 0; k < 4; k++) if (!isHex(text.charCodeAt(at + 2 + k))) return -(k + 1);
      return 6;
    }
    default:
      return -1;
  }
}

function decodeEscape(text: string, at: number): string {
  switch (text.charCodeAt(at + 1)) {
    case 98:
      return '\b';
    case 102:
      return '\f';
    case 110:
      return '\n';
    case 114:
      return '\r';
    case 116:
      return '\t';
    case 117:
      return String.fromCharCode(parseInt(text.slice(at + 2, at + 6), 16));
    default:
      return text[at + 1];
  }
}

/**
 * Maps an offset inside a string's decoded value to the offset of the same place in the raw text: the start
 * of the character's escape sequence, or the closing quote for the end of the value. Needed to point into
 * JSON that travels as a JSON-encoded string (the job's `filter` field). `text` is the text `node` was
 * parsed from.
 */
export function stringOffsetMapper(text: string, node: JsonString): (decodedOffset: number) => number {
  const first = node.start + 1;
  const last = node.end - 1;
  if (!node.escaped) return (d) => Math.min(last, first + Math.max(0, d));
  const offsets = new Int32Array(node.value.length + 1);
  let k = 0;
  for (let r = first; r < last; ) {
    offsets[k++] = r;
    if (text.charCodeAt(r) === Ch.Backslash) r += escapeLength(text, r);
    else r++;
  }
  offsets[k] = last;
  return (d) => offsets[Math.min(k, Math.max(0, d))];
}

/**
 * Where JSON.parse refused `text`, given its error message: the located reader's first error (V8 names a position
 * for some errors only: "Unexpected token ','" names none), else V8's "position N", else the end of the text for
 * "Unexpected end of JSON input"; undefined when none of them places it. The edges that read JSON with JSON.parse
 * (the CLI's structured inputs, the emulator's fixture) print this line and column.
 */
export function jsonErrorPlace(text: string, message: string): LineColumn | undefined {
  const located = parseJson(text).diagnostics[0]?.start;
  const v8 = /position (\d+)/.exec(message);
  const at = located ?? (v8 ? Math.min(Number(v8[1]), text.length) : /end of JSON input/.test(message) ? text.length : undefined);
  return at === undefined ? undefined : lineColumn(lineStarts(text), at);
}
