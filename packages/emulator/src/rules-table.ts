/**
 * The rulesets vocabulary (README, "Behaviour"), one table each: kinds, phases, and actions with the action
 * parameters each one needs. Validation, the schemas and the README all read these.
 */

import { PHASES as RULE_PHASES } from '@logfilter/core';
import type { RuleAction } from '@logfilter/api';

export const KINDS = ['managed', 'custom', 'root', 'zone'] as const;

/** The entry point kind of each scope: one ruleset of that kind per phase. */
export const ENTRYPOINT_KIND = { zone: 'zone', account: 'root' } as const;

/** The phases: the rules language's one list (HTTP and network-layer), shared with `rules check` and the CLI. */
export const PHASES: readonly string[] = RULE_PHASES;

/**
 * Each action and the action parameters it cannot do without: `anyOf` lists keys of which at least one must be
 * present; `nonEmpty` asks for at least one parameter of any name. `log_custom_field` has its own rules
 * (rules-validate.ts), kept from before with their own codes.
 */
// keyed by @logfilter/api's RULE_ACTIONS: an action missing here, or one not there, does not compile
export const ACTIONS: Record<RuleAction, { anyOf?: readonly string[]; nonEmpty?: boolean }> = {
  block: {},
  challenge: {},
  compress_response: { anyOf: ['algorithms'] },
  ddos_dynamic: {},
  execute: { anyOf: ['id'] },
  force_connection_close: {},
  js_challenge: {},
  log: {},
  log_custom_field: {},
  managed_challenge: {},
  redirect: { anyOf: ['from_value', 'from_list'] },
  rewrite: { anyOf: ['uri', 'headers'] },
  route: { anyOf: ['host_header', 'origin', 'sni'] },
  score: { anyOf: ['increment'] },
  serve_error: { anyOf: ['content', 'asset_name'] },
  set_cache_control: { nonEmpty: true },
  set_cache_settings: { nonEmpty: true },
  set_cache_tags: { nonEmpty: true },
  set_config: { nonEmpty: true },
  skip: { anyOf: ['ruleset', 'rulesets', 'phase', 'phases', 'products', 'rules'] },
  transform_response_html: {},
};

export const ACTION_NAMES = Object.keys(ACTIONS);
