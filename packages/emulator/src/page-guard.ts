/**
 * Page monitoring (README, "Paths" and `page_guard` fixture; @logfilter/api README, "Page monitoring (area A)"): settings, scripts, connections, cookies and policies, with
 * the list semantics of the public API (default `status=active`, `hosts`/`page_url` wildcards, URL substrings,
 * `exclude_cdn_cgi` and `exclude_duplicates` on by default, ordering, `prioritize_malicious`, paging, `page=all`,
 * `export=csv`). Parameters are checked with the same table the client uses (@logfilter/api), policies with the same
 * CSP checker. Its state is the zone's `page_guard` section, fed by the fixture file.
 */
import { stringify } from 'csv-stringify/sync';
import { validateExpression } from './expression-validate.js';
import {
  checkListQuery,
  checkPolicyInput,
  csvCell,
  CSV_COLUMNS,
  DEFAULT_PER_PAGE,
  DEFAULT_STATUS,
  isMaliciousConnection,
  isMaliciousScript,
  matchesPattern,
  MAX_CSV_ROWS,
  PageGuardInputError,
  PolicyValueError,
  type PageGuardResource,
  type PolicyUpdate,
} from '@logfilter/api';
import { randomBytes } from 'node:crypto';
import { clip, fail, type ErrorCodeName } from './errors.js';
import { wholeList, type Area, type Route } from './routing.js';
import type { Store } from './state.js';
import { emptyPageGuard, policyValueProblem, type Item, type PageGuardZone } from './page-guard-state.js';
import { FIXTURE_TIME, loadPageGuardFixture } from './page-guard-fixture.js';
import { BODY_FIELDS, checkBodyFields } from './body-fields.js';

const NOT_FOUND: Record<PageGuardResource | 'policies', ErrorCodeName> = {
  scripts: 'scriptNotFound',
  connections: 'connectionNotFound',
  cookies: 'cookieNotFound',
  policies: 'policyNotFound',
};
const SINGULAR: Record<PageGuardResource | 'policies', string> = { scripts: 'script', connections: 'connection', cookies: 'cookie', policies: 'policy' };
const SETTINGS_FIELDS: readonly string[] = BODY_FIELDS.settings.fields;

/** The settings as the provider answers them: all four fields, the booleans never set being false. */
function settingsAnswer(settings: PageGuardZone['settings']) {
  return { use_service_reporting_endpoint: false, use_connection_url_path: false, ...settings };
}


// ---- list semantics ----

const list = (raw: string | null) => (raw === null ? undefined : raw.split(','));
const bool = (raw: string | null, dflt: boolean) => (raw === null ? dflt : raw === 'true');
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const time = (v: unknown) => {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(t) ? 0 : t;
};

function pageUrls(item: Item): string[] {
  const urls = Array.isArray(item.page_urls) ? item.page_urls.filter((u): u is string => typeof u === 'string') : [];
  return typeof item.first_page_url === 'string' && !urls.includes(item.first_page_url) ? [item.first_page_url, ...urls] : urls;
}

function urlHost(url: unknown): string {
  try {
    return new URL(str(url)).hostname;
  } catch {
    return '';
  }
}

function isMalicious(resource: PageGuardResource, item: Item): boolean {
  if (resource === 'scripts') return isMaliciousScript(item as { js_integrity_score?: number });
  if (resource === 'connections') return isMaliciousConnection(item as { domain_reported_malicious?: boolean });
  return false;
}

/** Same content (hash), same URL host, same zone host: one is kept, the newest (last seen, then added, then id). */
function withoutDuplicates(items: Item[]): Item[] {
  const newest = new Map<string, Item>();
  const newer = (a: Item, b: Item) => time(a.last_seen_at) - time(b.last_seen_at) || time(a.added_at) - time(b.added_at) || (a.id > b.id ? 1 : -1);
  for (const it of items) {
    if (typeof it.hash !== 'string' || it.hash === '') continue;
    const key = `${it.hash}\u0000${urlHost(it.url)}\u0000${str(it.host)}`;
    const cur = newest.get(key);
    if (!cur || newer(it, cur) > 0) newest.set(key, it);
  }
  return items.filter((it) => typeof it.hash !== 'string' || it.hash === '' || newest.get(`${it.hash}\u0000${urlHost(it.url)}\u0000${str(it.host)}`) === it);
}

/** Applies every filter and the order of a checked query. */
export function selectItems(resource: PageGuardResource, items: Item[], q: URLSearchParams): Item[] {
  let out = items;
  const any = (patterns: string[] | undefined, values: string[], ci: boolean) => patterns === undefined || patterns.some((p) => values.some((v) => matchesPattern(p, v, ci)));
  const hosts = list(q.get('hosts'));
  out = out.filter((it) => any(hosts, [str(it.host)], true));
  const pages = list(q.get('page_url'));
  out = out.filter((it) => any(pages, pageUrls(it), false));
  if (resource !== 'cookies') {
    const statuses = list(q.get('status')) ?? [DEFAULT_STATUS];
    out = out.filter((it) => statuses.includes(str(it.status) || DEFAULT_STATUS));
    const urls = list(q.get('urls'));
    if (urls) out = out.filter((it) => urls.some((u) => str(it.url).includes(u)));
    const exclude = list(q.get('exclude_urls'));
    if (exclude) out = out.filter((it) => !exclude.some((u) => str(it.url).includes(u)));
    if (bool(q.get('exclude_cdn_cgi'), true)) out = out.filter((it) => it.url_contains_cdn_cgi_path !== true);
    if (resource === 'scripts' && bool(q.get('exclude_duplicates'), true)) out = withoutDuplicates(out);
  } else {
    for (const [param, field] of [['domain', 'domain_attribute'], ['path', 'path_attribute'], ['name', 'name']] as const) {
      const patterns = list(q.get(param));
      out = out.filter((it) => any(patterns, [str(it[field])], param === 'domain'));
    }
    for (const [param, field] of [['http_only', 'http_only_attribute'], ['secure', 'secure_attribute']] as const) {
      const raw = q.get(param);
      if (raw !== null) out = out.filter((it) => (it[field] === true) === (raw === 'true'));
    }
    const sameSite = q.get('same_site');
    if (sameSite !== null) out = out.filter((it) => str(it.same_site_attribute).toLowerCase() === sameSite);
    const type = q.get('type');
    if (type !== null) out = out.filter((it) => it.type === type);
  }
  const field = q.get('order_by') ?? 'first_seen_at';
  const sign = (q.get('direction') ?? 'desc') === 'asc' ? 1 : -1;
  // Times parsed once per item, not once per comparison.
  out = out
    .map((it) => ({ it, t: time(it[field]) }))
    .sort((a, b) => sign * (a.t - b.t) || (a.it.id < b.it.id ? -1 : a.it.id > b.it.id ? 1 : 0))
    .map((x) => x.it);
  if (resource !== 'cookies' && bool(q.get('prioritize_malicious'), false)) {
    out = [...out.filter((it) => isMalicious(resource, it)), ...out.filter((it) => !isMalicious(resource, it))];
  }
  return out;
}

/** What a list item shows: no versions (description: single script only); with page=all, no categories either. */
function listItem(item: Item, all: boolean): Item {
  const { versions: _v, ...rest } = item;
  if (!all) return rest as Item;
  const { malicious_domain_categories: _d, malicious_url_categories: _u, ...bare } = rest;
  return bare as Item;
}

/** The CSV of `export=csv`: a header of CSV_COLUMNS, then at most MAX_CSV_ROWS items in list order. */
export function csvExport(resource: PageGuardResource, items: Item[]): string {
  const columns = CSV_COLUMNS[resource];
  const rows = items.slice(0, MAX_CSV_ROWS).map((it) => columns.map((c) => csvCell(it[c])));
  return stringify(rows, { header: true, columns: [...columns], record_delimiter: 'unix' });
}

function listAnswer(resource: PageGuardResource, items: Item[], q: URLSearchParams) {
  const problem = checkListQuery(resource, q.entries());
  if (problem) throw fail(400, 'pageGuardParameter', problem.message, `/${problem.parameter}`);
  const selected = selectItems(resource, items, q);
  if (q.get('export') === 'csv') return { raw: { contentType: 'text/csv; charset=utf-8', body: csvExport(resource, selected) } };
  if (q.get('page') === 'all') {
    return wholeList(selected.map((it) => listItem(it, true)));
  }
  const page = Number(q.get('page') ?? 1);
  const perPage = Number(q.get('per_page') ?? DEFAULT_PER_PAGE);
  const result = selected.slice((page - 1) * perPage, page * perPage).map((it) => listItem(it, false));
  return { result, resultInfo: { page, per_page: perPage, count: result.length, total_count: selected.length, total_pages: Math.ceil(selected.length / perPage) } };
}

// ---- policies and settings ----

/** The body as the client's checker sees it: `enabled` may come as the text "true"/"false" (@logfilter/api README, "Page monitoring (area A)"). */
function checkPolicyBody(body: unknown, create: boolean): PolicyUpdate {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw fail(400, 'policyInvalid', 'body: a policy object', '');
  checkBodyFields('policy', body);
  const b = readOnlyDropped(body, BODY_FIELDS.policy.readOnly) as Record<string, unknown>;
  const lineProblem = policyValueProblem(b.value);
  if (lineProblem) throw fail(400, 'policyValueInvalid', lineProblem, '/value');
  const enabledText = b.enabled === 'true' || b.enabled === 'false';
  if (enabledText) b.enabled = b.enabled === 'true';
  try {
    checkPolicyInput(b as PolicyUpdate, create);
  } catch (e) {
    if (e instanceof PolicyValueError) throw fail(400, 'policyValueInvalid', e.message, '/value');
    if (e instanceof PageGuardInputError) throw fail(400, 'policyInvalid', e.message, e.field === 'body' ? '' : `/${e.field}`);
    throw e;
  }
  // a policy's expression is a rules-language filter of the page monitoring phase, refused as the API does
  if (b.expression !== undefined) validateExpression(b.expression, 'expression', 'body.expression', { phase: 'http_response_page_shield' });
  // Answer `enabled` in the form it was sent: a boolean stays one, the text stays text.
  if (enabledText) b.enabled = (body as Record<string, unknown>).enabled;
  return b as PolicyUpdate;
}

function find(zone: PageGuardZone, resource: PageGuardResource | 'policies', id: string): Item {
  const it = zone[resource].find((x) => x.id === id);
  if (!it) throw fail(404, NOT_FOUND[resource], `${SINGULAR[resource]} ${id} not found`);
  return it;
}

/** A body object without the given read-only answer fields (anything else is passed on as it is). */
function readOnlyDropped(body: unknown, fields: readonly string[]): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([k]) => !fields.includes(k)));
}

/** A timestamp later than `previous` even when the clock has not moved (two PUTs in one millisecond). */
function later(previous: string): string {
  const now = Date.now();
  const prev = Date.parse(previous);
  return new Date(Number.isNaN(prev) || now > prev ? now : prev + 1).toISOString();
}

export function pageGuardOf(store: Store, zoneId: string): PageGuardZone {
  const z = store.zone(zoneId);
  // A read answers the defaults without keeping them: reads never create state. Settings never set carry the
  // fixture time, so every read, and a change that is not to the settings (a policy), answers the same updated_at.
  if (store.reading) return z.page_guard ?? emptyPageGuard(FIXTURE_TIME);
  return (z.page_guard ??= emptyPageGuard(FIXTURE_TIME));
}

export function pageGuardRoutes(store: Store): Route[] {
  const pg = (p: Record<string, string>) => pageGuardOf(store, p.zone);
  const P = ['zones', ':zone', 'page_guard'];
  const routes: Route[] = [
    {
      pattern: P,
      methods: {
        GET: (_c, p) => ({ result: settingsAnswer(pg(p).settings) }),
        PUT: (c, p) => {
          // What a GET answered may be sent back whole: its read-only `updated_at` is not a setting, and is ignored.
          checkBodyFields('settings', c.body);
          const body = readOnlyDropped(c.body, BODY_FIELDS.settings.readOnly);
          if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length === 0) {
            throw fail(400, 'settingsInvalid', `body: give any of ${SETTINGS_FIELDS.join(', ')}`, '');
          }
          for (const [k, v] of Object.entries(body)) {
            if (typeof v !== 'boolean') throw fail(400, 'settingsInvalid', `${k}: must be a boolean`, `/${k}`);
          }
          const s = pg(p).settings;
          Object.assign(s, body, { updated_at: later(s.updated_at) });
          return { result: settingsAnswer(s), mutates: true };
        },
      },
    },
    {
      pattern: [...P, 'policies'],
      methods: {
        // Not paged, but with result_info as the provider's list (one page of everything).
        GET: (c, p) => {
          // One page of everything: a page number would be ignored and the same page answered again.
          for (const name of c.query.keys()) throw fail(400, 'pageGuardParameter', `${name}: the policies list takes no parameters (it answers every policy)`, `/${name}`);
          return wholeList(pg(p).policies);
        },
        POST: (c, p) => {
          const body = checkPolicyBody(c.body, true);
          const policy: Item = { id: randomBytes(16).toString('hex'), description: body.description ?? '', action: body.action, expression: body.expression, enabled: body.enabled ?? true, value: body.value };
          pg(p).policies.push(policy);
          return { result: policy, mutates: true };
        },
      },
    },
    {
      pattern: [...P, 'policies', ':id'],
      methods: {
        GET: (_c, p) => ({ result: find(pg(p), 'policies', p.id) }),
        PUT: (c, p) => {
          const policy = find(pg(p), 'policies', p.id);
          // A policy as a GET answered it may be sent back: its own id is fine, another one is not a change we make.
          const sentId = (c.body as { id?: unknown } | null)?.id;
          if (sentId !== undefined && sentId !== policy.id) throw fail(400, 'policyInvalid', `id: cannot change (${clip(String(sentId))} is not ${policy.id})`, '/id');
          const body = checkPolicyBody(readOnlyDropped(c.body, ['id']), false);
          for (const [k, v] of Object.entries(body)) if (v !== undefined) policy[k] = v;
          return { result: policy, mutates: true };
        },
        DELETE: (_c, p) => {
          const zone = pg(p);
          const policy = find(zone, 'policies', p.id);
          zone.policies = zone.policies.filter((x) => x !== policy);
          // The delete answer has an empty body, as the provider's (README, "Paths").
          return { status: 204, mutates: true };
        },
      },
    },
  ];
  for (const resource of ['scripts', 'connections', 'cookies'] as const) {
    routes.push(
      { pattern: [...P, resource], methods: { GET: (c, p) => listAnswer(resource, pg(p)[resource], c.query) } },
      { pattern: [...P, resource, ':id'], methods: { GET: (_c, p) => ({ result: find(pg(p), resource, p.id) }) } },
    );
  }
  return routes;
}

/** The page monitoring area: its routes and the `page_guard` section of a zone in the fixture. */
export const pageGuardArea: Area = {
  name: 'page_guard',
  routes: pageGuardRoutes,
  zoneFixture: {
    keys: ['page_guard'],
    apply(raw, zone, at, warn) {
      if (raw.page_guard !== undefined) zone.page_guard = loadPageGuardFixture(raw.page_guard, `${at}.page_guard`, warn);
    },
  },
};
