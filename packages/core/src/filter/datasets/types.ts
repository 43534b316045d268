/** Dataset schemas: one file per dataset drives checking, completion and hover. */
import type { TypeClass } from '../operators.js';

export type FieldType =
  | 'string'
  | 'int'
  | 'bool'
  | 'float'
  | 'int or string'
  | 'array[string]'
  | 'array[int]'
  | 'object'
  | 'array[object]';

export interface FieldInfo {
  readonly name: string;
  readonly type: FieldType;
  /** A short description in our own words, for hover and completion. */
  readonly description: string;
  readonly deprecated?: boolean;
  /**
   * For a deprecated field: the current field to use instead (named in the warning, the hover and a quick
   * fix). `note` says what differs besides the name; without one the fix is a pure rename and preferred.
   */
  readonly replacement?: { readonly field: string; readonly note?: string };
  /** Documented values (a value outside them gets `unknown-value`). */
  readonly values?: readonly string[];
  /** False for fields the API does not let a filter use (object types are never filterable). */
  readonly filterable?: boolean;
}

export interface DatasetDefinition {
  readonly name: string;
  readonly description: string;
  readonly fields: readonly FieldInfo[];
}

export interface DatasetSchema extends DatasetDefinition {
  readonly byName: ReadonlyMap<string, FieldInfo>;
}

/** Type classes of the type table that a field of this type belongs to (empty: not filterable). */
export function typeClasses(type: FieldType): TypeClass[] {
  switch (type) {
    case 'string':
      return ['string'];
    case 'int':
      return ['int'];
    case 'bool':
      return ['bool'];
    case 'int or string':
      return ['int', 'string'];
    case 'array[string]':
    case 'array[int]':
      return ['array'];
    case 'float':
      // floats take the numeric comparisons (with a `float-field` warning)
      return ['int'];
    case 'object':
    case 'array[object]':
      return [];
  }
}

export function isFilterable(f: FieldInfo): boolean {
  return f.filterable !== false && f.type !== 'object' && f.type !== 'array[object]';
}
