/**
 * The shape of an `execute` rule's action parameters (README, "Behaviour"; the provider's ExecuteRule: `id`, `version`,
 * and `overrides` with `rules` [{id, action?, enabled?, score_threshold?, sensitivity_level?}], `categories`
 * [{category, action?, enabled?}], `action?`, `enabled?`). A wrong type or an action that is not an action would
 * otherwise be stored and run as nonsense. Whether the ruleset exists is judged where the scope is known
 * (rulesets.ts, checkExecuteTarget); whether the overridden rules exist is not (the managed rulesets' rules here
 * are a sample, and users' overrides name the provider's real ones).
 */
import { badRequest } from './errors.js';
import { ACTIONS, ACTION_NAMES } from './rules-table.js';

type Check = 'string' | 'id' | 'boolean' | 'integer' | 'action' | 'sensitivity';

/** The schema's RulesetId and RuleId (the provider's ids and the emulator's alike). */
const ID = /^[0-9a-f]{32}$/;

/** The schema's ExecuteSensitivityLevel. */
const SENSITIVITY_LEVELS = ['default', 'medium', 'low', 'eoff'];

/** One table: the optional fields of an override at each level, and what each must be. */
const OVERRIDE_FIELDS: Record<'ruleset' | 'category' | 'rule', Record<string, Check>> = {
  ruleset: { action: 'action', enabled: 'boolean', sensitivity_level: 'sensitivity' },
  category: { category: 'string', action: 'action', enabled: 'boolean', sensitivity_level: 'sensitivity' },
  rule: { id: 'id', action: 'action', enabled: 'boolean', score_threshold: 'integer', sensitivity_level: 'sensitivity' },
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `at(path)` turns a path under the rule (`action_parameters/id`) into the body's JSON pointer. */
export function validateExecuteParameters(params: Record<string, unknown>, where: string, at: (path: string) => string): void {
  const dotted = (path: string) => `${where}.${path.replace(/\//g, '.')}`;
  const wrong = (path: string, what: string) => badRequest('validation', `${dotted(path)}: must be ${what}`, at(path));
  const checkField = (value: unknown, check: Check, path: string) => {
    if (value === undefined) return;
    if ((check === 'string' || check === 'id') && typeof value !== 'string') throw wrong(path, 'a string');
    if (check === 'id' && !ID.test(value as string)) throw wrong(path, 'an id of 32 hexadecimal digits');
    if (check === 'boolean' && typeof value !== 'boolean') throw wrong(path, 'a boolean');
    if (check === 'integer' && !Number.isInteger(value)) throw wrong(path, 'an integer');
    if (check === 'sensitivity' && !SENSITIVITY_LEVELS.includes(value as string)) throw wrong(path, `one of ${SENSITIVITY_LEVELS.join(', ')}`);
    if (check === 'action' && (typeof value !== 'string' || !Object.hasOwn(ACTIONS, value))) {
      throw badRequest('unknownAction', `${dotted(path)}: unknown action ${JSON.stringify(value)} (one of ${ACTION_NAMES.join(', ')})`, at(path));
    }
  };
  const checkLevel = (item: Record<string, unknown>, level: keyof typeof OVERRIDE_FIELDS, path: string) => {
    for (const [field, check] of Object.entries(OVERRIDE_FIELDS[level])) checkField(item[field], check, `${path}/${field}`);
  };
  const checkList = (list: unknown, level: 'category' | 'rule', key: 'category' | 'id', path: string) => {
    if (list === undefined) return;
    if (!Array.isArray(list)) throw wrong(path, 'an array');
    list.forEach((item: unknown, i) => {
      if (!isObject(item)) throw wrong(`${path}/${i}`, 'an object');
      if (item[key] === undefined) throw badRequest('validation', `${dotted(`${path}/${i}/${key}`)}: required`, at(`${path}/${i}/${key}`));
      checkLevel(item, level, `${path}/${i}`);
      // The schema's minProperties 2: an override names what it overrides and what it changes.
      if (!Object.keys(OVERRIDE_FIELDS[level]).some((f) => f !== key && item[f] !== undefined)) {
        throw badRequest('validation', `${dotted(`${path}/${i}`)}: an override changes something (${Object.keys(OVERRIDE_FIELDS[level]).filter((f) => f !== key).join(', ')})`, at(`${path}/${i}`));
      }
    });
  };

  checkField(params.id, 'id', 'action_parameters/id');
  checkField(params.version, 'string', 'action_parameters/version');
  const overrides = params.overrides;
  if (overrides === undefined) return;
  if (!isObject(overrides)) throw wrong('action_parameters/overrides', 'an object');
  checkLevel(overrides, 'ruleset', 'action_parameters/overrides');
  checkList(overrides.categories, 'category', 'category', 'action_parameters/overrides/categories');
  checkList(overrides.rules, 'rule', 'id', 'action_parameters/overrides/rules');
}
