/**
 * The local check of rules-language expressions before a command sends them: every `expression` of a
 * ruleset, rule or policy body (and rate-limit counting expressions, and rewrite value expressions) is
 * checked with the core's checker; any error refuses the request with the diagnostics, exit 1, and nothing
 * is sent. `rulesets …` and `page-guard policies …` commands call `refuseInvalidExpressions` with what the
 * user wrote — the JSON or YAML file, the `--expression` flag — so that a diagnostic names that file or flag
 * and its line and column there, never a request body the command built.
 */
import { alignedOffsetMapper, checkRule, checkRuleDocument, type RuleDiagnostic, type RuleDocumentResult, type RuleKind } from '@logfilter/core';
import { RULE_ACTIONS } from '@logfilter/api';
import type { CliContext } from './context.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE } from './errors.js';
import { reportDiagnostics } from './options.js';
import { parseLocatedYaml } from './yaml-located.js';

export interface ExpressionSource {
  /** The name diagnostics print (a file name, a flag such as `--expression`, or `request body`). */
  name: string;
  /** The document as the user wrote it (diagnostics point into it); else the body is serialised. */
  text?: string;
  /** How `text` is written (default JSON). */
  format?: 'json' | 'yaml';
  body?: unknown;
  /** One expression as given on the command line: checked alone, positions in it. */
  expression?: string;
  kind?: RuleKind;
  /** The document is one rule (`rules add|update --file`): its action is checked against the API's table. */
  rule?: boolean;
}

/** Diagnostics of a name outside a closed table (the file's counterpart of a bad `--phase` or `--action`). */
const USAGE_CODES: ReadonlySet<string> = new Set(['rule-unknown-phase', 'rule-unknown-action']);

/** Checks every expression of the source; returns the result (errors and warnings) without printing. */
export function checkBodyExpressions(source: ExpressionSource, phase?: string, phaseWins = false): RuleDocumentResult & { text: string } {
  if (source.expression !== undefined) {
    const r = checkRule(source.expression, { kind: source.kind ?? 'filter', ...(phase ? { phase } : {}) });
    return { ok: r.ok, diagnostics: r.diagnostics, expressions: [{ path: [], kind: source.kind ?? 'filter', text: source.expression, diagnostics: r.diagnostics }], text: source.expression };
  }
  const text = source.text ?? JSON.stringify(source.body ?? null, null, 2);
  if (source.format === 'yaml') {
    const yaml = parseLocatedYaml(text);
    if (!yaml.tree) {
      const at = yaml.error?.offset ?? 0;
      const d: RuleDiagnostic = { code: 'rule-syntax', severity: 'error', message: `not valid YAML: ${yaml.error?.message ?? ''}`, start: at, end: at };
      return { ok: false, diagnostics: [d], expressions: [], text };
    }
    return { ...checkRuleDocument(text, { tree: yaml.tree, stringMapper: alignedOffsetMapper, actions: RULE_ACTIONS, rule: source.rule, phaseWins, ...(phase ? { phase } : {}) }), text };
  }
  return { ...checkRuleDocument(text, { actions: RULE_ACTIONS, rule: source.rule, phaseWins, ...(phase ? { phase } : {}) }), text };
}

/**
 * Prints the diagnostics of every expression of every source (warnings too) and throws a CliError (exit 1)
 * when one has an error, so that the caller sends nothing.
 */
export function refuseInvalidExpressions(ctx: CliContext, sources: ExpressionSource | readonly ExpressionSource[], options: { phase?: string; phaseWins?: boolean; diagnostics?: string } = {}): void {
  let errors = 0;
  let unknownNames = false;
  for (const source of Array.isArray(sources) ? sources : [sources as ExpressionSource]) {
    const result = checkBodyExpressions(source, options.phase, options.phaseWins);
    if (result.diagnostics.length) reportDiagnostics(ctx, source.name, result.text, result.diagnostics, options.diagnostics ?? 'text');
    const found = result.diagnostics.filter((d) => d.severity === 'error');
    errors += found.length;
    unknownNames ||= found.some((d) => USAGE_CODES.has(d.code));
  }
  // A phase or an action outside the API's tables is a bad value the user gave, as `--phase bogus` and
  // `--action blok` are: exit 2 (the diagnostics above say where). Other errors are the check's findings: exit 1.
  if (errors > 0) throw new CliError(`not sent: ${errors} error${errors === 1 ? '' : 's'} in rule expressions`, unknownNames ? EXIT_USAGE : EXIT_FAILURE);
}
