/**
 * Per-condition checks against the dataset schema and the type table (docs/language.md#types):
 * unknown/removed/deprecated/unfilterable fields, operator and value types, list shapes, documented values.
 */
import type { Condition, ScalarValue, Value } from '../ast.js';
import { type DatasetSchema, type FieldInfo, isFilterable, REMOVED_FIELDS, REMOVED_FIELDS_DATASETS, typeClasses } from '../datasets/index.js';
import { diag, type Diagnostic, type Fix } from '../diagnostics.js';
import { OPERATOR_BY_NAME, type OperatorInfo, type TypeClass } from '../operators.js';
import { closest } from '../../lang/closest.js';
import { writeField } from '../syntax/field-names.js';
import { isNumericString, numericValue, printScalar } from '../util/values.js';

export function checkCondition(c: Condition, schema: DatasetSchema | undefined, out: Diagnostic[]): void {
  const op = OPERATOR_BY_NAME.get(c.operator.name)!;
  checkShape(c, op, out);
  if (!schema) return; // dataset `any` (or unknown): syntax, shape and limits only
  const field = lookupField(c, schema, out);
  if (!field) return;
  if (field.deprecated) {
    const r = field.replacement;
    const message = r ? `${field.name} is deprecated; use ${r.field}${r.note ? ` (${r.note})` : ''}` : `${field.name} is deprecated`;
    out.push(
      diag('deprecated-field', message, c.field.start, c.field.end, {
        path: pathOf(c, 'key'),
        ...(r ? { suggestions: [r.field], fixes: [fieldFix(c, r.field, r.note === undefined, r.note)] } : {}),
      }),
    );
  }
  if (!isFilterable(field)) {
    const why = field.filterable === false ? 'is not filterable' : `has type ${field.type}, which filters cannot use`;
    out.push(diag('unfilterable-field', `${field.name} ${why}`, c.field.start, c.field.end, { path: pathOf(c, 'key') }));
    return;
  }
  if (field.type === 'float') {
    out.push(diag('float-field', `${field.name} is a float field; the API does not document filters on float fields`, c.field.start, c.field.end, { path: pathOf(c, 'key') }));
  }
  const classes = typeClasses(field.type);
  // the type table, narrowed for floats as operatorsFor narrows it (their `in` is not documented)
  const narrowed = field.type === 'float' && !operatorsFor(field).includes(op);
  const allowed = narrowed ? [] : op.types.filter((t) => classes.includes(t));
  if (allowed.length === 0) {
    const ok = operatorsFor(field).map((o) => o.canonical);
    out.push(
      diag('operator-type', `'${c.operator.spelling}' cannot be used on ${field.name} (${field.type}); allowed: ${ok.join(', ')}`, c.operator.start, c.operator.end, {
        path: pathOf(c, 'operator'),
        suggestions: ok,
      }),
    );
    return;
  }
  checkValueTypes(c, field, op, allowed, out);
}

/** The operators the type table allows on a field (for messages, completion and hover). */
export function operatorsFor(field: FieldInfo): OperatorInfo[] {
  const classes = typeClasses(field.type);
  const ops = [...OPERATOR_BY_NAME.values()].filter((o) => o.types.some((t) => classes.includes(t)));
  // floats: only the comparisons and equality (docs/language.md#types)
  return field.type === 'float' ? ops.filter((o) => o.numeric || o.positive === 'eq') : ops;
}

function checkShape(c: Condition, op: OperatorInfo, out: Diagnostic[]): void {
  const v = c.value;
  if (op.shape === 'list' && v.kind !== 'list') {
    out.push(
      diag('in-needs-list', `'${c.operator.spelling}' needs a list: [${printScalar(v)}]`, v.start, v.end, {
        path: pathOf(c, 'value'),
        fixes: c.path ? undefined : [{ title: 'Wrap the value in a list', edits: [{ start: v.start, end: v.end, newText: `[${printScalar(v)}]` }], preferred: true }],
      }),
    );
  } else if (op.shape === 'scalar' && v.kind === 'list') {
    out.push(diag('in-needs-list', `'${c.operator.spelling}' takes one value, not a list; use 'in' for a list`, v.start, v.end, { path: pathOf(c, 'value') }));
  } else if (v.kind === 'list' && v.items.length === 0) {
    out.push(diag('empty-list', 'the list is empty: the condition could never hold', v.start, v.end, { path: pathOf(c, 'value') }));
  }
}

/** Replaces the condition's field name by `name`, written as the input writes names (source or JSON). */
/**
 * `note`: how the replacement differs (its unit). The old field's unit is not documented, so the value
 * cannot be converted; the title says the value stays as written and needs converting.
 */
function fieldFix(c: Condition, name: string, preferred: boolean, note?: string): Fix {
  const written = c.path ? JSON.stringify(name) : writeField(name);
  const title = note ? `Change to ${name} (${note}): the value is kept as written, convert it` : `Change to ${name}`;
  return { title, edits: [{ start: c.field.start, end: c.field.end, newText: written }], preferred };
}

function lookupField(c: Condition, schema: DatasetSchema, out: Diagnostic[]): FieldInfo | undefined {
  const name = c.field.name;
  const field = schema.byName.get(name);
  if (field) return field;
  const fixTo = (n: string, preferred: boolean): Fix => fieldFix(c, n, preferred);
  if (REMOVED_FIELDS.has(name) && REMOVED_FIELDS_DATASETS.includes(schema.name)) {
    const replacement = REMOVED_FIELDS.get(name);
    out.push(
      diag(
        'removed-field',
        replacement ? `${name} was removed from ${schema.name}; use ${replacement}` : `${name} was removed from ${schema.name} and has no replacement`,
        c.field.start,
        c.field.end,
        { path: pathOf(c, 'key'), suggestions: replacement ? [replacement] : [], fixes: replacement ? [fixTo(replacement, true)] : undefined },
      ),
    );
    return undefined;
  }
  const candidates = schema.fields.filter((f) => !f.deprecated).map((f) => f.name);
  const near = closest(name, candidates.length ? candidates : schema.byName.keys(), 3);
  out.push(
    diag('unknown-field', `${name} is not a field of ${schema.name}${near.length ? `; did you mean ${near.join(', ')}?` : ''}`, c.field.start, c.field.end, {
      path: pathOf(c, 'key'),
      suggestions: near,
      fixes: near.map((n, i) => fixTo(n, i === 0)),
    }),
  );
  return undefined;
}

/**
 * The value's type must fit the field's type for this operator. Which element type a value must have:
 * arrays take elements (contains: one, in: a list); scalars take their own type.
 */
function checkValueTypes(c: Condition, field: FieldInfo, op: OperatorInfo, allowed: TypeClass[], out: Diagnostic[]): void {
  const expect = expectedScalar(field, op, allowed);
  const values: ScalarValue[] = c.value.kind === 'list' ? c.value.items : [c.value];
  const base = pathOf(c, 'value');
  for (const [index, v] of values.entries()) {
    // The index comes with the item: looking it up (indexOf) made long lists quadratic.
    const path = c.value.kind === 'list' ? [...(base ?? []), index] : base;
    const p = c.path ? path : undefined;
    if (!fits(v, expect)) {
      out.push(diag('value-type', `${field.name} (${field.type}) takes ${describe(expect)} with '${c.operator.spelling}', not ${kindName(v)}`, v.start, v.end, { path: p }));
      continue;
    }
    if (v.kind === 'string' && expect.number && !expect.string && isNumericString(v.value)) {
      const literal = numberLiteral(v.value);
      out.push(
        diag('numeric-string', `${field.name} is a number; the string "${v.value}" is compared as the number ${literal ?? numericValue(v.value)}`, v.start, v.end, {
          path: p,
          ...(literal === undefined ? {} : { fixes: [{ title: `Write the number ${literal}`, edits: [{ start: v.start, end: v.end, newText: literal }], preferred: true }] }),
        }),
      );
    }
    if (field.values && v.kind === 'string' && (op.positive === 'eq' || op.positive === 'in') && !field.values.includes(v.value)) {
      const near = closest(v.value, field.values, 3);
      const q = (s: string) => (c.path ? JSON.stringify(s) : JSON.stringify(s));
      out.push(
        diag('unknown-value', `"${v.value}" is not a documented value of ${field.name}${near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(', ')}?` : ''}`, v.start, v.end, {
          path: p,
          suggestions: near,
          fixes: near.map((n, i) => ({ title: `Change to "${n}"`, edits: [{ start: v.start, end: v.end, newText: q(n) }], preferred: i === 0 })),
        }),
      );
    }
  }
}

interface Expected {
  string: boolean;
  number: boolean;
  float: boolean;
  bool: boolean;
}

function expectedScalar(field: FieldInfo, op: OperatorInfo, allowed: TypeClass[]): Expected {
  switch (field.type) {
    case 'array[string]':
      return { string: true, number: false, float: false, bool: false };
    case 'array[int]':
      return { string: false, number: true, float: false, bool: false };
    case 'float':
      return { string: false, number: true, float: true, bool: false };
    case 'bool':
      return { string: false, number: false, float: false, bool: true };
    case 'int':
      return { string: false, number: true, float: false, bool: false };
    case 'int or string':
      // comparisons read numbers: a non-numeric string could never compare
      if (op.numeric) return { string: false, number: true, float: false, bool: false };
      // startsWith, endsWith and contains test the text of a string value: a number is no text to look for
      if (!op.types.includes('int')) return { string: true, number: false, float: false, bool: false };
      return { string: true, number: true, float: false, bool: false };
    default:
      return { string: allowed.includes('string'), number: false, float: false, bool: false };
  }
}

function fits(v: ScalarValue, e: Expected): boolean {
  switch (v.kind) {
    case 'string':
      return e.string || (e.number && isNumericString(v.value));
    case 'int':
      return e.number;
    case 'float':
      return e.float;
    case 'bool':
      return e.bool;
  }
}

function describe(e: Expected): string {
  const parts = [e.string && 'a string', e.number && (e.float ? 'a number' : 'an integer'), e.bool && 'true or false'].filter(Boolean);
  return parts.join(' or ') || 'no value';
}

function kindName(v: Value): string {
  switch (v.kind) {
    case 'string':
      return `the string ${JSON.stringify(v.value)}`;
    case 'int':
      return `the integer ${v.raw}`;
    case 'float':
      return `the decimal ${v.raw}`;
    case 'bool':
      return `${v.value}`;
    case 'list':
      return 'a list';
  }
}

/** For JSON input: the path of one part of a condition. */
export function pathOf(c: Condition, part: 'key' | 'operator' | 'value'): (string | number)[] | undefined {
  return c.path ? [...c.path, part] : undefined;
}

/**
 * The number literal (in the language's own syntax, which has no exponent) that means the same as a numeric
 * string: its own text when it has no exponent (exact digits, beyond 2^53 too), else the shortest decimal of
 * its value when that has no exponent either; undefined when no plain literal spells it.
 */
function numberLiteral(s: string): string | undefined {
  if (!/[eE]/.test(s)) return s;
  const text = String(numericValue(s));
  return /^-?[0-9]+(\.[0-9]+)?$/.test(text) ? text : undefined;
}
