/**
 * Column kinds: how a field's values are held in a table column, from its dataset type. Both the dialect table
 * (column types) and the generator (which SQL tests a value) read this, so it sits below both.
 */
import type { FieldType } from '../filter/datasets/index.js';

/** How a field's values are held in a table column. */
export type ColumnKind = 'string' | 'int' | 'float' | 'bool' | 'int-or-string' | 'array-string' | 'array-int' | 'json' | 'array-json';

export function columnKind(type: FieldType): ColumnKind {
  switch (type) {
    case 'string':
      return 'string';
    case 'int':
      return 'int';
    case 'float':
      return 'float';
    case 'bool':
      return 'bool';
    case 'int or string':
      return 'int-or-string';
    case 'array[string]':
      return 'array-string';
    case 'array[int]':
      return 'array-int';
    case 'object':
      return 'json';
    case 'array[object]':
      return 'array-json';
  }
}
