/** Rules of the actions the API description specifies (2.6, 8): log_custom_field and execute. */
import { badRequest } from './errors.js';
import type { Rule, ZoneState } from './state.js';
import type { RuleInput } from './rulesets.js';
import { validateRuleExpressions } from './expression-validate.js';

export const MAX_CUSTOM_FIELDS = 40;
const LISTS = ['request_fields', 'response_fields', 'cookie_fields'] as const;
/** RFC 9110 token characters: what a header or cookie name may contain. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** `phase`: the ruleset's, so that expressions are checked against what that phase offers. */
export function validateRule(rule: RuleInput, where: string, phase?: string): void {
  // a custom-field rule's expression is exactly `true`; every other rule's is checked by the language
  if (rule.action === 'log_custom_field') validateCustomFieldRule(rule, where);
  else validateRuleExpressions(rule, `${where}`, phase);
  if (rule.action === 'execute') {
    const id = rule.action_parameters?.id;
    if (typeof id !== 'string' || id === '') throw badRequest('executeParameters', `${where}.action_parameters.id: an execute rule names the ruleset to run`);
  }
}

function validateCustomFieldRule(rule: RuleInput, where: string): void {
  if (rule.expression !== 'true') throw badRequest('customFieldExpression', `${where}.expression: a log_custom_field rule has the expression true`);
  const params = rule.action_parameters;
  if (params === undefined || params === null || typeof params !== 'object') {
    throw badRequest('customFieldEmpty', `${where}.action_parameters: needs request_fields, response_fields or cookie_fields`);
  }
  let total = 0;
  for (const list of LISTS) {
    const value = params[list];
    if (value === undefined) continue;
    if (!Array.isArray(value)) throw badRequest('validation', `${where}.action_parameters.${list}: must be an array of {name}`);
    const names = new Set<string>();
    value.forEach((item: unknown, i) => {
      const at = `${where}.action_parameters.${list}.${i}`;
      const name = (item as { name?: unknown } | null)?.name;
      if (typeof name !== 'string') throw badRequest('validation', `${at}.name: must be a string`);
      if (!TOKEN.test(name)) throw badRequest('customFieldName', `${at}.name: "${name}" is not a valid ${list === 'cookie_fields' ? 'cookie' : 'header'} name`);
      if (list !== 'cookie_fields' && name !== name.toLowerCase()) {
        throw badRequest('customFieldName', `${at}.name: header names are lower case ("${name.toLowerCase()}")`);
      }
      if (names.has(name)) throw badRequest('customFieldDuplicate', `${at}.name: "${name}" appears twice`);
      names.add(name);
    });
    total += value.length;
  }
  if (total === 0) throw badRequest('customFieldEmpty', `${where}.action_parameters: needs at least one field in request_fields, response_fields or cookie_fields`);
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

/** At most 40 custom fields per zone, counting every ruleset of the zone with `rules` in place of ruleset `id`'s. */
export function checkCustomFieldLimit(zone: ZoneState, id: string, rules: readonly Rule[]): void {
  let total = countCustomFields(rules);
  for (const rs of zone.rulesets) {
    if (rs.id !== id) total += countCustomFields(rs.versions[rs.versions.length - 1].rules);
  }
  if (total > MAX_CUSTOM_FIELDS) {
    throw badRequest('customFieldLimit', `the zone would have ${total} custom fields; at most ${MAX_CUSTOM_FIELDS} are allowed`);
  }
}
