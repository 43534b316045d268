/**
 * Types of the rules language. Scalars are `Bytes` (docs: String), `Int` (Integer/Number), `Ip` and `Bool`;
 * `Array<T>` and `Map<T>` (string keys) cannot be written as literals, only read from fields and functions.
 */
export type ScalarType = 'Bytes' | 'Int' | 'Ip' | 'Bool';
export type RuleType = ScalarType | { array: RuleType } | { map: RuleType };

export const arrayOf = (t: RuleType): RuleType => ({ array: t });
export const mapOf = (t: RuleType): RuleType => ({ map: t });

export function isScalar(t: RuleType): t is ScalarType {
  return typeof t === 'string';
}

export function typesEqual(a: RuleType, b: RuleType): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if ('array' in a) return 'array' in b && typesEqual(a.array, b.array);
  return 'map' in b && typesEqual(a.map, (b as { map: RuleType }).map);
}

/** The spelling of the reference parser's messages: `Bytes`, `Int`, `Array<Bytes>`, `Map<Array<Bytes>>`. */
export function typeName(t: RuleType): string {
  if (typeof t === 'string') return t;
  return 'array' in t ? `Array<${typeName(t.array)}>` : `Map<${typeName(t.map)}>`;
}

const DOC_NAMES: Record<ScalarType, string> = { Bytes: 'String', Int: 'Integer', Ip: 'IP address', Bool: 'Boolean' };

/** The spelling users read in the documentation: `String`, `Integer`, `Array<String>`. */
export function docTypeName(t: RuleType): string {
  if (typeof t === 'string') return DOC_NAMES[t];
  return 'array' in t ? `Array<${docTypeName(t.array)}>` : `Map<${docTypeName(t.map)}>`;
}

/** Reads the table spelling (`String`, `Integer`, `IP`, `Boolean`, `Bytes`, `Array<…>`, `Map<…>`). */
export function parseTypeName(s: string): RuleType {
  const m = /^(Array|Map)<(.+)>$/.exec(s);
  if (m) return m[1] === 'Array' ? arrayOf(parseTypeName(m[2])) : mapOf(parseTypeName(m[2]));
  const scalar: Record<string, ScalarType> = { String: 'Bytes', Bytes: 'Bytes', Integer: 'Int', IP: 'Ip', Boolean: 'Bool' };
  const t = scalar[s];
  if (!t) throw new Error(`unknown type name in a rules table: ${s}`);
  return t;
}
