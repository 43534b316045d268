/**
 * `logfilter page-guard …`: page monitoring of a zone (README, "logfilter page-guard"). Settings (`status`, `enable`,
 * `disable`), the scripts, connections and cookies observed (lists and single items, human tables with malicious
 * rows marked, `--json`, `--csv`), content-security policies (`policies list|get|create|update|delete`), and two
 * helpers the API does not offer: `policy suggest` (a script-src value allowing what was observed, leaving out what
 * is malicious) and `policy check` (which observed scripts a value would allow or block). Flags are checked with the
 * library's parameter table before anything is sent.
 */
import { refuseInvalidExpressions } from '../rules-check.js';
import { scriptsInScope } from '../page-scope.js';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { stringify } from 'csv-stringify/sync';
import {
  checkPolicyValue,
  CSV_COLUMNS,
  csvCell,
  CSP_KEYWORDS,
  DEFAULT_MALICIOUS_THRESHOLD,
  DIRECTIONS,
  listQuery,
  MALICIOUS_DIRECTIONS,
  ORDER_BY,
  PageGuardApi,
  PageGuardInputError,
  parseCspValue,
  POLICY_ACTIONS,
  PolicyValueError,
  SAME_SITE,
  SCRIPT_DIRECTIVES,
  COOKIE_TYPES,
  STATUSES,
  suggestPolicy,
  type ConnectionListParams,
  type ConnectionView,
  type Cookie,
  type CookieListParams,
  type CspDiagnostic,
  type MaliciousRule,
  type PageGuardResource,
  type Policy,
  type PolicyInput,
  type PolicyUpdate,
  type ScriptListParams,
  type ScriptView,
  type Page,
  type PageGuardSettingsInput,
  fieldsIn,
} from '@logfilter/api';
import type { Diagnostic } from '@logfilter/core';
import { nearest, oneOf } from '../did-you-mean.js';
import { confirmDestructive, withYes } from '../api/confirm.js';
import type { CliContext } from '../context.js';
import { useColor } from '../context.js';
import { CliError, EXIT_FAILURE, EXIT_OK, UsageError } from '../errors.js';
import { enableFlag, positiveInt, reportDiagnostics } from '../options.js';
import { formatDiagnostics } from '../diagnostics-print.js';
import { apiCall, collect, makeClient, printDryRun, withConnectionOptions, type ConnectionFlags } from '../api/client.js';
import { fields, shellQuote, table, terminalSafe } from '../api/table.js';

/** The phase of content-security policies: their expressions are checked against what it offers. */
const POLICY_PHASE = 'http_response_page_shield';

type SetExit = (code: number) => void;

interface MaliciousFlags {
  maliciousThreshold?: number;
  maliciousDirection?: 'above' | 'below';
}

interface ListFlags extends ConnectionFlags, MaliciousFlags {
  host: string[];
  pageUrl: string[];
  url: string[];
  excludeUrl: string[];
  status: string[];
  orderBy?: string;
  direction?: string;
  prioritizeMalicious?: boolean;
  includeCdnCgi?: boolean;
  includeDuplicates?: boolean;
  malicious?: boolean;
  all?: boolean;
  page?: number;
  perPage?: number;
  csv?: boolean;
  name: string[];
  domain: string[];
  path: string[];
  httpOnly?: string;
  secure?: string;
  sameSite?: string;
  type?: string;
}

/** The flag of each list parameter, so a refused value names what the user typed. */
const FLAG_OF: Record<string, string> = {
  hosts: '--host',
  page_url: '--page-url',
  urls: '--url',
  exclude_urls: '--exclude-url',
  status: '--status',
  order_by: '--order-by',
  direction: '--direction',
  page: '--page',
  per_page: '--per-page',
  domain: '--domain',
  path: '--path',
  name: '--name',
  same_site: '--same-site',
  type: '--type',
  http_only: '--http-only',
  secure: '--secure',
};

const number = (value: string): number => {
  if (!/^-?[0-9]+(\.[0-9]+)?$/.test(value.trim())) throw new InvalidArgumentError('expected a number');
  return Number(value);
};

function maliciousOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--malicious-threshold <n>', `js_integrity_score threshold of a malicious script (default ${DEFAULT_MALICIOUS_THRESHOLD})`).argParser(number))
    .addOption(new Option('--malicious-direction <dir>', 'above: a score strictly above the threshold is malicious (default); below: strictly below').choices([...MALICIOUS_DIRECTIONS]));
}

function rule(flags: MaliciousFlags): MaliciousRule {
  return { ...(flags.maliciousThreshold !== undefined ? { threshold: flags.maliciousThreshold } : {}), ...(flags.maliciousDirection ? { direction: flags.maliciousDirection } : {}) };
}

function pageGuard(ctx: CliContext, flags: ConnectionFlags & MaliciousFlags): PageGuardApi {
  return new PageGuardApi(makeClient(ctx, flags), { malicious: rule(flags) });
}

/** Library refusals of flags are usage errors naming the flag. */
async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof PolicyValueError) throw e;
    if (e instanceof PageGuardInputError) {
      const flag = FLAG_OF[e.field] ?? `--${e.field.replace(/_/g, '-')}`;
      throw new UsageError(`${flag}: ${e.message.replace(/^[a-z_]+: /, '')}`);
    }
    return apiCall(what, () => Promise.reject(e));
  }
}

function listOptions(cmd: Command, resource: PageGuardResource): Command {
  cmd
    .option('--host <pattern>', 'hostname the item was seen on; * at the start and/or end (repeatable)', collect, [])
    .option('--page-url <pattern>', 'page URL the item was seen on; * at the start and/or end (repeatable)', collect, [])
    .addOption(new Option('--order-by <field>', 'sort field').choices([...ORDER_BY]))
    .addOption(new Option('--direction <dir>', 'sort direction').choices([...DIRECTIONS]))
    .option('--all', 'every page (default: one page)')
    .addOption(new Option('--page <n>', 'page to show (default 1)').argParser(positiveInt))
    .addOption(new Option('--per-page <n>', 'items per page, 1-100 (default 20; 100 with --all)').argParser(positiveInt))
    .option('--csv', 'CSV on stdout (columns in the README)');
  if (resource === 'cookies') {
    return cmd
      .option('--name <pattern>', 'cookie name; * at the start and/or end (repeatable)', collect, [])
      .option('--domain <pattern>', 'Domain attribute; * at the start and/or end (repeatable)', collect, [])
      .option('--path <pattern>', 'Path attribute; * at the start and/or end (repeatable)', collect, [])
      .addOption(new Option('--http-only <bool>', 'HttpOnly attribute').choices(['true', 'false']))
      .addOption(new Option('--secure <bool>', 'Secure attribute').choices(['true', 'false']))
      .addOption(new Option('--same-site <value>', 'SameSite attribute').choices([...SAME_SITE]))
      .addOption(new Option('--type <type>', 'cookie type').choices([...COOKIE_TYPES]));
  }
  cmd
    .option('--url <substring>', 'keep items whose URL contains it (repeatable)', collect, [])
    .option('--exclude-url <substring>', 'drop items whose URL contains it (repeatable)', collect, [])
    .option('--status <status>', `${STATUSES.join(', ')}; repeatable or comma-separated (default active)`, collect, [])
    .option('--prioritize-malicious', 'malicious items first')
    .option('--include-cdn-cgi', 'keep items whose URL has a /cdn-cgi path (dropped by default)')
    .option('--malicious', 'only malicious items (reads every page)');
  if (resource === 'scripts') {
    cmd.option('--include-duplicates', 'keep duplicates (same content, URL host and zone host; only the newest by default)');
    maliciousOptions(cmd);
  }
  return cmd;
}

const listOf = (values: string[]) => (values.length ? values.flatMap((v) => v.split(',')) : undefined);

function paramsOf(flags: ListFlags, resource: PageGuardResource): ScriptListParams & CookieListParams {
  const p: Record<string, unknown> = {
    hosts: listOf(flags.host),
    page_url: listOf(flags.pageUrl),
    order_by: flags.orderBy,
    direction: flags.direction,
  };
  if (resource === 'cookies') {
    Object.assign(p, {
      name: listOf(flags.name),
      domain: listOf(flags.domain),
      path: listOf(flags.path),
      http_only: flags.httpOnly === undefined ? undefined : flags.httpOnly === 'true',
      secure: flags.secure === undefined ? undefined : flags.secure === 'true',
      same_site: flags.sameSite,
      type: flags.type,
    });
  } else {
    Object.assign(p, {
      urls: listOf(flags.url),
      exclude_urls: listOf(flags.excludeUrl),
      status: listOf(flags.status)?.map((v) => oneOf('--status', v, STATUSES, 'status')),
      prioritize_malicious: flags.prioritizeMalicious ? true : undefined,
      exclude_cdn_cgi: flags.includeCdnCgi ? false : undefined,
      ...(resource === 'scripts' ? { exclude_duplicates: flags.includeDuplicates ? false : undefined } : {}),
    });
  }
  return p as ScriptListParams & CookieListParams;
}

type Row = ScriptView | ConnectionView | Cookie;

/** One page, or every page with --all (and --malicious, which filters what the API cannot). */
async function fetchList(pg: PageGuardApi, resource: PageGuardResource, zone: string, flags: ListFlags): Promise<{ items: Row[]; info?: Page<Row>['info'] }> {
  if (flags.csv && flags.json) throw new UsageError('--csv and --json exclude each other');
  const every = flags.all || flags.malicious;
  if (every && flags.page !== undefined) throw new UsageError(`--page: not with ${flags.all ? '--all' : '--malicious'} (every page is read)`);
  const params = { ...paramsOf(flags, resource), ...(flags.perPage !== undefined ? { per_page: flags.perPage } : {}) };
  const what = `listing the ${resource} of zone ${zone} failed`;
  let items: Row[];
  let info: Page<Row>['info'];
  if (every) {
    items = await call<Row[]>(what, () => (resource === 'scripts' ? pg.allScripts(zone, params) : resource === 'connections' ? pg.allConnections(zone, params) : pg.allCookies(zone, params)));
  } else {
    const p = { ...params, ...(flags.page !== undefined ? { page: flags.page } : {}) };
    const page = await call<Page<Row>>(what, () => (resource === 'scripts' ? pg.listScripts(zone, p) : resource === 'connections' ? pg.listConnections(zone, p) : pg.listCookies(zone, p)));
    items = page.items;
    info = page.info;
  }
  if (flags.malicious) items = items.filter((i) => (i as ScriptView).malicious);
  return { items, info };
}

const mark = (m: boolean | undefined) => (m ? '!' : ' ');
const yes = (b: unknown) => (b === true ? 'yes' : b === false ? 'no' : '');

function humanList(resource: PageGuardResource, items: Row[], pg: PageGuardApi): string {
  if (resource === 'cookies') {
    const rows = (items as Cookie[]).map((c) => [c.id, c.name ?? '', c.host ?? '', c.type ?? '', c.domain_attribute ?? '', c.path_attribute ?? '', yes(c.http_only_attribute), yes(c.secure_attribute), c.same_site_attribute ?? '', c.last_seen_at ?? '']);
    return table(['ID', 'NAME', 'HOST', 'TYPE', 'DOMAIN', 'PATH', 'HTTPONLY', 'SECURE', 'SAMESITE', 'LAST SEEN'], rows);
  }
  const views = items as (ScriptView | ConnectionView)[];
  const rows = views.map((s) => [
    mark(s.malicious),
    s.id,
    String(s.status ?? ''),
    ...(resource === 'scripts' ? [typeof (s as ScriptView).js_integrity_score === 'number' ? String((s as ScriptView).js_integrity_score) : '-'] : []),
    s.host ?? '',
    s.url ?? '',
    s.categories.join(', '),
  ]);
  const head = ['!', 'ID', 'STATUS', ...(resource === 'scripts' ? ['SCORE'] : []), 'HOST', 'URL', 'CATEGORIES'];
  const malicious = views.filter((v) => v.malicious).length;
  const why = resource === 'scripts' ? `js_integrity_score ${pg.malicious.direction === 'below' ? 'below' : 'above'} ${pg.malicious.threshold ?? DEFAULT_MALICIOUS_THRESHOLD}` : 'reported malicious';
  return `${table(head, rows)}${malicious ? `! = malicious (${why}): ${malicious} of ${views.length}\n` : ''}`;
}

function csv(resource: PageGuardResource, items: Row[]): string {
  const derived = resource === 'cookies' ? [] : ['malicious', 'categories'];
  const columns = [...CSV_COLUMNS[resource], ...derived];
  return stringify(items.map((it) => columns.map((c) => csvCell((it as Record<string, unknown>)[c]))), { header: true, columns, record_delimiter: 'unix' });
}

function registerList(group: Command, ctx: CliContext, setExit: SetExit, resource: PageGuardResource, singular: string): void {
  withConnectionOptions(listOptions(group.command(resource).description(`list the ${resource} observed on the zone's pages`), resource)).action(async (flags: ListFlags) => {
    const pg = pageGuard(ctx, flags);
    const { items, info } = await fetchList(pg, resource, flags.zone, flags);
    if (flags.csv) ctx.stdout.write(csv(resource, items));
    else if (flags.json) ctx.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
    else {
      ctx.stdout.write(items.length === 0 ? `no ${resource} in zone ${flags.zone} for these filters\n` : humanList(resource, items, pg));
      if (info && info.total_pages > info.page) ctx.stderr.write(`page ${info.page} of ${info.total_pages} (${info.total_count} ${resource}); --page N for another, --all for every page\n`);
    }
    setExit(EXIT_OK);
  });

  const one = group.command(singular).description(`show one ${singular}${resource === 'scripts' ? ' with its versions and page URLs' : ''}`).argument('<id>');
  if (resource === 'scripts') maliciousOptions(one);
  withConnectionOptions(one).action(async (id: string, flags: ConnectionFlags & MaliciousFlags) => {
    const pg = pageGuard(ctx, flags);
    const what = `reading ${singular} ${id} of zone ${flags.zone} failed`;
    const item = await call<Row>(what, () => (resource === 'scripts' ? pg.getScript(flags.zone, id) : resource === 'connections' ? pg.getConnection(flags.zone, id) : pg.getCookie(flags.zone, id)));
    ctx.stdout.write(flags.json ? `${JSON.stringify(item, null, 2)}\n` : humanItem(resource, item, pg));
    setExit(EXIT_OK);
  });
}

function humanItem(resource: PageGuardResource, item: Row, pg: PageGuardApi): string {
  const shown = new Set(['id', 'versions', 'page_urls', 'malicious', 'categories', 'malicious_domain_categories', 'malicious_url_categories']);
  const pairs: [string, unknown][] = [['id', item.id]];
  for (const [k, v] of Object.entries(item)) if (!shown.has(k)) pairs.push([k, Array.isArray(v) ? v.join(', ') : v]);
  if (resource !== 'cookies') {
    const v = item as ScriptView;
    const threshold = pg.malicious.threshold ?? DEFAULT_MALICIOUS_THRESHOLD;
    const why = resource === 'scripts' ? `js_integrity_score ${v.js_integrity_score ?? 'absent'}, malicious when ${pg.malicious.direction === 'below' ? 'below' : 'above'} ${threshold}` : 'reported-malicious flags';
    pairs.push(['malicious', `${v.malicious ? 'YES' : 'no'} (${why})`], ['categories', v.categories.join(', ')]);
  }
  let out = fields(pairs);
  const pages = (item as { page_urls?: string[] }).page_urls;
  if (pages?.length) out += `page urls:\n${pages.map((u) => `  ${terminalSafe(u)}\n`).join('')}`;
  const versions = (item as ScriptView).versions;
  if (versions?.length) out += `versions:\n${table(['  HASH', 'SCORE', 'FETCHED AT'], versions.map((v) => [`  ${v.hash ?? ''}`, v.js_integrity_score == null ? '-' : String(v.js_integrity_score), v.fetched_at ?? '']))}`;
  return out;
}

// ---- policies ----

interface PolicyFlags extends ConnectionFlags {
  id?: string;
  action?: string;
  expression?: string;
  value?: string;
  description?: string;
  enable?: boolean;
  disable?: boolean;
  enabled?: boolean;
  disabled?: boolean;
  dryRun?: boolean;
  yes?: boolean;
}

/** The nearest directive or keyword of a misspelt one (the closed sets of the value), as the other closed sets get. */
function withNearest(value: string, d: CspDiagnostic): CspDiagnostic {
  const text = value.slice(d.start, d.end);
  let near: string[] = [];
  if (d.code === 'unsupported-directive') near = nearest(text.toLowerCase(), Object.keys(SCRIPT_DIRECTIVES));
  else if (d.code === 'unknown-keyword') near = nearest(text.replace(/^'|'$/g, '').toLowerCase(), Object.keys(CSP_KEYWORDS)).map((k) => `'${k}'`);
  return near.length ? { ...d, message: `${d.message} (did you mean ${near.join(' or ')}?)` } : d;
}

/** Prints the value's diagnostics like the compiler's (`--value:1:col: error code: message`). */
function reportValue(ctx: CliContext, value: string, diagnostics: CspDiagnostic[]): void {
  if (diagnostics.length) ctx.stderr.write(formatDiagnostics('--value', value, diagnostics.map((d) => withNearest(value, d)) as unknown as Diagnostic[], useColor(ctx)));
}

/** Checks --value locally: errors print and exit 1 before anything is sent; warnings print and go on. */
function checkValue(ctx: CliContext, value: string): void {
  const parsed = parseCspValue(value);
  reportValue(ctx, value, parsed.diagnostics);
  if (!parsed.ok) throw new CliError('the policy value has errors; nothing was sent', EXIT_FAILURE);
}

/** The policy id, as an argument or with --id (as `jobs` takes job ids). */
function policyId(positional: string | undefined, flags: { id?: string }): string {
  const id = positional ?? flags.id;
  if (id === undefined || id === '') throw new UsageError('a policy id is needed: give it as an argument or with --id');
  // as the client refuses them when sending: a dry run must not print a request to another path
  if (id === '.' || id === '..') throw new UsageError(`--id: invalid id "${id}"`);
  if (positional !== undefined && flags.id !== undefined && positional !== flags.id) throw new UsageError('two different policy ids given');
  return id;
}

function policyRows(list: Policy[]): string {
  return table(['ID', 'ACTION', 'ENABLED', 'DESCRIPTION', 'VALUE'], list.map((p) => [p.id, String(p.action ?? ''), yes(p.enabled), p.description ?? '', p.value ?? '']));
}

function humanPolicy(p: Policy): string {
  return fields([['id', p.id], ['description', p.description], ['action', p.action], ['enabled', p.enabled], ['expression', p.expression], ['value', p.value]]);
}

function policyOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--action <action>', 'log: report violations; allow: block scripts the value does not allow').choices([...POLICY_ACTIONS]))
    .option('--expression <expr>', 'rules-language expression selecting the traffic the policy applies to')
    .option('--value <csp>', "script-src directive, e.g. \"script-src 'self' https://cdn.example.com\"")
    .option('--description <text>', 'description')
    .option('--dry-run', 'print the request instead of sending it (credentials redacted)');
}

function registerPolicies(group: Command, ctx: CliContext, setExit: SetExit): void {
  const policies = group.command('policies').description('content-security policies of the zone (list, get, create, update, delete)');
  const base = (zone: string) => `/zones/${encodeURIComponent(zone)}/page_guard/policies`;

  withConnectionOptions(policies.command('list').description('list the policies')).action(async (flags: ConnectionFlags) => {
    const list = await call(`listing the policies of zone ${flags.zone} failed`, () => pageGuard(ctx, flags).listPolicies(flags.zone));
    ctx.stdout.write(flags.json ? `${JSON.stringify(list, null, 2)}\n` : list.length ? policyRows(list) : `no policies in zone ${flags.zone}\n`);
    setExit(EXIT_OK);
  });

  withConnectionOptions(policies.command('get').description('show one policy').argument('[policy-id]').option('--id <policy_id>', 'policy id')).action(async (positional: string | undefined, flags: PolicyFlags) => {
    const id = policyId(positional, flags);
    const p = await call(`reading policy ${id} of zone ${flags.zone} failed`, () => pageGuard(ctx, flags).getPolicy(flags.zone, id));
    ctx.stdout.write(flags.json ? `${JSON.stringify(p, null, 2)}\n` : humanPolicy(p));
    setExit(EXIT_OK);
  });

  withConnectionOptions(
    policyOptions(policies.command('create').description('create a policy; its value is checked first'))
      .option('--enable', 'create it enabled (the default)')
      .option('--disable', 'create it disabled')
      .addOption(new Option('--enabled').hideHelp())
      .addOption(new Option('--disabled').hideHelp()),
  ).action(
    async (flags: PolicyFlags) => {
      const on = enableFlag(flags);
      for (const [name, v] of [['--action', flags.action], ['--expression', flags.expression], ['--value', flags.value]] as const) {
        if (v === undefined) throw new UsageError(`required option '${name}' not specified`);
      }
      checkValue(ctx, flags.value!);
      const body: PolicyInput = { action: flags.action as PolicyInput['action'], expression: flags.expression!, value: flags.value!, enabled: on !== false, ...(flags.description !== undefined ? { description: flags.description } : {}) };
      refuseInvalidExpressions(ctx, { name: '--expression', expression: flags.expression! }, { phase: POLICY_PHASE });
      const pg = pageGuard(ctx, flags);
      if (flags.dryRun) {
        printDryRun(ctx, [makeClient(ctx, flags).describeRequest('POST', base(flags.zone), body)]);
        return setExit(EXIT_OK);
      }
      const p = await call(`creating a policy in zone ${flags.zone} failed`, () => pg.createPolicy(flags.zone, body));
      ctx.stdout.write(flags.json ? `${JSON.stringify(p, null, 2)}\n` : `created policy ${p.id} (${p.action}) in zone ${flags.zone}\n`);
      setExit(EXIT_OK);
    },
  );

  withConnectionOptions(
    policyOptions(policies.command('update').description('change a policy; only the given fields are sent').argument('[policy-id]').option('--id <policy_id>', 'policy id'))
      .option('--enable', 'enable it')
      .option('--disable', 'disable it')
      .addOption(new Option('--enabled').hideHelp())
      .addOption(new Option('--disabled').hideHelp()),
  ).action(
    async (positional: string | undefined, flags: PolicyFlags) => {
      const id = policyId(positional, flags);
      const on = enableFlag(flags);
      if (flags.value !== undefined) checkValue(ctx, flags.value);
      const body: PolicyUpdate = {};
      if (flags.action !== undefined) body.action = flags.action as PolicyInput['action'];
      if (flags.expression !== undefined) body.expression = flags.expression;
      if (flags.value !== undefined) body.value = flags.value;
      if (flags.description !== undefined) body.description = flags.description;
      if (on !== undefined) body.enabled = on;
      if (Object.keys(body).length === 0) throw new UsageError('nothing to update: give --action, --expression, --value, --description, --enable or --disable');
      if (flags.expression !== undefined) refuseInvalidExpressions(ctx, { name: '--expression', expression: flags.expression }, { phase: POLICY_PHASE });
      const pg = pageGuard(ctx, flags);
      if (flags.dryRun) {
        printDryRun(ctx, [makeClient(ctx, flags).describeRequest('PUT', `${base(flags.zone)}/${encodeURIComponent(id)}`, body)]);
        return setExit(EXIT_OK);
      }
      const p = await call(`updating policy ${id} of zone ${flags.zone} failed`, () => pg.updatePolicy(flags.zone, id, body));
      ctx.stdout.write(flags.json ? `${JSON.stringify(p, null, 2)}\n` : `updated policy ${p.id} in zone ${flags.zone}\n`);
      setExit(EXIT_OK);
    },
  );

  withConnectionOptions(withYes(policies.command('delete').description('delete a policy (asks first on a terminal; --yes otherwise)').argument('[policy-id]').option('--id <policy_id>', 'policy id').option('--dry-run', 'print the request instead of sending it'))).action(
    async (positional: string | undefined, flags: PolicyFlags) => {
      const id = policyId(positional, flags);
      await confirmDestructive(ctx, flags, `delete policy ${id} of zone ${flags.zone}`);
      if (flags.dryRun) {
        printDryRun(ctx, [makeClient(ctx, flags).describeRequest('DELETE', `${base(flags.zone)}/${encodeURIComponent(id)}`)]);
        return setExit(EXIT_OK);
      }
      await call(`deleting policy ${id} of zone ${flags.zone} failed`, () => pageGuard(ctx, flags).deletePolicy(flags.zone, id));
      ctx.stdout.write(flags.json ? `${JSON.stringify({ id }, null, 2)}\n` : `deleted policy ${id} in zone ${flags.zone}\n`);
      setExit(EXIT_OK);
    },
  );
}

// ---- policy suggest / check ----

const REASONS: Record<string, string> = {
  malicious: 'malicious by its js_integrity_score',
  'reported-malicious': 'its domain or URL was reported malicious',
  'malicious-connection': 'a connection to its host was reported malicious',
  'not-active': 'not active (infrequent or inactive)',
  'no-url': 'no URL',
  'not-a-network-url': 'not an http(s) URL',
  'ipv6-host': 'served from an IPv6 address, which no CSP source can name',
  'same-url-as-left-out': 'its URL (without query) is also a left-out script\'s',
  'no-matching-source': 'no source matches',
  none: "'none' allows nothing",
  'strict-dynamic': "'strict-dynamic' ignores host sources and 'self'",
  'no-page': 'no page URL or host to match against',
};

interface SuggestFlags extends ConnectionFlags, MaliciousFlags {
  host: string[];
  minScriptsPerHost?: number;
}

interface CheckFlags extends ConnectionFlags, MaliciousFlags {
  value?: string;
  expression?: string;
  allPages?: boolean;
  exitCode?: boolean;
  host: string[];
  status: string[];
}

function registerPolicyTools(group: Command, ctx: CliContext, setExit: SetExit): void {
  const policy = group.command('policy').description('propose a policy value from what was observed, or check what a value would allow or block');

  withConnectionOptions(
    maliciousOptions(
      policy
        .command('suggest')
        .description('a script-src value allowing the active, non-malicious scripts observed, with what it allows and leaves out')
        .option('--host <pattern>', 'only scripts seen on these hosts; * at the start and/or end (repeatable)', collect, [])
        .addOption(new Option('--min-scripts-per-host <n>', 'distinct script URLs on one host from which the host is allowed instead of each URL (default 2)').argParser(positiveInt)),
    ),
  ).action(async (flags: SuggestFlags) => {
    const pg = pageGuard(ctx, flags);
    const hosts = listOf(flags.host);
    const what = `reading the scripts of zone ${flags.zone} failed`;
    // Every status, and /cdn-cgi too: what is not proposed is listed with its reason rather than silently missing.
    const scripts = await call(what, () => pg.allScripts(flags.zone, { hosts, status: [...STATUSES], exclude_cdn_cgi: false }));
    const connections = await call(`reading the connections of zone ${flags.zone} failed`, () => pg.allConnections(flags.zone, { status: [...STATUSES], exclude_cdn_cgi: false }));
    const s = suggestPolicy(scripts, connections, { malicious: pg.malicious, minScriptsPerHost: flags.minScriptsPerHost });
    const command = ['logfilter', 'page-guard', 'policies', 'create', '--zone', flags.zone, '--action', 'log', '--expression', s.expression, '--value', s.value].map(shellQuote).join(' ');
    if (flags.json) {
      ctx.stdout.write(`${JSON.stringify({ value: s.value, expression: s.expression, sources: s.sources, left_out: s.leftOut, command }, null, 2)}\n`);
      return setExit(EXIT_OK);
    }
    let out = `${s.value}\n\nallows:\n`;
    out += s.sources.length ? table(['  SOURCE', 'KIND', 'SCRIPTS'], s.sources.map((x) => [`  ${x.source}`, x.kind, x.scripts.map((sc) => sc.url).join(' ')])) : '  nothing (no active, non-malicious script was observed)\n';
    out += `\nleaves out:\n`;
    out += s.leftOut.length ? table(['  URL', 'WHY'], s.leftOut.map((l) => [`  ${l.url ?? l.id}`, REASONS[l.reason] ?? l.reason])) : '  nothing\n';
    // the expression holds observed hosts: escaped as tables are
    out += `\ncreate it with action log (violations are reported, nothing is blocked):\n  ${terminalSafe(command)}\n`;
    ctx.stdout.write(out);
    setExit(EXIT_OK);
  });

  withConnectionOptions(
    maliciousOptions(
      policy
        .command('check')
        .description('which observed scripts a policy value would allow or block (CSP source matching as browsers do it)')
        .argument('[policy-id]', 'the policy whose value to check')
        .option('--value <csp>', 'a value to check instead of a policy\'s')
        .option('--expression <expr>', 'only scripts seen on pages this expression matches (default: the policy\'s expression, if any)')
        .option('--all-pages', 'check every observed script, whatever the pages the expression matches')
        .option('--host <pattern>', 'only scripts seen on these hosts (repeatable)', collect, [])
        .option('--status <status>', `scripts of these statuses (${STATUSES.join(', ')}; default active)`, collect, [])
        .option('--exit-code', 'exit 1 when a wanted script would be blocked (as git diff --exit-code)'),
    ),
  ).action(async (id: string | undefined, flags: CheckFlags) => {
    if ((id === undefined) === (flags.value === undefined)) throw new UsageError('give a policy id or --value (one of them)');
    // one says which pages, the other that pages do not matter: given both, one would be silently ignored
    if (flags.expression !== undefined && flags.allPages) throw new UsageError('give --expression or --all-pages, not both');
    const statuses = listOf(flags.status)?.map((v) => oneOf('--status', v, STATUSES, 'status')) as ScriptListParams['status'];
    const scriptParams: ScriptListParams = { hosts: listOf(flags.host), status: statuses };
    // flags are checked before the policy is read: a bad one sends nothing
    await call('checking the flags failed', async () => listQuery('scripts', scriptParams));
    const pg = pageGuard(ctx, flags);
    let value = flags.value;
    let source = '--value';
    let expression = flags.expression;
    let expressionName = '--expression';
    if (expression !== undefined) refuseInvalidExpressions(ctx, { name: '--expression', expression }, { phase: POLICY_PHASE });
    if (id !== undefined) {
      const p = await call(`reading policy ${id} of zone ${flags.zone} failed`, () => pg.getPolicy(flags.zone, id));
      value = p.value ?? '';
      source = `policy ${id}`;
      if (expression === undefined && typeof p.expression === 'string') [expression, expressionName] = [p.expression, `policy ${id} expression`];
    }
    const parsed = parseCspValue(value!);
    reportValue(ctx, value!, parsed.diagnostics);
    if (!parsed.ok) throw new CliError(`the value of ${source} has errors`, EXIT_FAILURE);
    const observed = await call(`reading the scripts of zone ${flags.zone} failed`, () => pg.allScripts(flags.zone, scriptParams));
    // the policy applies to the pages its expression matches: scripts seen elsewhere are not its concern
    let scripts = observed;
    let outOfScope = 0;
    if (expression !== undefined && expression.trim() !== 'true' && !flags.allPages) {
      const scope = scriptsInScope(expression, observed);
      if (!scope.ok) {
        reportDiagnostics(ctx, expressionName, expression, scope.diagnostics, 'text');
        throw new CliError(`the expression of ${source} cannot be evaluated`, EXIT_FAILURE);
      }
      scripts = scope.inScope;
      outOfScope = scope.outOfScope.length;
    }
    const connections = await call(`reading the connections of zone ${flags.zone} failed`, () => pg.allConnections(flags.zone, { status: [...STATUSES], exclude_cdn_cgi: false }));
    const r = checkPolicyValue(value!, scripts, pg.malicious, connections);
    const breaks = r.breaks;
    if (flags.json) {
      ctx.stdout.write(`${JSON.stringify({ value, ...(expression !== undefined ? { expression, out_of_scope: outOfScope } : {}), directive: r.directive ?? null, allowed: r.allowed, blocked: r.blocked, breaks, scripts: r.verdicts }, null, 2)}\n`);
    } else {
      let out = `${source}: ${value}\n`;
      if (outOfScope) out += `${outOfScope} script(s) seen only on pages the expression does not match are left out\n`;
      out += r.directive ? `checked against ${r.directive}\n\n` : 'no script-src or script-src-elem directive: every script is allowed\n\n';
      out += table(['!', 'VERDICT', 'SOURCE OR REASON', 'URL'], r.verdicts.map((v) => [mark(v.unwanted !== undefined), v.allowed ? 'allowed' : v.unwanted ? 'blocked' : 'BREAKS', v.allowed ? v.source ?? '(no directive)' : `${REASONS[v.reason!] ?? v.reason!}${v.unwanted ? ` (${REASONS[v.unwanted]})` : ''}`, v.url ?? v.id]));
      out += `\n${r.allowed} allowed, ${r.blocked} blocked: ${breaks} would break (BREAKS), ${r.blocked - breaks} unwanted${r.verdicts.some((v) => v.unwanted) ? ' (! = malicious, reported malicious, or from a host a malicious connection went to)' : ''}\n`;
      const unwantedAllowed = r.verdicts.filter((v) => v.allowed && v.unwanted).length;
      if (unwantedAllowed) out += `warning: the value allows ${unwantedAllowed} unwanted script(s) (marked ! and allowed)\n`;
      ctx.stdout.write(out);
    }
    // The check ran: 0. With --exit-code, 1 when it found something that would break, for scripts and CI.
    setExit(flags.exitCode && breaks > 0 ? EXIT_FAILURE : EXIT_OK);
  });
}

export function registerPageGuard(program: Command, ctx: CliContext, setExit: SetExit): void {
  // `page-shield`: the provider's own name for page monitoring, which its users type
  const group = program.command('page-guard').alias('page-shield').description('page monitoring: scripts, connections, cookies and content-security policies of a zone');

  // Printed in the spelling the client speaks (the provider's `use_cloudflare_reporting_endpoint` unless
  // LOGFILTER_API_NAMES=neutral), as users of the provider's tools read it.
  const settings = (change?: (flags: SettingsFlags) => PageGuardSettingsInput | undefined) => async (flags: ConnectionFlags & SettingsFlags) => {
    const body = change?.(flags);
    const client = makeClient(ctx, flags);
    const pg = new PageGuardApi(client);
    const s = await call(`${body === undefined ? 'reading' : 'changing'} the page monitoring of zone ${flags.zone} failed`, () =>
      body === undefined ? pg.getSettings(flags.zone) : pg.updateSettings(flags.zone, body),
    );
    const shown = fieldsIn(client.names, s) as Record<string, unknown>;
    if (flags.json) ctx.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
    else ctx.stdout.write(fields(Object.entries(shown).map(([k, v]) => [k, v])));
    setExit(EXIT_OK);
  };
  withConnectionOptions(group.command('status').description('whether page monitoring is on, and its settings')).action(settings());
  withConnectionOptions(withSettingsOptions(group.command('enable').description('turn page monitoring on (and change its other settings)'))).action(settings((f) => ({ enabled: true, ...settingsBody(f) })));
  withConnectionOptions(withSettingsOptions(group.command('disable').description('turn page monitoring off (and change its other settings)'))).action(settings((f) => ({ enabled: false, ...settingsBody(f) })));
  withConnectionOptions(withSettingsOptions(group.command('settings').description('change the optional settings (reporting endpoint, connection URL paths), or show them all when none is given'))).action(
    settings((f) => {
      const body = settingsBody(f);
      return Object.keys(body).length > 0 ? body : undefined;
    }),
  );

  registerList(group, ctx, setExit, 'scripts', 'script');
  registerList(group, ctx, setExit, 'connections', 'connection');
  registerList(group, ctx, setExit, 'cookies', 'cookie');
  registerPolicies(group, ctx, setExit);
  registerPolicyTools(group, ctx, setExit);
}

interface SettingsFlags {
  useCloudflareReportingEndpoint?: string;
  useConnectionUrlPath?: string;
}

/** The two optional booleans of the settings, by the provider's field names (true or false). */
function withSettingsOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--use-cloudflare-reporting-endpoint <bool>', "send violation reports to the provider's own endpoint").choices(['true', 'false']))
    .addOption(new Option('--use-connection-url-path <bool>', 'analyse the URL paths of connections too').choices(['true', 'false']));
}

function settingsBody(flags: SettingsFlags): PageGuardSettingsInput {
  const body: PageGuardSettingsInput = {};
  if (flags.useCloudflareReportingEndpoint !== undefined) body.use_service_reporting_endpoint = flags.useCloudflareReportingEndpoint === 'true';
  if (flags.useConnectionUrlPath !== undefined) body.use_connection_url_path = flags.useConnectionUrlPath === 'true';
  return body;
}
