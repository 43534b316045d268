/**
 * Conversions between located JSON trees and plain JavaScript values: ajv validates plain values, and
 * callers may hand the reader an already-parsed value instead of text.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import type { JsonPath } from '../ast.js';
import { DEFAULT_MAX_DEPTH, type JsonValue } from '../../lang/located-json.js';

/** The plain value of a tree, as JSON.parse would give it (numbers become doubles, finite ones). */
export function toPlain(node: JsonValue): unknown {
  switch (node.type) {
    case 'string':
    case 'boolean':
      return node.value;
    case 'null':
      return null;
    case 'number': {
      // 1E400 is a JSON number, though past the double range: the schema, which reads these values, must see a
      // number (ajv refuses Infinity). What the language can write of it is decompile's to judge.
      const n = Number(node.raw);
      return Number.isFinite(n) ? n : Math.sign(n) * Number.MAX_VALUE;
    }
    case 'array':
      return node.items.map(toPlain);
    case 'object': {
      const out: Record<string, unknown> = {};
      // defineProperty, not assignment: a "__proto__" key must become an own property, as JSON.parse makes it
      for (const p of node.properties) Object.defineProperty(out, p.key.value, { value: toPlain(p.value), enumerable: true, writable: true, configurable: true });
      return out;
    }
  }
}

export interface FromPlainResult {
  value?: JsonValue;
  diagnostics: Diagnostic[];
}

/**
 * A located tree for a plain value, every offset 0 (there is no text; paths still locate everything).
 * The value is read the way JSON.stringify would write it (undefined properties are left out, toJSON is
 * called, NaN becomes null), so passing a value and passing its JSON text give the same diagnostics.
 * bigint is accepted as an exact integer. Never throws: cycles and excessive depth become diagnostics.
 */
export function fromPlain(input: unknown, maxDepth = DEFAULT_MAX_DEPTH): FromPlainResult {
  const diagnostics: Diagnostic[] = [];
  const onPath = new Set<object>();
  const path: JsonPath = [];

  const convert = (raw: unknown): JsonValue | undefined => {
    let value = raw;
    try {
      if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
        value = (value as { toJSON: () => unknown }).toJSON();
      }
    } catch (e) {
      diagnostics.push(diag('invalid-node', `toJSON() failed: ${String(e)}`, 0, 0, { path: [...path] }));
      return undefined;
    }
    switch (typeof value) {
      case 'string':
        return { type: 'string', value, escaped: false, start: 0, end: 0 };
      case 'boolean':
        return { type: 'boolean', value, start: 0, end: 0 };
      case 'bigint':
        return { type: 'number', raw: value.toString(), integer: true, start: 0, end: 0 };
      case 'number': {
        if (!Number.isFinite(value)) return { type: 'null', start: 0, end: 0 };
        const raw = String(value);
        return { type: 'number', raw, integer: /^-?\d+$/.test(raw), start: 0, end: 0 };
      }
      case 'object':
        break;
      default:
        return undefined; // undefined, functions, symbols: JSON.stringify leaves them out
    }
    if (value === null) return { type: 'null', start: 0, end: 0 };
    if (onPath.has(value)) {
      diagnostics.push(diag('invalid-node', 'the value refers to itself (circular structure)', 0, 0, { path: [...path] }));
      return undefined;
    }
    if (onPath.size >= maxDepth) {
      diagnostics.push(diag('too-deep', `nesting deeper than ${maxDepth} levels`, 0, 0, { path: [...path] }));
      return undefined;
    }
    onPath.add(value);
    try {
      if (Array.isArray(value)) {
        const items: JsonValue[] = [];
        for (let i = 0; i < value.length; i++) {
          path.push(i);
          items.push(convert(value[i]) ?? { type: 'null', start: 0, end: 0 });
          path.pop();
        }
        return { type: 'array', items, start: 0, end: 0 };
      }
      const properties = [];
      for (const key of Object.keys(value)) {
        path.push(key);
        const item = convert((value as Record<string, unknown>)[key]);
        path.pop();
        if (item === undefined) continue;
        properties.push({
          key: { type: 'string' as const, value: key, escaped: false, start: 0, end: 0 },
          value: item,
          duplicate: false,
          start: 0,
          end: 0,
        });
      }
      return { type: 'object', properties, start: 0, end: 0 };
    } finally {
      onPath.delete(value);
    }
  };

  let value: JsonValue | undefined;
  try {
    value = convert(input);
  } catch (e) {
    // Getters and proxies can throw; the caller still gets a diagnostic, not an exception.
    diagnostics.push(diag('invalid-node', `the value cannot be read: ${String(e)}`, 0, 0, { path: [...path] }));
    return { diagnostics };
  }
  if (value === undefined && diagnostics.length === 0) {
    diagnostics.push(diag('invalid-node', `a ${typeof input} is not a JSON value`, 0, 0, { path: [] }));
  }
  return diagnostics.some((d) => d.severity === 'error') ? { diagnostics } : { value, diagnostics };
}
