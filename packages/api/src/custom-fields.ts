/**
 * Custom log fields (API description 2.6, 4.4, 8): one `log_custom_field` rule in the zone's ruleset of phase
 * `http_log_custom_fields`. PUT replaces all rules, so `add` and `remove` read, merge and write; after writing
 * they read back and, when another writer got in between (the version moved by more than one, or the rule does
 * not hold what was asked), merge again on top of that writer's version. Nothing invalid is ever sent.
 */
import type { LogfilterClient, CallOptions } from './client.js';
import { ApiResponseError, CustomFieldsError, ENTRYPOINT_EXISTS } from './errors.js';
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

/** The steps 1-2 of section 4.4: find the zone's ruleset of the phase, or create it. */
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

async function change(client: LogfilterClient, zone: string, ch: Change, opts: ChangeOptions): Promise<ChangeResult> {
  if (ch.kind !== 'remove') validateCustomFields(ch.fields);
  const maxAttempts = opts.maxAttempts ?? 8;
  const clearing = ch.kind === 'remove' || (ch.kind === 'set' && countFields(ch.fields) === 0);
  // Removing from a zone that has no ruleset changes nothing: do not create one for it.
  const existing = clearing ? await findRuleset(client, zone, opts) : undefined;
  if (existing === null) return { ruleset: null, before: emptyFields(), fields: emptyFields(), changed: false, attempts: 0 };
  let ruleset = existing ?? (await ensureRuleset(client, zone, opts));
  const before = fieldsOf(ruleset);
  let base = before;
  let writes = 0;
  for (let round = 1; ; round++) {
    const desired = apply(ch, base);
    validateCustomFields(desired);
    const current = fieldsOf(ruleset);
    if (sameFields(current, desired) && ruleset.rules.filter((r) => r.action === CUSTOM_FIELD_ACTION).length <= 1) {
      return { ruleset, before, fields: current, changed: writes > 0, attempts: writes };
    }
    const readVersion = ruleset.version;
    const written = await client.updateRuleset(zone, ruleset.id, { rules: rulesWithFields(ruleset, desired) }, opts);
    writes++;
    // Read back: the latest state, and whether someone else wrote between our read and our write.
    const latest = await client.getRuleset(zone, ruleset.id, opts);
    let lost: Ruleset | null = null;
    const r = Number(readVersion);
    const w = Number(written.version);
    if (ch.kind !== 'set' && Number.isInteger(r) && Number.isInteger(w) && w > r + 1) {
      try {
        lost = await client.getRulesetVersion(zone, ruleset.id, String(w - 1), opts);
      } catch (e) {
        if (!(e instanceof ApiResponseError && e.status === 404)) throw e;
      }
    }
    const now = fieldsOf(latest);
    if (!lost && holds(now, ch.kind === 'remove' ? emptyFields() : ch.fields, ch.kind === 'remove' ? ch.fields : emptyFields())) {
      if (ch.kind !== 'set' || sameFields(now, desired)) return { ruleset: latest, before, fields: now, changed: true, attempts: writes };
    }
    if (round >= maxAttempts) {
      throw new CustomFieldsError('empty', `the custom fields kept changing under us (${writes} writes); run the command again`);
    }
    // Merge again on top of what the other writer wrote: the version we overwrote plus what came after ours.
    // What the version we overwrote had and our write dropped is put back. (What it lacked is not taken as a
    // removal: it may itself have been a write that lost fields, which its writer restores in the same way. A
    // remover checks its own result after writing, so a concurrent remove still ends up done.)
    base = lost ? mergeFields(now, subtractFields(fieldsOf(lost), fieldsOf(written))) : now;
    ruleset = latest;
    await new Promise((res) => setTimeout(res, 5 + Math.random() * 20 * round));
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
  /** False when the job has no explicit `fields=` list: adding ours would narrow what it exports. */
  updatable: boolean;
}

/** Step 4 of section 4.4: the zone's http_requests jobs that do not carry the configured custom fields. */
export async function jobsLackingCustomFields(client: LogfilterClient, zone: string, fields: CustomFields, opts: CallOptions = {}): Promise<JobGap[]> {
  const needed = LISTS.filter(([p]) => fields[p].length > 0).map(([p]) => JOB_FIELD_FOR[p]);
  if (needed.length === 0) return [];
  const jobs = await client.listAllJobs(zone, opts);
  const gaps: JobGap[] = [];
  for (const job of jobs) {
    if ((job.dataset ?? 'http_requests') !== 'http_requests') continue;
    const have = logpullFields(job.logpull_options);
    const missing = needed.filter((f) => !(have ?? []).includes(f));
    if (missing.length > 0) gaps.push({ job, missing, updatable: have !== undefined });
  }
  return gaps;
}

/** Adds the missing log fields to a job's `fields=` list, keeping every other option. */
export async function addFieldsToJob(client: LogfilterClient, zone: string, gap: JobGap, opts: CallOptions = {}): Promise<Job> {
  const current = await client.getJob(zone, gap.job.id, opts);
  return client.updateJob(zone, current.id, { logpull_options: withFields(current.logpull_options, gap.missing) }, opts);
}
