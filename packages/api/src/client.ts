/**
 * The typed client of the zone API: built-in fetch, the envelope (`{result, success, errors, messages, result_info?}`, emulator README, "Behaviour") turned into values or typed
 * errors, retries with backoff on 429 and 5xx honouring Retry-After, a timeout per attempt, and cancellation.
 * Credentials live in private fields and appear in no message, inspect output or dry-run description.
 */
import { resolveConnection, CREDENTIAL_SOURCES, type ConnectionOptions, type ResolvedConnection } from './config.js';
import { fieldsIn, pathIn, type Spelling } from './spelling.js';
import {
  ApiAbortError,
  ApiAnswerTooLargeError,
  ApiConfigError,
  ApiError,
  ApiInvalidResponseError,
  ApiNetworkError,
  ApiResponseError,
  ApiTimeoutError,
  PageGuardInputError,
  type EnvelopeError,
} from './errors.js';
import { explain, type ResultSchema } from './schemas.js';
import { DEFAULT_MAX_ANSWER_BYTES, MAX_ANSWER_BYTES_LIMIT, readAnswer } from './answer-body.js';
import { PageGuardApi } from './page-guard.js';
import type { Answer, ApiRequester, CallOptions } from './requester.js';
import { checkMaliciousRule, type MaliciousRule } from './page-guard/malicious.js';
import type {
  CreateJobInput,
  CreateRulesetInput,
  CursorPage,
  Job,
  Page,
  ResultInfo,
  Rule,
  RuleInput,
  RulePosition,
  Ruleset,
  RulesetSummary,
  UpdateJobInput,
  UpdateRulesetInput,
} from './types.js';

export interface RetryInfo {
  attempt: number;
  delayMs: number;
  status?: number;
  reason: string;
}

export interface ClientOptions extends ConnectionOptions {
  /** Milliseconds each attempt may take before it fails with ApiTimeoutError (default 30 000). */
  timeoutMs?: number;
  /** Retries after a 429, a 5xx, or (for GET, PUT, DELETE) a network failure (default 3). */
  retries?: number;
  /** First backoff delay; doubled each retry, with jitter (default 500 ms). */
  retryDelayMs?: number;
  /** Upper bound of one wait, Retry-After included (default 30 000 ms). */
  maxRetryDelayMs?: number;
  /** Bytes of an answer read at most; a larger one fails with ApiAnswerTooLargeError (default 64 MiB, DEFAULT_MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number;
  /** Cancels every call of this client. */
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Called before each retry: for progress output. Gets no headers and no bodies. */
  onRetry?: (info: RetryInfo) => void;
  /** Page monitoring: when a script is malicious (default js_integrity_score strictly above 50). */
  malicious?: MaliciousRule;
}

export type { CallOptions } from './requester.js';

export interface PageOptions extends CallOptions {
  page?: number;
  perPage?: number;
}

export interface CursorOptions extends CallOptions {
  /** Where to continue: the `cursor` of the previous page. */
  cursor?: string;
  perPage?: number;
}

/** Where rulesets live: a zone id (a bare string, as before) or `{ zone }` / `{ account }`. */
export type Scope = string | { zone: string } | { account: string };

/** The path prefix of a scope: `/zones/<id>` or `/accounts/<id>`. */
export function scopePath(scope: Scope): string {
  if (typeof scope === 'string') return `/zones/${seg(scope)}`;
  // from JavaScript: anything else is the caller's mistake, refused before anything is sent
  if (typeof scope !== 'object' || scope === null) throw new ApiConfigError(`a scope is a zone id, {zone} or {account}, not ${scope === null ? 'null' : typeof scope}`);
  if ('zone' in scope) return `/zones/${seg(scope.zone)}`;
  if ('account' in scope) return `/accounts/${seg(scope.account)}`;
  throw new ApiConfigError('a scope is a zone id, {zone} or {account}: this object has neither');
}

/** A request as it would be sent, with the credentials replaced: what `--dry-run` prints. */
export interface RequestDescription {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export const REDACTED = '<redacted>';
const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE', 'HEAD']);
/** Redirects followed within the base URL's origin; one to another origin is refused (credentials stay home). */
const MAX_REDIRECTS = 5;
/** Network failures where the request provably never reached the server: safe to resend even a POST. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export const seg = (s: string | number) => {
  // undefined would otherwise be sent as the id "undefined"
  if (typeof s !== 'string' && !(typeof s === 'number' && Number.isFinite(s))) throw new ApiConfigError(`invalid path segment: ${s === null ? 'null' : typeof s}`);
  const text = String(s);
  if (text === '' || text === '.' || text === '..') throw new ApiConfigError(`invalid path segment "${text}"`);
  return encodeURIComponent(text);
};

export class LogfilterClient implements ApiRequester {
  readonly #conn: ResolvedConnection;
  readonly #options: ClientOptions;

  constructor(options?: ClientOptions | null) {
    options ??= {};
    this.#conn = resolveConnection(options);
    if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new ApiConfigError('the fetch option must be a function');
    checkRange('timeoutMs', options.timeoutMs, 1, MAX_TIMER_MS);
    checkRange('retries', options.retries, 0, 100);
    checkRange('retryDelayMs', options.retryDelayMs, 0, MAX_TIMER_MS);
    checkRange('maxRetryDelayMs', options.maxRetryDelayMs, 0, MAX_TIMER_MS);
    checkRange('maxAnswerBytes', options.maxAnswerBytes, 1, MAX_ANSWER_BYTES_LIMIT);
    // checked with the other options, not at the first use of pageGuard
    const badRule = options.malicious === undefined ? undefined : checkMaliciousRule(options.malicious);
    if (badRule) throw new PageGuardInputError('malicious', `malicious: ${badRule}`);
    this.#options = options;
  }

  #pageGuard?: PageGuardApi;

  /** Page monitoring calls (settings, scripts, connections, cookies, policies) with this client's malicious rule. */
  get pageGuard(): PageGuardApi {
    return (this.#pageGuard ??= new PageGuardApi(this, { malicious: this.#options.malicious }));
  }

  get baseUrl(): string {
    return this.#conn.baseUrl;
  }

  /** The spelling of paths and fields on the wire: the provider's unless LOGFILTER_API_NAMES or `names` says neutral. */
  get names(): Spelling {
    return this.#conn.names;
  }

  /** Which scheme is configured, never the secret itself. */
  get authScheme(): 'token' | 'key' | undefined {
    return this.#conn.credentials?.kind;
  }

  toJSON() {
    return { baseUrl: this.baseUrl, auth: this.authScheme ?? null };
  }

  [Symbol.for('nodejs.util.inspect.custom')]() {
    return `LogfilterClient ${JSON.stringify(this.toJSON())}`;
  }

  describeRequest(method: string, path: string, body?: unknown): RequestDescription {
    const headers: Record<string, string> = {};
    const c = this.#conn.credentials;
    if (c?.kind === 'token') headers.Authorization = `Bearer ${REDACTED}`;
    if (c?.kind === 'key') {
      headers['X-Auth-Email'] = c.email;
      headers['X-Auth-Key'] = REDACTED;
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return { method, url: `${this.#conn.baseUrl}${pathIn(this.names, path)}`, headers, ...(body !== undefined ? { body: fieldsIn(this.names, body) } : {}) };
  }

  // ---- rulesets (README, "Calls"), at zone or account scope ----

  /** One page of a scope's rulesets (without rules); `cursor` is absent on the last page. */
  async listRulesets(scope: Scope, opts: CursorOptions = {}): Promise<CursorPage<RulesetSummary>> {
    const query = new URLSearchParams();
    if (opts.cursor) query.set('cursor', opts.cursor);
    if (opts.perPage !== undefined) query.set('per_page', String(opts.perPage));
    const q = query.toString();
    const path = `${scopePath(scope)}/rulesets`;
    const answer = await this.request<RulesetSummary[]>('GET', q ? `${path}?${q}` : path, 'rulesetList', opts);
    // The API has answered the next cursor in either place; both are read (README, "Calls").
    const next = answer.resultInfo?.cursors?.after ?? answer.resultInfo?.cursor;
    return { items: answer.result, ...(typeof next === 'string' && next !== '' ? { cursor: next } : {}) };
  }
  /** Every ruleset of a scope, following the cursor page after page as the caller iterates. */
  async *iterateRulesets(scope: Scope, opts: CursorOptions = {}): AsyncGenerator<RulesetSummary, void, undefined> {
    const seen = new Set<string>();
    let cursor = opts.cursor;
    for (;;) {
      const page = await this.listRulesets(scope, { ...opts, cursor });
      yield* page.items;
      if (page.cursor === undefined || page.items.length === 0) return;
      // A server that hands back a cursor it gave before would make this loop forever.
      if (seen.has(page.cursor)) throw new ApiInvalidResponseError('GET', `${scopePath(scope)}/rulesets`, 200, `the cursor ${page.cursor} came back twice`);
      seen.add(page.cursor);
      cursor = page.cursor;
    }
  }
  async listAllRulesets(scope: Scope, opts: CallOptions = {}): Promise<RulesetSummary[]> {
    const out: RulesetSummary[] = [];
    for await (const rs of this.iterateRulesets(scope, { ...opts, perPage: 100 })) out.push(rs);
    return out;
  }
  async createRuleset(scope: Scope, body: CreateRulesetInput, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('POST', `${scopePath(scope)}/rulesets`, 'ruleset', { ...opts, body })).result;
  }
  async getRuleset(scope: Scope, id: string, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('GET', `${scopePath(scope)}/rulesets/${seg(id)}`, 'ruleset', opts)).result;
  }
  /** PUT replaces ALL rules of the ruleset. */
  async updateRuleset(scope: Scope, id: string, body: UpdateRulesetInput, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('PUT', `${scopePath(scope)}/rulesets/${seg(id)}`, 'ruleset', { ...opts, body })).result;
  }
  async deleteRuleset(scope: Scope, id: string, opts: CallOptions = {}): Promise<void> {
    await this.request('DELETE', `${scopePath(scope)}/rulesets/${seg(id)}`, 'any', opts);
  }
  async getEntrypoint(scope: Scope, phase: string, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('GET', `${scopePath(scope)}/rulesets/phases/${seg(phase)}/entrypoint`, 'ruleset', opts)).result;
  }
  /** Creates the entry point when the phase has none. `query` is for the migration's waf_migration / phase_two. */
  async updateEntrypoint(scope: Scope, phase: string, body: Partial<UpdateRulesetInput> & { rules: RuleInput[] }, opts: CallOptions & { query?: Record<string, string> } = {}): Promise<Ruleset> {
    const q = opts.query ? `?${new URLSearchParams(opts.query).toString()}` : '';
    return (await this.request<Ruleset>('PUT', `${scopePath(scope)}/rulesets/phases/${seg(phase)}/entrypoint${q}`, 'ruleset', { ...opts, body })).result;
  }
  /** The entry point's versions, newest first; empty when the phase has no entry point. */
  async listEntrypointVersions(scope: Scope, phase: string, opts: CallOptions = {}): Promise<RulesetSummary[]> {
    return (await this.request<RulesetSummary[]>('GET', `${scopePath(scope)}/rulesets/phases/${seg(phase)}/entrypoint/versions`, 'rulesetList', opts)).result;
  }
  async getEntrypointVersion(scope: Scope, phase: string, version: string, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('GET', `${scopePath(scope)}/rulesets/phases/${seg(phase)}/entrypoint/versions/${seg(version)}`, 'ruleset', opts)).result;
  }
  /** A ruleset's versions (without rules), newest first; not paged. */
  async listRulesetVersions(scope: Scope, id: string, opts: CallOptions = {}): Promise<RulesetSummary[]> {
    return (await this.request<RulesetSummary[]>('GET', `${scopePath(scope)}/rulesets/${seg(id)}/versions`, 'rulesetList', opts)).result;
  }
  async getRulesetVersion(scope: Scope, id: string, version: string, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('GET', `${scopePath(scope)}/rulesets/${seg(id)}/versions/${seg(version)}`, 'ruleset', opts)).result;
  }
  /** The ruleset at `version` with only the rules whose categories hold `tag` (managed rulesets carry categories). */
  async getRulesetVersionByTag(scope: Scope, id: string, version: string, tag: string, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('GET', `${scopePath(scope)}/rulesets/${seg(id)}/versions/${seg(version)}/by_tag/${seg(tag)}`, 'ruleset', opts)).result;
  }
  async deleteRulesetVersion(scope: Scope, id: string, version: string, opts: CallOptions = {}): Promise<void> {
    await this.request('DELETE', `${scopePath(scope)}/rulesets/${seg(id)}/versions/${seg(version)}`, 'any', opts);
  }
  /** Appends the rule, or puts it at `position`; answers the whole ruleset (a new version). */
  async addRule(scope: Scope, rulesetId: string, rule: RuleInput & { position?: RulePosition }, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('POST', `${scopePath(scope)}/rulesets/${seg(rulesetId)}/rules`, 'ruleset', { ...opts, body: rule })).result;
  }
  /** Changes fields of a rule; with `position` it also moves it (a body with only `position` just moves it). */
  async updateRule(scope: Scope, rulesetId: string, ruleId: string, patch: Partial<RuleInput> & { position?: RulePosition }, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('PATCH', `${scopePath(scope)}/rulesets/${seg(rulesetId)}/rules/${seg(ruleId)}`, 'ruleset', { ...opts, body: patch })).result;
  }
  async moveRule(scope: Scope, rulesetId: string, ruleId: string, position: RulePosition, opts: CallOptions = {}): Promise<Ruleset> {
    return this.updateRule(scope, rulesetId, ruleId, { position }, opts);
  }
  async deleteRule(scope: Scope, rulesetId: string, ruleId: string, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('DELETE', `${scopePath(scope)}/rulesets/${seg(rulesetId)}/rules/${seg(ruleId)}`, 'ruleset', opts)).result;
  }

  // ---- log export jobs (README, "Calls") ----

  // A zone id (a bare string, as before), `{zone}` or `{account}`: jobs live at both (emulator README, "Paths").
  listJobs(scope: Scope, opts: PageOptions = {}): Promise<Page<Job>> {
    return this.page<Job>(`${scopePath(scope)}/logexport/jobs`, 'jobList', opts);
  }
  listAllJobs(scope: Scope, opts: CallOptions = {}): Promise<Job[]> {
    return this.all<Job>(`${scopePath(scope)}/logexport/jobs`, 'jobList', opts);
  }
  async getJob(scope: Scope, id: number | string, opts: CallOptions = {}): Promise<Job> {
    return (await this.request<Job>('GET', `${scopePath(scope)}/logexport/jobs/${seg(id)}`, 'job', opts)).result;
  }
  async createJob(scope: Scope, body: CreateJobInput, opts: CallOptions = {}): Promise<Job> {
    return (await this.request<Job>('POST', `${scopePath(scope)}/logexport/jobs`, 'job', { ...opts, body })).result;
  }
  async updateJob(scope: Scope, id: number | string, body: UpdateJobInput, opts: CallOptions = {}): Promise<Job> {
    return (await this.request<Job>('PUT', `${scopePath(scope)}/logexport/jobs/${seg(id)}`, 'job', { ...opts, body })).result;
  }
  async deleteJob(scope: Scope, id: number | string, opts: CallOptions = {}): Promise<void> {
    await this.request('DELETE', `${scopePath(scope)}/logexport/jobs/${seg(id)}`, 'any', opts);
  }

  // ---- transport ----

  private async page<T>(path: string, schema: ResultSchema, opts: PageOptions): Promise<Page<T>> {
    const query = new URLSearchParams();
    if (opts.page !== undefined) query.set('page', String(opts.page));
    if (opts.perPage !== undefined) query.set('per_page', String(opts.perPage));
    const q = query.toString();
    const a = await this.request<T[]>('GET', q ? `${path}?${q}` : path, schema, opts);
    return { items: a.result, info: a.resultInfo };
  }

  private async all<T>(path: string, schema: ResultSchema, opts: CallOptions): Promise<T[]> {
    const out: T[] = [];
    for (let page = 1; page <= 10_000; page++) {
      const p = await this.page<T>(path, schema, { ...opts, page, perPage: 100 });
      out.push(...p.items);
      if (!p.info || page >= p.info.total_pages || p.items.length === 0) break;
    }
    return out;
  }

  /** One API call: the raw building block of every method above, for paths this client does not wrap. */
  async request<T = unknown>(method: string, path: string, schema: ResultSchema = 'any', opts: CallOptions & { body?: unknown; text?: boolean } = {}): Promise<Answer<T>> {
    const base = this.#conn.baseUrl;
    // The library's own paths and types are written in the description's words; the wire speaks `names`.
    path = pathIn(this.names, path);
    const creds = this.#conn.credentials;
    if (!creds) throw new ApiConfigError(`no credentials: looked at ${CREDENTIAL_SOURCES}; set one of them`);
    const headers: Record<string, string> = { Accept: opts.text ? 'text/csv, application/json' : 'application/json' };
    if (creds.kind === 'token') headers.Authorization = `Bearer ${creds.token}`;
    else {
      headers['X-Auth-Email'] = creds.email;
      headers['X-Auth-Key'] = creds.key;
    }
    let payload: string | undefined;
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(fieldsIn(this.names, opts.body));
    }
    const retries = Math.max(0, this.#options.retries ?? 3);
    checkRange('timeoutMs', opts.timeoutMs, 1, MAX_TIMER_MS);
    const timeoutMs = opts.timeoutMs ?? this.#options.timeoutMs ?? 30_000;
    const signals = [this.#options.signal, opts.signal].filter((s): s is AbortSignal => s !== undefined);
    const doFetch = this.#options.fetch ?? fetch;
    const pathOnly = path.split('?')[0];

    const secrets = creds.kind === 'token' ? [creds.token] : [creds.key, creds.email];
    const idempotent = IDEMPOTENT.has(method);

    for (let attempt = 0; ; attempt++) {
      if (signals.some((s) => s.aborted)) throw new ApiAbortError(method, pathOnly);
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([...signals, timeout]);
      let status = 0;
      let retryAfter: string | null = null;
      let failure: ApiError;
      try {
        const res = await this.send(doFetch, base + path, { method, headers, body: payload, signal }, pathOnly);
        status = res.status;
        retryAfter = res.headers.get('retry-after');
        const text = await readAnswer(res, this.#options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES, method, pathOnly);
        // 204: done, and nothing to read (ruleset, version and policy deletion answer so).
        if (status === 204) return { result: undefined as T };
        const isJson = /^application\/json\b/i.test(res.headers.get('content-type') ?? '');
        // A text answer (CSV export) is the result itself; an error still comes as the JSON envelope.
        const answer: Parsed<T> =
          opts.text && status >= 200 && status < 300 && !isJson
            ? { ok: true, value: { result: text as T } }
            : parseAnswer<T>(method, pathOnly, status, text, schema);
        if (answer.ok) return answer.value;
        failure = answer.error;
        if (!(status === 429 || status >= 500)) throw failure;
      } catch (e) {
        if (e instanceof ApiError) {
          if (e.kind !== 'api' && e.kind !== 'invalid-response') throw e;
          // A server that sent too much once would send it again: like a timeout, not retried.
          if (e instanceof ApiAnswerTooLargeError) throw idempotent ? e : e.withUnknownOutcome();
          // An answer that is not the envelope after a change may hide a change that was made.
          if (!idempotent && e.kind === 'invalid-response' && status >= 200 && status < 300) throw e.withUnknownOutcome();
          if (!(status === 429 || status >= 500)) throw e;
          failure = e;
        } else if (signals.some((s) => s.aborted)) {
          throw new ApiAbortError(method, pathOnly, !idempotent);
        } else if (timeout.aborted) {
          // A hung server tends to stay hung: the caller gets the timeout at once rather than several of them.
          throw new ApiTimeoutError(timeoutMs, method, pathOnly, !idempotent);
        } else {
          const code = networkCode(e);
          const sent = !NOT_SENT.has(code ?? '');
          failure = new ApiNetworkError(method, pathOnly, redactCause(e, secrets), !idempotent && sent, status || undefined);
          // A POST or PATCH that may have arrived is not repeated: it could create or move twice.
          if (!idempotent && sent) throw failure;
        }
      }
      // A 5xx means the request reached the server, which may have applied it before failing: a POST or PATCH is
      // not resent (it could create twice); the error says the change may have been applied. A 429 was refused
      // before any processing, so every method is retried after it.
      if (!idempotent && status >= 500) throw failure.withUnknownOutcome();
      if (attempt >= retries) throw failure;
      const delayMs = this.backoff(attempt, retryAfter);
      this.#options.onRetry?.({ attempt: attempt + 1, delayMs, status: status || undefined, reason: failure.message });
      await sleep(delayMs, signals, () => new ApiAbortError(method, pathOnly));
    }
  }

  /**
   * One HTTP exchange, following redirects only within the base URL's origin. fetch's own redirect handling
   * forwards X-Auth-Email and X-Auth-Key to any host; here a redirect to another origin is an error naming only
   * that origin, and no credential ever leaves for it.
   */
  private async send(doFetch: typeof fetch, url: string, init: RequestInit & { method: string }, pathOnly: string): Promise<Response> {
    let target = new URL(url);
    const origin = target.origin;
    let { method, body } = init;
    for (let hop = 0; ; hop++) {
      const res = await doFetch(target.href, { ...init, method, body, redirect: 'manual' });
      if (res.status < 300 || res.status >= 400 || res.status === 304) return res;
      const location = res.headers.get('location');
      if (location === null) return res;
      await res.body?.cancel();
      let next: URL;
      try {
        next = new URL(location, target);
      } catch {
        throw new ApiInvalidResponseError(init.method, pathOnly, res.status, 'a redirect whose Location is not a URL');
      }
      if (next.origin !== origin) {
        throw new ApiInvalidResponseError(
          init.method,
          pathOnly,
          res.status,
          `redirected to another origin (${next.protocol}//${next.host}); credentials are never sent there: set the base URL to the address that answers`,
        );
      }
      if (hop >= MAX_REDIRECTS) throw new ApiInvalidResponseError(init.method, pathOnly, res.status, `more than ${MAX_REDIRECTS} redirects`);
      // 303 (and 301/302 after a POST, as browsers do) turn into a GET; that would not do what was asked.
      const keepsMethod = res.status === 307 || res.status === 308 || method === 'GET' || method === 'HEAD';
      if (!keepsMethod) throw new ApiInvalidResponseError(init.method, pathOnly, res.status, `a ${res.status} redirect of a ${method} is not followed (it would turn into a GET)`);
      target = next;
      body = init.body;
    }
  }

  private backoff(attempt: number, retryAfter: string | null): number {
    const max = this.#options.maxRetryDelayMs ?? 30_000;
    const fromHeader = parseRetryAfter(retryAfter);
    if (fromHeader !== undefined) return Math.min(fromHeader, max);
    const base = (this.#options.retryDelayMs ?? 500) * 2 ** attempt;
    return Math.min(max, Math.round(base / 2 + Math.random() * (base / 2)));
  }
}

/** The longest a Node.js timer waits (2^31 - 1 ms); a longer one fires at once (TimeoutOverflowWarning). */
export const MAX_TIMER_MS = 2_147_483_647;

/** A numeric option outside what it can mean is refused (ApiConfigError) rather than silently something else. */
function checkRange(name: string, value: number | undefined, min: number, max: number): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < min || value > max) throw new ApiConfigError(`${name} must be a whole number from ${min} to ${max}`);
}

function networkCode(e: unknown): string | undefined {
  const cause = (e as { cause?: { code?: unknown } })?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/**
 * A copy of an error's cause chain with every secret replaced, for `err.cause`: fetch's errors can quote header
 * values, and `util.inspect(err)` prints causes. Keeps name, message, code, errno, syscall; at most 8 levels.
 */
export function redactCause(e: unknown, secrets: string[], depth = 0): unknown {
  const clean = (text: string) => secrets.filter((s) => s.length > 0).reduce((t, s) => t.split(s).join(REDACTED), text);
  if (!(e instanceof Error)) return typeof e === 'string' ? clean(e) : undefined;
  const copy = new Error(clean(e.message));
  copy.name = e.name;
  copy.stack = `${copy.name}: ${copy.message}`;
  for (const k of ['code', 'errno', 'syscall'] as const) {
    const v = (e as unknown as Record<string, unknown>)[k];
    if (typeof v === 'string' || typeof v === 'number') Object.defineProperty(copy, k, { value: typeof v === 'string' ? clean(v) : v, enumerable: true });
  }
  if (e.cause !== undefined && depth < 8) copy.cause = redactCause(e.cause, secrets, depth + 1);
  return copy;
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*[0-9]+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

type Parsed<T> = { ok: true; value: Answer<T> } | { ok: false; error: ApiError };

function parseAnswer<T>(method: string, path: string, status: number, text: string, schema: ResultSchema): Parsed<T> {
  // An answer documented as empty (policy DELETE: README, "Page monitoring") has no envelope to read.
  if (schema === 'empty' && status >= 200 && status < 300 && text.trim() === '') return { ok: true, value: { result: undefined as T } };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, error: new ApiInvalidResponseError(method, path, status, 'the body is not JSON') };
  }
  const bad = explain('envelope', body);
  if (bad) return { ok: false, error: new ApiInvalidResponseError(method, path, status, `not the API envelope: ${bad}`) };
  const env = body as { success: boolean; errors: EnvelopeError[]; result?: unknown; result_info?: ResultInfo };
  if (!env.success || status >= 400) {
    const errors = env.errors.length > 0 ? env.errors : [{ code: 0, message: `HTTP ${status} without an error message` }];
    return { ok: false, error: new ApiResponseError(method, path, status, errors) };
  }
  // Answers in either spelling read as the library's types, which use the description's words.
  const result = fieldsIn('neutral', env.result);
  const badResult = explain(schema, result);
  if (badResult) return { ok: false, error: new ApiInvalidResponseError(method, path, status, badResult) };
  return { ok: true, value: { result: result as T, resultInfo: env.result_info } };
}

function sleep(ms: number, signals: AbortSignal[], onAbort: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    const abort = () => {
      clearTimeout(timer);
      cleanup();
      reject(onAbort());
    };
    function cleanup() {
      for (const s of signals) s.removeEventListener('abort', abort);
    }
    function done() {
      cleanup();
      resolve();
    }
    for (const s of signals) {
      if (s.aborted) return abort();
      s.addEventListener('abort', abort, { once: true });
    }
  });
}

export type { Rule };
