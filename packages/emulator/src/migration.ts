/**
 * The managed-rule migration of a zone (README, "The migration (area E)"): the
 * compatibility check, the proposed configuration, the status, and the entry point update with `waf_migration`
 * that moves the zone start → validation (Enterprise only) → migrated, or start → migrated. Irreversible.
 */
import { badRequest, clip, conflict, fail } from './errors.js';
import type { Area, Route } from './routing.js';
import type { Store, ZoneState, StoredRuleset } from './state.js';
import type { RuleInput, RulesetInput } from './ruleset-input.js';
import { executeLookup, findEntrypoint, latest, putEntrypoint } from './rulesets.js';
import { MANAGED_RULESET_ID, managedRuleFor } from './managed-rulesets.js';
import type { WafPackage } from './waf-state.js';

export const MIGRATION_PHASE = 'http_request_firewall_managed';
/** What the migration can carry over without support (README, "Error codes": 20401). */
export const MAX_FIREWALL_RULES = 200;
export const MAX_EXPRESSION_BYTES = 4096;

/** `waf_migration` values (description 4.3): the word and its number mean the same. */
const MODES: Record<string, 'pending' | 'validation'> = { pending: 'pending', '1': 'pending', validation: 'validation', '2': 'validation' };

/** The core rule set's sensitivity → score threshold (README, "The migration (area E)"); the paranoia level is always PL2 after. */
const SCORE_THRESHOLD: Record<string, number | null> = { high: 40, medium: 25, low: 40, off: null };

/** The previous WAF's rule modes as overrides of the new managed rules ("simulate" becomes log). */
const MODE_OVERRIDE: Record<string, { action?: string; enabled: boolean }> = {
  disable: { enabled: false },
  off: { enabled: false },
  simulate: { action: 'log', enabled: true },
  block: { action: 'block', enabled: true },
  challenge: { action: 'challenge', enabled: true },
};

function phaseTwo(query: URLSearchParams): void {
  const value = query.get('phase_two');
  if (value !== null && value !== '1') throw badRequest('migrationParameter', `phase_two: only 1 is defined (the second phase of the migration), not "${value}"`, '/phase_two');
}

export interface Blocker {
  code: 'uri-overrides' | 'already-migrated';
  message: string;
  override_ids?: string[];
}

function blockers(zone: ZoneState): Blocker[] {
  const out: Blocker[] = [];
  if (zone.migration.state === 'migrated') out.push({ code: 'already-migrated', message: 'the zone has already migrated' });
  const uriOverrides = zone.waf.overrides.filter((o) => o.urls.length > 0);
  if (uriOverrides.length > 0) {
    out.push({
      code: 'uri-overrides',
      message: `${uriOverrides.length} URI-based override(s) of the previous WAF; delete them with the previous API first`,
      override_ids: uriOverrides.map((o) => o.id),
    });
  }
  return out;
}

/** `compatible` and `migration_state` are the contract's; `reasons` says why not (this emulator's addition). */
export function check(zone: ZoneState) {
  const reasons = blockers(zone);
  return { compatible: reasons.length === 0, migration_state: zone.migration.state, reasons };
}

/** Overrides of the managed rules that keep what the zone set in the previous WAF (rule modes, groups turned off). */
function overridesFrom(packages: WafPackage[]): { id: string; action?: string; enabled: boolean }[] {
  const out = new Map<string, { id: string; action?: string; enabled: boolean }>();
  for (const pkg of packages) {
    const groupsOff = new Set(pkg.groups.filter((g) => g.mode === 'off').map((g) => g.id));
    for (const rule of pkg.rules) {
      const target = managedRuleFor(rule.id);
      if (!target || target.ruleset !== MANAGED_RULESET_ID) continue;
      const changed = rule.mode !== 'default' && rule.mode !== rule.default_mode ? MODE_OVERRIDE[rule.mode] : undefined;
      if (changed) out.set(target.id, { id: target.id, ...changed });
      else if (groupsOff.has(rule.group_id)) out.set(target.id, { id: target.id, enabled: false });
    }
  }
  return [...out.values()];
}

/** The proposed configuration (README, "The migration (area E)"): one execute rule, empty-string ids, sendable back unchanged. */
export function proposedConfig(zone: ZoneState) {
  return {
    name: 'default',
    rules: [
      {
        id: '',
        version: '',
        action: 'execute',
        expression: 'true',
        description: '',
        ref: '',
        enabled: true,
        action_parameters: { id: MANAGED_RULESET_ID, overrides: { rules: overridesFrom(zone.waf.packages) } },
      },
    ],
  };
}

/** The ruleset an execute rule names, looked up where the zone can run it: managed, the zone's, its account's. */
function executeTarget(store: Store, zone: ZoneState, id: unknown): StoredRuleset | undefined {
  return executeLookup(store.state, zone)(id);
}

/** Whether `rules` run something: an enabled execute rule naming a ruleset that exists and has an enabled rule. */
function protects(store: Store, zone: ZoneState, rules: readonly { action?: string; enabled?: boolean; action_parameters?: unknown }[]): boolean {
  return rules.some((r) => {
    if (r.action !== 'execute' || r.enabled === false) return false;
    const target = executeTarget(store, zone, (r.action_parameters as { id?: unknown } | undefined)?.id);
    return target !== undefined && latest(target).rules.some((rule) => rule.enabled);
  });
}

/** The status answer: the contract leaves it open; these names are documented in the emulator README. */
export function status(store: Store, zone: ZoneState) {
  const state = zone.migration.state;
  const core = zone.waf.packages.find((p) => p.detection_mode === 'anomaly');
  // What actually runs: the new rules only while the managed phase's entry point runs a ruleset with rules (after
  // the migration its entry point can be deleted or emptied: the zone is then unprotected, and says so).
  const entry = findEntrypoint(zone, 'zone', MIGRATION_PHASE);
  const newOn = state !== 'start' && entry !== undefined && protects(store, zone, latest(entry).rules);
  const oldOn = state !== 'migrated';
  return {
    migration_state: state,
    plan: zone.plan,
    old_waf_status: oldOn ? 'enabled' : 'disabled',
    new_waf_status: newOn ? 'enabled' : 'disabled',
    /** Which runs first: in validation mode the new rules run before the previous ones. */
    execution_order: [...(newOn ? ['new'] : []), ...(oldOn ? ['old'] : [])],
    core_ruleset:
      state === 'start' ? null : { paranoia_level: 'PL2', score_threshold: core?.sensitivity ? (SCORE_THRESHOLD[core.sensitivity] ?? null) : 40 },
    validation_started_at: zone.migration.validation_started_at,
    migrated_at: zone.migration.migrated_at,
  };
}

/**
 * PUT …/phases/http_request_firewall_managed/entrypoint?waf_migration=…&phase_two=1: saves the configuration as
 * the entry point and moves the zone. Everything is checked before anything changes, so a refusal leaves the
 * zone as it was.
 */
export function migrateWithEntrypoint(store: Store, zoneId: string, phase: string, query: URLSearchParams, body: RulesetInput & { rules: RuleInput[] }): StoredRuleset {
  phaseTwo(query);
  const raw = query.get('waf_migration') ?? '';
  const mode = Object.hasOwn(MODES, raw) ? MODES[raw] : undefined;
  if (!mode) throw badRequest('migrationParameter', `waf_migration: must be pending (1) or validation (2), not "${raw}"`, '/waf_migration');
  const zone = store.zone(zoneId);
  if (zone.migration.state === 'migrated') throw conflict('alreadyMigrated', 'the zone has already migrated; the migration cannot be undone or repeated (update the entry point without waf_migration)');
  const [blocker] = blockers(zone);
  if (blocker) throw badRequest('migrationIncompatible', `the zone is not compatible: ${blocker.message}`);
  const rules = zone.waf.firewall_rules;
  if (rules.length > MAX_FIREWALL_RULES) {
    throw badRequest('migrationNeedsSupport', `the zone has ${rules.length} firewall rules to migrate, more than ${MAX_FIREWALL_RULES}: contact support to migrate this zone`);
  }
  const long = rules.find((r) => Buffer.byteLength(r.expression, 'utf8') > MAX_EXPRESSION_BYTES);
  if (long) {
    throw badRequest('migrationNeedsSupport', `firewall rule ${long.id} has an expression of ${Buffer.byteLength(long.expression, 'utf8')} bytes, more than ${MAX_EXPRESSION_BYTES}: contact support to migrate this zone`);
  }
  if (mode === 'validation' && zone.plan !== 'enterprise') {
    throw fail(403, 'validationEnterpriseOnly', `validation mode is for Enterprise zones only; this zone is on the ${zone.plan} plan: use waf_migration=pending`);
  }
  // The zone must stay protected: the previous rules are switched off only when new ones run.
  if (!body.rules.some((r) => r.action === 'execute' && r.enabled !== false)) {
    throw badRequest('validation', 'rules: the configuration must run a managed ruleset with an enabled execute rule (see GET waf_migration/config)', '/rules');
  }
  body.rules.forEach((r, i) => {
    if (r.action !== 'execute' || r.enabled === false) return;
    const id = (r.action_parameters as { id?: unknown } | undefined)?.id;
    if (!executeTarget(store, zone, id)) {
      throw badRequest('validation', `rules[${i}].action_parameters.id: no ruleset ${typeof id === 'string' ? clip(id) : String(id)} in this zone, its account or the managed ones: the zone would be left unprotected`, `/rules/${i}/action_parameters/id`);
    }
  });
  if (!protects(store, zone, body.rules)) {
    throw badRequest('validation', 'rules: the rulesets the execute rules run have no enabled rule: the zone would be left unprotected', '/rules');
  }
  const entrypoint = putEntrypoint(zone, 'zone', phase, body, executeLookup(store.state, zone));
  const stamp = new Date().toISOString();
  if (mode === 'validation') {
    zone.migration = { state: 'validation', validation_started_at: zone.migration.validation_started_at ?? stamp, migrated_at: null };
  } else {
    zone.migration = { state: 'migrated', validation_started_at: zone.migration.validation_started_at, migrated_at: stamp };
  }
  return entrypoint;
}

export const migrationArea: Area = {
  name: 'migration',
  routes(store): Route[] {
    const M = ['zones', ':zone', 'waf_migration'];
    return [
      {
        pattern: [...M, 'check'],
        methods: {
          GET: (request, params) => {
            phaseTwo(request.query);
            return { result: check(store.zone(params.zone)) };
          },
        },
      },
      {
        pattern: [...M, 'config'],
        methods: {
          GET: (request, params) => {
            phaseTwo(request.query);
            return { result: proposedConfig(store.zone(params.zone)) };
          },
        },
      },
      {
        pattern: [...M, 'status'],
        methods: { GET: (_request, params) => ({ result: status(store, store.zone(params.zone)) }) },
      },
    ];
  },
};
