/**
 * Rulesets of a zone or an account (README, "Paths": rulesets and "Behaviour"): every change writes a new
 * version ("1", "2", …, never reused); viewing gives the latest; rules keep the version in which they last
 * changed. One entry point (kind zone, or root for an account) per phase. Managed rulesets are read-only, and
 * a ruleset an execute rule runs cannot be deleted.
 */
import { badRequest, clip, conflict, fail, notFound } from './errors.js';
import type { EmulatorState, Rule, RulesetScope, RulesetVersion, StoredRuleset, ZoneState } from './state.js';
import type { Position, RuleInput, RulesetInput } from './ruleset-input.js';
import { validateRule, checkCustomFieldLimit, type RulePlace } from './rules-validate.js';
import { ENTRYPOINT_KIND, PHASES } from './rules-table.js';
import { MANAGED_RULESETS, isManaged } from './managed-rulesets.js';
import { newId } from './ids.js';

export type ScopeKind = keyof typeof ENTRYPOINT_KIND;

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

/** What a scope can read by id: the managed rulesets first, then its own. */
export function visibleRulesets(scope: RulesetScope): StoredRuleset[] {
  return [...MANAGED_RULESETS, ...scope.rulesets];
}

/**
 * What a scope's list shows, in the provider's order: its own rulesets (oldest first), then the managed ones it can
 * execute. `places` keep a cursor valid across deletes (routing.ts): own rulesets by their creation number, the
 * managed ones after any number an own ruleset can get.
 */
export function listed(scope: RulesetScope): { items: StoredRuleset[]; places: number[] } {
  const managedPlace = (i: number) => Number.MAX_SAFE_INTEGER - MANAGED_RULESETS.length + i;
  return {
    items: [...scope.rulesets, ...MANAGED_RULESETS],
    places: [...scope.rulesets.map((r) => r.seq ?? -1), ...MANAGED_RULESETS.map((_, i) => managedPlace(i))],
  };
}

/** The ruleset an execute rule of a scope names, when the scope can run it (undefined otherwise). */
export type ExecuteLookup = (id: unknown) => StoredRuleset | undefined;

/**
 * What an execute rule in `scope` can run: the managed rulesets, the scope's own and, in a zone, its account's
 * (a zone's rulesets are not run from its account, nor one zone's from another). The migration and every
 * ruleset write judge with this one lookup.
 */
export function executeLookup(state: EmulatorState, scope: RulesetScope): ExecuteLookup {
  const account = 'account' in scope ? (scope as ZoneState).account : null;
  const accountRulesets = account !== null && Object.hasOwn(state.accounts, account) ? state.accounts[account].rulesets : [];
  return (id) => (typeof id === 'string' ? [...visibleRulesets(scope), ...accountRulesets].find((r) => r.id === id) : undefined);
}

/**
 * An execute rule must name a ruleset the scope can run; a body naming one that is not there is refused as a body
 * naming an absent rule is (10021, pointer at the id). Disabled rules too: they run once enabled.
 */
function checkExecuteTarget(rule: RuleInput, where: string, runs: ExecuteLookup): void {
  if (rule.action !== 'execute') return;
  const at = (field: string) => (where === 'body' ? `/action_parameters/${field}` : `/${where.replace(/\./g, '/')}/action_parameters/${field}`);
  const dotted = (field: string) => (where === 'body' ? `action_parameters.${field}` : `${where}.action_parameters.${field}`);
  const id = rule.action_parameters?.id;
  const target = runs(id);
  if (!target) {
    throw badRequest('validation', `${dotted('id')}: no ruleset ${clip(String(id))} that this scope can execute (the managed rulesets, the scope's own, a zone's account's)`, at('id'));
  }
  // a version pins the ruleset at that version: it must be one it has (deleted ones are gone); `latest` is the current one
  const version = rule.action_parameters?.version;
  if (typeof version === 'string' && version !== 'latest' && !target.versions.some((v) => v.version === version)) {
    throw badRequest('validation', `${dotted('version')}: ruleset ${target.id} has no version ${clip(version)} (its versions: ${target.versions.map((v) => v.version).join(', ')})`, at('version'));
  }
}

export function findRuleset(scope: RulesetScope, id: string): StoredRuleset {
  const rs = visibleRulesets(scope).find((r) => r.id === id);
  if (!rs) throw notFound('rulesetNotFound', `ruleset ${id} not found`);
  return rs;
}

function writable(rs: StoredRuleset): void {
  if (isManaged(rs)) throw fail(403, 'managedReadOnly', `ruleset ${rs.id} is a managed ruleset: it cannot be changed; run it with an execute rule and overrides`);
}

export function findEntrypoint(scope: RulesetScope, scopeKind: ScopeKind, phase: string): StoredRuleset | undefined {
  return scope.rulesets.find((r) => latest(r).kind === ENTRYPOINT_KIND[scopeKind] && latest(r).phase === phase);
}

/** A phase the rulesets API knows, in a body or a path (the PUT of an entry point and its GETs answer alike). */
export function checkPhase(phase: string): void {
  if (!(PHASES as readonly string[]).includes(phase)) throw badRequest('unknownPhase', `phase: unknown phase "${phase}" (one of ${PHASES.join(', ')})`, '/phase');
}

function sameContent(a: Rule, b: Omit<Rule, 'id' | 'version' | 'last_updated'>): boolean {
  return (
    a.action === b.action &&
    a.expression === b.expression &&
    a.description === b.description &&
    a.enabled === b.enabled &&
    a.ref === b.ref &&
    JSON.stringify(a.action_parameters ?? null) === JSON.stringify(b.action_parameters ?? null) &&
    JSON.stringify(a.logging ?? null) === JSON.stringify(b.logging ?? null)
  );
}

/**
 * Turns input rules into stored rules for `version`, keeping id and version of rules sent back unchanged. A rule
 * sent without id but with the ref of a rule of the ruleset is that rule, as the provider matches them (so tools
 * that name rules by ref, such as its Terraform provider, keep rule ids across updates).
 */
function materialize(previous: Rule[], inputs: RuleInput[], phase: string, version: string, stamp: string, runs: ExecuteLookup): Rule[] {
  const seen = new Set<string>();
  const rules = inputs.map((input, i) => {
    validateRule(input, `rules.${i}`, phase);
    checkExecuteTarget(input, `rules.${i}`, runs);
    // An empty id (or ref) is a new rule: the migration's proposed configuration carries "" and is sent back as is.
    const id = input.id === '' ? undefined : input.id;
    const ref = input.ref === '' ? undefined : input.ref;
    const old = id !== undefined ? previous.find((r) => r.id === id) : ref !== undefined ? previous.find((r) => r.ref === ref && !seen.has(r.id)) : undefined;
    if (id !== undefined && !old) throw badRequest('validation', `rules.${i}.id: rule ${id} is not in this ruleset`, `/rules/${i}/id`);
    if (id !== undefined && seen.has(id)) throw badRequest('validation', `rules.${i}.id: rule ${id} appears twice`, `/rules/${i}/id`);
    if (old) seen.add(old.id);
    return makeRule(input, old, version, stamp);
  });
  const refs = new Set<string>();
  rules.forEach((rule, i) => {
    if (refs.has(rule.ref)) throw badRequest('validation', `rules.${i}.ref: ${clip(rule.ref)} is the ref of another rule of the ruleset; a ref names one rule`, `/rules/${i}/ref`);
    refs.add(rule.ref);
  });
  return rules;
}

/** A rule added or patched alone may not take the ref of another rule of the ruleset. */
function checkRefFree(rules: readonly Rule[], ref: string | undefined, ruleId?: string): void {
  if (ref === undefined || ref === '') return;
  if (rules.some((r) => r.id !== ruleId && r.ref === ref)) throw badRequest('validation', `ref: ${clip(ref)} is the ref of another rule of the ruleset; a ref names one rule`, '/ref');
}

function makeRule(input: RuleInput, old: Rule | undefined, version: string, stamp: string): Rule {
  const id = old?.id ?? newId();
  const content = {
    action: input.action,
    expression: input.expression,
    description: input.description ?? '',
    ...(input.action_parameters !== undefined ? { action_parameters: input.action_parameters } : {}),
    ...(input.logging !== undefined ? { logging: input.logging } : {}),
    enabled: input.enabled ?? true,
    ref: input.ref || old?.ref || id,
  };
  if (old && sameContent(old, content)) return old;
  return { id, version, ...content, last_updated: stamp };
}

/** A whole ruleset's rules are the body's `rules`, in the order sent. */
const BODY_RULES: RulePlace = (_rule, i) => `/rules/${i}`;

function pushVersion(scope: RulesetScope, rs: StoredRuleset, props: { description?: string }, rules: (version: string, stamp: string) => Rule[], place?: RulePlace): void {
  const version = String(rs.nextVersion);
  const stamp = now();
  const prev = latest(rs);
  const next: RulesetVersion = {
    version,
    name: prev.name,
    description: props.description ?? prev.description,
    kind: prev.kind,
    phase: prev.phase,
    rules: rules(version, stamp),
    last_updated: stamp,
  };
  checkCustomFieldLimit(scope, rs.id, next.rules, place);
  rs.versions.push(next);
  rs.nextVersion += 1;
}

export function createRuleset(scope: RulesetScope, scopeKind: ScopeKind, body: RulesetInput & { name: string; kind: string; phase: string }, runs: ExecuteLookup): StoredRuleset {
  if (body.kind === 'managed') throw fail(403, 'managedReadOnly', 'kind: managed rulesets are provided by the service and cannot be created', '/kind');
  const otherEntry = scopeKind === 'zone' ? 'root' : 'zone';
  if (body.kind === otherEntry) throw badRequest('kindScope', `kind: ${scopeKind === 'account' ? 'an' : 'a'} ${scopeKind} cannot have a ruleset of kind ${otherEntry} (its entry point kind is ${ENTRYPOINT_KIND[scopeKind]})`, '/kind');
  checkPhase(body.phase);
  if (body.kind === ENTRYPOINT_KIND[scopeKind] && findEntrypoint(scope, scopeKind, body.phase)) {
    // The provider's message, word for word (its public threads quote it).
    throw badRequest('phaseConflict', `'${body.kind}' is not a valid value for kind because exceeded maximum number of ${body.kind} rulesets for phase ${body.phase}`, '/kind');
  }
  const stamp = now();
  const rules = materialize([], body.rules ?? [], body.phase, '1', stamp, runs);
  const rs: StoredRuleset = {
    id: newId(),
    versions: [{ version: '1', name: body.name, description: body.description ?? '', kind: body.kind, phase: body.phase, rules, last_updated: stamp }],
    nextVersion: 2,
  };
  checkCustomFieldLimit(scope, rs.id, rules, BODY_RULES);
  rs.seq = scope.nextRulesetSeq ?? scope.rulesets.length;
  scope.nextRulesetSeq = rs.seq + 1;
  scope.rulesets.push(rs);
  return rs;
}

export function updateRuleset(scope: RulesetScope, rs: StoredRuleset, body: RulesetInput & { rules: RuleInput[] }, runs: ExecuteLookup): StoredRuleset {
  writable(rs);
  const cur = latest(rs);
  for (const field of ['name', 'kind', 'phase'] as const) {
    const sent = body[field];
    if (sent !== undefined && sent !== cur[field]) throw badRequest('immutableProperty', `${field}: cannot change from ${cur[field]} to ${sent}`, `/${field}`);
  }
  pushVersion(scope, rs, body, (version, stamp) => materialize(cur.rules, body.rules, cur.phase, version, stamp, runs), BODY_RULES);
  return rs;
}

export function putEntrypoint(scope: RulesetScope, scopeKind: ScopeKind, phase: string, body: RulesetInput & { rules: RuleInput[] }, runs: ExecuteLookup): StoredRuleset {
  checkPhase(phase);
  const rs = findEntrypoint(scope, scopeKind, phase);
  const kind = ENTRYPOINT_KIND[scopeKind];
  if (body.kind !== undefined && body.kind !== kind) throw badRequest('immutableProperty', `kind: the entry point of a ${scopeKind} has kind ${kind}`, '/kind');
  if (body.phase !== undefined && body.phase !== phase) throw badRequest('immutableProperty', `phase: does not match the path (${phase})`, '/phase');
  // The entry point is addressed by its phase: a name in the body is ignored when it exists (names cannot change).
  if (rs) return updateRuleset(scope, rs, { description: body.description, rules: body.rules }, runs);
  return createRuleset(scope, scopeKind, { name: body.name ?? 'default', description: body.description, kind, phase, rules: body.rules }, runs);
}

/** Execute rules of every zone and account that run ruleset `id` (at `version`, or its latest when none is named). */
function executors(state: EmulatorState, id: string): { version?: string; where: string }[] {
  const out: { version?: string; where: string }[] = [];
  const scopes: [string, RulesetScope][] = [
    ...Object.entries(state.zones).map(([k, v]): [string, RulesetScope] => [`zone ${k}`, v]),
    ...Object.entries(state.accounts).map(([k, v]): [string, RulesetScope] => [`account ${k}`, v]),
  ];
  for (const [name, scope] of scopes) {
    for (const rs of scope.rulesets) {
      for (const rule of latest(rs).rules) {
        const params = rule.action_parameters;
        if (rule.action === 'execute' && params?.id === id) {
          out.push({ version: typeof params.version === 'string' ? params.version : undefined, where: `rule ${rule.id} of ruleset ${rs.id} (${name})` });
        }
      }
    }
  }
  return out;
}

export function deleteRuleset(state: EmulatorState, scope: RulesetScope, rs: StoredRuleset): void {
  writable(rs);
  const users = executors(state, rs.id);
  if (users.length > 0) throw conflict('referenced', `ruleset ${rs.id} is run by ${users[0].where}; remove that execute rule first`);
  scope.rulesets = scope.rulesets.filter((r) => r !== rs);
}

export function findVersion(rs: StoredRuleset, version: string): RulesetVersion {
  const v = rs.versions.find((x) => x.version === version);
  if (!v) throw notFound('versionNotFound', `ruleset ${rs.id} has no version ${version}`);
  return v;
}

/**
 * Deletes one version. The latest one goes too when no execute rule runs the ruleset (README, "Behaviour"): the
 * version before it becomes current again (its number is still never reused). The only version cannot go (delete
 * the ruleset), nor a version an execute rule names, nor the latest while an execute rule runs the ruleset.
 */
export function deleteVersion(state: EmulatorState, scope: RulesetScope, rs: StoredRuleset, version: string): void {
  writable(rs);
  const v = findVersion(rs, version);
  if (rs.versions.length === 1) throw conflict('latestVersion', `version ${version} is the only version of ruleset ${rs.id}; delete the ruleset instead`);
  const users = executors(state, rs.id);
  const named = users.find((u) => u.version === version);
  if (named) throw conflict('referenced', `version ${version} of ruleset ${rs.id} is run by ${named.where}`);
  if (v === latest(rs)) {
    const deployed = users.find((u) => u.version === undefined);
    if (deployed) throw conflict('referenced', `version ${version} is the latest version of ruleset ${rs.id}, which ${deployed.where} runs; it cannot be deleted while deployed`);
    const previous = rs.versions[rs.versions.length - 2];
    checkCustomFieldLimit(scope, rs.id, previous.rules);
  }
  rs.versions = rs.versions.filter((x) => x !== v);
}

/** The ruleset at `version` with only the rules whose categories hold `tag`. */
export function byTag(rs: StoredRuleset, version: string, tag: string) {
  const v = findVersion(rs, version);
  return { ...summary(rs, v), rules: v.rules.filter((r) => r.categories?.includes(tag)) };
}

/** Reads a `position` from a body: exactly one of before (rule id, "" = first), after (rule id, "" = last), index (1-based). */
export function readPosition(raw: unknown): Position | undefined {
  if (raw === undefined) return undefined;
  // The shape is `/position`'s fault; a value is its key's (`/position/index`), as the range check points.
  const bad = (why: string, key?: string) => badRequest('invalidPosition', `position: ${why}`, key === undefined ? '/position' : `/position/${key}`);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw bad('must be an object with one of before, after, index');
  const keys = Object.keys(raw);
  if (keys.length !== 1 || !['before', 'after', 'index'].includes(keys[0])) throw bad('give exactly one of before, after, index');
  const value = (raw as Record<string, unknown>)[keys[0]];
  if (keys[0] === 'index') {
    if (typeof value !== 'number' || !Number.isInteger(value)) throw bad('index must be an integer (1 is the first rule)', 'index');
    return { index: value };
  }
  if (typeof value !== 'string') throw bad(`${keys[0]} must be a rule id ("" for ${keys[0] === 'before' ? 'first' : 'last'})`, keys[0]);
  return keys[0] === 'before' ? { before: value } : { after: value };
}

function insertAt(rules: Rule[], rule: Rule, position: Position | undefined): Rule[] {
  const out = [...rules];
  if (!position || ('after' in position && position.after === '')) {
    out.push(rule);
    return out;
  }
  if ('before' in position && position.before === '') {
    out.unshift(rule);
    return out;
  }
  if ('index' in position) {
    if (position.index < 1 || position.index > out.length + 1) {
      throw badRequest('invalidPosition', `position.index: ${position.index} is out of range (1 to ${out.length + 1})`, '/position/index');
    }
    out.splice(position.index - 1, 0, rule);
    return out;
  }
  const ref = 'before' in position ? position.before : position.after;
  const at = out.findIndex((r) => r.id === ref);
  if (at < 0) throw badRequest('invalidPosition', `position: rule ${ref} is not in this ruleset`, `/position/${'before' in position ? 'before' : 'after'}`);
  out.splice('before' in position ? at : at + 1, 0, rule);
  return out;
}

export function addRule(scope: RulesetScope, rs: StoredRuleset, body: RuleInput & { position?: unknown }, runs: ExecuteLookup): StoredRuleset {
  writable(rs);
  const { position: rawPosition, ...input } = body;
  const position = readPosition(rawPosition);
  if (input.id !== undefined) throw badRequest('validation', 'id: assigned by the service', '/id');
  const phase = latest(rs).phase;
  validateRule(input, 'body', phase);
  checkExecuteTarget(input, 'body', runs);
  checkRefFree(latest(rs).rules, input.ref);
  let added: Rule | undefined;
  pushVersion(scope, rs, {}, (version, stamp) => insertAt(latest(rs).rules, (added = makeRule(input, undefined, version, stamp)), position), (r) => (r === added ? '' : undefined));
  return rs;
}

export function patchRule(scope: RulesetScope, rs: StoredRuleset, ruleId: string, body: Partial<RuleInput> & { position?: unknown }, runs: ExecuteLookup): StoredRuleset {
  writable(rs);
  const rules = latest(rs).rules;
  const old = rules.find((r) => r.id === ruleId);
  if (!old) throw notFound('ruleNotFound', `rule ${ruleId} not found in ruleset ${rs.id}`);
  const { position: rawPosition, ...patch } = body;
  const position = readPosition(rawPosition);
  if (patch.id !== undefined && patch.id !== ruleId) throw badRequest('validation', 'id: cannot change', '/id');
  // As the provider: action parameters belong to an action, so a PATCH that changes them names the action too.
  if (patch.action_parameters !== undefined && patch.action === undefined) {
    throw badRequest('validation', 'action: required when action_parameters is given (send the rule\'s action with its parameters)', '/action');
  }
  const merged: RuleInput = {
    action: patch.action ?? old.action,
    expression: patch.expression ?? old.expression,
    description: patch.description ?? old.description,
    action_parameters: patch.action_parameters ?? old.action_parameters,
    // A change of action away from skip drops logging (it is only allowed with skip) unless it is sent again.
    logging: patch.logging ?? ((patch.action ?? old.action) === 'skip' ? old.logging : undefined),
    enabled: patch.enabled ?? old.enabled,
    ref: patch.ref ?? old.ref,
  };
  validateRule(merged, 'body', latest(rs).phase);
  checkExecuteTarget(merged, 'body', runs);
  checkRefFree(rules, patch.ref, ruleId);
  pushVersion(scope, rs, {}, (version, stamp) => {
    let rule = makeRule(merged, old, version, stamp);
    // A move alone is a change of the rule too: it gets the new version.
    if (position && rule === old) rule = { ...old, version, last_updated: stamp };
    if (!position) return rules.map((r) => (r.id === ruleId ? rule : r));
    if (('before' in position && position.before === ruleId) || ('after' in position && position.after === ruleId)) {
      throw badRequest('invalidPosition', 'position: a rule cannot be placed relative to itself', `/position/${'before' in position ? 'before' : 'after'}`);
    }
    return insertAt(rules.filter((r) => r.id !== ruleId), rule, position);
  }, (r) => (r.id === ruleId ? '' : undefined));
  return rs;
}

export function deleteRule(scope: RulesetScope, rs: StoredRuleset, ruleId: string): StoredRuleset {
  writable(rs);
  const rules = latest(rs).rules;
  if (!rules.some((r) => r.id === ruleId)) throw notFound('ruleNotFound', `rule ${ruleId} not found in ruleset ${rs.id}`);
  pushVersion(scope, rs, {}, () => rules.filter((r) => r.id !== ruleId));
  return rs;
}
