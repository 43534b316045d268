// Evaluates a `.rule` file's expression against sample requests with the core's rules evaluator, as
// `logfilter rules eval` does (docs/rules-language.md): requests are one JSON object of fields, a JSON array
// of them, or one a line (NDJSON); fields a request does not give have the language's defaults. No vscode
// dependency, so it is unit-tested directly.
import { evaluateRule, readRuleFileHeader, readSampleRequest, type ExplainStep } from '@logfilter/core';

export interface RuleRequestResult {
  /** 1-based line of the request in its file (its index + 1 in a JSON array). */
  request: number;
  matched: boolean;
  explain: ExplainStep[];
}

/** Why nothing was evaluated: in the expression (offsets in the `.rule` file's text) or in the requests file (a line). */
export type RuleEvaluationProblem = { in: 'expression'; message: string; start: number; end: number } | { in: 'requests'; message: string; line?: number };

export type RuleEvaluation = { ok: true; phase?: string; results: RuleRequestResult[] } | { ok: false; problem: RuleEvaluationProblem };

/** Requests of a file: a JSON object, a JSON array of objects, or NDJSON; each with its line. */
export function parseRequests(text: string): { ok: true; requests: { line: number; value: unknown }[] } | { ok: false; problem: RuleEvaluationProblem } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: { in: 'requests', message: 'no request: give a JSON object of fields, an array of them, or one a line' } };
  try {
    const whole = JSON.parse(trimmed) as unknown;
    return { ok: true, requests: Array.isArray(whole) ? whole.map((value, i) => ({ line: i + 1, value })) : [{ line: 1, value: whole }] };
  } catch {
    // NDJSON: one object a line
  }
  const requests: { line: number; value: unknown }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() === '') continue;
    try {
      requests.push({ line: i + 1, value: JSON.parse(lines[i]!) });
    } catch (e) {
      return { ok: false, problem: { in: 'requests', line: i + 1, message: `not valid JSON: ${(e as Error).message}` } };
    }
  }
  return { ok: true, requests };
}

/**
 * The expression of `ruleText` (a `.rule` file: its `# phase:` header wins over `defaultPhase`, the
 * `logfilter.defaultPhase` setting) against each request of `requestsText`. The first problem stops it:
 * a wrong header or an expression that does not check (at its place), a request that is not JSON or names
 * an unknown field (at its line).
 */
export function evaluateRuleRequests(ruleText: string, requestsText: string, defaultPhase?: string): RuleEvaluation {
  const header = readRuleFileHeader(ruleText);
  const bad = header.diagnostics[0];
  if (bad) return { ok: false, problem: { in: 'expression', message: bad.message, start: bad.start, end: bad.end } };
  const parsed = parseRequests(requestsText);
  if (!parsed.ok) return parsed;
  const phase = header.phase ?? (defaultPhase || undefined);
  const results: RuleRequestResult[] = [];
  for (const { line, value } of parsed.requests) {
    const req = readSampleRequest(value);
    if (req.problems.length) return { ok: false, problem: { in: 'requests', line, message: req.problems[0]! } };
    const r = evaluateRule(header.text, req.fields, phase ? { phase } : {});
    if (!r.ok) {
      const first = r.problem ?? r.diagnostics.find((d) => d.severity === 'error') ?? r.diagnostics[0]!;
      return { ok: false, problem: { in: 'expression', message: first.message, start: first.start, end: Math.max(first.end, first.start + 1) } };
    }
    results.push({ request: line, matched: r.matched, explain: r.explain });
  }
  return { ok: true, ...(phase ? { phase } : {}), results };
}
