/** Small helpers on AST values shared by the checker, compiler and printer. */
import type { ScalarValue, Value } from '../ast.js';

export { isNumericString, numericValue } from './numeric.js';

/**
 * Canonical JSON text of an integer literal: exact digits (beyond 2^53 too), without the leading zeros
 * JSON forbids.
 */
export function canonicalInt(raw: string): string {
  const neg = raw.startsWith('-');
  const digits = (neg ? raw.slice(1) : raw).replace(/^0+(?=[0-9])/, '');
  return neg ? `-${digits}` : digits;
}

export function canonicalFloat(raw: string): string {
  const neg = raw.startsWith('-');
  const [i, f] = (neg ? raw.slice(1) : raw).split('.');
  const int = i.replace(/^0+(?=[0-9])/, '');
  return `${neg ? '-' : ''}${int}${f !== undefined ? `.${f}` : ''}`;
}

/** JSON text of a scalar (also its source spelling: the language's literals are JSON literals). */
export function printScalar(v: ScalarValue | Value): string {
  switch (v.kind) {
    case 'string':
      return JSON.stringify(v.value);
    case 'int':
      return canonicalInt(v.raw);
    case 'float':
      return canonicalFloat(v.raw);
    case 'bool':
      return v.value ? 'true' : 'false';
    case 'list':
      return `[${v.items.map(printScalar).join(',')}]`;
  }
}

/** A key identifying a value for duplicate detection (type and exact text). */
export function valueKey(v: Value): string {
  return v.kind === 'list' ? `[${v.items.map(valueKey).join(',')}]` : `${v.kind}:${printScalar(v)}`;
}
