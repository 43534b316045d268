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

async function page<T>(client: LogfilterClient, path: string, opts: PageOptions): Promise<Page<T>> {
  const query = new URLSearchParams();
  if (opts.page !== undefined) query.set('page', String(opts.page));
  if (opts.perPage !== undefined) query.set('per_page', String(opts.perPage));
  const q = query.toString();
  const answer = await client.request<T[]>('GET', q ? `${path}?${q}` : path, 'wafList', opts);
  return { items: answer.result, info: answer.resultInfo };
}

/** Every item of a page-numbered previous-WAF list. */
async function all<T>(client: LogfilterClient, path: string, opts: CallOptions): Promise<T[]> {
  const out: T[] = [];
  for (let n = 1; n <= 10_000; n++) {
    const p = await page<T>(client, path, { ...opts, page: n, perPage: 100 });
    out.push(...p.items);
    if (!p.info || n >= p.info.total_pages || p.items.length === 0) break;
  }
  return out;
}

async function one<T>(client: LogfilterClient, method: string, path: string, opts: CallOptions & { body?: unknown }): Promise<T> {
  return (await client.request<T>(method, path, 'wafItem', opts)).result;
}

export const wafLegacy = {
  listPackages: (client: LogfilterClient, zone: string, opts: CallOptions = {}) => all<WafPackage>(client, `${W(zone)}/packages`, opts),
  getPackage: (client: LogfilterClient, zone: string, pkg: string, opts: CallOptions = {}) => one<WafPackage>(client, 'GET', P(zone, pkg), opts),
  updatePackage: (client: LogfilterClient, zone: string, pkg: string, body: { sensitivity?: string; action_mode?: string }, opts: CallOptions = {}) =>
    one<WafPackage>(client, 'PATCH', P(zone, pkg), { ...opts, body }),
  listGroups: (client: LogfilterClient, zone: string, pkg: string, opts: CallOptions = {}) => all<WafGroup>(client, `${P(zone, pkg)}/groups`, opts),
  getGroup: (client: LogfilterClient, zone: string, pkg: string, group: string, opts: CallOptions = {}) => one<WafGroup>(client, 'GET', `${P(zone, pkg)}/groups/${seg(group)}`, opts),
  updateGroup: (client: LogfilterClient, zone: string, pkg: string, group: string, mode: string, opts: CallOptions = {}) =>
    one<WafGroup>(client, 'PATCH', `${P(zone, pkg)}/groups/${seg(group)}`, { ...opts, body: { mode } }),
  listRules: (client: LogfilterClient, zone: string, pkg: string, opts: CallOptions = {}) => all<WafRule>(client, `${P(zone, pkg)}/rules`, opts),
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
