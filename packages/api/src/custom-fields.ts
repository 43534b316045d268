/**
 * Custom log fields (api README, "Calls": custom fields; emulator README, "Behaviour": `log_custom_field` rules): `log_custom_field` rules in the zone's ruleset of phase
 * `http_log_custom_fields`; the zone's fields are the union of its rules. PUT replaces all rules and has no
 * version check, so a read-merge-PUT loses a concurrent writer's change; `add` and `remove` therefore only use the
 * atomic rule calls (add one rule, delete one rule), which never touch another writer's rule. `set` replaces on
 * purpose with one PUT. Nothing invalid is ever sent.
 */
import type { LogfilterClient, CallOptions } from './client.js';
import { ApiError, ApiResponseError, CustomFieldsError, ENTRYPOINT_EXISTS } from './errors.js';
import { logpullFields, withFields } from './logpull.js';
import type { Job, Rule, RuleInput, Ruleset } from './types.js';

export const CUSTOM_FIELDS_PHASE = 'http_log_custom_fields';
export const MAX_CUSTOM_FIELDS = 40;
export const CUSTOM_FIELD_ACTION = 'log_custom_field';

export interface CustomFields {
  requestHeaders: string[];
  responseHeaders: string[];
  cookies: string[];
}

export interface CustomFieldsState {
  /** The zone ruleset of the phase, or null when the zone has none yet. */
  ruleset: Ruleset | null;
  fields: CustomFields;
}

export const emptyFields = (): CustomFields => ({ requestHeaders: [], responseHeaders: [], cookies: [] });

const LISTS = [
  ['requestHeaders', 'request_fields'],
  ['responseHeaders', 'response_fields'],
  ['cookies', 'cookie_fields'],
] as const;

/** Log fields of a job that carry each kind of custom field. */
export const JOB_FIELD_FOR = { requestHeaders: 'RequestHeaders', responseHeaders: 'ResponseHeaders', cookies: 'Cookies' } as const;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function countFields(f: CustomFields): number {
  return f.requestHeaders.length + f.responseHeaders.length + f.cookies.length;
}

/** The rules the API applies, checked before anything is sent. */
export function validateCustomFields(f: CustomFields): void {
  for (const [prop] of LISTS) {
    const seen = new Set<string>();
    for (const name of f[prop]) {
      const what = prop === 'cookies' ? 'cookie' : prop === 'requestHeaders' ? 'request header' : 'response header';
      if (!TOKEN.test(name)) throw new CustomFieldsError('invalid-name', `"${name}" is not a valid ${what} name`);
      if (prop !== 'cookies' && name !== name.toLowerCase()) {
        throw new CustomFieldsError('header-case', `${what} names are lower case: write "${name.toLowerCase()}", not "${name}"`);
      }
      if (seen.has(name)) throw new CustomFieldsError('duplicate', `${what} "${name}" is given twice`);
      seen.add(name);
    }
  }
  const n = countFields(f);
  if (n > MAX_CUSTOM_FIELDS) throw new CustomFieldsError('too-many', `${n} custom fields; a zone can have at most ${MAX_CUSTOM_FIELDS}`);
}

function names(list: unknown): string[] {
  return Array.isArray(list) ? list.map((x) => (x as { name?: unknown })?.name).filter((n): n is string => typeof n === 'string') : [];
}

/** The union of every log_custom_field rule of the ruleset, in order. */
export function fieldsOf(ruleset: Ruleset | null): CustomFields {
  const out = emptyFields();
  for (const rule of ruleset?.rules ?? []) {
    if (rule.action !== CUSTOM_FIELD_ACTION) continue;
    for (const [prop, param] of LISTS) {
      for (const n of names(rule.action_parameters?.[param])) if (!out[prop].includes(n)) out[prop].push(n);
    }
  }
  return out;
}

export function sameFields(a: CustomFields, b: CustomFields): boolean {
  return LISTS.every(([p]) => a[p].length === b[p].length && a[p].every((n, i) => n === b[p][i]));
}

/** Header names compare without case (HTTP headers are case-insensitive), cookies exactly. */
const sameName = (prop: keyof CustomFields, a: string, b: string) => (prop === 'cookies' ? a === b : a.toLowerCase() === b.toLowerCase());

export function mergeFields(base: CustomFields, add: CustomFields): CustomFields {
  const out = emptyFields();
  for (const [p] of LISTS) out[p] = [...base[p], ...add[p].filter((n, i) => !base[p].some((b) => sameName(p, b, n)) && add[p].indexOf(n) === i)];
  return out;
}

export function subtractFields(base: CustomFields, remove: CustomFields): CustomFields {
  const out = emptyFields();
  for (const [p] of LISTS) out[p] = base[p].filter((n) => !remove[p].some((r) => sameName(p, r, n)));
  return out;
}

export function intersectFields(a: CustomFields, b: CustomFields): CustomFields {
  const out = emptyFields();
  for (const [p] of LISTS) out[p] = a[p].filter((n) => b[p].some((m) => sameName(p, m, n)));
  return out;
}

/** Whether `current` holds every field of `must` and none of `mustNot`. */
function holds(current: CustomFields, must: CustomFields, mustNot: CustomFields): boolean {
  return LISTS.every(
    ([p]) => must[p].every((n) => current[p].some((c) => sameName(p, c, n))) && !mustNot[p].some((n) => current[p].some((c) => sameName(p, c, n))),
  );
}

async function findRuleset(client: LogfilterClient, zone: string, opts: CallOptions): Promise<Ruleset | null> {
  const all = await client.listAllRulesets(zone, opts);
  const found = all.find((r) => r.kind === 'zone' && r.phase === CUSTOM_FIELDS_PHASE);
  return found ? client.getRuleset(zone, found.id, opts) : null;
}

export async function getCustomFields(client: LogfilterClient, zone: string, opts: CallOptions = {}): Promise<CustomFieldsState> {
  const ruleset = await findRuleset(client, zone, opts);
  return { ruleset, fields: fieldsOf(ruleset) };
}

function toInput(rule: Rule): RuleInput {
  const { id, action, expression, description, action_parameters, enabled, ref } = rule;
  return { id, action, expression, description, action_parameters, enabled, ref };
}

/** All rules of the ruleset with its custom-field rules replaced by one rule holding `fields` (none when empty). */
export function rulesWithFields(ruleset: Ruleset, fields: CustomFields, description = 'Custom log fields (managed by logfilter)'): RuleInput[] {
  const first = ruleset.rules.find((r) => r.action === CUSTOM_FIELD_ACTION);
  const params: Record<string, { name: string }[]> = {};
  for (const [prop, param] of LISTS) if (fields[prop].length > 0) params[param] = fields[prop].map((name) => ({ name }));
  const rule: RuleInput | undefined =
    countFields(fields) === 0
      ? undefined
      : { ...(first ? { id: first.id } : {}), action: CUSTOM_FIELD_ACTION, expression: 'true', description: first?.description || description, action_parameters: params, enabled: first?.enabled ?? true };
  const out: RuleInput[] = [];
  let placed = false;
  for (const r of ruleset.rules) {
    if (r.action !== CUSTOM_FIELD_ACTION) out.push(toInput(r));
    else if (!placed && rule) {
      out.push(rule);
      placed = true;
    }
  }
  if (!placed && rule) out.push(rule);
  return out;
}

export interface ChangeResult {
  /** The ruleset after the change; null when the zone has none and nothing had to be written. */
  ruleset: Ruleset | null;
  before: CustomFields;
  fields: CustomFields;
  /** False when the zone already held exactly what was asked: nothing was written. */
  changed: boolean;
  /** Writes it took (more than one when another writer got in between). */
  attempts: number;
}

export interface ChangeOptions extends CallOptions {
  /** How many read-merge-write rounds before giving up (default 8). */
  maxAttempts?: number;
}

type Change = { kind: 'set'; fields: CustomFields } | { kind: 'add'; fields: CustomFields } | { kind: 'remove'; fields: CustomFields };

function apply(change: Change, base: CustomFields): CustomFields {
  if (change.kind === 'set') return change.fields;
  if (change.kind === 'add') return mergeFields(base, change.fields);
  return subtractFields(base, change.fields);
}

/** The first steps of the procedure: find the zone's ruleset of the phase, or create it. */
export async function ensureRuleset(client: LogfilterClient, zone: string, opts: CallOptions = {}): Promise<Ruleset> {
  const found = await findRuleset(client, zone, opts);
  if (found) return found;
  try {
    return await client.createRuleset(
      zone,
      { name: 'Custom log fields', kind: 'zone', phase: CUSTOM_FIELDS_PHASE, description: 'Request headers, response headers and cookies added to HTTP request logs' },
      opts,
    );
  } catch (e) {
    // Another writer created it first (one zone ruleset per phase): use theirs.
    if (e instanceof ApiResponseError && (e.code === ENTRYPOINT_EXISTS || e.status === 409)) {
      const again = await findRuleset(client, zone, opts);
      if (again) return again;
    }
    throw e;
  }
}

/** How many times a change starts over after losing a race (a rule or the ruleset gone under it). */
const DEFAULT_ATTEMPTS = 40;

/** A log_custom_field rule holding exactly `fields`. */
function fieldRule(fields: CustomFields, description = 'Custom log fields (managed by logfilter)'): RuleInput {
  const params: Record<string, { name: string }[]> = {};
  for (const [prop, param] of LISTS) if (fields[prop].length > 0) params[param] = fields[prop].map((name) => ({ name }));
  return { action: CUSTOM_FIELD_ACTION, expression: 'true', description, action_parameters: params, enabled: true };
}

/** The fields of one rule. */
function ruleFields(rule: Rule): CustomFields {
  return fieldsOf({ rules: [rule] } as Ruleset);
}

/** A race lost to another writer: the rule or ruleset this step was about is gone, or was replaced. */
const lostRace = (e: unknown) => e instanceof ApiResponseError && (e.status === 404 || (e.status === 400 && /is not in this ruleset/.test(e.message)));

/**
 * `add`: one POST of a new rule holding the fields not there yet. Adding a rule is atomic on the server (it
 * appends to the latest version), so no other writer's fields can be overwritten, and once the POST succeeded
 * the fields are in: no read-merge-write, nothing to lose. The server also enforces the limit of 40 atomically.
 */
async function addChange(client: LogfilterClient, zone: string, add: CustomFields, opts: ChangeOptions): Promise<ChangeResult> {
  const maxAttempts = opts.maxAttempts ?? DEFAULT_ATTEMPTS;
  let before: CustomFields | undefined;
  for (let attempt = 1; ; attempt++) {
    const ruleset = await ensureRuleset(client, zone, opts);
    const current = fieldsOf(ruleset);
    before ??= current;
    const missing = subtractFields(add, current);
    if (countFields(missing) === 0) return { ruleset, before, fields: current, changed: false, attempts: attempt - 1 };
    validateCustomFields(mergeFields(current, missing));
    try {
      const written = await client.addRule(zone, ruleset.id, fieldRule(missing), opts);
      return { ruleset: written, before, fields: fieldsOf(written), changed: true, attempts: attempt };
    } catch (e) {
      if (e instanceof ApiResponseError && e.code === 10033) throw new CustomFieldsError('too-many', `${e.message} (the zone changed while adding)`);
      if (e instanceof ApiError && e.mayHaveApplied) {
        // The POST may have gone through: the fields being there now is the answer.
        const now = await client.getRuleset(zone, ruleset.id, opts).catch(() => undefined);
        if (now && countFields(subtractFields(missing, fieldsOf(now))) === 0) return { ruleset: now, before, fields: fieldsOf(now), changed: true, attempts: attempt };
      }
      if (lostRace(e) && attempt < maxAttempts) continue; // the ruleset was deleted under us: find or create it again
      throw e;
    }
  }
}

/**
 * `remove`: each rule holding names to remove is changed on its own (PATCH of that rule, or DELETE when nothing is
 * left), never the whole ruleset, so rules added meanwhile are untouched. Adds never edit a rule (they add one),
 * so the only writers that can edit the same rule concurrently are other removers, and a name missing from a rule
 * that held it was removed on purpose. A PATCH is known to be based on the rule's latest content when the ruleset
 * version moved by one, or when the rule's own version in the version just before ours is the one we read.
 * Otherwise our PATCH may have put back names another remover took out: those (held when we read, gone just
 * before our write) are remembered as gone, and the rule is read and patched again without them, until a patch is
 * clean. A remover whose names are put back by a later writer is repaired by that writer in the same way.
 */
async function removeChange(client: LogfilterClient, zone: string, remove: CustomFields, opts: ChangeOptions): Promise<ChangeResult> {
  const maxAttempts = opts.maxAttempts ?? DEFAULT_ATTEMPTS;
  let ruleset = await findRuleset(client, zone, opts);
  if (ruleset === null) return { ruleset: null, before: emptyFields(), fields: emptyFields(), changed: false, attempts: 0 };
  const before = fieldsOf(ruleset);
  /** Per rule id: names other removers took out while we were at it. */
  const gone = new Map<string, CustomFields>();
  let writes = 0;
  for (let attempt = 1; ; attempt++) {
    const unwanted = (r: Rule) => mergeFields(remove, gone.get(r.id) ?? emptyFields());
    const target = ruleset.rules.find((r) => r.action === CUSTOM_FIELD_ACTION && countFields(intersectFields(ruleFields(r), unwanted(r))) > 0);
    if (!target) return { ruleset, before, fields: fieldsOf(ruleset), changed: writes > 0, attempts: writes };
    if (attempt > maxAttempts) throw new CustomFieldsError('empty', `the custom fields kept changing under us (${writes} writes); run the command again`);
    const keep = subtractFields(ruleFields(target), unwanted(target));
    try {
      if (countFields(keep) === 0) {
        // The rule holds nothing that should stay (other removers only take names out): deleting it is right.
        ruleset = await client.deleteRule(zone, ruleset.id, target.id, opts);
        writes++;
        continue;
      }
      const written = await client.updateRule(zone, ruleset.id, target.id, { action: 'log_custom_field', action_parameters: fieldRule(keep).action_parameters }, opts);
      writes++;
      const prior = await ruleBefore(client, zone, ruleset, written, target, opts);
      if (prior === 'clean') {
        ruleset = written;
        continue;
      }
      if (prior) gone.set(target.id, mergeFields(gone.get(target.id) ?? emptyFields(), subtractFields(ruleFields(target), ruleFields(prior))));
      await new Promise((res) => setTimeout(res, Math.random() * 10 * Math.min(attempt, 10)));
      ruleset = await client.getRuleset(zone, ruleset.id, opts);
    } catch (e) {
      if (!lostRace(e)) throw e;
      const again = await findRuleset(client, zone, opts);
      if (again === null) return { ruleset: null, before, fields: emptyFields(), changed: writes > 0, attempts: writes };
      ruleset = again;
    }
  }
}

/**
 * Whether our PATCH of `target` was based on its latest content ('clean'); otherwise the rule as it was just
 * before our write (undefined when that version is gone: the caller reads again and patches again).
 */
async function ruleBefore(client: LogfilterClient, zone: string, read: Ruleset, written: Ruleset, target: Rule, opts: CallOptions): Promise<'clean' | Rule | undefined> {
  const r = Number(read.version);
  const w = Number(written.version);
  if (Number.isInteger(r) && w === r + 1) return 'clean';
  try {
    const prior = (await client.getRulesetVersion(zone, read.id, String(w - 1), opts)).rules.find((x) => x.id === target.id);
    if (prior && prior.version === target.version) return 'clean';
    return prior;
  } catch (e) {
    if (lostRace(e)) return undefined;
    throw e;
  }
}

/**
 * `set` replaces on purpose: one PUT of all rules, the custom-field rules replaced by one holding exactly
 * `fields`. A writer that comes after it is simply later; a rule deleted under us (the PUT names it by id) makes
 * it read again and retry.
 */
async function setChange(client: LogfilterClient, zone: string, fields: CustomFields, opts: ChangeOptions): Promise<ChangeResult> {
  const maxAttempts = opts.maxAttempts ?? DEFAULT_ATTEMPTS;
  const clearing = countFields(fields) === 0;
  let before: CustomFields | undefined;
  for (let attempt = 1; ; attempt++) {
    const ruleset = clearing ? await findRuleset(client, zone, opts) : await ensureRuleset(client, zone, opts);
    if (ruleset === null) return { ruleset: null, before: emptyFields(), fields: emptyFields(), changed: false, attempts: 0 };
    const current = fieldsOf(ruleset);
    before ??= current;
    if (sameFields(current, fields) && ruleset.rules.filter((r) => r.action === CUSTOM_FIELD_ACTION).length <= 1) {
      return { ruleset, before, fields: current, changed: attempt > 1, attempts: attempt - 1 };
    }
    try {
      const written = await client.updateRuleset(zone, ruleset.id, { rules: rulesWithFields(ruleset, fields) }, opts);
      return { ruleset: written, before, fields: fieldsOf(written), changed: true, attempts: attempt };
    } catch (e) {
      if (lostRace(e) && attempt < maxAttempts) continue;
      throw e;
    }
  }
}

async function change(client: LogfilterClient, zone: string, ch: Change, opts: ChangeOptions): Promise<ChangeResult> {
  if (ch.kind !== 'remove') validateCustomFields(ch.fields);
  if (ch.kind === 'add') return addChange(client, zone, ch.fields, opts);
  if (ch.kind === 'remove') return removeChange(client, zone, ch.fields, opts);
  return setChange(client, zone, ch.fields, opts);
}

/**
 * After a failed change: which of the asked fields the zone holds now, read afresh, so the caller can say
 * truthfully whether the change is in. Undefined when even that read fails.
 */
export async function changeOutcome(
  client: LogfilterClient,
  zone: string,
  kind: 'set' | 'add' | 'remove',
  fields: CustomFields,
  opts: CallOptions = {},
): Promise<{ applied: 'all' | 'some' | 'none'; present: CustomFields } | undefined> {
  try {
    const now = fieldsOf(await findRuleset(client, zone, opts));
    const present = intersectFields(fields, now);
    const n = countFields(present);
    const total = countFields(fields);
    const done = kind === 'remove' ? total - n : kind === 'set' ? (sameFields(now, fields) ? total : -1) : n;
    return { applied: done === total ? 'all' : done <= 0 ? 'none' : 'some', present };
  } catch {
    return undefined;
  }
}

export function setCustomFields(client: LogfilterClient, zone: string, fields: CustomFields, opts: ChangeOptions = {}): Promise<ChangeResult> {
  return change(client, zone, { kind: 'set', fields }, opts);
}
export function addCustomFields(client: LogfilterClient, zone: string, fields: CustomFields, opts: ChangeOptions = {}): Promise<ChangeResult> {
  return change(client, zone, { kind: 'add', fields }, opts);
}
export function removeCustomFields(client: LogfilterClient, zone: string, fields: CustomFields, opts: ChangeOptions = {}): Promise<ChangeResult> {
  return change(client, zone, { kind: 'remove', fields }, opts);
}

export interface JobGap {
  job: Job;
  /** Log fields the job lacks to carry the zone's custom fields (Cookies, RequestHeaders, ResponseHeaders). */
  missing: string[];
  /** False when the job lists no fields (no `output_options.field_names`, no `fields=`): adding ours would narrow what it exports. */
  updatable: boolean;
}

/**
 * A job's `output_options.field_names` when it lists fields: the provider ignores `logpull_options` beside
 * `output_options`, so that list is what the job exports.
 */
function outputFieldNames(job: Job): string[] | undefined {
  const names = job.output_options?.field_names;
  return Array.isArray(names) && names.length > 0 ? names : undefined;
}

/** The log fields a job lists: `output_options.field_names`, else `fields=` of `logpull_options`; undefined when neither lists any. */
function jobFields(job: Job): string[] | undefined {
  return outputFieldNames(job) ?? logpullFields(job.logpull_options);
}

/** The procedure's last step: the zone's http_requests jobs that do not carry the configured custom fields. */
export async function jobsLackingCustomFields(client: LogfilterClient, zone: string, fields: CustomFields, opts: CallOptions = {}): Promise<JobGap[]> {
  const needed = LISTS.filter(([p]) => fields[p].length > 0).map(([p]) => JOB_FIELD_FOR[p]);
  if (needed.length === 0) return [];
  const jobs = await client.listAllJobs(zone, opts);
  const gaps: JobGap[] = [];
  for (const job of jobs) {
    if ((job.dataset ?? 'http_requests') !== 'http_requests') continue;
    const have = jobFields(job);
    const missing = needed.filter((f) => !(have ?? []).includes(f));
    if (missing.length > 0) gaps.push({ job, missing, updatable: have !== undefined });
  }
  return gaps;
}

/**
 * Adds the missing log fields to the job's field list, keeping every other option: to `output_options.field_names`
 * when the job lists its fields there, else to `fields=` of `logpull_options`.
 */
export async function addFieldsToJob(client: LogfilterClient, zone: string, gap: JobGap, opts: CallOptions = {}): Promise<Job> {
  const current = await client.getJob(zone, gap.job.id, opts);
  const names = outputFieldNames(current);
  if (names) {
    const field_names = [...names, ...gap.missing.filter((f) => !names.includes(f))];
    return client.updateJob(zone, current.id, { output_options: { ...current.output_options, field_names } }, opts);
  }
  return client.updateJob(zone, current.id, { logpull_options: withFields(current.logpull_options, gap.missing) }, opts);
}
