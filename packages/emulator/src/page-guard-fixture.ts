/**
 * The `page_guard` section of a zone in the fixture file: `settings`, `scripts`, `connections`, `cookies`,
 * `policies`. Every field other than `id` is optional; what is missing gets a default derived from what is given
 * (README of the emulator), so a fixture states only what a test is about.
 */
import { checkPolicyInput, explainResult, PageGuardInputError, STATUSES, type ResultSchema } from '@logfilter/api';
import { FixtureError, read } from './fixture.js';
import { emptyPageGuard, policyValueProblem, type Item, type PageGuardZone } from './page-guard-state.js';

const SECTIONS = ['settings', 'scripts', 'connections', 'cookies', 'policies'] as const;
const SCHEMA: Record<'scripts' | 'connections' | 'cookies' | 'policies', ResultSchema> = { scripts: 'script', connections: 'connection', cookies: 'cookie', policies: 'policy' };
/** The time a fixture item was "seen" when it says nothing about it: fixed, so answers are the same every run. */
export const FIXTURE_TIME = '2026-01-01T00:00:00Z';

/** The timestamp fields of monitoring items and settings: answered as written, so a fixture must write them as the API does. */
const TIMESTAMP_FIELDS = ['added_at', 'first_seen_at', 'last_seen_at', 'fetched_at', 'updated_at'] as const;
/** ISO 8601 in UTC, fractional seconds optional (description 2.1); a local offset or a bare date would be answered as such. */
const UTC_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?Z$/;

function isUtcTimestamp(value: unknown): boolean {
  const m = typeof value === 'string' ? UTC_TIMESTAMP.exec(value) : null;
  if (!m) return false;
  // A date that does not exist (2024-02-30, hour 24) would be answered as a timestamp no client can read.
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3] && d.getUTCHours() === +m[4] && d.getUTCMinutes() === +m[5] && d.getUTCSeconds() === +m[6];
}

/** Refuses a timestamp field of `obj` (and of its versions) that is not an ISO 8601 UTC timestamp, naming its place. */
function checkTimestamps(obj: Record<string, unknown>, at: string): void {
  for (const field of TIMESTAMP_FIELDS) {
    const value = obj[field];
    if (value !== undefined && value !== null && !isUtcTimestamp(value)) {
      throw new FixtureError(`${at}.${field}: ${JSON.stringify(value)} is not an ISO 8601 UTC timestamp (for example 2024-01-01T00:00:00Z)`);
    }
  }
  if (Array.isArray(obj.versions)) obj.versions.forEach((v, i) => typeof v === 'object' && v !== null && checkTimestamps(v as Record<string, unknown>, `${at}.versions[${i}]`));
}

function hostOf(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const h = new URL(url).hostname;
    return h === '' ? undefined : h;
  } catch {
    return undefined;
  }
}

function cdnCgi(url: string): boolean {
  try {
    return /(^|\/)cdn-cgi(\/|$)/.test(new URL(url).pathname);
  } catch {
    return url.includes('/cdn-cgi/');
  }
}

function observed(raw: Item, resource: 'scripts' | 'connections' | 'cookies'): Item {
  const it: Item = { ...raw };
  const pages = Array.isArray(it.page_urls) ? (it.page_urls as string[]) : undefined;
  it.host ??= hostOf(it.first_page_url) ?? hostOf(pages?.[0]) ?? (resource === 'cookies' ? undefined : hostOf(it.url)) ?? 'example.com';
  it.first_page_url ??= pages?.[0] ?? `https://${String(it.host)}/`;
  it.page_urls ??= [it.first_page_url];
  it.first_seen_at ??= it.added_at ?? FIXTURE_TIME;
  it.last_seen_at ??= it.first_seen_at;
  if (resource === 'cookies') {
    it.name ??= it.id;
    it.type ??= 'unknown';
    return it;
  }
  it.added_at ??= it.first_seen_at;
  it.url ??= `https://${String(it.host)}/${it.id}${resource === 'scripts' ? '.js' : ''}`;
  it.status ??= 'active';
  it.url_contains_cdn_cgi_path ??= cdnCgi(String(it.url));
  it.domain_reported_malicious ??= false;
  it.url_reported_malicious ??= false;
  if (resource === 'scripts' && it.versions === undefined) {
    it.versions = typeof it.hash === 'string' ? [{ hash: it.hash, ...(it.js_integrity_score !== undefined ? { js_integrity_score: it.js_integrity_score } : {}), fetched_at: it.fetched_at ?? it.last_seen_at }] : [];
  }
  return it;
}

function policy(raw: Item, where: string): Item {
  const { id, ...given } = raw;
  const p: Item = { id, description: '', action: 'log', expression: 'true', enabled: true, value: "script-src 'self'", ...given };
  const b = { ...p } as Record<string, unknown>;
  delete b.id;
  if (b.enabled === 'true' || b.enabled === 'false') b.enabled = b.enabled === 'true';
  const lineProblem = policyValueProblem(b.value);
  if (lineProblem) throw new FixtureError(`${where}.${lineProblem}`);
  try {
    checkPolicyInput(b, true);
  } catch (e) {
    if (e instanceof PageGuardInputError) throw new FixtureError(`${where}.${e.field === 'body' ? '' : e.field}: ${e.message}`);
    throw e;
  }
  return p;
}

/** Reads one zone's section; `where` is its path in the file (`zones.z1.page_guard`) for error messages. */
export function loadPageGuardFixture(section: unknown, where: string, warn: (message: string) => void = () => {}): PageGuardZone {
  if (typeof section !== 'object' || section === null || Array.isArray(section)) throw new FixtureError(`${where}: must be an object`);
  const s = section as Record<string, unknown>;
  // As the other areas do: an unknown section is a warning (it is ignored), not a failed start.
  read.keys(s, where, SECTIONS, warn);
  const zone = emptyPageGuard(FIXTURE_TIME);
  if (s.settings !== undefined) {
    const bad = explainResult('pageGuardSettings', s.settings);
    if (bad || typeof s.settings !== 'object' || s.settings === null) throw new FixtureError(`${where}.settings: ${bad ?? 'must be an object'}`);
    checkTimestamps(s.settings as Record<string, unknown>, `${where}.settings`);
    Object.assign(zone.settings, s.settings);
  }
  for (const resource of ['scripts', 'connections', 'cookies', 'policies'] as const) {
    const items = s[resource];
    if (items === undefined) continue;
    if (!Array.isArray(items)) throw new FixtureError(`${where}.${resource}: must be an array`);
    const ids = new Set<string>();
    items.forEach((raw, i) => {
      const at = `${where}.${resource}[${i}]`;
      if (typeof raw !== 'object' || raw === null || typeof (raw as Item).id !== 'string' || (raw as Item).id === '') throw new FixtureError(`${at}: an object with a string id`);
      checkTimestamps(raw as Item, at);
      const bad = explainResult(SCHEMA[resource], raw);
      if (bad) throw new FixtureError(`${at}: ${bad.replace(/^result/, '')}`);
      const item = raw as Item;
      // A status outside the table would make the item invisible to every list: refused as the typo it is.
      if (item.status !== undefined && !(STATUSES as readonly unknown[]).includes(item.status)) throw new FixtureError(`${at}.status: must be one of ${STATUSES.join(', ')}`);
      if (ids.has(item.id)) throw new FixtureError(`${at}.id: "${item.id}" is used twice`);
      ids.add(item.id);
      zone[resource].push(resource === 'policies' ? policy(item, at) : observed(item, resource));
    });
  }
  return zone;
}
