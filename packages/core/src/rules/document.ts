/**
 * Every expression of a JSON document, checked where it sits: a ruleset (`{phase, rules: [...]}`, also
 * inside an API envelope's `result`), an array of rules, one rule, or a policy (`{expression, ...}`).
 * A rule's `expression` and `ratelimit.counting_expression` are filter expressions checked in the
 * ruleset's phase; an `expression` inside `action_parameters` (rewrite values, redirect targets) is a value
 * expression. A ruleset's phase limits the fields and functions; an unknown phase is reported (and its
 * expressions are checked without a phase). Diagnostics point into the document text (escapes accounted for)
 * and carry the JSON path. The document is JSON, or any tree of the same shape located in its text (the CLI
 * gives YAML files so, with a mapper from a string's value to its text).
 */
import { getProperty, type JsonObject, type JsonString, type JsonValue, parseJson, stringOffsetMapper } from '../lang/located-json.js';
import type { JsonPath } from '../lang/positions.js';
import { IDENTITY_MAPPING, mapDiagnostic, throughString } from '../lang/text-mapping.js';
import { hasErrors, sortDiagnostics } from '../lang/diagnostics.js';
import { checkRule, type RuleCheckOptions, type RuleCheckResult } from './check.js';
import type { RuleDiagnostic, RuleKind } from './parse.js';
import { PHASES } from './phases.js';
import { rdiag } from './parse.js';
import { closest } from '../lang/closest.js';
import { expectOptionalString, expectText, optionsOf } from '../lang/guards.js';

export interface RuleDocumentExpression {
  path: JsonPath;
  kind: RuleKind;
  phase?: string;
  text: string;
  /** Diagnostics in the expression's own offsets (for the API's error format). */
  diagnostics: RuleDiagnostic[];
}

export interface RuleDocumentResult {
  ok: boolean;
  /** Diagnostics located in the document text. */
  diagnostics: RuleDiagnostic[];
  expressions: RuleDocumentExpression[];
}

export interface RuleDocumentOptions {
  /** The phase to check in when the document does not name one. */
  phase?: string;
  /**
   * `phase` wins over the phase a ruleset in the document names (a command-line flag that replaces the file's):
   * the document's phase is then neither used nor checked.
   */
  phaseWins?: boolean;
  /** The document already parsed and located in `text` (e.g. from YAML); else `text` is parsed as JSON. */
  tree?: JsonValue;
  /** Maps an offset in a string's value to its offset in `text` (default: JSON string escapes). */
  stringMapper?: (text: string, node: JsonString) => (offset: number) => number;
  /**
   * Checks one expression (default `checkRule`). An editor passes a memoized one, so that re-checking a large
   * document after an edit checks only the expressions that changed.
   */
  checkRule?: (text: string, options: RuleCheckOptions) => RuleCheckResult;
  /**
   * The actions a rule may take (the API client's `RULE_ACTIONS`, which this package does not depend on): a
   * rule's `action` string outside it is `rule-unknown-action`. Not given, actions are not checked.
   */
  actions?: readonly string[];
  /** The document is one rule (not a policy): its `action` is checked as a listed rule's. */
  rule?: boolean;
}

export function checkRuleDocument(text: string, options?: RuleDocumentOptions): RuleDocumentResult {
  expectText(text, 'checkRuleDocument', 'ruleset JSON text');
  options = optionsOf(options, 'checkRuleDocument') as RuleDocumentOptions;
  expectOptionalString(options.phase, 'checkRuleDocument', 'phase');
  const parsed = options.tree ? { value: options.tree, diagnostics: [] } : parseJson(text);
  if (!parsed.value) return { ok: false, diagnostics: parsed.diagnostics as RuleDiagnostic[], expressions: [] };
  const mapper = options.stringMapper ?? stringOffsetMapper;
  const out: RuleDiagnostic[] = [];
  const expressions: RuleDocumentExpression[] = [];
  const check = (node: JsonString, path: JsonPath, kind: RuleKind, phase: string | undefined) => {
    const result = (options.checkRule ?? checkRule)(node.value, { kind, ...(phase ? { phase } : {}) });
    expressions.push({ path, kind, ...(phase ? { phase } : {}), text: node.value, diagnostics: result.diagnostics });
    const mapping = throughString(IDENTITY_MAPPING, text, node, mapper);
    for (const d of result.diagnostics) out.push({ ...mapDiagnostic(d, mapping, []), path });
  };
  // `listed`: an item of a rules list. A lone object may be a policy, whose actions (`allow`, …) are not rules'.
  const rule = (node: JsonValue, path: JsonPath, phase: string | undefined, listed = true) => {
    if (node.type !== 'object') return;
    const action = getProperty(node, 'action')?.value;
    if (listed && options.actions && action?.type === 'string' && !options.actions.includes(action.value)) {
      const suggestions = closest(action.value, options.actions);
      out.push(
        rdiag('rule-unknown-action', `unknown action ${JSON.stringify(action.value)}${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''}`, action.start, action.end, undefined, {
          path: [...path, 'action'],
          suggestions,
        }),
      );
    }
    const expr = getProperty(node, 'expression');
    if (expr?.value.type === 'string') check(expr.value, [...path, 'expression'], 'filter', phase);
    const rl = getProperty(node, 'ratelimit');
    if (rl?.value.type === 'object') {
      const counting = getProperty(rl.value, 'counting_expression');
      if (counting?.value.type === 'string' && counting.value.value !== '') check(counting.value, [...path, 'ratelimit', 'counting_expression'], 'filter', phase);
    }
    const params = getProperty(node, 'action_parameters');
    if (params) valueExpressions(params.value, [...path, 'action_parameters'], phase);
  };
  const valueExpressions = (node: JsonValue, path: JsonPath, phase: string | undefined) => {
    if (node.type === 'array') node.items.forEach((v, i) => valueExpressions(v, [...path, i], phase));
    if (node.type !== 'object') return;
    for (const p of node.properties) {
      if (p.key.value === 'expression' && p.value.type === 'string') check(p.value, [...path, 'expression'], 'value', phase);
      else valueExpressions(p.value, [...path, p.key.value], phase);
    }
  };
  const ruleset = (node: JsonObject, path: JsonPath) => {
    const phaseProp = options.phaseWins && options.phase !== undefined ? undefined : getProperty(node, 'phase');
    let phase = phaseProp?.value.type === 'string' ? phaseProp.value.value : options.phase;
    if (phaseProp?.value.type === 'string' && !PHASES.includes(phaseProp.value.value)) {
      const v = phaseProp.value;
      const suggestions = closest(v.value, PHASES);
      out.push(
        rdiag('rule-unknown-phase', `unknown phase ${JSON.stringify(v.value)}${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''}`, v.start, v.end, undefined, {
          path: [...path, 'phase'],
          suggestions,
        }),
      );
      // the expressions are still checked, against every field
      phase = undefined;
    }
    const rules = getProperty(node, 'rules');
    if (rules?.value.type === 'array') rules.value.items.forEach((r, i) => rule(r, [...path, 'rules', i], phase));
    else rule(node, path, phase, options.rule === true);
  };
  let root = parsed.value;
  let base: JsonPath = [];
  if (root.type === 'object') {
    const result = getProperty(root, 'result');
    if (result && (result.value.type === 'object' || result.value.type === 'array') && getProperty(root, 'success')) {
      root = result.value;
      base = ['result'];
    }
  }
  if (root.type === 'array') root.items.forEach((r, i) => (r.type === 'object' && getProperty(r, 'rules') ? ruleset(r, [...base, i]) : rule(r, [...base, i], options.phase)));
  else if (root.type === 'object') ruleset(root, base);
  const diagnostics = sortDiagnostics(out) as RuleDiagnostic[];
  return { ok: !hasErrors(diagnostics), diagnostics, expressions };
}

/** The expression string of a rules document under an offset, for completion and hover inside it. */
export interface RuleDocumentExpressionAt {
  /** The expression (the string's value). */
  text: string;
  /** The offset in `text` for the document offset asked about. */
  offset: number;
  kind: RuleKind;
  phase?: string;
  /** Maps an offset of `text` to the document. */
  toDocument: (offset: number) => number;
}

export interface RuleDocumentExpressionAtOptions {
  /**
   * The document's tree (`parseJson(text).value`), located in `text`. An editor keeps one per document
   * version (see `carryJsonTree`) instead of parsing a large document again at each request. Given as
   * undefined, the text is not JSON (no expression is found); left out, `text` is parsed.
   */
  tree?: JsonValue;
}

/**
 * The `expression` (or `counting_expression`) string whose text holds `offset` in a JSON rules document, with
 * its kind (a value expression inside `action_parameters`) and the phase of its ruleset; undefined elsewhere.
 */
export function ruleDocumentExpressionAt(text: string, offset: number, options: RuleDocumentExpressionAtOptions = {}): RuleDocumentExpressionAt | undefined {
  const tree = 'tree' in options ? options.tree : parseJson(text).value;
  if (!tree) return undefined;
  let phase: string | undefined;
  let found: { node: JsonString; kind: RuleKind } | undefined;
  const walk = (node: JsonValue, inParams: boolean): void => {
    if (found || offset < node.start || offset > node.end) return;
    if (node.type === 'array') node.items.forEach((v) => walk(v, inParams));
    if (node.type !== 'object') return;
    const named = getProperty(node, 'phase');
    if (named?.value.type === 'string' && PHASES.includes(named.value.value)) phase = named.value.value;
    for (const p of node.properties) {
      const key = p.key.value;
      if ((key === 'expression' || key === 'counting_expression') && p.value.type === 'string' && offset > p.value.start && offset < p.value.end) {
        found = { node: p.value, kind: inParams && key === 'expression' ? 'value' : 'filter' };
        return;
      }
      walk(p.value, inParams || key === 'action_parameters');
    }
  };
  walk(tree, false);
  if (!found) return undefined;
  const { node, kind } = found;
  const toDocument = stringOffsetMapper(text, node);
  // the value offset whose document offset is the first at or after the one asked about
  let at = 0;
  while (at < node.value.length && toDocument(at) < offset) at++;
  return { text: node.value, offset: at, kind, ...(phase ? { phase } : {}), toDocument };
}
