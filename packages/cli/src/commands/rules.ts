/**
 * `logfilter rules check|eval|fmt`: the rules language (the expressions of ruleset rules and policies).
 * `check` takes one expression, or a JSON or YAML document (ruleset, rules, rule, policy) whose every
 * expression is checked in place; `fmt` prints or rewrites expressions in the canonical style.
 */
import type { Command } from 'commander';
import { Option } from 'commander';
import { checkRule, firstApiError, formatApiError, formatRule, PHASES, readRuleFileHeader, type RuleDocumentResult, type RuleKind } from '@logfilter/core';
import { checkBodyExpressions } from '../rules-check.js';
import { rulesEval, type RulesEvalFlags } from '../rules-eval.js';
import type { CliContext } from '../context.js';
import { EXIT_FAILURE, EXIT_OK, UsageError } from '../errors.js';
import { readInput, writeFileAtomic } from '../io.js';
import { reportDiagnostics } from '../options.js';

const phaseOption = () => new Option('--phase <phase>', 'ruleset phase whose fields and functions the expression may use (e.g. http_request_firewall_custom)');
const kindOption = () => new Option('--kind <kind>', 'filter: a Boolean expression; value: a rewrite value expression').choices(['filter', 'value']).default('filter');

function checkPhase(phase: string | undefined): void {
  if (phase !== undefined && !PHASES.includes(phase)) throw new UsageError(`--phase: unknown phase ${JSON.stringify(phase)} (one of ${PHASES.join(', ')})`);
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
    .addOption(new Option('--diagnostics <format>', 'diagnostics on stderr: text, a JSON array, or api (the API\'s "Filter parsing error (L:C)" text of the first error)').choices(['text', 'json', 'api']).default('text'))
    .action(async (file: string | undefined, flags: { phase?: string; kind: RuleKind; diagnostics: string }) => {
      checkPhase(flags.phase);
      const input = await readInput(file, ctx);
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
      setExit(result.ok ? EXIT_OK : EXIT_FAILURE);
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
      checkPhase(flags.phase);
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
      if (flags.check && flags.write) throw new UsageError('--check and --write cannot be used together');
      const list = files.length ? files : [undefined];
      if (flags.write && list.some((f) => f === undefined || f === '-')) throw new UsageError('--write needs file names (standard input cannot be rewritten)');
      let exit = EXIT_OK;
      for (const file of list) {
        const input = await readInput(file, ctx);
        // the comment header of a .rule file is kept as written
        const header = readRuleFileHeader(input.text);
        const formatted = formatRule(header.text, { kind: flags.kind });
        const result = { ...formatted, text: input.text.slice(0, header.headerLength) + formatted.text };
        if (!result.ok) {
          reportDiagnostics(ctx, input.name, input.text, result.diagnostics.filter((d) => d.severity === 'error'), flags.diagnostics);
          exit = EXIT_FAILURE;
          continue;
        }
        const out = result.text.endsWith('\n') ? result.text : `${result.text}\n`;
        if (flags.check) {
          if (out !== input.text) {
            ctx.stdout.write(`${input.name}\n`);
            exit = EXIT_FAILURE;
          }
        } else if (flags.write) {
          if (out !== input.text && input.path) await writeFileAtomic(input.path, out);
        } else {
          ctx.stdout.write(out);
        }
      }
      if (flags.check && exit === EXIT_FAILURE && flags.diagnostics !== 'json') ctx.stderr.write('some files are not formatted: run logfilter rules fmt --write\n');
      setExit(exit);
    });
}
