/**
 * The filter document `{"where": node}` as a located JSON tree → the AST, with one structural diagnostic per
 * problem (the API's "Key is missing", "Operator is missing", "And can't be set with Or..."). Valid parts are
 * built even when others are not, so every problem of a document is found in one pass; the expression is
 * returned only when the whole tree is valid. Type rules and limits are the checker's business, not this.
 */
import type { Condition, Expr, FieldRef, JsonPath, Logical, OperatorRef, ScalarValue, Span, Value } from '../ast.js';
import { diag, type Diagnostic, type FilterDiagnosticCode, type Fix } from '../diagnostics.js';
import { OPERATOR_BY_NAME } from '../operators.js';
import { needsBackquotes } from '../syntax/field-names.js';
import { getProperty, type JsonObject, type JsonProperty, type JsonSpan, type JsonValue } from '../../lang/located-json.js';
import { suggestOperators } from './operator-suggestions.js';
import { mapDiagnostic, type TextMapping } from '../../lang/text-mapping.js';

const CONDITION_KEYS = ['key', 'operator', 'value'] as const;
const GROUP_KEYS = ['and', 'or'] as const;
const NODE_KEYS: ReadonlySet<string> = new Set([...CONDITION_KEYS, ...GROUP_KEYS]);


export interface FilterTreeResult {
  expr?: Expr;
  diagnostics: Diagnostic[];
}

/**
 * Reads `root` as a filter document. Offsets of the tree are in the parsed text and go through `mapping`;
 * paths are relative to the document and get `base` (where the document sits in the input) in front.
 */
export function readFilterTree(root: JsonValue, mapping: TextMapping, base: JsonPath): FilterTreeResult {
  const reader = new TreeReader(mapping, base);
  const expr = reader.document(root);
  const hasError = reader.diagnostics.some((d) => d.severity === 'error');
  return hasError || !expr ? { diagnostics: reader.diagnostics } : { expr, diagnostics: reader.diagnostics };
}

/** What a node without `where` around it looks like, if it looks like a filter node at all. */
export function nodeShape(node: JsonValue): 'condition' | 'and' | 'or' | undefined {
  if (node.type !== 'object') return undefined;
  const names = new Set(node.properties.map((p) => p.key.value));
  if (CONDITION_KEYS.some((k) => names.has(k))) return 'condition';
  if (names.has('and')) return 'and';
  if (names.has('or')) return 'or';
  return undefined;
}

class TreeReader {
  readonly diagnostics: Diagnostic[] = [];

  constructor(
    private readonly mapping: TextMapping,
    private readonly base: JsonPath,
  ) {}

  document(root: JsonValue): Expr | undefined {
    if (root.type !== 'object') {
      this.report('invalid-node', `a filter is an object {"where": ...}, not ${describe(root)}`, root, []);
      return undefined;
    }
    const where = getProperty(root, 'where');
    if (!where) {
      this.missingWhere(root);
      return undefined;
    }
    this.duplicates(root, []);
    for (const p of root.properties) {
      if (p.key.value !== 'where' && !p.duplicate) this.unknownProperty(p, [], ['where']);
    }
    return this.node(where.value, ['where'], true);
  }

  private missingWhere(root: JsonObject): void {
    const shape = nodeShape(root);
    if (shape) {
      const what = shape === 'condition' ? 'a bare condition' : `a bare "${shape}" node`;
      const fix: Fix = {
        title: 'Wrap it in {"where": ...}',
        edits: [
          { start: root.start, end: root.start, newText: '{"where":' },
          { start: root.end, end: root.end, newText: '}' },
        ],
        preferred: true,
      };
      this.report('missing-where', `the filter has no "where": this is ${what}, which must sit in {"where": ...}`, root, [], {
        fixes: [fix],
      });
      // Still read it, so that its own problems (a misspelt operator...) are reported in the same pass.
      this.node(root, [], true);
      return;
    }
    const near = root.properties.find((p) => p.key.value.trim().toLowerCase() === 'where');
    if (near) {
      this.report('missing-where', `the filter has no "where" (found ${JSON.stringify(near.key.value)})`, near.key, [near.key.value], {
        suggestions: ['where'],
        fixes: [{ title: 'Rename to "where"', edits: [edit(near.key, '"where"')], preferred: true }],
      });
      return;
    }
    this.report('missing-where', 'the filter has no "where": it must be {"where": condition or and/or node}', root, []);
  }

  /** One node at `path`: a condition, or an and/or group. `top`: the node directly under `where`. */
  private node(node: JsonValue, path: JsonPath, top: boolean): Expr | undefined {
    if (node.type !== 'object') {
      this.report(
        'invalid-node',
        `a filter node is an object (a condition {key, operator, value}, or {"and": [...]}, or {"or": [...]}), not ${describe(node)}`,
        node,
        path,
      );
      return undefined;
    }
    this.duplicates(node, path);
    const props = new Map<string, JsonProperty>();
    for (const p of node.properties) if (NODE_KEYS.has(p.key.value)) props.set(p.key.value, p);
    for (const p of node.properties) {
      if (!NODE_KEYS.has(p.key.value) && !p.duplicate) this.unknownProperty(p, path, [...NODE_KEYS]);
    }

    const group = props.get('and') ?? props.get('or');
    const conflict = this.conflict(node, path);
    if (group) {
      // With a conflict, the group's items are still read for their own problems, but no node is built.
      const expr = this.group(node, group, path, top);
      return conflict ? undefined : expr;
    }
    if (props.size === 0) {
      this.report('missing-key', 'a filter node needs "key", "operator" and "value" (or "and" / "or")', node, path);
      return undefined;
    }
    return this.condition(node, props, path);
  }

  /** `and` with `or`, or a group key with a condition key: reported at the second key, in text order. */
  private conflict(node: JsonObject, path: JsonPath): boolean {
    const present = node.properties.filter((p) => NODE_KEYS.has(p.key.value) && !p.duplicate);
    const firstGroup = present.find((p) => (GROUP_KEYS as readonly string[]).includes(p.key.value));
    if (!firstGroup) return false;
    const clash = present.find((p) => p !== firstGroup);
    if (!clash) return false;
    const [first, second] = present.indexOf(firstGroup) < present.indexOf(clash) ? [firstGroup, clash] : [clash, firstGroup];
    this.report(
      'conflicting-keys',
      `"${first.key.value}" can't be set with "${second.key.value}" in one node: a node is either a condition or one and/or group`,
      second.key,
      [...path, second.key.value],
      { related: [{ message: `"${first.key.value}" is here`, start: this.at(first.key.start), end: this.at(first.key.end) }] },
    );
    return true;
  }

  private group(node: JsonObject, prop: JsonProperty, path: JsonPath, top: boolean): Logical | undefined {
    const kind = prop.key.value as 'and' | 'or';
    const list = prop.value;
    const listPath = [...path, kind];
    if (list.type !== 'array') {
      this.report('invalid-node', `"${kind}" holds an array of nodes, not ${describe(list)}`, list, listPath);
      return undefined;
    }
    if (list.items.length === 0) {
      if (top) this.report('empty-filter', `the filter has no condition: "${kind}" is empty`, list, listPath);
      else this.report('invalid-node', `an empty "${kind}" group holds no condition`, list, listPath);
      return undefined;
    }
    const items: Expr[] = [];
    let complete = true;
    list.items.forEach((item, i) => {
      const expr = this.node(item, [...listPath, i], false);
      if (expr) items.push(expr);
      else complete = false;
    });
    if (!complete) return undefined;
    return { kind, items, ...this.span(node), path: this.path(path) };
  }

  private condition(node: JsonObject, props: Map<string, JsonProperty>, path: JsonPath): Condition | undefined {
    const key = props.get('key');
    const operator = props.get('operator');
    const value = props.get('value');
    if (!key) this.report('missing-key', 'the condition has no "key" (Key is missing)', node, path);
    if (!operator) this.report('missing-operator', 'the condition has no "operator" (Operator is missing)', node, path);
    if (!value) this.report('missing-value', 'the condition has no "value" (Value is missing)', node, path);
    const field = key && this.field(key.value, [...path, 'key']);
    const op = operator && this.operator(operator.value, [...path, 'operator']);
    const val = value && this.value(value.value, [...path, 'value']);
    if (!field || !op || !val) return undefined;
    return { kind: 'condition', field, operator: op, value: val, ...this.span(node), path: this.path(path) };
  }

  private field(node: JsonValue, path: JsonPath): FieldRef | undefined {
    if (node.type !== 'string') {
      this.report('invalid-node', `"key" is a field name (a string), not ${describe(node)}`, node, path);
      return undefined;
    }
    const name = node.value;
    const quoted = needsBackquotes(name);
    return { name, quoted, ...this.span(node) };
  }

  private operator(node: JsonValue, path: JsonPath): OperatorRef | undefined {
    if (node.type !== 'string') {
      this.report('invalid-node', `"operator" is an operator name (a string), not ${describe(node)}`, node, path);
      return undefined;
    }
    const info = OPERATOR_BY_NAME.get(node.value);
    if (info) return { name: info.name, spelling: node.value, ...this.span(node) };
    const suggestion = suggestOperators(node.value);
    const fixes: Fix[] = suggestion.names.map((name) => ({
      title: `Replace with "${name}"`,
      edits: [edit(node, JSON.stringify(name))],
      ...(suggestion.certain ? { preferred: true } : {}),
    }));
    const hint = suggestion.names.length ? `; did you mean ${suggestion.names.map((n) => `"${n}"`).join(' or ')}?` : '';
    this.report('unknown-operator', `unknown operator ${JSON.stringify(node.value)}${hint}`, node, path, {
      suggestions: suggestion.names,
      fixes,
    });
    return undefined;
  }

  private value(node: JsonValue, path: JsonPath): Value | undefined {
    if (node.type === 'array') {
      const items: ScalarValue[] = [];
      let complete = true;
      node.items.forEach((item, i) => {
        const scalar = this.scalar(item, [...path, i], 'a list element');
        if (scalar) items.push(scalar);
        else complete = false;
      });
      return complete ? { kind: 'list', items, ...this.span(node) } : undefined;
    }
    return this.scalar(node, path, '"value"');
  }

  private scalar(node: JsonValue, path: JsonPath, what: string): ScalarValue | undefined {
    const span = this.span(node);
    switch (node.type) {
      case 'string':
        return { kind: 'string', value: node.value, ...span };
      case 'boolean':
        return { kind: 'bool', value: node.value, ...span };
      case 'number':
        return node.integer ? { kind: 'int', raw: node.raw, ...span } : { kind: 'float', raw: node.raw, ...span };
      default:
        this.report('invalid-node', `${what} is a string, number or boolean${what === '"value"' ? ' (or a list of them)' : ''}, not ${describe(node)}`, node, path);
        return undefined;
    }
  }

  /** JSON.parse keeps the last of duplicate keys silently; the API may not. Reported at the repeat. */
  private duplicates(node: JsonObject, path: JsonPath): void {
    for (const p of node.properties) {
      if (!p.duplicate) continue;
      const first = node.properties.find((q) => q.key.value === p.key.value)!;
      this.report('conflicting-keys', `"${p.key.value}" is set twice in one object`, p.key, [...path, p.key.value], {
        related: [{ message: 'first set here', start: this.at(first.key.start), end: this.at(first.key.end) }],
      });
    }
  }

  private unknownProperty(p: JsonProperty, path: JsonPath, known: readonly string[]): void {
    const lower = p.key.value.trim().toLowerCase();
    const near = known.find((k) => k === lower);
    this.report(
      'unknown-property',
      `unknown property ${JSON.stringify(p.key.value)}${near ? `; did you mean "${near}"?` : ' (it is ignored)'}`,
      p.key,
      [...path, p.key.value],
      near ? { suggestions: [near], fixes: [{ title: `Rename to "${near}"`, edits: [edit(p.key, JSON.stringify(near))], preferred: true }] } : {},
    );
  }

  private report(
    code: FilterDiagnosticCode,
    message: string,
    where: JsonSpan,
    path: JsonPath,
    extra: Partial<Pick<Diagnostic, 'suggestions' | 'fixes' | 'related'>> = {},
  ): void {
    // `related` ranges are already mapped (built with `at`); start, end, fixes are in the parsed text.
    const d = mapDiagnostic(diag(code, message, where.start, where.end, { path, ...extra, related: undefined }), this.mapping, this.base);
    if (extra.related) d.related = extra.related;
    else delete d.related;
    this.diagnostics.push(d);
  }

  private at(offset: number): number {
    return this.mapping.offset(offset);
  }

  private span(node: JsonSpan): Span {
    return { start: this.at(node.start), end: this.at(node.end) };
  }

  private path(path: JsonPath): JsonPath {
    return [...this.base, ...path];
  }
}

function edit(node: JsonSpan, newText: string) {
  return { start: node.start, end: node.end, newText };
}

function describe(node: JsonValue): string {
  switch (node.type) {
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return node.value ? 'true' : 'false';
    case 'null':
      return 'null';
  }
}
