/**
 * Lines DuckDB's JSON reader accepts and JSON.parse does not: `NaN`, `Infinity` or `inf` (any case) as a
 * value, and a comma before `}` or `]`. The language counts such a line malformed; DuckDB reads it as an
 * object, so its query must tell them apart (lenientSql), which only its exact path can. The DuckDB engine
 * looks for them here while its query runs, from the bytes it reads anyway (the \f and \v count), and takes
 * the exact path when a file holds one. The other way round, DuckDB cannot read a line with an unpaired
 * surrogate (`"\ud800"`), which JSON.parse reads: such a line is found here too, and the engine refuses the
 * file. A chunk is searched with one regular expression; only the lines around a hit are looked at.
 */
import { Buffer, isUtf8 } from 'node:buffer';
import { holdsLoneSurrogate } from '@logfilter/core';

/**
 * Where a lenient token may be, strings included: a value after `:`, `[` or `,`, or a comma before `]` or `}`;
 * or a surrogate's escape, which DuckDB refuses unpaired where JSON.parse takes it.
 */
const CANDIDATE = /[:,[][ \t\r]*-?(?:nan|inf)|,[ \t\r\n]*[\]}]|\\u[dD][89a-fA-F]/gi;
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
/** A JSON string (DuckDB accepted the line, so its strings are well formed). */
export const JSON_STRING_PATTERN = '"(?:[^"\\\\]|\\\\.)*"';
/** A lenient token, in a line whose strings were taken out: nothing else there holds these letters. */
export const LENIENT_PATTERN = '(?i)nan|inf|,[ \\t\\r]*[\\]}]';
const STRINGS = new RegExp(JSON_STRING_PATTERN, 'g');
const LENIENT = /nan|inf|,[ \t\r]*[\]}]/i;

/** The SQL test of a raw line (`line`) DuckDB read as an object: true for one the language counts malformed. */
export const lenientSql = (line: string) => `regexp_matches(regexp_replace(${line}, '${JSON_STRING_PATTERN}', '""', 'g'), '${LENIENT_PATTERN}')`;

/** True when the line (text of one line, latin1: every byte one character) holds a lenient token outside its strings. */
export function isLenientLine(line: string): boolean {
  return LENIENT.test(line.replace(STRINGS, '""'));
}

/**
 * True when the line (latin1, as above) is a JSON object for JSON.parse with an unpaired surrogate (`"\ud800"`)
 * in a key or a string value: the language reads it, DuckDB cannot (it counts the line malformed).
 */
export function hasLoneSurrogate(line: string): boolean {
  const bytes = Buffer.from(line.endsWith('\r') ? line.slice(0, -1) : line, 'latin1');
  if (!isUtf8(bytes)) return false;
  let v: unknown;
  try {
    v = JSON.parse(bytes.toString('utf8'));
  } catch {
    return false;
  }
  const lone = (x: unknown): boolean =>
    typeof x === 'string' ? holdsLoneSurrogate(x) : typeof x === 'object' && x !== null && Object.entries(x).some(([k, e]) => holdsLoneSurrogate(k) || lone(e));
  return typeof v === 'object' && v !== null && !Array.isArray(v) && lone(v);
}

/** Over a stream of chunks; a line may run across chunk edges. */
export class LenientLineFinder {
  /** A line DuckDB reads as an object and the language counts malformed. */
  found = false;
  /** A line the language reads and DuckDB cannot (an unpaired surrogate). */
  unreadable = false;
  private rest: Buffer = Buffer.alloc(0);

  push(chunk: Uint8Array): void {
    if (this.found && this.unreadable) return;
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    const buf = this.rest.length ? Buffer.concat([this.rest, bytes]) : bytes;
    const end = buf.lastIndexOf(0x0a) + 1;
    // a copy: the chunk may be reused by its reader
    this.rest = Buffer.from(buf.subarray(end));
    this.search(buf.toString('latin1', 0, end));
  }

  /** At the end of the input (a last line without \n too): whether a lenient line was found. */
  end(): boolean {
    this.search(this.rest.toString('latin1'));
    this.rest = Buffer.alloc(0);
    return this.found;
  }

  private search(text: string): void {
    CANDIDATE.lastIndex = 0;
    for (let m = CANDIDATE.exec(text); m && !(this.found && this.unreadable); m = CANDIDATE.exec(text)) {
      const start = text.lastIndexOf('\n', m.index) + 1;
      const nl = text.indexOf('\n', m.index);
      const end = nl < 0 ? text.length : nl;
      const line = text.slice(start, end);
      this.found ||= isLenientLine(line);
      if (!this.unreadable && SURROGATE_ESCAPE.test(line)) this.unreadable = hasLoneSurrogate(line);
      CANDIDATE.lastIndex = end;
    }
  }
}
