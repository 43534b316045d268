/**
 * The local check of rules-language expressions before a command sends them: every `expression` of a
 * ruleset, rule or policy body (and rate-limit counting expressions, and rewrite value expressions) is
 * checked with the core's checker; any error refuses the request with the diagnostics, exit 1, and nothing
 * is sent. `rulesets …` and `page-guard policies …` commands call `refuseInvalidExpressions` with the body.
 */
import { checkRuleDocument, type RuleDocumentResult } from '@logfilter/core';
import type { CliContext } from './context.js';
import { CliError, EXIT_FAILURE } from './errors.js';
import { reportDiagnostics } from './options.js';

export interface ExpressionSource {
  /** The name diagnostics print (a file name, or a description such as `request body`). */
  name: string;
  /** The JSON text as the user wrote it (diagnostics point into it); else the body is serialised. */
  text?: string;
  body?: unknown;
}

/** Checks every expression of the body; returns the result (errors and warnings) without printing. */
export function checkBodyExpressions(source: ExpressionSource, phase?: string): RuleDocumentResult & { text: string } {
  const text = source.text ?? JSON.stringify(source.body ?? null, null, 2);
  return { ...checkRuleDocument(text, phase ? { phase } : {}), text };
}

/**
 * Prints the diagnostics of every expression (warnings too) and throws a CliError (exit 1) when one has an
 * error, so that the caller sends nothing.
 */
export function refuseInvalidExpressions(ctx: CliContext, source: ExpressionSource, options: { phase?: string; diagnostics?: string } = {}): void {
  const result = checkBodyExpressions(source, options.phase);
  if (result.diagnostics.length) reportDiagnostics(ctx, source.name, result.text, result.diagnostics, options.diagnostics ?? 'text');
  if (!result.ok) {
    const n = result.diagnostics.filter((d) => d.severity === 'error').length;
    throw new CliError(`not sent: ${n} error${n === 1 ? '' : 's'} in rule expressions`, EXIT_FAILURE);
  }
}
