/**
 * `logfilter check`: every check of a language on a file, printing only diagnostics. The language is the
 * file's type (file-language.ts): a `.rule` file is a rules-language expression and a `*.ruleset.json` file a
 * ruleset document, checked as `rules check` does (`--phase`, `--kind`, `--diagnostics api`); anything else is a filter, JSON in any form `decompile`
 * accepts (diagnostics located in the JSON) or `.logfilter` source, which the core tells apart (check()).
 */
import { Option, type Command } from 'commander';
import { check, type RuleKind } from '@logfilter/core';
import type { CliContext } from '../context.js';
import { EXIT_FAILURE, EXIT_OK, UsageError } from '../errors.js';
import { filterInputIsJson, languageOf } from '../file-language.js';
import { readInput } from '../io.js';
import { datasetOption, maxBytesOption, maxOperatorsOption, phaseOption, reportDiagnostics } from '../options.js';
import { kindOption, runRulesCheck } from './rules.js';

interface CheckFlags {
  dataset?: string;
  maxOperators: number;
  maxBytes: number;
  diagnostics: string;
  phase?: string;
  kind: RuleKind;
}

/** Flags of one language given for a file of the other: a usage error rather than silently ignored. */
const FILTER_FLAGS = ['dataset', 'maxOperators', 'maxBytes'] as const;
const RULES_FLAGS = ['phase', 'kind'] as const;
const flagName = (f: string) => `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export function registerCheck(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  const cmd = program
    .command('check')
    .description('check a filter (JSON in any accepted form, or .logfilter source) or a .rule file, and print its diagnostics')
    .argument('[file]', 'input (- or nothing: standard input, a filter); a .rule file is a rules expression, a *.ruleset.json file a ruleset whose expressions are checked')
    .addOption(datasetOption())
    .addOption(maxOperatorsOption())
    .addOption(maxBytesOption())
    .addOption(phaseOption('for .rule files: ruleset phase whose fields and functions the expression may use'))
    .addOption(kindOption())
    .addOption(new Option('--diagnostics <format>', 'diagnostics format on stderr: text, a JSON array, or (.rule files) api, the API\'s text of the first error').choices(['text', 'json', 'api']).default('text'));
  cmd.action(async (file: string | undefined, flags: CheckFlags) => {
    const language = languageOf(file);
    const foreign = language === 'rules' ? FILTER_FLAGS : RULES_FLAGS;
    for (const f of foreign) if (cmd.getOptionValueSource(f) === 'cli') throw new UsageError(`${flagName(f)} does not apply to ${language === 'rules' ? 'a .rule or *.ruleset.json file' : 'a filter'}`);
    if (language === 'filter' && flags.diagnostics === 'api') throw new UsageError('--diagnostics api applies to .rule files');
    const input = await readInput(file, ctx);
    if (language === 'rules') {
      setExit(runRulesCheck(file, input, flags, ctx));
      return;
    }
    const result = check(input.text, { dataset: flags.dataset, maxOperators: flags.maxOperators, maxBytes: flags.maxBytes, accept: filterInputIsJson(input.name, input.text) ? 'json' : 'json-or-source' });
    reportDiagnostics(ctx, input.name, input.text, result.diagnostics, flags.diagnostics);
    setExit(result.ok ? EXIT_OK : EXIT_FAILURE);
  });
}
