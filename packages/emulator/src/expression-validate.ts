/**
 * Rule and policy expressions are checked with the core's rules-language checker and refused the way the
 * API refuses them: `'<expr>' is not a valid value for <property> because could not parse filter
 * expression: Filter parsing error (L:C): …` (1-based line, UTF-8 byte column, the source line and carets).
 * The phase of the ruleset, when known, limits the fields and functions, as the API's per-phase schemes do.
 */
import { checkRule, firstApiError, formatApiError, MAX_RULE_LENGTH, type RuleKind } from '@logfilter/core';
import { badRequest, clip } from './errors.js';

/** Throws the API's 400 answer when `expression` is not valid; `property` names it in the message. */
export function validateExpression(expression: unknown, property: string, where: string, options: { kind?: RuleKind; phase?: string } = {}): void {
  if (typeof expression !== 'string') throw badRequest('validation', `${where}: ${property} must be a string`, pointer(where));
  // The length first: a 1 MiB expression would be parsed (holding every other client) and echoed whole, with a
  // caret under each of its characters, only to be refused for its length.
  if (tooLong(expression)) {
    throw badRequest(
      'invalidExpression',
      `'${clip(expression)}' is not a valid value for ${property} because could not parse filter expression: expression is longer than ${MAX_RULE_LENGTH} characters`,
      pointer(where),
    );
  }
  const result = checkRule(expression, { kind: options.kind ?? 'filter', ...(options.phase ? { phase: options.phase } : {}) });
  const first = firstApiError(result.diagnostics);
  if (!first) return;
  throw badRequest('invalidExpression', `'${expression}' is not a valid value for ${property} because could not parse filter expression: ${formatApiError(expression, first)}`, pointer(where));
}

/** Longer than the limit in code points once trimmed, as the checker counts; reads at most MAX_RULE_LENGTH + 1 of them. */
function tooLong(text: string): boolean {
  if (text.length <= MAX_RULE_LENGTH) return false;
  let count = 0;
  for (const _ of text.trim()) if (++count > MAX_RULE_LENGTH) return true;
  return false;
}

/** A dotted place (`rules.2.expression`, `body.expression`) as a JSON pointer (`/rules/2/expression`). */
function pointer(where: string): string {
  return `/${where.replace(/^body\.?/, '').replace(/\./g, '/')}`;
}

/**
 * A rule's expressions: `expression` (a filter), `ratelimit.counting_expression` (a filter, when not
 * empty) and every `expression` inside `action_parameters` (rewrite values and redirect targets: value
 * expressions).
 */
export function validateRuleExpressions(rule: { expression?: unknown; action_parameters?: unknown; ratelimit?: unknown }, where: string, phase?: string): void {
  validateExpression(rule.expression, 'expression', `${where}.expression`, { phase });
  const rl = rule.ratelimit as { counting_expression?: unknown } | undefined;
  if (rl && typeof rl === 'object' && rl.counting_expression !== undefined && rl.counting_expression !== '') {
    validateExpression(rl.counting_expression, 'counting_expression', `${where}.ratelimit.counting_expression`, { phase });
  }
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, `${at}.${i}`));
    if (node === null || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'expression') validateExpression(v, 'expression', `${at}.expression`, { kind: 'value', phase });
      else walk(v, `${at}.${k}`);
    }
  };
  walk(rule.action_parameters, `${where}.action_parameters`);
}
