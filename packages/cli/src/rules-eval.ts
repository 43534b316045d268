/**
 * `logfilter rules eval EXPR|FILE --request REQ.json|NDJSON`: an expression evaluated offline against sample
 * requests with the core's evaluator. Requests are one JSON object, a JSON array of objects, or NDJSON (one
 * object a line); fields a request does not give have the language's defaults. Output: `match` / `no match`
 * per request (`--explain`: the value of every sub-expression), or with --json one object a line holding
 * `"matched": true|false`. Exit 0 when every request was evaluated; 1 when the expression does not check or
 * cannot be evaluated (a diagnostic at its place); 2 for unusable input (a request, a list file, a flag).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { evaluateRule, readRuleFileHeader, readSampleRequest, type RuleDiagnostic, type RuleEvalResult, type RuleKind, showRuleValue } from '@logfilter/core';
import type { CliContext } from './context.js';
import { EXIT_FAILURE, EXIT_OK, UsageError } from './errors.js';
import { readInput } from './io.js';
import { jsonPlace } from './api/structured-input.js';
import { reportDiagnostics } from './options.js';
import { refuseFilterForRules } from './wrong-command.js';

export interface RulesEvalFlags {
  request: string;
  json?: boolean;
  explain?: boolean;
  lists?: string;
  phase?: string;
  kind: RuleKind;
  diagnostics: string;
}

/** The expression: a file when the argument names one (or `-`), else the argument itself. */
async function expressionInput(arg: string, ctx: CliContext): Promise<{ name: string; text: string }> {
  if (arg === '-') return readInput('-', ctx);
  const abs = path.resolve(ctx.cwd, arg);
  if (existsSync(abs) && statSync(abs).isFile()) return readInput(arg, ctx);
  return { name: 'expression', text: arg };
}

/** Requests of a file: a JSON object, a JSON array of objects, or NDJSON; each with its line. */
function parseRequests(name: string, text: string): { line: number; value: unknown }[] {
  const trimmed = text.trim();
  if (trimmed === '') throw new UsageError(`${name}: no request (give a JSON object, an array of objects, or one object a line)`);
  let wholeError: Error;
  try {
    const whole = JSON.parse(text) as unknown;
    if (Array.isArray(whole) && whole.length === 0) throw new UsageError(`${name}: no request (the array is empty)`);
    return Array.isArray(whole) ? whole.map((value, i) => ({ line: i + 1, value })) : [{ line: 1, value: whole }];
  } catch (e) {
    if (e instanceof UsageError) throw e;
    wholeError = e as Error; // NDJSON, one object a line, or a document broken somewhere
  }
  const out: { line: number; value: unknown }[] = [];
  text.split('\n').forEach((l, i) => {
    if (l.trim() === '') return;
    try {
      out.push({ line: i + 1, value: JSON.parse(l) });
    } catch (e) {
      // a first line that is no JSON value of its own: one document over several lines, placed where it breaks
      if (out.length === 0) throw new UsageError(`${name}:${jsonPlace(text, wholeError.message)} not valid JSON: ${wholeError.message.split('\n')[0]}`);
      const column = jsonPlace(l, (e as Error).message).split(':')[1];
      throw new UsageError(`${name}:${i + 1}:${column ? `${column}:` : ''} not valid JSON: ${(e as Error).message.split('\n')[0]}`);
    }
  });
  return out;
}

async function readLists(file: string | undefined, ctx: CliContext): Promise<Record<string, (string | number)[]>> {
  if (file === undefined) return {};
  const input = await readInput(file, ctx);
  let value: unknown;
  try {
    value = JSON.parse(input.text);
  } catch (e) {
    throw new UsageError(`${input.name}:${jsonPlace(input.text, (e as Error).message)} not valid JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${input.name}: expected {"list_name": ["item", …], …}`);
  for (const [k, items] of Object.entries(value)) {
    if (!Array.isArray(items) || !items.every((x) => typeof x === 'string' || typeof x === 'number')) throw new UsageError(`${input.name}: list ${k}: expected an array of strings and numbers`);
  }
  return value as Record<string, (string | number)[]>;
}

export async function rulesEval(arg: string, flags: RulesEvalFlags, ctx: CliContext): Promise<number> {
  const expr = await expressionInput(arg, ctx);
  if (flags.request === '-' && expr.name === '<stdin>') throw new UsageError('the expression and --request cannot both come from standard input');
  const reqInput = await readInput(flags.request, ctx);
  const lists = await readLists(flags.lists, ctx);
  const requests = parseRequests(reqInput.name, reqInput.text);
  // a .rule file's comment header, `# phase: …` among them
  const header = readRuleFileHeader(expr.text);
  if (header.diagnostics.length) {
    reportDiagnostics(ctx, expr.name, expr.text, header.diagnostics, flags.diagnostics);
    return EXIT_FAILURE;
  }
  const results: RuleEvalResult[] = [];
  for (const { line, value } of requests) {
    const req = readSampleRequest(value);
    if (req.problems.length) throw new UsageError(`${reqInput.name}:${line}: ${req.problems[0]}`);
    const phase = flags.phase ?? header.phase;
    const result = evaluateRule(header.text, req.fields, { kind: flags.kind, lists, ...(phase ? { phase } : {}) });
    if (!result.ok) {
      // a filter file given here names `eval` (an expression typed as the argument is left to its diagnostics)
      if (!result.problem && expr.name !== 'expression') refuseFilterForRules(expr.name, expr.text, 'eval');
      const diagnostics: RuleDiagnostic[] = result.problem
        ? [{ code: 'rule-eval', severity: 'error', message: result.problem.message, start: result.problem.start, end: Math.max(result.problem.end, result.problem.start + 1) }]
        : result.diagnostics;
      reportDiagnostics(ctx, expr.name, expr.text, diagnostics, flags.diagnostics);
      return EXIT_FAILURE;
    }
    results.push(result);
  }
  results.forEach((r, i) => {
    if (!r.ok) return;
    const n = requests[i]!.line;
    const valueOf = flags.kind === 'value' ? { value: showRuleValue(r.value) } : {};
    if (flags.json) {
      const explain = flags.explain ? { explain: r.explain.map((s) => ({ text: s.text, value: s.value })) } : {};
      ctx.stdout.write(`${JSON.stringify({ request: n, matched: r.matched, ...valueOf, ...explain })}\n`);
      return;
    }
    const head = flags.kind === 'value' ? `request ${n}: ${showRuleValue(r.value)}` : `request ${n}: ${r.matched ? 'match' : 'no match'}`;
    ctx.stdout.write(`${head}\n`);
    if (flags.explain) for (const s of r.explain) ctx.stdout.write(`  ${s.text.replace(/\s*\n\s*/g, ' ')}  =>  ${s.value}\n`);
  });
  return EXIT_OK;
}
