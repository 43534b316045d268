/**
 * The SQL back end: a filter → one boolean SQL expression over columns named after the fields, for DuckDB or
 * ClickHouse, with the language's meaning exactly (the root README, "Running filters on SQL engines"). A sibling of the JSON compiler: it
 * reads the same normalised tree (so `not` is already pushed down, and integers keep their exact digits) and
 * the same dataset tables; every engine difference is asked of the dialect table.
 *
 * The expression is two-valued: it is TRUE or FALSE on every row, never NULL, so `NOT (expr)` selects exactly
 * the other rows. Each condition is `(present AND p)` for a positive operator and `(absent OR NOT p)` for
 * a negative one, where `p` is itself never NULL on a present value: a bare `NOT p` would drop the rows where
 * the field is absent, which the language keeps.
 */
import type { ScalarValue, Value } from '../filter/ast.js';
import type { NCondition, NNode } from '../filter/compile/normalize.js';
import { normalize } from '../filter/compile/normalize.js';
import { DEFAULT_DATASET, getDataset, type DatasetSchema, type FieldType } from '../filter/datasets/index.js';
import { diag, type Diagnostic } from '../filter/diagnostics.js';
import type { FilterDocument } from '../filter/filter.js';
import { parseJson } from '../lang/located-json.js';
import { readFilterTree } from '../filter/json/filter-tree.js';
import { IDENTITY_MAPPING } from '../lang/text-mapping.js';
import { OPERATOR_BY_NAME } from '../filter/operators.js';
import { FIELD_TYPES } from './columns.js';
import { columnKind, type ColumnKind } from './kinds.js';
import { getDialect, SQL_DIALECTS, type Dialect, type SqlDialectName } from './dialects.js';
import { doubleNeighbours, doubleText, exactNumber, JSON_INTEGER_PATTERN, JSON_NUMBER_PATTERN, type ExactNumber } from './numbers.js';
import { expectOptionalString, optionsOf } from '../lang/guards.js';
import { holdsLoneSurrogate } from '../lang/surrogates.js';

/** A field's column in the caller's table: an SQL expression, a type, or both. */
export type SqlColumn = string | { sql?: string; type?: FieldType };

export interface ToSqlOptions {
  dialect: SqlDialectName;
  /** Types come from this dataset's table; fields it lacks (and dataset `any`) are text columns. Default: DEFAULT_DATASET. */
  dataset?: string;
  /** Field → column expression (`"ts"`, `` `log`.`host` ``) and/or type, for tables that name or nest fields differently. */
  columns?: Readonly<Record<string, SqlColumn>>;
}

export interface ToSqlResult {
  ok: boolean;
  /** The boolean expression; only when ok. */
  sql?: string;
  /** The fields the filter reads, in order of first use. */
  fields: string[];
  diagnostics: Diagnostic[];
}

/**
 * Translates a filter document (an object, or its JSON text: pass the text, e.g. `compile(...).json`, to keep
 * integers beyond 2^53 exact). Never throws on user input: problems come back as diagnostics.
 */
export function toSql(filter: FilterDocument | string, options: ToSqlOptions): ToSqlResult {
  options = optionsOf(options, 'toSql') as ToSqlOptions;
  expectOptionalString(options.dataset, 'toSql', 'dataset');
  const dialect = getDialect(options.dialect);
  if (!dialect) {
    return { ok: false, fields: [], diagnostics: [diag('invalid-node', `unknown SQL dialect ${JSON.stringify(options.dialect)}; use ${SQL_DIALECTS.join(' or ')}`, 0, 0)] };
  }
  const text = typeof filter === 'string' ? filter : JSON.stringify(filter);
  // undefined (a failed compile's json), a function or a symbol has no JSON text
  if (text === undefined) return { ok: false, fields: [], diagnostics: [diag('invalid-node', `a filter is an object {"where": ...} or its JSON text, not ${typeof filter}`, 0, 0)] };
  const parsed = parseJson(text);
  if (!parsed.value) return { ok: false, fields: [], diagnostics: parsed.diagnostics };
  const tree = readFilterTree(parsed.value, IDENTITY_MAPPING, []);
  if (!tree.expr) return { ok: false, fields: [], diagnostics: tree.diagnostics };
  return treeToSql(normalize(tree.expr), dialect, options);
}

/** The expression for an already normalised tree (the compiler's own tree). */
export function treeToSql(root: NNode, dialect: Dialect, options: Omit<ToSqlOptions, 'dialect'> = {}): ToSqlResult {
  const schema = getDataset(options.dataset ?? DEFAULT_DATASET);
  const fields: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const gen = new Generator(dialect, schema, options.columns ?? {}, diagnostics);
  const columns = options.columns ?? {};
  const visit = (n: NNode, top: boolean): string => {
    if (n.kind === 'condition') {
      if (!fields.includes(n.key)) {
        const problem = keyProblem(n.key, fields, dialect, columns);
        if (problem) diagnostics.push(diag('invalid-node', problem, n.src.field.start, n.src.field.end));
        fields.push(n.key);
      }
      return gen.condition(n);
    }
    const joined = n.items.map((i) => visit(i, false)).join(n.kind === 'and' ? ' AND ' : ' OR ');
    return top ? joined : `(${joined})`;
  };
  const sql = visit(root, true);
  const ok = !diagnostics.some((d) => d.severity === 'error');
  return ok ? { ok, sql, fields, diagnostics } : { ok, fields, diagnostics };
}


const mapped = (key: string, columns: Readonly<Record<string, SqlColumn>>) => {
  const c = Object.prototype.hasOwnProperty.call(columns, key) ? columns[key] : undefined;
  return typeof c === 'string' || c?.sql !== undefined;
};

/**
 * Why a key cannot be its own column name in this engine (undefined when it can, or when the caller maps it
 * to a column of its own): a NUL cannot appear in SQL text, a lone surrogate has no UTF-8 spelling (it would
 * be printed as U+FFFD, another name), and DuckDB's names are case-insensitive, so two keys differing only in
 * case would read one column (or fail with "Duplicate struct entry name") where the language keeps them apart.
 */
function keyProblem(key: string, earlier: readonly string[], dialect: Dialect, columns: Readonly<Record<string, SqlColumn>>): string | undefined {
  if (mapped(key, columns)) return undefined;
  if (key.includes('\0')) return `the key ${JSON.stringify(key)} holds a NUL character, which no SQL column name can`;
  if (holdsLoneSurrogate(key)) return `the key ${JSON.stringify(key)} holds a lone surrogate, which has no UTF-8 spelling`;
  if (dialect.caseInsensitiveNames) {
    const twin = earlier.find((k) => k !== key && !mapped(k, columns) && k.toLowerCase() === key.toLowerCase());
    if (twin !== undefined) return `the keys ${JSON.stringify(twin)} and ${JSON.stringify(key)} differ only in case, and ${dialect.name} column names do not`;
  }
  return undefined;
}

/** The column kind and SQL of a field, from the caller's mapping, else the dataset, else text. */
export function resolveColumn(
  key: string,
  dialect: Dialect,
  schema: DatasetSchema | undefined,
  columns: Readonly<Record<string, SqlColumn>>,
): { sql: string; kind: ColumnKind; type?: FieldType } {
  const given = Object.prototype.hasOwnProperty.call(columns, key) ? columns[key] : undefined;
  const mapped = typeof given === 'string' ? { sql: given } : (given ?? {});
  const type = mapped.type ?? schema?.byName.get(key)?.type;
  return { sql: mapped.sql ?? dialect.ident(key), kind: type ? columnKind(type) : 'string', type };
}

/**
 * The views of a present value that an operator can test: as a string, as a number, as a boolean, as an
 * array. A column holds one kind, except `int or string` columns, which hold a number or a string (each view
 * then has a guard saying which one this row holds).
 */
interface Views {
  present: string;
  absent: string;
  /** `numericStrings`: the text may be a number's digits, so numeric filter strings also compare as numbers. */
  text?: { guard?: string; expr: string; numericStrings?: boolean };
  numbers: { guard?: string; expr: string; integer: boolean }[];
  bool?: string;
  array?: { expr: string; element: 'string' | 'int' };
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

class Generator {
  constructor(
    private readonly d: Dialect,
    private readonly schema: DatasetSchema | undefined,
    private readonly columns: Readonly<Record<string, SqlColumn>>,
    private readonly diagnostics: Diagnostic[],
  ) {}

  condition(c: NCondition): string {
    const info = OPERATOR_BY_NAME.get(c.op)!;
    // As for keys (keyProblem): the engine's string would be U+FFFD, and `x == "\ud800"` would match "\uFFFD".
    const scalars = c.value.kind === 'list' ? c.value.items : [c.value];
    const lone = scalars.find((v) => v.kind === 'string' && holdsLoneSurrogate(v.value));
    if (lone) {
      this.diagnostics.push(diag('invalid-node', `the value ${JSON.stringify((lone as { value: string }).value)} holds a lone surrogate, which has no UTF-8 spelling`, lone.start, lone.end));
    }
    const col = resolveColumn(c.key, this.d, this.schema, this.columns);
    if (col.type !== undefined && !FIELD_TYPES.includes(col.type)) {
      this.diagnostics.push(diag('value-type', `unknown column type ${JSON.stringify(col.type)} for ${c.key}`, c.src.field.start, c.src.field.end));
    }
    const v = this.views(col.sql, col.kind);
    const p = this.positive(info.positive, c.value, v);
    const { true: T, false: F } = this.d;
    // A test that holds on every present value reduces to presence (absence for the negation).
    if (p === T) return info.negative ? (v.present === T ? F : v.absent) : v.present;
    if (info.negative) {
      if (p === F) return T;
      return v.present === T ? `NOT (${p})` : `(${v.absent} OR NOT (${p}))`;
    }
    if (p === F) return F;
    return v.present === T ? p : `(${v.present} AND ${p})`;
  }

  private views(c: string, kind: ColumnKind): Views {
    const d = this.d;
    const present = `${c} IS NOT NULL`;
    const absent = `${c} IS NULL`;
    switch (kind) {
      case 'string':
        return { present, absent, text: { expr: c }, numbers: [] };
      case 'int':
        return { present, absent, numbers: [{ expr: c, integer: true }] };
      case 'float':
        return { present, absent, numbers: [{ expr: c, integer: false }] };
      case 'bool':
        return { present, absent, bool: c, numbers: [] };
      case 'int-or-string':
        // A text column: numbers are their digits; a numeric filter string also compares as a number.
        if (!d.mixed) return { present, absent, text: { expr: c, numericStrings: true }, numbers: [] };
        return {
          present,
          absent,
          text: { guard: d.mixed.isString(c), expr: d.mixed.text(c) },
          numbers: [
            { guard: d.mixed.isInteger(c), expr: d.mixed.integer(c), integer: true },
            { guard: d.mixed.isDouble(c), expr: d.mixed.double(c), integer: false },
          ],
        };
      case 'array-string':
      case 'array-int':
        return { present: d.arraysNeverNull ? d.true : present, absent: d.arraysNeverNull ? d.false : absent, array: { expr: c, element: kind === 'array-int' ? 'int' : 'string' }, numbers: [] };
      case 'json':
      case 'array-json':
        return { present, absent, numbers: [] };
    }
  }

  /** The positive operator's test on a present value, never NULL; `false` when it can never hold. */
  private positive(op: string, value: Value, v: Views): string {
    const d = this.d;
    const scalar = asScalar(value);
    switch (op) {
      case 'eq':
        return this.or(this.equals(v, scalar));
      case 'lt':
      case 'leq':
      case 'gt':
      case 'geq': {
        const n = numberOf(scalar);
        if (!n) return d.false; // a non-numeric side makes every comparison false
        const sqlOp = { lt: '<', leq: '<=', gt: '>', geq: '>=' }[op];
        return this.or(this.numberTests(v, sqlOp, n));
      }
      case 'startsWith':
      case 'endsWith': {
        if (!v.text) return d.false; // only a string value starts or ends with anything
        const s = d.string(textOf(scalar));
        const t = op === 'startsWith' ? d.startsWith(v.text.expr, s) : d.endsWith(v.text.expr, s);
        return this.or([guarded(v.text.guard, t)]);
      }
      case 'contains': {
        const parts: string[] = [];
        if (v.text) parts.push(guarded(v.text.guard, d.containsText(v.text.expr, d.string(textOf(scalar)))));
        if (v.array) parts.push(...this.arrayAny(v.array, [scalar]));
        return this.or(parts);
      }
      case 'in': {
        const list = value.kind === 'list' ? value.items : [value];
        if (v.array) return this.or(this.arrayAny(v.array, list));
        return this.or(this.equalsAny(v, list));
      }
    }
    return d.false;
  }

  /** Equality with one filter scalar, per view (docs/language.md, "Operators" and "Numeric strings"). */
  private equals(v: Views, b: ScalarValue): string[] {
    return this.equalsAny(v, [b]);
  }

  /** Equality with any member of a list: strings by `IN`, numbers numerically, booleans as booleans. */
  private equalsAny(v: Views, list: readonly ScalarValue[]): string[] {
    const d = this.d;
    const parts: string[] = [];
    const strings = list.filter((m): m is Extract<ScalarValue, { kind: 'string' }> => m.kind === 'string').map((m) => m.value);
    const numbers = dedupe(list.map(numberOf).filter((n): n is ExactNumber => n !== undefined));
    const bools = [...new Set(list.filter((m) => m.kind === 'bool').map((m) => (m as { value: boolean }).value))];
    if (v.text) {
      // Two strings compare exactly; a filter number equals a numeric log string read as a number.
      if (strings.length) parts.push(guarded(v.text.guard, inList(v.text.expr, unique(strings).map(d.string))));
      for (const m of list) {
        const x = m.kind === 'int' || m.kind === 'float' ? exactNumber(m.raw) : m.kind === 'string' && v.text.numericStrings ? exactNumber(m.value) : undefined;
        if (x) parts.push(guarded(v.text.guard, this.numericText(v.text.expr, '=', x)));
      }
    }
    // A log number equals a filter number, or a numeric filter string read as a number.
    for (const view of v.numbers) {
      const members = view.integer ? numbers.filter(inInt64) : numbers;
      if (!members.length) continue;
      // A whole-number column never equals a fraction (a double equal to a whole number was made an integer).
      // A double never equals an integer no double equals (the engine would round the integer first).
      const items = view.integer
        ? members.filter((n) => n.integer).map((n) => n.text)
        : members.filter((n) => !doubleNeighbours(n)).map((n) => (n.integer ? n.text : d.double(n.text)));
      if (items.length) parts.push(guarded(view.guard, inList(view.expr, items)));
    }
    if (v.bool !== undefined && bools.length) parts.push(bools.length === 2 ? d.true : `${v.bool} = ${bools[0] ? d.true : d.false}`);
    return parts;
  }

  /** Comparisons (`<`, `<=`, `>`, `>=`) with a number, per view. */
  private numberTests(v: Views, sqlOp: string, n: ExactNumber): string[] {
    const parts: string[] = [];
    if (v.text) parts.push(guarded(v.text.guard, this.numericText(v.text.expr, sqlOp, n)));
    for (const view of v.numbers) {
      if (view.integer && n.integer && !inInt64(n)) {
        // Beyond the column's range: the answer is the same for every value (and the engine need not parse it).
        const above = BigInt(n.text) > INT64_MAX;
        const holds = sqlOp.startsWith('<') ? above : !above;
        if (holds) parts.push(guarded(view.guard, this.d.true));
        continue;
      }
      parts.push(guarded(view.guard, view.integer ? `${view.expr} ${sqlOp} ${n.integer ? n.text : this.d.double(n.text)}` : this.doubleCompare(view.expr, sqlOp, n)));
    }
    return parts;
  }

  /** A double compared exactly with a filter number (see doubleNeighbours). */
  private doubleCompare(expr: string, sqlOp: string, n: ExactNumber): string {
    const d = this.d;
    const around = doubleNeighbours(n);
    if (!around) return `${expr} ${sqlOp} ${n.integer ? n.text : d.double(n.text)}`;
    if (sqlOp === '=') return d.false;
    return sqlOp.startsWith('<') ? `${expr} <= ${d.double(doubleText(around.below))}` : `${expr} >= ${d.double(doubleText(around.above))}`;
  }

  /**
   * A log string compared with a number: only a string of the JSON number grammar reads as a number. Integer
   * text compares exactly (128-bit), other numeric text as a double.
   */
  private numericText(t: string, sqlOp: string, n: ExactNumber): string {
    const d = this.d;
    const lit = n.integer ? n.text : d.double(n.text);
    const asDouble = this.doubleCompare(d.tryDouble(t), sqlOp, n);
    if (!n.integer) return `(${d.matches(t, JSON_NUMBER_PATTERN)} AND coalesce(${asDouble}, ${d.false}))`;
    return `coalesce(CASE WHEN ${d.matches(t, JSON_INTEGER_PATTERN)} THEN ${d.tryInteger(t)} ${sqlOp} ${lit} WHEN ${d.matches(t, JSON_NUMBER_PATTERN)} THEN ${asDouble} ELSE ${d.false} END, ${d.false})`;
  }

  /** Some element of the array equals some member of the list. */
  private arrayAny(a: NonNullable<Views['array']>, list: readonly ScalarValue[]): string[] {
    const d = this.d;
    const parts: string[] = [];
    if (a.element === 'string') {
      const strings = unique(list.filter((m) => m.kind === 'string').map((m) => (m as { value: string }).value));
      if (strings.length === 1) parts.push(d.arrayHas(a.expr, d.string(strings[0]!)));
      else if (strings.length > 1) parts.push(d.arrayHasAny(a.expr, strings.map(d.string)));
      // A filter number equals an element that is a numeric string with that value.
      for (const m of list) {
        const x = m.kind === 'int' || m.kind === 'float' ? exactNumber(m.raw) : undefined;
        if (x) parts.push(d.arrayExists(a.expr, (e) => this.numericText(e, '=', x)));
      }
    } else {
      // Elements are integers: only whole numbers in their range can be equal to one.
      const ints = unique(dedupe(list.map(numberOf).filter((n): n is ExactNumber => n !== undefined && n.integer && inInt64(n))).map((n) => n.text));
      if (ints.length === 1) parts.push(d.arrayHas(a.expr, d.int64(ints[0]!)));
      else if (ints.length > 1) parts.push(d.arrayHasAny(a.expr, ints.map(d.int64)));
    }
    return parts;
  }

  private or(parts: string[]): string {
    const real = parts.filter((p) => p !== this.d.false);
    if (real.includes(this.d.true)) return this.d.true;
    if (real.length === 0) return this.d.false;
    return real.length === 1 ? real[0]! : `(${real.join(' OR ')})`;
  }
}

/*
 * Every piece built here is an atom (a comparison or a function call) or is parenthesised where it is built
 * (`or`, `guarded`, the numeric text test), so pieces combine without looking inside them: a heuristic that
 * parsed the SQL text back would have to know each dialect's quoting.
 */
function guarded(guard: string | undefined, test: string): string {
  return guard ? `(${guard} AND ${test})` : test;
}

function inList(expr: string, items: string[]): string {
  return items.length === 1 ? `${expr} = ${items[0]}` : `${expr} IN (${items.join(', ')})`;
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

function dedupe(xs: ExactNumber[]): ExactNumber[] {
  const seen = new Set<string>();
  return xs.filter((x) => !seen.has(`${x.integer}:${x.text}`) && (seen.add(`${x.integer}:${x.text}`), true));
}

function inInt64(n: ExactNumber): boolean {
  if (!n.integer) return false;
  const b = BigInt(n.text);
  return b >= INT64_MIN && b <= INT64_MAX;
}

function asScalar(v: Value): ScalarValue {
  return v.kind === 'list' ? (v.items[0] ?? { kind: 'string', value: '', start: v.start, end: v.end }) : v;
}

/** A filter value read as a number: JSON numbers, and strings of the JSON number grammar. */
function numberOf(v: ScalarValue): ExactNumber | undefined {
  if (v.kind === 'int' || v.kind === 'float') return exactNumber(v.raw);
  if (v.kind === 'string') return exactNumber(v.value);
  return undefined;
}

/** A filter value as text, for the string operators (numbers as their digits, booleans as words). */
function textOf(v: ScalarValue): string {
  switch (v.kind) {
    case 'string':
      return v.value;
    case 'bool':
      return v.value ? 'true' : 'false';
    default: {
      const n = Number(v.raw);
      return Number.isSafeInteger(n) || !/^-?[0-9]+$/.test(v.raw) ? String(n) : v.raw;
    }
  }
}
