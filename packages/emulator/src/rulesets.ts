/**
 * Zone rulesets (API description 2.6, 4.2): every change writes a new version; viewing gives the latest; rules keep
 * the version in which they last changed. At most one zone ruleset per phase.
 */
import { randomBytes } from 'node:crypto';
import { badRequest, conflict, notFound } from './errors.js';
import type { Rule, RulesetVersion, StoredRuleset, ZoneState } from './state.js';
import { validateRule, checkCustomFieldLimit } from './rules-validate.js';

export interface RuleInput {
  id?: string;
  action: string;
  expression: string;
  description?: string;
  action_parameters?: Record<string, unknown>;
  enabled?: boolean;
  ref?: string;
}

export type Position = { before: string } | { after: string } | { index: number };

export interface RulesetInput {
  name?: string;
  kind?: string;
  phase?: string;
  description?: string;
  rules?: RuleInput[];
}

export const newId = () => randomBytes(16).toString('hex');
const now = () => new Date().toISOString();

export function latest(rs: StoredRuleset): RulesetVersion {
  return rs.versions[rs.versions.length - 1];
}

/** A ruleset as the list and version-list answers show it: no rules. */
export function summary(rs: StoredRuleset, v: RulesetVersion = latest(rs)) {
  return { id: rs.id, name: v.name, description: v.description, kind: v.kind, phase: v.phase, version: v.version, last_updated: v.last_updated };
}

export function full(rs: StoredRuleset, v: RulesetVersion = latest(rs)) {
  return { ...summary(rs, v), rules: v.rules };
}

export function findRuleset(zone: ZoneState, id: string): StoredRuleset {
  const rs = zone.rulesets.find((r) => r.id === id);
  if (!rs) throw notFound('rulesetNotFound', `ruleset ${id} not found`);
  return rs;
}

export function findEntrypoint(zone: ZoneState, phase: string): StoredRuleset | undefined {
  return zone.rulesets.find((r) => latest(r).kind === 'zone' && latest(r).phase === phase);
}

function sameContent(a: Rule, b: Omit<Rule, 'id' | 'version' | 'last_updated'>): boolean {
  return (
    a.action === b.action &&
    a.expression === b.expression &&
    a.description === b.description &&
    a.enabled === b.enabled &&
    a.ref === b.ref &&
    JSON.stringify(a.action_parameters ?? null) === JSON.stringify(b.action_parameters ?? null)
  );
}

/** Turns input rules into stored rules for `version`, keeping id and version of rules sent back unchanged. */
function materialize(previous: Rule[], inputs: RuleInput[], version: string, stamp: string, phase?: string): Rule[] {
  const seen = new Set<string>();
  return inputs.map((input, i) => {
    validateRule(input, `rules.${i}`, phase);
    const old = input.id !== undefined ? previous.find((r) => r.id === input.id) : undefined;
    if (input.id !== undefined && !old) throw badRequest('validation', `rules.${i}.id: rule ${input.id} is not in this ruleset`);
    if (input.id !== undefined) {
      if (seen.has(input.id)) throw badRequest('validation', `rules.${i}.id: rule ${input.id} appears twice`);
      seen.add(input.id);
    }
    return makeRule(input, old, version, stamp);
  });
}

function makeRule(input: RuleInput, old: Rule | undefined, version: string, stamp: string): Rule {
  const id = old?.id ?? newId();
  const content = {
    action: input.action,
    expression: input.expression,
    description: input.description ?? '',
    ...(input.action_parameters !== undefined ? { action_parameters: input.action_parameters } : {}),
    enabled: input.enabled ?? true,
    ref: input.ref ?? old?.ref ?? id,
  };
  if (old && sameContent(old, content)) return old;
  return { id, version, ...content, last_updated: stamp };
}

function pushVersion(zone: ZoneState, rs: StoredRuleset, props: { name?: string; description?: string }, rules: (version: string, stamp: string) => Rule[]): void {
  const version = String(rs.nextVersion);
  const stamp = now();
  const prev = latest(rs);
  const next: RulesetVersion = {
    version,
    name: props.name ?? prev.name,
    description: props.description ?? prev.description,
    kind: prev.kind,
    phase: prev.phase,
    rules: rules(version, stamp),
    last_updated: stamp,
  };
  checkCustomFieldLimit(zone, rs.id, next.rules);
  rs.versions.push(next);
  rs.nextVersion += 1;
}

export function createRuleset(zone: ZoneState, body: RulesetInput & { name: string; kind: string; phase: string }): StoredRuleset {
  if (body.kind === 'zone' && findEntrypoint(zone, body.phase)) {
    throw conflict('phaseConflict', `the zone already has a ruleset of kind zone for phase ${body.phase}; update it instead`);
  }
  const stamp = now();
  const rules = materialize([], body.rules ?? [], '1', stamp, body.phase);
  const rs: StoredRuleset = {
    id: newId(),
    versions: [{ version: '1', name: body.name, description: body.description ?? '', kind: body.kind, phase: body.phase, rules, last_updated: stamp }],
    nextVersion: 2,
  };
  checkCustomFieldLimit(zone, rs.id, rules);
  zone.rulesets.push(rs);
  return rs;
}

export function updateRuleset(zone: ZoneState, rs: StoredRuleset, body: RulesetInput & { rules: RuleInput[] }): StoredRuleset {
  const cur = latest(rs);
  if (body.kind !== undefined && body.kind !== cur.kind) throw badRequest('validation', `kind: cannot change from ${cur.kind} to ${body.kind}`);
  if (body.phase !== undefined && body.phase !== cur.phase) throw badRequest('validation', `phase: cannot change from ${cur.phase} to ${body.phase}`);
  pushVersion(zone, rs, body, (version, stamp) => materialize(cur.rules, body.rules, version, stamp, cur.phase));
  return rs;
}

export function putEntrypoint(zone: ZoneState, phase: string, body: RulesetInput & { rules: RuleInput[] }): StoredRuleset {
  const rs = findEntrypoint(zone, phase);
  if (rs) return updateRuleset(zone, rs, { ...body, kind: undefined, phase: undefined });
  if (body.kind !== undefined && body.kind !== 'zone') throw badRequest('validation', `kind: an entry point has kind zone`);
  if (body.phase !== undefined && body.phase !== phase) throw badRequest('validation', `phase: does not match the path (${phase})`);
  return createRuleset(zone, { name: body.name ?? 'default', description: body.description, kind: 'zone', phase, rules: body.rules });
}

export function deleteRuleset(zone: ZoneState, rs: StoredRuleset): void {
  zone.rulesets = zone.rulesets.filter((r) => r !== rs);
}

export function findVersion(rs: StoredRuleset, version: string): RulesetVersion {
  const v = rs.versions.find((x) => x.version === version);
  if (!v) throw notFound('versionNotFound', `ruleset ${rs.id} has no version ${version}`);
  return v;
}

export function deleteVersion(rs: StoredRuleset, version: string): void {
  const v = findVersion(rs, version);
  if (v === latest(rs)) throw conflict('latestVersion', `version ${version} is the most recent version of ruleset ${rs.id}; delete the ruleset or write a new version first`);
  rs.versions = rs.versions.filter((x) => x !== v);
}

function insertAt(rules: Rule[], rule: Rule, position: Position | undefined): Rule[] {
  const out = [...rules];
  if (!position) {
    out.push(rule);
    return out;
  }
  if ('index' in position) {
    if (position.index > out.length + 1) throw badRequest('invalidPosition', `position.index: ${position.index} is past the end (${out.length} rules)`);
    out.splice(position.index - 1, 0, rule);
    return out;
  }
  const ref = 'before' in position ? position.before : position.after;
  const at = out.findIndex((r) => r.id === ref);
  if (at < 0) throw badRequest('invalidPosition', `position: rule ${ref} is not in this ruleset`);
  out.splice('before' in position ? at : at + 1, 0, rule);
  return out;
}

export function addRule(zone: ZoneState, rs: StoredRuleset, body: RuleInput & { position?: Position }): StoredRuleset {
  const { position, ...input } = body;
  if (input.id !== undefined) throw badRequest('validation', 'id: assigned by the service');
  validateRule(input, 'body', latest(rs).phase);
  pushVersion(zone, rs, {}, (version, stamp) => insertAt(latest(rs).rules, makeRule(input, undefined, version, stamp), position));
  return rs;
}

export function patchRule(zone: ZoneState, rs: StoredRuleset, ruleId: string, body: Partial<RuleInput> & { position?: Position }): StoredRuleset {
  const rules = latest(rs).rules;
  const old = rules.find((r) => r.id === ruleId);
  if (!old) throw notFound('ruleNotFound', `rule ${ruleId} not found in ruleset ${rs.id}`);
  const { position, ...patch } = body;
  if (patch.id !== undefined && patch.id !== ruleId) throw badRequest('validation', 'id: cannot change');
  const merged: RuleInput = {
    action: patch.action ?? old.action,
    expression: patch.expression ?? old.expression,
    description: patch.description ?? old.description,
    action_parameters: patch.action_parameters ?? old.action_parameters,
    enabled: patch.enabled ?? old.enabled,
    ref: patch.ref ?? old.ref,
  };
  validateRule(merged, 'body', latest(rs).phase);
  pushVersion(zone, rs, {}, (version, stamp) => {
    let rule = makeRule(merged, old, version, stamp);
    // A move alone is a change of the rule too: it gets the new version.
    if (position && rule === old) rule = { ...old, version, last_updated: stamp };
    const others = rules.filter((r) => r.id !== ruleId);
    if (!position) return rules.map((r) => (r.id === ruleId ? rule : r));
    if (('before' in position && position.before === ruleId) || ('after' in position && position.after === ruleId)) {
      throw badRequest('invalidPosition', 'position: a rule cannot be placed relative to itself');
    }
    return insertAt(others, rule, position);
  });
  return rs;
}

export function deleteRule(zone: ZoneState, rs: StoredRuleset, ruleId: string): StoredRuleset {
  const rules = latest(rs).rules;
  if (!rules.some((r) => r.id === ruleId)) throw notFound('ruleNotFound', `rule ${ruleId} not found in ruleset ${rs.id}`);
  pushVersion(zone, rs, {}, () => rules.filter((r) => r.id !== ruleId));
  return rs;
}
