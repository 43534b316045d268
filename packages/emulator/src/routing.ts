/**
 * What an API area gives the server: its routes and its part of the fixture. The server knows no area; each one
 * (rulesets, jobs, the previous WAF, the migration, …) registers here, so adding an area touches no other.
 */
import { badRequest, clip, EmulatorError, ERROR_CODES, fail } from './errors.js';
import type { Store, ZoneState } from './state.js';

export interface RequestContext {
  method: string;
  segments: string[];
  query: URLSearchParams;
  body: unknown;
}

export interface HandlerAnswer {
  /** 200 unless given; 204 answers with no body. */
  status?: number;
  result?: unknown;
  resultInfo?: unknown;
  /** The handler changed the state: it is persisted before the answer is sent. */
  mutates?: boolean;
  /** A body other than the envelope (the CSV of `export=csv`), sent as is with its content type. */
  raw?: { contentType: string; body: string };
}

export type Handler = (request: RequestContext, params: Record<string, string>) => HandlerAnswer;

export interface Route {
  /** Path segments under the base path; `:name` segments are parameters. */
  pattern: string[];
  methods: Record<string, Handler>;
}

/** An area's part of the fixture file: the keys it reads in `zones.<id>` and how it applies them. */
export interface ZoneFixtureHook {
  keys: readonly string[];
  /**
   * Reads `raw[key]` for its keys into `zone`; throws FixtureError naming `at.<key>…` on a bad value, and calls
   * `warn` for what it ignores (unknown keys).
   */
  apply(raw: Record<string, unknown>, zone: ZoneState, at: string, warn: (message: string) => void): void;
}

/** What the emulator was started with that an area reads. */
export interface AreaOptions {
  /** Where ownership challenges of log export destinations are written (ownership.ts; default: DEFAULT_OUTBOX). */
  outbox?: string;
}

export interface Area {
  name: string;
  routes(store: Store, options?: AreaOptions): Route[];
  zoneFixture?: ZoneFixtureHook;
}

/** Path parameters checked before any handler runs: what a well-formed id looks like, and the error otherwise. */
const PARAM_RULES: Record<string, { pattern: RegExp; code: 'invalidZone' | 'invalidAccount'; what: string }> = {
  zone: { pattern: /^[A-Za-z0-9_-]{1,64}$/, code: 'invalidZone', what: 'zone id' },
  account: { pattern: /^[A-Za-z0-9_-]{1,64}$/, code: 'invalidAccount', what: 'account id' },
};

export function matchRoute(routes: Route[], segments: string[], method: string): { handler: Handler; params: Record<string, string> } {
  // The methods the path takes, for the Allow header a 405 must carry (RFC 9110, 15.5.6); HEAD wherever GET is.
  const allowed = new Set<string>();
  for (const candidate of routes) {
    if (candidate.pattern.length !== segments.length) continue;
    const params: Record<string, string> = Object.create(null);
    const matches = candidate.pattern.every((part, i) => {
      if (part.startsWith(':')) {
        params[part.slice(1)] = segments[i];
        return true;
      }
      return part === segments[i];
    });
    if (!matches) continue;
    for (const m of Object.keys(candidate.methods)) allowed.add(m).add(m === 'GET' ? 'HEAD' : m);
    // HEAD is answered as GET; the HTTP server sends no body for it.
    const handler = candidate.methods[method] ?? (method === 'HEAD' ? candidate.methods.GET : undefined);
    if (!handler) continue;
    for (const [name, rule] of Object.entries(PARAM_RULES)) {
      if (params[name] !== undefined && !rule.pattern.test(params[name])) throw badRequest(rule.code, `${rule.what} "${clip(params[name])}" is not valid`);
    }
    return { handler, params };
  }
  if (allowed.size > 0) {
    throw new EmulatorError(405, ERROR_CODES.methodNotAllowed, `method ${method} is not allowed on this path`, { allow: [...allowed].sort().join(', ') });
  }
  throw fail(404, 'noRoute', `no route for ${method} /${clip(segments.join('/'), 200)}`);
}

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 1000;

function intParam(query: URLSearchParams, name: string, dflt: number, max: number, min = 1): number {
  const raw = query.get(name);
  if (raw === null) return dflt;
  // Reading one of two values would answer a page the client did not ask for.
  if (query.getAll(name).length > 1) throw badRequest('invalidPaging', `${name}: given twice`, `/${name}`);
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    // The parameter as the pointer, as page monitoring lists answer a refused parameter.
    throw badRequest('invalidPaging', `${name}: must be an integer from ${min} to ${max}`, `/${name}`);
  }
  return Number(raw);
}

/** How a page-numbered list sizes its pages: the default and the range of `per_page`. */
export interface PageSize {
  perPage: number;
  min: number;
  max: number;
}
const PAGE_SIZE: PageSize = { perPage: DEFAULT_PER_PAGE, min: 1, max: MAX_PER_PAGE };

/** A whole list as one page (no paging asked): an empty list has no page (`total_pages: 0`), as a paged one. */
export function wholeList<T>(items: T[]): HandlerAnswer {
  const n = items.length;
  return { result: items, resultInfo: { page: 1, per_page: n, count: n, total_count: n, total_pages: n === 0 ? 0 : 1 } };
}

/** Page-numbered lists (jobs, the previous WAF): `page` (1-based) and `per_page`. */
export function paged<T>(items: T[], query: URLSearchParams, size: PageSize = PAGE_SIZE): HandlerAnswer {
  const page = intParam(query, 'page', 1, 1_000_000);
  const perPage = intParam(query, 'per_page', size.perPage, size.max, size.min);
  const result = items.slice((page - 1) * perPage, page * perPage);
  return {
    result,
    resultInfo: { page, per_page: perPage, count: result.length, total_count: items.length, total_pages: Math.ceil(items.length / perPage) },
  };
}

/**
 * Cursor lists (rulesets, README "Behaviour"): `cursor` and `per_page`. The cursor is the base64url of the id of
 * the last item given, so items added or removed meanwhile neither repeat nor shift the next page. The next cursor
 * is answered in both forms clients read: `result_info.cursor` and `result_info.cursors.after`; absent on the last page.
 */
/**
 * Cursor paging. `places`, when given, are the items' places in the list (ascending, never reused): the cursor
 * then carries the last item's place too, so a page after an item deleted meanwhile starts at the first item past
 * that place instead of failing. A cursor of an unknown item without a place is refused (20027).
 */
export function cursorPaged<T extends { id: string }>(items: T[], query: URLSearchParams, places?: number[]): HandlerAnswer {
  // A page number would be ignored and page 1 answered again, so a client paging by number would never stop.
  if (query.has('page')) throw badRequest('invalidPaging', 'page: this list is paged by cursor: pass result_info.cursor of the previous answer as cursor', '/page');
  const perPage = intParam(query, 'per_page', DEFAULT_PER_PAGE, MAX_PER_PAGE);
  if (query.getAll('cursor').length > 1) throw badRequest('invalidCursor', 'cursor: given twice', '/cursor');
  const cursor = query.get('cursor');
  let start = 0;
  if (cursor !== null && cursor !== '') {
    const [after, place] = Buffer.from(cursor, 'base64url').toString('utf8').split('~');
    const at = items.findIndex((item) => item.id === after);
    const placed = places && place !== undefined && /^[0-9]+$/.test(place) ? Number(place) : undefined;
    if (at >= 0) start = at + 1;
    else if (placed !== undefined) start = places!.findIndex((p) => p > placed) < 0 ? items.length : places!.findIndex((p) => p > placed);
    else throw badRequest('invalidCursor', 'cursor: not a cursor of this list (start again without it)', '/cursor');
  }
  const result = items.slice(start, start + perPage);
  const more = start + perPage < items.length;
  const lastPlace = places?.[start + result.length - 1];
  const next = more ? Buffer.from(`${result[result.length - 1].id}${lastPlace !== undefined && lastPlace >= 0 ? `~${lastPlace}` : ''}`, 'utf8').toString('base64url') : undefined;
  return { result, resultInfo: { per_page: perPage, count: result.length, ...(next ? { cursor: next, cursors: { after: next } } : {}) } };
}
