/**
 * The previous WAF's part of the fixture file (`zones.<id>.waf`: packages with groups and rules, URI-based
 * overrides, firewall rules), with the defaults documented in the emulator README.
 */
import { FixtureError, read, type Warn } from './fixture.js';
import { newId } from './ids.js';
import type { ZoneFixtureHook } from './routing.js';
import {
  ACTION_MODES,
  ANOMALY_MODES,
  DETECTION_MODES,
  GROUP_MODES,
  OVERRIDE_RULE_ACTIONS,
  SENSITIVITIES,
  TRADITIONAL_MODES,
  type FirewallRule,
  type WafGroup,
  type WafOverride,
  type WafPackage,
  type WafRule,
} from './waf-state.js';

export const wafFixture: ZoneFixtureHook = {
  keys: ['waf'],
  apply(raw, zone, at, warn) {
    if (raw.waf === undefined) return;
    const where = `${at}.waf`;
    const waf = read.object(raw.waf, where);
    read.keys(waf, where, ['packages', 'overrides', 'firewall_rules'], warn);
    if (waf.packages !== undefined) zone.waf.packages = read.array(waf.packages, `${where}.packages`).map((p, i) => fixturePackage(p, `${where}.packages[${i}]`, warn));
    if (waf.overrides !== undefined) zone.waf.overrides = read.array(waf.overrides, `${where}.overrides`).map((o, i) => fixtureOverride(o, `${where}.overrides[${i}]`, warn));
    if (waf.firewall_rules !== undefined) {
      zone.waf.firewall_rules = read.array(waf.firewall_rules, `${where}.firewall_rules`).map((r, i) => fixtureFirewallRule(r, `${where}.firewall_rules[${i}]`, warn));
    }
    unique(zone.waf.packages, `${where}.packages`);
    unique(zone.waf.overrides, `${where}.overrides`);
    // Firewall rules are only counted and measured, never addressed by id: a repeated id is worth a warning only.
    const seen = new Set<string>();
    zone.waf.firewall_rules.forEach((rule, i) => {
      if (seen.has(rule.id)) warn(`${where}.firewall_rules[${i}].id: "${rule.id}" appears twice`);
      seen.add(rule.id);
    });
  },
};

function unique(items: { id: string }[], at: string): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.id)) throw new FixtureError(`${at}[${i}].id: "${item.id}" appears twice`);
    seen.add(item.id);
  });
}

/** Fixture rule modes: either package kind's, so a hand-written file need not say which kind first. */
const ANY_RULE_MODE = [...TRADITIONAL_MODES, ...ANOMALY_MODES];

function fixturePackage(raw: unknown, at: string, warn: Warn): WafPackage {
  const p = read.object(raw, at);
  read.keys(p, at, ['id', 'name', 'description', 'detection_mode', 'sensitivity', 'action_mode', 'groups', 'rules', 'zone_id', 'status'], warn);
  // A package with a sensitivity or an action mode is the anomaly-scoring core rule set.
  const inferred = p.sensitivity !== undefined || p.action_mode !== undefined ? 'anomaly' : 'traditional';
  const detection = read.oneOf(p.detection_mode, `${at}.detection_mode`, DETECTION_MODES, inferred);
  const anomaly = detection === 'anomaly';
  // Rules are listed in the package (`rules`, each naming its `group`) or inside their group (`groups[].rules`);
  // a group or a rule may also be written as its bare id.
  const nested: { raw: unknown; at: string; group: string }[] = [];
  const groups = read.array(p.groups ?? [], `${at}.groups`).map((g, i): WafGroup => {
    const gat = `${at}.groups[${i}]`;
    const group = typeof g === 'string' || typeof g === 'number' ? { id: g } : read.object(g, gat);
    read.keys(group, gat, ['id', 'name', 'description', 'mode', 'rules', 'rules_count', 'modified_rules_count', 'package_id', 'allowed_modes'], warn);
    const id = read.id(group.id, `${gat}.id`, newId);
    read.array(group.rules ?? [], `${gat}.rules`).forEach((r, j) => nested.push({ raw: r, at: `${gat}.rules[${j}]`, group: id }));
    return { id, name: read.string(group.name, `${gat}.name`, `Group ${id}`), description: read.string(group.description, `${gat}.description`, ''), mode: read.oneOf(group.mode, `${gat}.mode`, GROUP_MODES, 'on') };
  });
  unique(groups, `${at}.groups`);
  const readRule = (r: unknown, rat: string, position: number, inGroup: string | undefined): WafRule => {
    const rule = typeof r === 'string' || typeof r === 'number' ? { id: r } : read.object(r, rat);
    read.keys(rule, rat, ['id', 'description', 'priority', 'group', 'group_id', 'mode', 'default_mode', 'allowed_modes', 'package_id'], warn);
    // The group: the one it is listed in, else `group` (an id, or {id, name} as the API answers it) or `group_id`;
    // default the first group.
    const given = inGroup ?? (rule.group !== null && typeof rule.group === 'object' ? (rule.group as { id?: unknown }).id : (rule.group ?? rule.group_id));
    const group = given === undefined ? groups[0]?.id ?? '' : read.id(given, `${rat}.group`, () => '');
    if (given !== undefined && !groups.some((g) => g.id === group)) throw new FixtureError(`${rat}.group: no group "${group}" in this package`);
    return {
      id: read.id(rule.id, `${rat}.id`, newId),
      description: read.string(rule.description, `${rat}.description`, ''),
      priority: String(read.integerLike(rule.priority, `${rat}.priority`, position)),
      group_id: group,
      mode: read.oneOf(rule.mode, `${rat}.mode`, ANY_RULE_MODE, anomaly ? 'on' : 'default'),
      default_mode: read.oneOf(rule.default_mode, `${rat}.default_mode`, ANY_RULE_MODE, anomaly ? 'on' : 'block'),
    };
  };
  const rules = [
    ...read.array(p.rules ?? [], `${at}.rules`).map((r, i) => readRule(r, `${at}.rules[${i}]`, i + 1, undefined)),
    ...nested.map((n, i) => readRule(n.raw, n.at, i + 1, n.group)),
  ];
  unique(rules, `${at}.rules`);
  const id = read.id(p.id, `${at}.id`, newId);
  return {
    id,
    name: read.string(p.name, `${at}.name`, anomaly ? 'OWASP ModSecurity Core Rule Set' : `Package ${id}`),
    description: read.string(p.description, `${at}.description`, ''),
    detection_mode: detection,
    sensitivity: anomaly ? read.oneOf(p.sensitivity, `${at}.sensitivity`, SENSITIVITIES, 'medium') : null,
    action_mode: anomaly ? read.oneOf(p.action_mode, `${at}.action_mode`, ACTION_MODES, 'challenge') : null,
    groups,
    rules,
  };
}

function fixtureOverride(raw: unknown, at: string, warn: Warn): WafOverride {
  const o = read.object(raw, at);
  read.keys(o, at, ['id', 'description', 'urls', 'rules', 'groups', 'rewrite_action', 'paused', 'priority'], warn);
  const map = (field: string, allowed: readonly string[]): Record<string, string> => {
    const value = read.object(o[field] ?? {}, `${at}.${field}`);
    for (const [key, v] of Object.entries(value)) read.oneOf(v, `${at}.${field}.${key}`, allowed, 'default');
    return { ...(value as Record<string, string>) };
  };
  return {
    id: read.id(o.id, `${at}.id`, newId),
    description: read.string(o.description, `${at}.description`, ''),
    urls: read.array(o.urls ?? [], `${at}.urls`).map((u, i) => read.string(u, `${at}.urls[${i}]`)),
    rules: map('rules', OVERRIDE_RULE_ACTIONS),
    groups: map('groups', GROUP_MODES),
    rewrite_action: map('rewrite_action', OVERRIDE_RULE_ACTIONS),
    paused: read.boolean(o.paused, `${at}.paused`, false),
    priority: read.integerLike(o.priority, `${at}.priority`, 1),
  };
}

function fixtureFirewallRule(raw: unknown, at: string, warn: Warn): FirewallRule {
  const r = read.object(raw, at);
  read.keys(r, at, ['id', 'expression', 'action', 'description', 'paused', 'priority', 'filter', 'products', 'ref'], warn);
  return {
    id: read.id(r.id, `${at}.id`, newId),
    // `expression`, or `filter.expression` as the firewall rules API nests it.
    expression: read.string(r.expression ?? (r.filter !== null && typeof r.filter === 'object' ? (r.filter as { expression?: unknown }).expression : undefined), `${at}.expression`, 'true'),
    action: read.string(r.action, `${at}.action`, 'block'),
    description: read.string(r.description, `${at}.description`, ''),
    paused: read.boolean(r.paused, `${at}.paused`, false),
  };
}
