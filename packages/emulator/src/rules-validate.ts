/**
 * Checks of one rule: its action (from the table of rules-table.ts), the action parameters the action needs, the
 * `logging` option, the expression, and the custom-field rules (README, "Behaviour": `log_custom_field` rules).
 */
import { badRequest } from './errors.js';
import type { Rule, RulesetScope } from './state.js';
import type { RuleInput } from './ruleset-input.js';
import { ACTIONS, ACTION_NAMES } from './rules-table.js';
import { validateRuleExpressions } from './expression-validate.js';
import { validateExecuteParameters } from './execute-validate.js';
import { PHASES } from '@logfilter/core';

export const MAX_CUSTOM_FIELDS = 40;
const LISTS = ['request_fields', 'response_fields', 'cookie_fields'] as const;
/** RFC 9110 token characters: what a header or cookie name may contain. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** `where` is the rule's place in the body as a dotted path (`rules.2`, or `body` for a single rule). */
export function validateRule(rule: RuleInput, where: string, phase: string): void {
  const spec = Object.hasOwn(ACTIONS, rule.action) ? ACTIONS[rule.action as keyof typeof ACTIONS] : undefined;
  if (!spec) throw badRequest('unknownAction', `${where}.action: unknown action "${rule.action}" (one of ${ACTION_NAMES.join(', ')})`, pointer(where, 'action'));
  if (rule.logging !== undefined && rule.action !== 'skip') {
    throw badRequest('loggingOnlySkip', `${where}.logging: logging options are only allowed with the skip action`, pointer(where, 'logging'));
  }
  const params = rule.action_parameters;
  const has = (key: string) => params !== undefined && Object.hasOwn(params, key) && params[key] !== null && params[key] !== '';
  if ((spec.anyOf && !spec.anyOf.some(has)) || (spec.nonEmpty && (params === undefined || Object.keys(params).length === 0))) {
    const needs = spec.anyOf ? spec.anyOf.join(' or ') : 'at least one parameter';
    throw badRequest('actionParameters', `${where}.action_parameters: the ${rule.action} action needs ${needs}`, pointer(where, 'action_parameters'));
  }
  if (rule.action === 'log_custom_field') validateCustomFieldRule(rule, where);
  if (rule.action === 'execute') validateExecuteParameters(params as Record<string, unknown>, where, (field) => pointer(where, field));
  checkExpression(rule, phase, where);
}

/**
 * The one place where a rule's expressions are checked against the rules language, in the ruleset's phase
 * (which decides the fields and functions it may use): `expression`, a rate limit's `counting_expression`
 * and the value expressions of `action_parameters` (expression-validate.ts). A log_custom_field rule's
 * expression is exactly `true`, checked with its fields.
 */
export function checkExpression(rule: RuleInput, phase: string, where: string): void {
  // every phase is known (the rulesets routes refuse others); network-layer phases check packet fields
  if (rule.action === 'log_custom_field' || !PHASES.includes(phase)) return;
  validateRuleExpressions(rule, where, phase);
}

/** A dotted place (`rules.2`) and a field (`action`, or a path `action_parameters/id`) as a JSON pointer (`/rules/2/action`). */
function pointer(where: string, field: string): string {
  return where === 'body' ? `/${field}` : `/${where.replace(/\./g, '/')}/${field}`;
}

function validateCustomFieldRule(rule: RuleInput, where: string): void {
  if (rule.expression !== 'true') throw badRequest('customFieldExpression', `${where}.expression: a log_custom_field rule has the expression true`, pointer(where, 'expression'));
  const params = rule.action_parameters;
  if (params === undefined || params === null || typeof params !== 'object') {
    throw badRequest('customFieldEmpty', `${where}.action_parameters: needs request_fields, response_fields or cookie_fields`, pointer(where, 'action_parameters'));
  }
  let total = 0;
  for (const list of LISTS) {
    const value = params[list];
    if (value === undefined) continue;
    if (!Array.isArray(value)) throw badRequest('validation', `${where}.action_parameters.${list}: must be an array of {name}`, pointer(where, `action_parameters/${list}`));
    // The provider's schema (LogCustomFieldRule): each list given has at least one field (minItems 1), so an empty
    // one is refused rather than stored and answered, even beside a list that has fields.
    if (value.length === 0) throw badRequest('customFieldEmpty', `${where}.action_parameters.${list}: an empty list; give at least one field or leave the list out`, pointer(where, `action_parameters/${list}`));
    const names = new Set<string>();
    value.forEach((item: unknown, i) => {
      const at = `${where}.action_parameters.${list}.${i}`;
      const here = pointer(where, `action_parameters/${list}/${i}/name`);
      const name = (item as { name?: unknown } | null)?.name;
      if (typeof name !== 'string') throw badRequest('validation', `${at}.name: must be a string`, here);
      if (!TOKEN.test(name)) throw badRequest('customFieldName', `${at}.name: "${name}" is not a valid ${list === 'cookie_fields' ? 'cookie' : 'header'} name`, here);
      if (list !== 'cookie_fields' && name !== name.toLowerCase()) {
        throw badRequest('customFieldName', `${at}.name: header names are lower case ("${name.toLowerCase()}")`, here);
      }
      if (names.has(name)) throw badRequest('customFieldDuplicate', `${at}.name: "${name}" appears twice`, here);
      names.add(name);
    });
    total += value.length;
  }
  if (total === 0) throw badRequest('customFieldEmpty', `${where}.action_parameters: needs at least one field in request_fields, response_fields or cookie_fields`, pointer(where, 'action_parameters'));
}

export function countCustomFields(rules: readonly Rule[]): number {
  let n = 0;
  for (const r of rules) {
    if (r.action !== 'log_custom_field') continue;
    for (const list of LISTS) {
      const v = r.action_parameters?.[list];
      if (Array.isArray(v)) n += v.length;
    }
  }
  return n;
}

/**
 * Where a rule of the new list sits in the request body: `/rules/N` for a whole ruleset, `` for the rule a body
 * adds or changes alone, undefined for a rule the body did not send.
 */
export type RulePlace = (rule: Rule, index: number) => string | undefined;

/**
 * At most 40 custom fields per zone, counting every ruleset of the zone with `rules` in place of ruleset `id`'s.
 * The refusal points at the field that goes over (the other rulesets counted first, then `rules` in order), where
 * `place` says the body has it.
 */
export function checkCustomFieldLimit(zone: RulesetScope, id: string, rules: readonly Rule[], place: RulePlace = () => undefined): void {
  let others = 0;
  for (const rs of zone.rulesets) {
    if (rs.id !== id) others += countCustomFields(rs.versions[rs.versions.length - 1].rules);
  }
  const total = others + countCustomFields(rules);
  if (total <= MAX_CUSTOM_FIELDS) return;
  let seen = others;
  let pointer: string | undefined;
  rules.forEach((r, i) => {
    if (pointer !== undefined || r.action !== 'log_custom_field') return;
    for (const list of LISTS) {
      const v = r.action_parameters?.[list];
      if (!Array.isArray(v)) continue;
      if (seen + v.length > MAX_CUSTOM_FIELDS) {
        const at = place(r, i);
        pointer = at === undefined ? '' : `${at}/action_parameters/${list}/${MAX_CUSTOM_FIELDS - seen}`;
        return;
      }
      seen += v.length;
    }
  });
  throw badRequest('customFieldLimit', `the zone would have ${total} custom fields; at most ${MAX_CUSTOM_FIELDS} are allowed`, pointer || undefined);
}
