/**
 * The previous managed WAF (README, "The migration (area E)"): packages, their groups and rules, and URI-based overrides,
 * under `zones/<zone>/firewall/waf/…`. Once the zone has migrated, every one of these calls answers wafMigrated:
 * those APIs stop working (README, "The migration (area E)"). The zone fixture's `waf` section is read by waf-fixture.ts.
 */
import { badRequest, fail, notFound } from './errors.js';
import type { Area, Route } from './routing.js';
import { containsText, numberOrText, wafList, type WafListSpec } from './waf-list.js';
import { wafFixture } from './waf-fixture.js';
import { newId } from './ids.js';
import { checkBodyFields, type BodyName } from './body-fields.js';
import type { Store, ZoneState } from './state.js';
import {
  ACTION_MODES,
  ANOMALY_MODES,
  GROUP_MODES,
  OVERRIDE_RULE_ACTIONS,
  SENSITIVITIES,
  TRADITIONAL_MODES,
  type WafGroup,
  type WafOverride,
  type WafPackage,
  type WafRule,
} from './waf-state.js';

/** The search and order parameters of each list, as the provider's OpenAPI document names them (waf-list.ts). */
const PACKAGE_LIST: WafListSpec = {
  search: { name: { matches: containsText('name') } },
  order: { name: (p) => String(p.name).toLowerCase() },
};
const GROUP_LIST: WafListSpec = {
  search: {
    name: { matches: containsText('name') },
    mode: { matches: (g, v) => g.mode === v, values: GROUP_MODES },
    rules_count: { matches: (g, v) => g.rules_count === Number(v), pattern: /^[0-9]+$/ },
  },
  order: { mode: (g) => g.mode, rules_count: (g) => g.rules_count },
};
/** The schema's rule `mode` search: the mode a rule was overridden to, abbreviated. */
const OVERRIDDEN_MODES: Record<string, string> = { DIS: 'disable', CHL: 'challenge', BLK: 'block', SIM: 'simulate' };
const RULE_LIST: WafListSpec = {
  search: {
    // "The action/mode a rule has been overridden to perform": a rule left at `default` is not overridden.
    mode: { matches: (r, v) => r.mode === OVERRIDDEN_MODES[v], values: Object.keys(OVERRIDDEN_MODES) },
    group_id: { matches: (r, v) => r.group.id === v },
    description: { matches: containsText('description') },
    priority: { matches: (r, v) => String(r.priority) === v },
  },
  order: { priority: (r) => numberOrText(r.priority), group_id: (r) => r.group.id, description: (r) => String(r.description).toLowerCase() },
};

const ruleModes = (pkg: WafPackage): readonly string[] => (pkg.detection_mode === 'anomaly' ? ANOMALY_MODES : TRADITIONAL_MODES);

function packageView(zoneId: string, pkg: WafPackage) {
  return {
    id: pkg.id,
    name: pkg.name,
    description: pkg.description,
    zone_id: zoneId,
    detection_mode: pkg.detection_mode,
    ...(pkg.detection_mode === 'anomaly' ? { sensitivity: pkg.sensitivity, action_mode: pkg.action_mode } : {}),
  };
}

function groupView(pkg: WafPackage, group: WafGroup) {
  const rules = pkg.rules.filter((r) => r.group_id === group.id);
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    mode: group.mode,
    rules_count: rules.length,
    // "default" means the rule's default mode: not a change.
    modified_rules_count: rules.filter((r) => r.mode !== 'default' && r.mode !== r.default_mode).length,
    package_id: pkg.id,
    allowed_modes: [...GROUP_MODES],
  };
}

function ruleView(pkg: WafPackage, rule: WafRule) {
  const group = pkg.groups.find((g) => g.id === rule.group_id);
  return {
    id: rule.id,
    description: rule.description,
    priority: rule.priority,
    group: { id: rule.group_id, name: group?.name ?? '' },
    package_id: pkg.id,
    mode: rule.mode,
    default_mode: rule.default_mode,
    allowed_modes: [...ruleModes(pkg)],
  };
}

function findIn<T extends { id: string }>(items: T[], id: string, what: string): T {
  const found = items.find((item) => item.id === id);
  if (!found) throw notFound('wafNotFound', `${what} ${id} not found`);
  return found;
}

/** Reads a PATCH/POST body field that must be one of `allowed`, or is absent. */
function oneOf(body: Record<string, unknown>, field: string, allowed: readonly string[]): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value)) throw badRequest('wafInvalid', `${field}: must be one of ${allowed.join(', ')}`, `/${field}`);
  return value;
}

function bodyObject(body: unknown, fields: BodyName): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('wafInvalid', 'body: must be a JSON object');
  checkBodyFields(fields, body);
  return body as Record<string, unknown>;
}

/** An override body: `urls` (at least one), `rules` (rule id → action), `groups` (group id → mode), and the rest. */
function readOverride(raw: unknown, old: WafOverride | undefined): WafOverride {
  const body = bodyObject(raw, 'wafOverride');
  const urls = body.urls ?? old?.urls;
  if (!Array.isArray(urls) || urls.length === 0 || urls.some((u) => typeof u !== 'string' || u === '')) {
    throw badRequest('wafInvalid', 'urls: an override needs at least one URL pattern (for example "example.com/admin*")', '/urls');
  }
  const map = (field: 'rules' | 'groups' | 'rewrite_action', allowed: readonly string[]): Record<string, string> => {
    const value = body[field] ?? old?.[field] ?? {};
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest('wafInvalid', `${field}: must be an object`, `/${field}`);
    for (const [key, v] of Object.entries(value)) {
      if (typeof v !== 'string' || !allowed.includes(v)) throw badRequest('wafInvalid', `${field}.${key}: must be one of ${allowed.join(', ')}`, `/${field}/${key}`);
    }
    return { ...(value as Record<string, string>) };
  };
  const paused = body.paused ?? old?.paused ?? false;
  if (typeof paused !== 'boolean') throw badRequest('wafInvalid', 'paused: must be true or false', '/paused');
  const priority = body.priority ?? old?.priority ?? 1;
  if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < -1_000_000_000 || priority > 1_000_000_000) {
    throw badRequest('wafInvalid', 'priority: must be an integer', '/priority');
  }
  const description = body.description ?? old?.description ?? '';
  if (typeof description !== 'string') throw badRequest('wafInvalid', 'description: must be a string', '/description');
  return {
    id: old?.id ?? newId(),
    description,
    urls: [...urls],
    rules: map('rules', OVERRIDE_RULE_ACTIONS),
    groups: map('groups', GROUP_MODES),
    rewrite_action: map('rewrite_action', OVERRIDE_RULE_ACTIONS),
    paused,
    priority,
  };
}

export const wafLegacyArea: Area = {
  name: 'waf-legacy',
  routes(store: Store): Route[] {
    const W = ['zones', ':zone', 'firewall', 'waf'];
    const P = [...W, 'packages', ':package'];
    /** Every previous-WAF call goes through here: after the migration, none of them works any more. */
    const live = (params: Record<string, string>): ZoneState => {
      const zone = store.zone(params.zone);
      if (zone.migration.state === 'migrated') {
        throw fail(403, 'wafMigrated', 'this zone has migrated to the new managed rules: the previous WAF API no longer works; use the rulesets API');
      }
      return zone;
    };
    const pkg = (params: Record<string, string>) => findIn(live(params).waf.packages, params.package, 'WAF package');
    return [
      {
        pattern: [...W, 'packages'],
        methods: { GET: (request, params) => wafList(live(params).waf.packages.map((p) => packageView(params.zone, p)), request.query, PACKAGE_LIST) },
      },
      {
        pattern: P,
        methods: {
          GET: (_request, params) => ({ result: packageView(params.zone, pkg(params)) }),
          PATCH: (request, params) => {
            const found = pkg(params);
            const body = bodyObject(request.body, 'wafPackage');
            if (found.detection_mode !== 'anomaly' && (body.sensitivity !== undefined || body.action_mode !== undefined)) {
              throw badRequest('wafInvalid', 'sensitivity and action_mode apply only to anomaly packages (the core rule set)', '/sensitivity');
            }
            const sensitivity = oneOf(body, 'sensitivity', SENSITIVITIES);
            const actionMode = oneOf(body, 'action_mode', ACTION_MODES);
            if (sensitivity !== undefined) found.sensitivity = sensitivity;
            if (actionMode !== undefined) found.action_mode = actionMode;
            return { result: packageView(params.zone, found), mutates: true };
          },
        },
      },
      {
        pattern: [...P, 'groups'],
        methods: { GET: (request, params) => wafList(pkg(params).groups.map((g) => groupView(pkg(params), g)), request.query, GROUP_LIST) },
      },
      {
        pattern: [...P, 'groups', ':group'],
        methods: {
          GET: (_request, params) => ({ result: groupView(pkg(params), findIn(pkg(params).groups, params.group, 'WAF rule group')) }),
          PATCH: (request, params) => {
            const found = pkg(params);
            const group = findIn(found.groups, params.group, 'WAF rule group');
            const mode = oneOf(bodyObject(request.body, 'wafGroup'), 'mode', GROUP_MODES);
            if (mode === undefined) throw badRequest('wafInvalid', `mode: required (${GROUP_MODES.join(', ')})`, '/mode');
            group.mode = mode;
            return { result: groupView(found, group), mutates: true };
          },
        },
      },
      {
        pattern: [...P, 'rules'],
        methods: { GET: (request, params) => wafList(pkg(params).rules.map((r) => ruleView(pkg(params), r)), request.query, RULE_LIST) },
      },
      {
        pattern: [...P, 'rules', ':rule'],
        methods: {
          GET: (_request, params) => ({ result: ruleView(pkg(params), findIn(pkg(params).rules, params.rule, 'WAF rule')) }),
          PATCH: (request, params) => {
            const found = pkg(params);
            const rule = findIn(found.rules, params.rule, 'WAF rule');
            const mode = oneOf(bodyObject(request.body, 'wafRule'), 'mode', ruleModes(found));
            if (mode === undefined) throw badRequest('wafInvalid', `mode: required (${ruleModes(found).join(', ')})`, '/mode');
            rule.mode = mode;
            return { result: ruleView(found, rule), mutates: true };
          },
        },
      },
      {
        pattern: [...W, 'overrides'],
        methods: {
          GET: (request, params) => wafList(live(params).waf.overrides, request.query),
          POST: (request, params) => {
            const zone = live(params);
            const override = readOverride(request.body, undefined);
            zone.waf.overrides.push(override);
            return { result: override, mutates: true };
          },
        },
      },
      {
        pattern: [...W, 'overrides', ':override'],
        methods: {
          GET: (_request, params) => ({ result: findIn(live(params).waf.overrides, params.override, 'WAF override') }),
          PUT: (request, params) => {
            const zone = live(params);
            const old = findIn(zone.waf.overrides, params.override, 'WAF override');
            const next = readOverride(request.body, old);
            zone.waf.overrides = zone.waf.overrides.map((o) => (o === old ? next : o));
            return { result: next, mutates: true };
          },
          DELETE: (_request, params) => {
            const zone = live(params);
            const old = findIn(zone.waf.overrides, params.override, 'WAF override');
            zone.waf.overrides = zone.waf.overrides.filter((o) => o !== old);
            return { result: { id: old.id }, mutates: true };
          },
        },
      },
    ];
  },
  zoneFixture: wafFixture,
};
