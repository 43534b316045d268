/**
 * The previous managed WAF (emulator README, "The migration (area E)"): packages, groups, rules and URI-based overrides. These calls stop
 * working once the zone has migrated; until then they are how URI-based overrides are listed and deleted.
 */
import type { CallOptions, LogfilterClient, PageOptions } from './client.js';
import { seg } from './client.js';
import type { Page } from './types.js';

export interface WafPackage {
  id: string;
  name: string;
  description?: string;
  detection_mode?: string;
  sensitivity?: string | null;
  action_mode?: string | null;
  [field: string]: unknown;
}

export interface WafGroup {
  id: string;
  name: string;
  description?: string;
  mode: string;
  rules_count?: number;
  [field: string]: unknown;
}

export interface WafRule {
  id: string;
  description?: string;
  priority?: string;
  group?: { id: string; name: string };
  mode: string;
  default_mode?: string;
  allowed_modes?: string[];
  [field: string]: unknown;
}

export interface WafOverride {
  id: string;
  description?: string;
  urls: string[];
  rules?: Record<string, string>;
  groups?: Record<string, string>;
  rewrite_action?: Record<string, string>;
  paused?: boolean;
  priority?: number;
}

export type WafOverrideInput = Omit<WafOverride, 'id'>;

const W = (zone: string) => `/zones/${seg(zone)}/firewall/waf`;
const P = (zone: string, pkg: string) => `${W(zone)}/packages/${seg(pkg)}`;

/**
 * The search parameters of a previous-WAF list (the provider's OpenAPI document): what to look for, whether every
 * search or any one must match (`match`, the API's default `all`), and the order of the answer.
 */
export interface WafListOptions<Search, Order extends string> extends CallOptions {
  search?: Search;
  match?: 'all' | 'any';
  order?: Order;
  direction?: 'asc' | 'desc';
}
export type WafPackageList = WafListOptions<{ name?: string }, 'name'>;
export type WafGroupList = WafListOptions<{ name?: string; mode?: 'on' | 'off'; rules_count?: number }, 'mode' | 'rules_count'>;
/** Rules: `mode` is the mode a rule was overridden to, abbreviated as the API takes it. */
export type WafRuleList = WafListOptions<{ mode?: 'DIS' | 'CHL' | 'BLK' | 'SIM'; group_id?: string; description?: string; priority?: string }, 'priority' | 'group_id' | 'description'>;

async function page<T>(client: LogfilterClient, path: string, opts: PageOptions, search: URLSearchParams = new URLSearchParams()): Promise<Page<T>> {
  const query = new URLSearchParams(search);
  if (opts.page !== undefined) query.set('page', String(opts.page));
  if (opts.perPage !== undefined) query.set('per_page', String(opts.perPage));
  const q = query.toString();
  const answer = await client.request<T[]>('GET', q ? `${path}?${q}` : path, 'wafList', opts);
  return { items: answer.result, info: answer.resultInfo };
}

/** The query of a list's search options; the call options are passed on as they are. */
function searchQuery(opts: WafListOptions<Record<string, string | number | undefined>, string>): { query: URLSearchParams; call: CallOptions } {
  const { search, match, order, direction, ...call } = opts;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(search ?? {})) if (value !== undefined) query.set(name, String(value));
  if (match !== undefined) query.set('match', match);
  if (order !== undefined) query.set('order', order);
  if (direction !== undefined) query.set('direction', direction);
  return { query, call };
}

/** Every item of a page-numbered previous-WAF list. */
async function all<T>(client: LogfilterClient, path: string, opts: WafListOptions<Record<string, string | number | undefined>, string>): Promise<T[]> {
  const out: T[] = [];
  const { query, call } = searchQuery(opts);
  for (let n = 1; n <= 10_000; n++) {
    const p = await page<T>(client, path, { ...call, page: n, perPage: 100 }, query);
    out.push(...p.items);
    if (!p.info || n >= p.info.total_pages || p.items.length === 0) break;
  }
  return out;
}

async function one<T>(client: LogfilterClient, method: string, path: string, opts: CallOptions & { body?: unknown }): Promise<T> {
  return (await client.request<T>(method, path, 'wafItem', opts)).result;
}

export const wafLegacy = {
  listPackages: (client: LogfilterClient, zone: string, opts: WafPackageList = {}) => all<WafPackage>(client, `${W(zone)}/packages`, opts),
  getPackage: (client: LogfilterClient, zone: string, pkg: string, opts: CallOptions = {}) => one<WafPackage>(client, 'GET', P(zone, pkg), opts),
  updatePackage: (client: LogfilterClient, zone: string, pkg: string, body: { sensitivity?: string; action_mode?: string }, opts: CallOptions = {}) =>
    one<WafPackage>(client, 'PATCH', P(zone, pkg), { ...opts, body }),
  listGroups: (client: LogfilterClient, zone: string, pkg: string, opts: WafGroupList = {}) => all<WafGroup>(client, `${P(zone, pkg)}/groups`, opts),
  getGroup: (client: LogfilterClient, zone: string, pkg: string, group: string, opts: CallOptions = {}) => one<WafGroup>(client, 'GET', `${P(zone, pkg)}/groups/${seg(group)}`, opts),
  updateGroup: (client: LogfilterClient, zone: string, pkg: string, group: string, mode: string, opts: CallOptions = {}) =>
    one<WafGroup>(client, 'PATCH', `${P(zone, pkg)}/groups/${seg(group)}`, { ...opts, body: { mode } }),
  listRules: (client: LogfilterClient, zone: string, pkg: string, opts: WafRuleList = {}) => all<WafRule>(client, `${P(zone, pkg)}/rules`, opts),
  getRule: (client: LogfilterClient, zone: string, pkg: string, rule: string, opts: CallOptions = {}) => one<WafRule>(client, 'GET', `${P(zone, pkg)}/rules/${seg(rule)}`, opts),
  updateRule: (client: LogfilterClient, zone: string, pkg: string, rule: string, mode: string, opts: CallOptions = {}) =>
    one<WafRule>(client, 'PATCH', `${P(zone, pkg)}/rules/${seg(rule)}`, { ...opts, body: { mode } }),
  listOverrides: (client: LogfilterClient, zone: string, opts: CallOptions = {}) => all<WafOverride>(client, `${W(zone)}/overrides`, opts),
  getOverride: (client: LogfilterClient, zone: string, id: string, opts: CallOptions = {}) => one<WafOverride>(client, 'GET', `${W(zone)}/overrides/${seg(id)}`, opts),
  createOverride: (client: LogfilterClient, zone: string, body: WafOverrideInput, opts: CallOptions = {}) =>
    one<WafOverride>(client, 'POST', `${W(zone)}/overrides`, { ...opts, body }),
  updateOverride: (client: LogfilterClient, zone: string, id: string, body: Partial<WafOverrideInput>, opts: CallOptions = {}) =>
    one<WafOverride>(client, 'PUT', `${W(zone)}/overrides/${seg(id)}`, { ...opts, body }),
  deleteOverride: async (client: LogfilterClient, zone: string, id: string, opts: CallOptions = {}): Promise<void> => {
    await client.request('DELETE', `${W(zone)}/overrides/${seg(id)}`, 'any', opts);
  },
};

/** Overrides that block the migration: URI-based ones (emulator README, "The migration (area E)"). */
export const isUriOverride = (o: WafOverride) => Array.isArray(o.urls) && o.urls.length > 0;
