/**
 * Input that went to the wrong command gets the right command named, instead of the errors the wrong command
 * makes of it: filter JSON given to `compile` (a page of syntax errors), source given to `decompile`
 * (`invalid-json`), `eval`'s arguments swapped (the logs read as a filter: "larger than 4 MiB"), a Parquet file
 * given to the built-in engine (thousands of malformed lines), a rules-language expression given to a filter
 * command or a filter to a rules command (the other language's errors). Each is a usage error (exit 2) naming the
 * command line to run.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { check, compile } from '@logfilter/core';
import { UsageError } from './errors.js';
import { shellQuote } from './api/table.js';

/** Whether the whole text is one JSON document (so it is not a `.logfilter` source that happens to start with `{`). */
function isJsonDocument(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** `compile` on filter JSON: name decompile (to get source) and check (to check the JSON as it is). */
export function refuseJsonForCompile(name: string, text: string): void {
  if (!/^\s*[{"[]/.test(text) || !isJsonDocument(text)) return;
  const arg = name === '<stdin>' ? '-' : shellQuote(name);
  throw new UsageError(`${name} is filter JSON, not .logfilter source: turn it into source with logfilter decompile ${arg}, or check it as it is with logfilter check ${arg}`);
}

/** `decompile` on something that is not JSON but compiles as source: name compile. */
export function refuseSourceForDecompile(name: string, text: string): void {
  if (/^\s*[{"[]/.test(text) || text.trim() === '' || !compile(text).ok) return;
  const arg = name === '<stdin>' ? '-' : shellQuote(name);
  throw new UsageError(`${name} is .logfilter source, not filter JSON: compile it with logfilter compile ${arg}`);
}

/** Names that are logs, not filters: NDJSON, log exports (`.log.gz`), Parquet. */
const LOG_NAME = /\.(ndjson|jsonl|log|gz|parquet)$/i;

/** `eval LOGS FILTER`: the filter comes first. */
export function refuseSwappedEvalArgs(filter: string, logs: readonly string[]): void {
  const source = logs.find((l) => /\.logfilter$/i.test(l));
  if (LOG_NAME.test(filter) && source !== undefined) {
    const rest = [filter, ...logs.filter((l) => l !== source)].map(shellQuote).join(' ');
    throw new UsageError(`the filter comes first, then the logs: logfilter eval ${shellQuote(source)} ${rest}`);
  }
}

/** A regular file starting with Parquet's magic `PAR1` (a FIFO or a device is never read here). */
export function isParquetFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    const fd = openSync(file, 'r');
    try {
      const head = Buffer.alloc(4);
      return readSync(fd, head, 0, 4, 0) === 4 && head.toString('latin1') === 'PAR1';
    } finally {
      closeSync(fd);
    }
  } catch {
    return false; // unreadable: the evaluation reports it in its own words
  }
}

/** The built-in engine on Parquet: name `--engine duckdb`. */
export function refuseParquetForBuiltin(files: readonly { name: string; path: string }[]): void {
  const parquet = files.find((f) => isParquetFile(f.path));
  if (parquet) throw new UsageError(`${parquet.name} is a Parquet file; the built-in engine reads NDJSON: run it with --engine duckdb`);
}

const argOf = (name: string) => (name === '<stdin>' ? '-' : shellQuote(name));

/**
 * A field of the rules language: dotted lower case under one of its namespaces (`http.host`, `ip.src`,
 * `cf.bot_management.score`). No filter field is written so (theirs are `ClientRequestHost`), so text that failed
 * as a filter and names one is a rules expression. A pattern, not the rules checker: the filter commands' bundles
 * (compile-filter, eval) start fast because they do not load the rules language.
 */
export const RULES_FIELD = /(?:^|[\s(!{,])(?:http|ip|cf|raw|ssl|tcp|udp|icmp|sip)\.[a-z0-9_]+(?:\.[a-z0-9_]+)*\b/;

/**
 * A filter command (compile, decompile, eval, the jobs' --filter) whose input did not check as a filter: a
 * `.rule` file, or text (not JSON) naming a rules-language field, names the rules command instead. Called only
 * once the input failed, so a filter never pays for it.
 */
export function refuseRuleForFilter(name: string, text: string, instead: 'check' | 'eval'): void {
  if (!/\.rule$/i.test(name) && (/^\s*[{"[]/.test(text) || !RULES_FIELD.test(text))) return;
  const arg = argOf(name);
  throw new UsageError(
    instead === 'eval'
      ? `${name} is a rules-language expression, not a filter: evaluate it against sample requests with logfilter rules eval ${arg} --request REQUESTS.json`
      : `${name} is a rules-language expression, not a filter: check it with logfilter rules check ${arg}`,
  );
}

/**
 * A rules command (rules check, rules eval) whose input did not check: a `.logfilter` file, or text that checks
 * as a filter (source or filter JSON), names the filter command instead. Called only once the input failed.
 */
export function refuseFilterForRules(name: string, text: string, instead: 'check' | 'eval'): void {
  if (!/\.logfilter$/i.test(name) && (text.trim() === '' || !check(text, { accept: 'json-or-source' }).ok)) return;
  const arg = argOf(name);
  throw new UsageError(
    instead === 'eval'
      ? `${name} is a filter, not a rules-language expression: run it over logs with logfilter eval ${arg} LOGS`
      : `${name} is a filter, not a rules-language expression: check it with logfilter check ${arg}`,
  );
}
