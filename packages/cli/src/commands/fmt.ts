/**
 * `logfilter fmt`: canonical formatting of both languages, each file by its type: a `.rule` file is a
 * rules-language expression (its comment header kept), anything else `.logfilter` source; standard input is
 * `.logfilter` source (`logfilter rules fmt` reads every input as rules). Without flags, prints the formatted
 * text; `--check` lists the files that are not formatted (exit 1); `--write` rewrites them in place
 * (atomically).
 */
import { Option, type Command } from 'commander';
import { format, formatRule, inputKind, readRuleFileHeader, type Diagnostic, type RuleKind } from '@logfilter/core';
import type { CliContext } from '../context.js';
import { EXIT_FAILURE, EXIT_OK, UsageError } from '../errors.js';
import { isRulesetJsonFile, languageOf, type FileLanguage } from '../file-language.js';
import { type Input, readInput, writeFileAtomic } from '../io.js';
import { diagnosticsOption, reportDiagnostics } from '../options.js';
import { type JsonDiagnostic, toJsonDiagnostics } from '../diagnostics-print.js';

/** One input formatted: the text to print or write, whether it changed, and what to report when it cannot be. */
export interface Formatted {
  ok: boolean;
  text: string;
  changed: boolean;
  diagnostics: readonly Diagnostic[];
}

export interface FmtFlags {
  check?: boolean;
  write?: boolean;
  kind?: RuleKind;
  diagnostics: string;
}

/** The formatter of each language. */
const FORMATTERS: Record<FileLanguage, (input: Input, flags: FmtFlags) => Formatted> = {
  filter: (input) => {
    const r = format(input.text);
    return { ok: r.ok, text: r.text, changed: r.changed, diagnostics: r.diagnostics };
  },
  rules: (input, flags) => {
    // the comment header of a .rule file is kept as written
    const header = readRuleFileHeader(input.text);
    const formatted = formatRule(header.text, { kind: flags.kind ?? 'filter' });
    const joined = input.text.slice(0, header.headerLength) + formatted.text;
    const ended = joined.endsWith('\n') ? joined : `${joined}\n`;
    // a CRLF file stays CRLF, as a .logfilter source does (core format())
    const text = /^[^\n]*\r\n/.test(input.text) ? ended.replace(/\r?\n/g, '\r\n') : ended;
    return { ok: formatted.ok, text, changed: text !== input.text, diagnostics: formatted.diagnostics.filter((d) => d.severity === 'error') };
  },
};

/**
 * Formats every file (standard input without any) with its language's formatter, or with `language` for
 * all of them; `command` is what the hint after `--check` tells the user to run. Returns the exit code.
 */
export async function runFmt(files: string[], flags: FmtFlags, ctx: CliContext, options: { language?: FileLanguage; command: string }): Promise<number> {
  if (flags.check && flags.write) throw new UsageError('--check and --write cannot be used together');
  const list = files.length ? files : [undefined];
  if (flags.write && list.some((f) => f === undefined || f === '-')) throw new UsageError('--write needs file names (standard input cannot be rewritten)');
  // Every input is read (and refused) before anything is printed or written: an unreadable file is an I/O error
  // (exit 2) with no file half-rewritten, and `--diagnostics json` stays one array for all the files.
  const inputs: { input: Input; language: FileLanguage }[] = [];
  for (const file of list) {
    const input = await readInput(file, ctx);
    const language = options.language ?? languageOf(file);
    // JSON has no canonical style of ours: read as source it would only give a screenful of syntax errors
    if (isRulesetJsonFile(file) || (language === 'filter' && inputKind(input.text) === 'json')) {
      throw new UsageError(`${input.name} is JSON, not source: fmt formats .logfilter sources and .rule expressions (logfilter decompile turns filter JSON into source)`);
    }
    inputs.push({ input, language });
  }
  let exit = EXIT_OK;
  let unformatted = false;
  const json: JsonDiagnostic[] = [];
  for (const { input, language } of inputs) {
    const result = FORMATTERS[language](input, flags);
    if (!result.ok) {
      if (flags.diagnostics === 'json') json.push(...toJsonDiagnostics(input.name, input.text, result.diagnostics));
      else reportDiagnostics(ctx, input.name, input.text, result.diagnostics, flags.diagnostics);
      exit = EXIT_FAILURE;
      continue;
    }
    if (flags.check) {
      if (result.changed) {
        ctx.stdout.write(`${input.name}\n`);
        unformatted = true;
        exit = EXIT_FAILURE;
      }
    } else if (flags.write) {
      // a byte-order mark the file began with stays (the formatter sees the text without it)
      if (result.changed && input.path) await writeFileAtomic(input.path, input.bom ? `\uFEFF${result.text}` : result.text);
    } else {
      ctx.stdout.write(result.text);
    }
  }
  if (flags.diagnostics === 'json') ctx.stderr.write(`${JSON.stringify(json)}\n`);
  // the hint only when a file is merely unformatted: --write cannot mend one that does not parse
  else if (unformatted) ctx.stderr.write(`some files are not formatted: run ${options.command} --write\n`);
  return exit;
}

export function registerFmt(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  const cmd = program
    .command('fmt')
    .description('format .logfilter sources and .rule files in the canonical style')
    .argument('[files...]', 'sources: .rule files are rules expressions, other files and standard input (- or nothing) .logfilter source')
    .option('--check', 'exit 1 and list the files that are not formatted; change nothing')
    .option('--write', 'rewrite the files in place')
    .addOption(new Option('--kind <kind>', 'for .rule files: filter, a Boolean expression; value, a rewrite value expression').choices(['filter', 'value']).default('filter'))
    .addOption(diagnosticsOption())
    .action(async (files: string[], flags: FmtFlags) => {
      // a flag of the rules language with no .rule file to apply to is a usage error, as in check
      if (cmd.getOptionValueSource('kind') === 'cli' && !(files.length ? files : [undefined]).some((f) => languageOf(f) === 'rules')) {
        throw new UsageError('--kind does not apply to a filter: it is for .rule files');
      }
      setExit(await runFmt(files, flags, ctx, { command: 'logfilter fmt' }));
    });
}
