/**
 * `logfilter rules check|eval|fmt`: the rules language (the expressions of ruleset rules and policies).
 * `check` takes one expression, or a JSON or YAML document (ruleset, rules, rule, policy) whose every
 * expression is checked in place; `fmt` prints or rewrites expressions in the canonical style.
 */
import type { Command } from 'commander';
import { Option } from 'commander';
import { checkRule, firstApiError, formatApiError, readRuleFileHeader, type RuleDocumentResult, type RuleKind } from '@logfilter/core';
import { checkBodyExpressions } from '../rules-check.js';
import { rulesEval, type RulesEvalFlags } from '../rules-eval.js';
import type { CliContext } from '../context.js';
import { EXIT_FAILURE, EXIT_OK, UsageError } from '../errors.js';
import { refuseFilterForRules } from '../wrong-command.js';
import { parse as parseYaml } from 'yaml';
import { type Input, readInput } from '../io.js';
import { phaseOption, reportDiagnostics } from '../options.js';
import { runFmt } from './fmt.js';

export const kindOption = () => new Option('--kind <kind>', 'filter: a Boolean expression; value: a rewrite value expression').choices(['filter', 'value']).default('filter');

export const rulesDiagnosticsOption = () =>
  new Option('--diagnostics <format>', 'diagnostics on stderr: text, a JSON array, or api (the API\'s "Filter parsing error (L:C)" text of the first error)').choices(['text', 'json', 'api']).default('text');

export interface RulesCheckFlags {
  phase?: string;
  kind: RuleKind;
  diagnostics: string;
}

/** JSON documents start with `{` or `[`; an expression never does. */
export function looksLikeRuleDocument(text: string): boolean {
  return /^\s*[[{]/.test(text);
}

/** A rules document: JSON (`{`/`[` first, or .json), YAML (.yaml/.yml, as `rulesets create --file` reads); else one expression. */
function documentFormat(file: string | undefined, text: string): 'json' | 'yaml' | undefined {
  const lower = (file ?? '').toLowerCase();
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  if (lower.endsWith('.json') || looksLikeRuleDocument(text)) return 'json';
  return undefined;
}

export function registerRules(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  const rules = program.command('rules').description('check and format rules-language expressions (ruleset rules, policies)');

  rules
    .command('check')
    .description('check one expression, or every expression of a ruleset/rule/policy JSON file, and print the diagnostics')
    .argument('[file]', 'input (- or nothing: standard input)')
    .addOption(phaseOption())
    .addOption(kindOption())
    .addOption(rulesDiagnosticsOption())
    .action(async (file: string | undefined, flags: RulesCheckFlags) => {
      setExit(runRulesCheck(file, await readInput(file, ctx), flags, ctx, { command: 'rules check' }));
    });

  rules
    .command('eval')
    .description('evaluate an expression (or a .rule file) against sample requests, offline: match or no match per request')
    .argument('<expression-or-file>', 'the expression, or a file holding it (- for standard input)')
    .requiredOption('--request <file>', 'the requests: a JSON object of fields, an array of them, or NDJSON (- for standard input)')
    .option('--json', 'one JSON object per request: {"request": N, "matched": true|false}')
    .option('--explain', 'show the value of every sub-expression')
    .option('--lists <file>', 'named lists for in $name: {"name": ["192.0.2.0/24", …], …}')
    .addOption(phaseOption())
    .addOption(kindOption())
    .addOption(new Option('--diagnostics <format>', 'diagnostics on stderr: text, or a JSON array').choices(['text', 'json']).default('text'))
    .action(async (arg: string, flags: RulesEvalFlags) => {
      setExit(await rulesEval(arg, flags, ctx));
    });

  rules
    .command('fmt')
    .description('format rules-language expressions (.rule files) in the canonical style')
    .argument('[files...]', 'expressions (- or nothing: standard input)')
    .option('--check', 'exit 1 and list the files that are not formatted; change nothing')
    .option('--write', 'rewrite the files in place')
    .addOption(kindOption())
    .addOption(new Option('--diagnostics <format>', 'diagnostics format on stderr: text, or a JSON array').choices(['text', 'json']).default('text'))
    .action(async (files: string[], flags: { check?: boolean; write?: boolean; kind: RuleKind; diagnostics: string }) => {
      setExit(await runFmt(files, flags, ctx, { language: 'rules', command: 'logfilter rules fmt' }));
    });
}

/**
 * Whether a rules document is a list of rules or a ruleset with a `rules` list (possibly empty: nothing to check),
 * and the first rule of it that is no object or whose `expression` is no string (`rulesets create --file` refuses
 * those files; the checker, which looks for expression strings, would pass over them).
 */
function ruleListShape(text: string, format: 'json' | 'yaml'): { list: boolean; problem?: string } {
  let value: unknown;
  try {
    value = format === 'yaml' ? parseYaml(text) : JSON.parse(text);
  } catch {
    return { list: false };
  }
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  const body = isObject(value) && 'success' in value && 'result' in value ? value.result : value;
  const items = Array.isArray(body) ? body : isObject(body) && Array.isArray(body.rules) ? (body.rules as unknown[]) : undefined;
  if (items === undefined) return { list: false };
  const where = Array.isArray(body) ? '' : 'rules';
  for (const [i, item] of items.entries()) {
    if (!isObject(item)) return { list: true, problem: `${where}[${i}]: a rule must be an object with an expression` };
    if (item.expression !== undefined && typeof item.expression !== 'string') return { list: true, problem: `${where}[${i}].expression: must be a string` };
  }
  return { list: true };
}

/**
 * Checks one expression (a `.rule` file, its `# phase:` header read), or every expression of a JSON or YAML
 * rules document, and prints the diagnostics: `rules check`, and `check` on a `.rule` file. Returns the exit code.
 */
export function runRulesCheck(file: string | undefined, input: Input, flags: RulesCheckFlags, ctx: CliContext, options: { command?: 'rules check' | 'check' } = {}): number {
  const format = documentFormat(file, input.text);
  const doc = format !== undefined;
  // a .rule file may start with comment lines, `# phase: …` among them (--phase wins)
  const header = readRuleFileHeader(input.text);
  const phase = flags.phase ?? header.phase;
  const single = () => {
    const r = checkRule(header.text, { kind: flags.kind, ...(phase ? { phase } : {}) });
    return header.diagnostics.length ? { ...r, ok: false, diagnostics: [...header.diagnostics, ...r.diagnostics] } : r;
  };
  const result = doc ? checkBodyExpressions({ name: input.name, text: input.text, format }, flags.phase) : single();
  // `rules check` on a filter names `check` (`check` itself chose this path by the .rule file type)
  if (options.command === 'rules check' && !result.ok) refuseFilterForRules(input.name, input.text, 'check');
  if (format !== undefined && result.ok) {
    const shape = ruleListShape(input.text, format);
    if (shape.problem !== undefined) throw new UsageError(`${input.name}: ${shape.problem}`);
    if ((result as RuleDocumentResult).expressions.length === 0 && !shape.list) {
      if (options.command === 'rules check') refuseFilterForRules(input.name, input.text, 'check');
      throw new UsageError(`${input.name} holds no rule expression: give a ruleset {phase, rules: [...]}, a list of rules, a rule or a policy, each with a string "expression"`);
    }
  }
  if (flags.diagnostics === 'api') {
    const texts = doc
      ? (result as RuleDocumentResult).expressions.flatMap((e) => {
          const first = firstApiError(e.diagnostics);
          return first ? [`${e.path.join('.')}: ${formatApiError(e.text, first)}`] : [];
        })
      : [firstApiError(result.diagnostics)].filter((d) => d !== undefined).map((d) => formatApiError(input.text, d));
    for (const t of texts) ctx.stderr.write(`${t}\n`);
  } else {
    reportDiagnostics(ctx, input.name, input.text, result.diagnostics, flags.diagnostics);
  }
  return result.ok ? EXIT_OK : EXIT_FAILURE;
}
