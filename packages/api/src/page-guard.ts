/**
 * Page monitoring (README, "Page monitoring (area A)"): settings, scripts, connections, cookies and policies of a
 * zone. List parameters are checked against the table of page-guard/tables.ts before anything is sent; lists come as
 * pages or through an async iterator that follows `result_info`; scripts and connections come with the derived
 * `malicious` and `categories` (never sent); policies are checked locally (action, value) and read `enabled` as a
 * boolean whatever form the API answers with.
 */
import type { ApiRequester, CallOptions } from './requester.js';
import { PageGuardInputError, PolicyValueError } from './errors.js';
import type { ResultSchema } from './schemas.js';
import type { Page } from './types.js';
import { checkListQuery, POLICY_ACTIONS, type ItemStatus, type PageGuardResource } from './page-guard/tables.js';
import { checkMaliciousRule, viewConnection, viewScript, type MaliciousRule } from './page-guard/malicious.js';
import { parseCspValue } from './page-guard/csp.js';
import type {
  Connection,
  ConnectionView,
  Cookie,
  PageGuardSettings,
  PageGuardSettingsInput,
  Policy,
  PolicyInput,
  PolicyUpdate,
  Script,
  ScriptView,
} from './page-guard/types.js';

type ListValue = string | readonly string[];

interface CommonListParams {
  hosts?: ListValue;
  page_url?: ListValue;
  order_by?: 'first_seen_at' | 'last_seen_at';
  direction?: 'asc' | 'desc';
  /** A 1-based page, or `all`: everything in one page, without versions and categories. */
  page?: number | 'all';
  per_page?: number;
}

export interface ConnectionListParams extends CommonListParams {
  urls?: ListValue;
  exclude_urls?: ListValue;
  status?: ItemStatus | readonly ItemStatus[] | string;
  prioritize_malicious?: boolean;
  exclude_cdn_cgi?: boolean;
}

export interface ScriptListParams extends ConnectionListParams {
  exclude_duplicates?: boolean;
}

export interface CookieListParams extends CommonListParams {
  domain?: ListValue;
  path?: ListValue;
  name?: ListValue;
  http_only?: boolean;
  secure?: boolean;
  same_site?: 'lax' | 'strict' | 'none';
  type?: 'first_party' | 'unknown';
}

export interface PageGuardOptions {
  /** The malicious rule for scripts (default: js_integrity_score strictly above 50). */
  malicious?: MaliciousRule;
}

const BASE = (zone: string) => {
  if (typeof zone !== 'string' || zone.trim() === '') throw new PageGuardInputError('zone', 'zone: a zone id is needed');
  return `/zones/${seg(zone, 'zone')}/page_guard`;
};
const SETTINGS_FIELDS = ['enabled', 'use_service_reporting_endpoint', 'use_connection_url_path'] as const;

/** Turns typed list parameters into query entries (lists joined with commas) and checks them with the table. */
export function listQuery(resource: PageGuardResource, params: object = {}, extra: [string, string][] = []): string {
  const entries: [string, string][] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      const bad = value.find((v) => typeof v !== 'string' || v === '' || v.includes(','));
      if (bad !== undefined) throw new PageGuardInputError(name, `${name}: each item must be a non-empty string without commas`);
      if (value.length === 0) throw new PageGuardInputError(name, `${name}: an empty list; leave it out instead`);
      entries.push([name, value.join(',')]);
    } else if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') {
      entries.push([name, String(value)]);
    } else {
      throw new PageGuardInputError(name, `${name}: expected a string, number or boolean`);
    }
  }
  entries.push(...extra);
  const problem = checkListQuery(resource, entries);
  if (problem) throw new PageGuardInputError(problem.parameter, problem.message);
  const q = new URLSearchParams(entries).toString();
  return q ? `?${q}` : '';
}

/** `enabled` as a boolean: the API may send the text "true"/"false". */
export function normalizePolicy(p: Policy): Policy {
  const raw = (p as { enabled?: unknown }).enabled;
  return raw === 'true' || raw === 'false' ? { ...p, enabled: raw === 'true' } : p;
}

/**
 * The policy answer's read-only field: a create or update body may carry it (a policy read back, sent again), as
 * the provider takes and ignores it (its OpenAPI document: `id` is readOnly in the answer's schema, absent from
 * the POST and PUT bodies' schemas, which do not refuse other fields). The client does not send it.
 */
export const POLICY_READ_ONLY = ['id'] as const;

/** The body without the read-only fields, as sent. */
function policyBody<T extends PolicyUpdate>(body: T): T {
  return Object.fromEntries(Object.entries(body).filter(([k]) => !(POLICY_READ_ONLY as readonly string[]).includes(k))) as T;
}

/** Checks a policy body before it is sent: action from the table, a non-empty expression, a valid value. */
export function checkPolicyInput(body: PolicyUpdate, create: boolean): void {
  if (typeof body !== 'object' || body === null) throw new PageGuardInputError('body', 'a policy must be an object');
  const known = new Set(['description', 'action', 'expression', 'enabled', 'value']);
  const unknown = Object.keys(body).find((k) => !known.has(k) && !(POLICY_READ_ONLY as readonly string[]).includes(k));
  if (unknown) throw new PageGuardInputError(unknown, `${unknown}: not a policy field (${[...known].join(', ')})`);
  if (create) for (const f of ['action', 'expression', 'value'] as const) if (body[f] === undefined) throw new PageGuardInputError(f, `${f}: required`);
  if (!create && Object.values(policyBody(body)).every((v) => v === undefined)) throw new PageGuardInputError('body', 'nothing to update: give at least one field');
  if (body.action !== undefined && !POLICY_ACTIONS.includes(body.action)) throw new PageGuardInputError('action', `action: "${String(body.action)}" is not one of ${POLICY_ACTIONS.join(', ')}`);
  if (body.expression !== undefined && (typeof body.expression !== 'string' || body.expression.trim() === '')) throw new PageGuardInputError('expression', 'expression: a non-empty rules-language expression');
  if (body.description !== undefined && typeof body.description !== 'string') throw new PageGuardInputError('description', 'description: a string');
  if (body.enabled !== undefined && typeof body.enabled !== 'boolean') throw new PageGuardInputError('enabled', 'enabled: a boolean');
  if (body.value !== undefined) {
    if (typeof body.value !== 'string') throw new PageGuardInputError('value', 'value: a string');
    const parsed = parseCspValue(body.value);
    if (!parsed.ok) throw new PolicyValueError(parsed.diagnostics);
  }
}

export class PageGuardApi {
  readonly malicious: MaliciousRule;

  constructor(
    private readonly client: ApiRequester,
    options: PageGuardOptions = {},
  ) {
    const bad = checkMaliciousRule(options.malicious ?? {});
    if (bad) throw new PageGuardInputError('malicious', `malicious: ${bad}`);
    this.malicious = { ...options.malicious };
  }

  // ---- settings ----

  async getSettings(zone: string, opts: CallOptions = {}): Promise<PageGuardSettings> {
    return (await this.client.request<PageGuardSettings>('GET', BASE(zone), 'pageGuardSettings', opts)).result;
  }

  async updateSettings(zone: string, body: PageGuardSettingsInput, opts: CallOptions = {}): Promise<PageGuardSettings> {
    const keys = Object.keys(body ?? {});
    if (keys.length === 0) throw new PageGuardInputError('body', `nothing to update: give ${SETTINGS_FIELDS.join(', ')}`);
    for (const k of keys) {
      if (!(SETTINGS_FIELDS as readonly string[]).includes(k)) throw new PageGuardInputError(k, `${k}: not a setting (${SETTINGS_FIELDS.join(', ')})`);
      if (typeof (body as Record<string, unknown>)[k] !== 'boolean') throw new PageGuardInputError(k, `${k}: a boolean`);
    }
    return (await this.client.request<PageGuardSettings>('PUT', BASE(zone), 'pageGuardSettings', { ...opts, body })).result;
  }

  // ---- scripts ----

  async listScripts(zone: string, params: ScriptListParams = {}, opts: CallOptions = {}): Promise<Page<ScriptView>> {
    const p = await this.page<Script>(zone, 'scripts', 'scriptList', params, opts);
    return { items: p.items.map((s) => viewScript(s, this.malicious)), info: p.info };
  }
  async *scripts(zone: string, params: ScriptListParams = {}, opts: CallOptions = {}): AsyncGenerator<ScriptView> {
    for await (const s of this.walk<Script>(zone, 'scripts', 'scriptList', params, opts)) yield viewScript(s, this.malicious);
  }
  async allScripts(zone: string, params: ScriptListParams = {}, opts: CallOptions = {}): Promise<ScriptView[]> {
    return collect(this.scripts(zone, params, opts));
  }
  async getScript(zone: string, id: string, opts: CallOptions = {}): Promise<ScriptView> {
    const s = (await this.client.request<Script>('GET', `${BASE(zone)}/scripts/${seg(id)}`, 'script', opts)).result;
    return viewScript(s, this.malicious);
  }
  exportScripts(zone: string, params: Omit<ScriptListParams, 'page' | 'per_page'> = {}, opts: CallOptions = {}): Promise<string> {
    return this.export(zone, 'scripts', params, opts);
  }

  // ---- connections ----

  async listConnections(zone: string, params: ConnectionListParams = {}, opts: CallOptions = {}): Promise<Page<ConnectionView>> {
    const p = await this.page<Connection>(zone, 'connections', 'connectionList', params, opts);
    return { items: p.items.map(viewConnection), info: p.info };
  }
  async *connections(zone: string, params: ConnectionListParams = {}, opts: CallOptions = {}): AsyncGenerator<ConnectionView> {
    for await (const c of this.walk<Connection>(zone, 'connections', 'connectionList', params, opts)) yield viewConnection(c);
  }
  async allConnections(zone: string, params: ConnectionListParams = {}, opts: CallOptions = {}): Promise<ConnectionView[]> {
    return collect(this.connections(zone, params, opts));
  }
  async getConnection(zone: string, id: string, opts: CallOptions = {}): Promise<ConnectionView> {
    return viewConnection((await this.client.request<Connection>('GET', `${BASE(zone)}/connections/${seg(id)}`, 'connection', opts)).result);
  }
  exportConnections(zone: string, params: Omit<ConnectionListParams, 'page' | 'per_page'> = {}, opts: CallOptions = {}): Promise<string> {
    return this.export(zone, 'connections', params, opts);
  }

  // ---- cookies ----

  listCookies(zone: string, params: CookieListParams = {}, opts: CallOptions = {}): Promise<Page<Cookie>> {
    return this.page<Cookie>(zone, 'cookies', 'cookieList', params, opts);
  }
  cookies(zone: string, params: CookieListParams = {}, opts: CallOptions = {}): AsyncGenerator<Cookie> {
    return this.walk<Cookie>(zone, 'cookies', 'cookieList', params, opts);
  }
  allCookies(zone: string, params: CookieListParams = {}, opts: CallOptions = {}): Promise<Cookie[]> {
    return collect(this.cookies(zone, params, opts));
  }
  async getCookie(zone: string, id: string, opts: CallOptions = {}): Promise<Cookie> {
    return (await this.client.request<Cookie>('GET', `${BASE(zone)}/cookies/${seg(id)}`, 'cookie', opts)).result;
  }
  exportCookies(zone: string, params: Omit<CookieListParams, 'page' | 'per_page'> = {}, opts: CallOptions = {}): Promise<string> {
    return this.export(zone, 'cookies', params, opts);
  }

  // ---- policies ----

  async listPolicies(zone: string, opts: CallOptions = {}): Promise<Policy[]> {
    return (await this.client.request<Policy[]>('GET', `${BASE(zone)}/policies`, 'policyList', opts)).result.map(normalizePolicy);
  }
  async getPolicy(zone: string, id: string, opts: CallOptions = {}): Promise<Policy> {
    return normalizePolicy((await this.client.request<Policy>('GET', `${BASE(zone)}/policies/${seg(id)}`, 'policy', opts)).result);
  }
  /** `body` may be a policy as read (getPolicy, listPolicies): it is checked as any body is, and its id is not sent. */
  async createPolicy(zone: string, body: PolicyInput | Policy, opts: CallOptions = {}): Promise<Policy> {
    checkPolicyInput(body as PolicyInput, true);
    return normalizePolicy((await this.client.request<Policy>('POST', `${BASE(zone)}/policies`, 'policy', { ...opts, body: policyBody(body as PolicyInput) })).result);
  }
  async updatePolicy(zone: string, id: string, body: PolicyUpdate | Policy, opts: CallOptions = {}): Promise<Policy> {
    checkPolicyInput(body as PolicyUpdate, false);
    return normalizePolicy((await this.client.request<Policy>('PUT', `${BASE(zone)}/policies/${seg(id)}`, 'policy', { ...opts, body: policyBody(body as PolicyUpdate) })).result);
  }
  async deletePolicy(zone: string, id: string, opts: CallOptions = {}): Promise<void> {
    await this.client.request('DELETE', `${BASE(zone)}/policies/${seg(id)}`, 'empty', opts);
  }

  // ---- transport ----

  private async page<T>(zone: string, resource: PageGuardResource, schema: ResultSchema, params: object, opts: CallOptions): Promise<Page<T>> {
    if ('export' in params) throw new PageGuardInputError('export', 'export: use the export… methods for CSV');
    const a = await this.client.request<T[]>('GET', `${BASE(zone)}/${resource}${listQuery(resource, params)}`, schema, opts);
    return { items: a.result, info: a.resultInfo };
  }

  /** Every item, page after page, until `result_info.total_pages` (or an empty or short page when it is missing). */
  private async *walk<T>(zone: string, resource: PageGuardResource, schema: ResultSchema, params: CommonListParams, opts: CallOptions): AsyncGenerator<T> {
    if (params.page === 'all') throw new PageGuardInputError('page', 'page: the iterator walks the pages itself; use list… with page all for one page');
    const perPage = params.per_page ?? 100;
    for (let page = params.page ?? 1; ; page++) {
      const p = await this.page<T>(zone, resource, schema, { ...params, page, per_page: perPage }, opts);
      yield* p.items;
      const total = p.info?.total_pages;
      if (p.items.length === 0 || (total !== undefined ? page >= total : p.items.length < perPage)) return;
    }
  }

  private async export(zone: string, resource: PageGuardResource, params: object, opts: CallOptions): Promise<string> {
    const q = listQuery(resource, params, [['export', 'csv']]);
    return (await this.client.request<string>('GET', `${BASE(zone)}/${resource}${q}`, 'any', { ...opts, text: true })).result;
  }
}

/** An id as a path segment; `.` and `..` are resolved away by URL parsing (the request would go to another path). */
function seg(id: string, field: 'id' | 'zone' = 'id'): string {
  if (typeof id !== 'string' || id === '' || id === '.' || id === '..') throw new PageGuardInputError(field, `${field === 'zone' ? 'zone: invalid zone id' : 'invalid id'} "${String(id)}"`);
  return encodeURIComponent(id);
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
