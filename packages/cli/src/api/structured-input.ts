/**
 * Rules, rulesets and migration configurations from a JSON or YAML file (or standard input), checked for the
 * shape the API needs before anything is sent. Every problem is one line naming the file, the place in it and
 * what is wrong; exit 2 (it is the user's input).
 */
import { parseDocument } from 'yaml';
import type { RuleInput } from '@logfilter/api';
import { jsonErrorPlace, lineColumn, lineStarts, type LineColumn } from '@logfilter/core';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';
import { readInput } from '../io.js';

/** `.json` is JSON; `.yaml`/`.yml` is YAML; otherwise JSON when it starts with `{` or `[`, else YAML. */
export async function readStructured(file: string, ctx: CliContext): Promise<{ name: string; value: unknown; text: string; format: 'json' | 'yaml' }> {
  const input = await readInput(file, ctx);
  const lower = file.toLowerCase();
  const json = lower.endsWith('.json') || (!lower.endsWith('.yaml') && !lower.endsWith('.yml') && /^\s*[[{]/.test(input.text));
  if (input.text.trim() === '') throw new UsageError(`${input.name}: the file is empty`);
  if (json) {
    try {
      return { name: input.name, value: JSON.parse(input.text), text: input.text, format: 'json' };
    } catch (e) {
      throw new UsageError(`${input.name}:${jsonPlace(input.text, (e as Error).message)} not valid JSON: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  const doc = parseDocument(input.text, { prettyErrors: false, uniqueKeys: true });
  const [first] = doc.errors;
  if (first) {
    // Without pretty errors the parser gives offsets, not line and column: the place is computed from the offset.
    throw new UsageError(`${input.name}:${placeText(lineColumn(lineStarts(input.text), Math.min(first.pos[0], input.text.length)))} not valid YAML: ${first.message.split('\n')[0]}`);
  }
  try {
    // toJS expands aliases: a "billion laughs" file (aliases of aliases) is stopped by the yaml library's alias
    // budget, which throws; that is the file's problem, not ours.
    return { name: input.name, value: doc.toJS(), text: input.text, format: 'yaml' };
  } catch (e) {
    throw new UsageError(`${input.name}: not usable YAML: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** "line:col:" of the first error of a text JSON.parse refused (the core's jsonErrorPlace), else "". */
export function jsonPlace(text: string, message: string): string {
  const at = jsonErrorPlace(text, message);
  return at === undefined ? '' : placeText(at);
}

/** "line:col:" of a place, as the messages print it. */
const placeText = (at: LineColumn) => `${at.line}:${at.column}:`;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * One rule: an object with `action` and `expression` strings, and the optional fields of the right types.
 * `partial`: action and expression may be missing (a rule update, or flags that give them).
 */
export function ruleFrom(value: unknown, where: string, partial = false): RuleInput {
  if (!isObject(value)) throw new UsageError(`${where}: a rule must be an object with action and expression`);
  // a ruleset given where one rule is expected (its other fields would be sent as the rule's)
  if (value.rules !== undefined) throw new UsageError(`${where}: holds "rules": a ruleset, not one rule`);
  for (const field of ['action', 'expression'] as const) {
    if (partial && value[field] === undefined) continue;
    if (typeof value[field] !== 'string') throw new UsageError(`${where}.${field}: must be a string`);
  }
  for (const field of ['id', 'description', 'ref'] as const) {
    if (value[field] !== undefined && typeof value[field] !== 'string') throw new UsageError(`${where}.${field}: must be a string`);
  }
  if (value.enabled !== undefined && typeof value.enabled !== 'boolean') throw new UsageError(`${where}.enabled: must be true or false`);
  if (value.action_parameters !== undefined && !isObject(value.action_parameters)) throw new UsageError(`${where}.action_parameters: must be an object`);
  if (value.logging !== undefined && !isObject(value.logging)) throw new UsageError(`${where}.logging: must be an object`);
  // Fields the service assigns are dropped: a rule copied from `rulesets get --json` can be sent back as is.
  const { version: _version, last_updated: _updated, categories: _categories, ...rule } = value;
  return rule as unknown as RuleInput;
}

/** Rules: a list of rules, or an object with `rules` (a ruleset or a migration configuration). */
export function rulesFrom(value: unknown, name: string): RuleInput[] {
  const list = isObject(value) ? value.rules : value;
  const where = isObject(value) ? `${name}: rules` : `${name}: `;
  if (!Array.isArray(list)) throw new UsageError(`${name}: expected a list of rules, or an object with "rules"`);
  return list.map((rule, i) => ruleFrom(rule, `${where}[${i}]`));
}

/** The ruleset fields a file may carry beside its rules. */
export function rulesetFieldsFrom(value: unknown, name: string): { name?: string; kind?: string; phase?: string; description?: string } {
  if (!isObject(value)) return {};
  const out: Record<string, string> = {};
  for (const field of ['name', 'kind', 'phase', 'description']) {
    if (value[field] === undefined) continue;
    if (typeof value[field] !== 'string') throw new UsageError(`${name}: ${field}: must be a string`);
    out[field] = value[field] as string;
  }
  return out;
}
