/**
 * The tables of page monitoring (README, "Page monitoring (area A)"): list parameters per resource,
 * statuses, policy actions, CSV columns. The client validates against them before sending, the emulator answers
 * by them, and the READMEs describe them; one table per concept so the three never drift apart.
 */

export type PageGuardResource = 'scripts' | 'connections' | 'cookies';
export const PAGE_GUARD_RESOURCES: readonly PageGuardResource[] = ['scripts', 'connections', 'cookies'];

/** Statuses of scripts and connections: listing without `status` returns only `active` (README, the parameters table). */
export const STATUSES = ['active', 'infrequent', 'inactive'] as const;
export type ItemStatus = (typeof STATUSES)[number];
export const DEFAULT_STATUS: ItemStatus = 'active';

/** Policy actions (`add_reporting_directives` is the newer one; README, "Page monitoring (area A)"). */
export const POLICY_ACTIONS = ['log', 'allow', 'add_reporting_directives'] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

export const ORDER_BY = ['first_seen_at', 'last_seen_at'] as const;
export const DIRECTIONS = ['asc', 'desc'] as const;
export const SAME_SITE = ['lax', 'strict', 'none'] as const;
export const COOKIE_TYPES = ['first_party', 'unknown'] as const;
export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 20;
export const MAX_CSV_ROWS = 50_000;
/** `maxLength` of the cookie filters `domain`, `path` and `name` in the provider's OpenAPI document. */
export const MAX_COOKIE_FILTER_LENGTH = 1024;

/**
 * How a parameter's value is written:
 * - `patterns`: comma list, each with `*` at the start and/or end (ends-with / starts-with / contains), else exact
 * - `substrings`: comma list, each a substring of the item URL
 * - `enum-list`: comma list of `values`
 * - `enum`: one of `values`
 * - `bool`: `true` or `false`
 * - `page`: 1-based integer, or `all`
 * - `per-page`: integer from 1 to MAX_PER_PAGE
 */
export type ParameterKind = 'patterns' | 'substrings' | 'enum-list' | 'enum' | 'bool' | 'page' | 'per-page';

export interface ListParameter {
  name: string;
  kind: ParameterKind;
  /** The resources that take it. */
  on: readonly PageGuardResource[];
  values?: readonly string[];
  /** Longest value the API takes, in characters (code points), as its OpenAPI document's `maxLength`. */
  maxLength?: number;
  /** What the API does when the parameter is absent (documentation and the emulator). */
  default?: string;
  /** What it does, for the READMEs and `--help`. */
  doc: string;
}

const SC: readonly PageGuardResource[] = ['scripts', 'connections'];
const ALL = PAGE_GUARD_RESOURCES;

export const LIST_PARAMETERS: readonly ListParameter[] = [
  { name: 'hosts', kind: 'patterns', on: ALL, doc: 'hostnames the item was seen on' },
  { name: 'page_url', kind: 'patterns', on: ALL, doc: 'page URLs the item was seen on' },
  { name: 'urls', kind: 'substrings', on: SC, doc: 'keep items whose URL contains one of these' },
  { name: 'exclude_urls', kind: 'substrings', on: SC, doc: 'drop items whose URL contains one of these' },
  { name: 'status', kind: 'enum-list', on: SC, values: STATUSES, default: DEFAULT_STATUS, doc: 'statuses to list' },
  { name: 'order_by', kind: 'enum', on: ALL, values: ORDER_BY, default: 'first_seen_at', doc: 'sort field' },
  { name: 'direction', kind: 'enum', on: ALL, values: DIRECTIONS, default: 'desc', doc: 'sort direction' },
  { name: 'prioritize_malicious', kind: 'bool', on: SC, default: 'false', doc: 'malicious items first' },
  { name: 'exclude_cdn_cgi', kind: 'bool', on: SC, default: 'true', doc: 'drop items whose URL has a /cdn-cgi path' },
  { name: 'exclude_duplicates', kind: 'bool', on: ['scripts'], default: 'true', doc: 'same content, URL host and zone host: keep the newest' },
  { name: 'domain', kind: 'patterns', on: ['cookies'], maxLength: MAX_COOKIE_FILTER_LENGTH, doc: 'cookie Domain attribute' },
  { name: 'path', kind: 'patterns', on: ['cookies'], maxLength: MAX_COOKIE_FILTER_LENGTH, doc: 'cookie Path attribute' },
  { name: 'name', kind: 'patterns', on: ['cookies'], maxLength: MAX_COOKIE_FILTER_LENGTH, doc: 'cookie name' },
  { name: 'http_only', kind: 'bool', on: ['cookies'], doc: 'HttpOnly attribute' },
  { name: 'secure', kind: 'bool', on: ['cookies'], doc: 'Secure attribute' },
  { name: 'same_site', kind: 'enum', on: ['cookies'], values: SAME_SITE, doc: 'SameSite attribute' },
  { name: 'type', kind: 'enum', on: ['cookies'], values: COOKIE_TYPES, doc: 'cookie type' },
  { name: 'page', kind: 'page', on: ALL, default: '1', doc: '1-based page, or `all` (one page, without versions and categories)' },
  { name: 'per_page', kind: 'per-page', on: ALL, default: String(DEFAULT_PER_PAGE), doc: `items per page, 1-${MAX_PER_PAGE}` },
  { name: 'export', kind: 'enum', on: ALL, values: ['csv'], doc: `the whole list as CSV (at most ${MAX_CSV_ROWS} rows); not with page or per_page` },
];

export function parametersOf(resource: PageGuardResource): ListParameter[] {
  return LIST_PARAMETERS.filter((p) => p.on.includes(resource));
}

/**
 * Checks one raw query value against its parameter. Returns undefined when valid, else why not (without the
 * parameter's name: callers prefix it).
 */
export function checkParameterValue(p: ListParameter, raw: string): string | undefined {
  if (p.maxLength !== undefined && [...raw].length > p.maxLength) return `at most ${p.maxLength} characters (${[...raw].length} given)`;
  const list = () => raw.split(',');
  switch (p.kind) {
    case 'patterns':
    case 'substrings':
      if (list().some((s) => s.trim() === '' || (p.kind === 'patterns' && s.replace(/^\*|\*$/g, '').includes('*')))) {
        return p.kind === 'patterns' ? 'a comma list of non-empty values, `*` only at the start or end of each' : 'a comma list of non-empty values';
      }
      return undefined;
    case 'enum-list': {
      const bad = list().find((s) => !p.values!.includes(s));
      return bad === undefined ? undefined : `"${bad}" is not one of ${p.values!.join(', ')}`;
    }
    case 'enum':
      return p.values!.includes(raw) ? undefined : `"${raw}" is not one of ${p.values!.join(', ')}`;
    case 'bool':
      return raw === 'true' || raw === 'false' ? undefined : `"${raw}" is not true or false`;
    case 'page':
      return raw === 'all' || (/^[0-9]+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 1_000_000) ? undefined : `"${raw}" is not a page number (1 or more) or all`;
    case 'per-page':
      return /^[0-9]+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= MAX_PER_PAGE ? undefined : `"${raw}" is not an integer from 1 to ${MAX_PER_PAGE}`;
  }
}

export interface ParameterProblem {
  parameter: string;
  message: string;
}

/**
 * Checks a whole query for a resource: unknown parameters, bad values, repeated ones, and the combinations the
 * API refuses (`export` with `page`/`per_page`, `page=all` with `per_page`). The first problem, or undefined.
 */
export function checkListQuery(resource: PageGuardResource, query: Iterable<[string, string]>): ParameterProblem | undefined {
  const known = new Map(parametersOf(resource).map((p) => [p.name, p]));
  const seen = new Map<string, string>();
  for (const [name, value] of query) {
    const p = known.get(name);
    if (!p) return { parameter: name, message: `${name}: not a parameter of ${resource} lists (known: ${[...known.keys()].join(', ')})` };
    if (seen.has(name)) return { parameter: name, message: `${name}: given twice` };
    seen.set(name, value);
    const why = checkParameterValue(p, value);
    if (why) return { parameter: name, message: `${name}: ${why}` };
  }
  if (seen.has('export')) {
    for (const q of ['page', 'per_page']) if (seen.has(q)) return { parameter: q, message: `${q}: not with export=csv (an export is the whole list)` };
  }
  if (seen.get('page') === 'all' && seen.has('per_page')) return { parameter: 'per_page', message: 'per_page: not with page=all (everything comes in one page)' };
  return undefined;
}

/** `*` at the start and/or end of a pattern: ends-with / starts-with / contains; otherwise exact (README, the parameters table). */
export function matchesPattern(pattern: string, value: string, caseInsensitive = false): boolean {
  const p = caseInsensitive ? pattern.toLowerCase() : pattern;
  const v = caseInsensitive ? value.toLowerCase() : value;
  const start = p.startsWith('*');
  const end = p.length > 1 && p.endsWith('*');
  const core = p.slice(start ? 1 : 0, end ? -1 : undefined);
  if (start && end) return v.includes(core);
  if (start) return v.endsWith(core);
  if (end) return v.startsWith(core);
  return v === core;
}

/**
 * Columns of `export=csv`, in order (emulator) and of `logfilter page-guard … --csv`, which appends the derived
 * `malicious` and `categories`. Arrays are written joined with `|`; absent values as empty cells.
 */
export const CSV_COLUMNS: Record<PageGuardResource, readonly string[]> = {
  scripts: [
    'id', 'url', 'host', 'status', 'first_seen_at', 'last_seen_at', 'added_at', 'first_page_url', 'hash',
    'js_integrity_score', 'malware_score', 'magecart_score', 'cryptomining_score', 'obfuscation_score', 'dataflow_score',
    'domain_reported_malicious', 'url_reported_malicious', 'malicious_domain_categories', 'malicious_url_categories',
    'url_contains_cdn_cgi_path', 'fetched_at',
  ],
  connections: [
    'id', 'url', 'host', 'status', 'first_seen_at', 'last_seen_at', 'added_at', 'first_page_url',
    'domain_reported_malicious', 'url_reported_malicious', 'malicious_domain_categories', 'malicious_url_categories',
    'url_contains_cdn_cgi_path',
  ],
  cookies: [
    'id', 'name', 'host', 'type', 'first_seen_at', 'last_seen_at', 'domain_attribute', 'path_attribute', 'expires_attribute',
    'max_age_attribute', 'http_only_attribute', 'secure_attribute', 'same_site_attribute', 'first_page_url',
  ],
};

/** One CSV cell of a field value: arrays joined with `|`, absent and null values empty, formulas neutralized. */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return neutralizeFormula(value.map(String).join('|'));
  return neutralizeFormula(String(value));
}

/**
 * Observed values (script URLs, cookie names and values) are written by whoever runs the page: a cell that a
 * spreadsheet would take for a formula (`=HYPERLINK(…)`, `+cmd|…`, `@SUM(…)`, a tab or CR before `=`) is
 * prefixed with a single quote, as OWASP's CSV-injection guidance says, so it is shown as text. Plain numbers
 * (`-5`, `+3.5`) are left alone: no formula is spelled by them.
 */
export const FORMULA_PREFIXES = ['=', '+', '-', '@', '\t', '\r'] as const;

export function neutralizeFormula(cell: string): string {
  if (cell === '' || !FORMULA_PREFIXES.includes(cell[0] as (typeof FORMULA_PREFIXES)[number])) return cell;
  return /^[+-]\d+(\.\d+)?$/.test(cell) ? cell : `'${cell}`;
}
