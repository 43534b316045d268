/**
 * The typed client of the zone API: built-in fetch, the envelope of section 2.1 turned into values or typed
 * errors, retries with backoff on 429 and 5xx honouring Retry-After, a timeout per attempt, and cancellation.
 * Credentials live in private fields and appear in no message, inspect output or dry-run description.
 */
import { resolveConnection, ENV, type ConnectionOptions, type ResolvedConnection } from './config.js';
import {
  ApiAbortError,
  ApiConfigError,
  ApiError,
  ApiInvalidResponseError,
  ApiNetworkError,
  ApiResponseError,
  ApiTimeoutError,
  type EnvelopeError,
} from './errors.js';
import { explain, type ResultSchema } from './schemas.js';
import { PageGuardApi } from './page-guard.js';
import type { MaliciousRule } from './page-guard/malicious.js';
import type {
  CreateJobInput,
  CreateRulesetInput,
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
  /** Cancels every call of this client. */
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Called before each retry: for progress output. Gets no headers and no bodies. */
  onRetry?: (info: RetryInfo) => void;
  /** Page monitoring: when a script is malicious (default js_integrity_score strictly above 50). */
  malicious?: MaliciousRule;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface PageOptions extends CallOptions {
  page?: number;
  perPage?: number;
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

interface Answer<T> {
  result: T;
  resultInfo?: ResultInfo;
}

const seg = (s: string | number) => {
  const text = String(s);
  if (text === '' || text === '.' || text === '..') throw new ApiConfigError(`invalid path segment "${text}"`);
  return encodeURIComponent(text);
};

export class LogfilterClient {
  readonly #conn: ResolvedConnection;
  readonly #options: ClientOptions;

  constructor(options: ClientOptions = {}) {
    this.#conn = resolveConnection(options);
    this.#options = options;
  }

  #pageGuard?: PageGuardApi;

  /** Page monitoring calls (settings, scripts, connections, cookies, policies) with this client's malicious rule. */
  get pageGuard(): PageGuardApi {
    return (this.#pageGuard ??= new PageGuardApi(this, { malicious: this.#options.malicious }));
  }

  get baseUrl(): string | undefined {
    return this.#conn.baseUrl;
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
    return { method, url: `${this.#conn.baseUrl ?? `$${ENV.baseUrl}`}${path}`, headers, ...(body !== undefined ? { body } : {}) };
  }

  // ---- rulesets (API description 4.2) ----

  listRulesets(zone: string, opts: PageOptions = {}): Promise<Page<RulesetSummary>> {
    return this.page<RulesetSummary>(`/zones/${seg(zone)}/rulesets`, 'rulesetList', opts);
  }
  listAllRulesets(zone: string, opts: CallOptions = {}): Promise<RulesetSummary[]> {
    return this.all<RulesetSummary>(`/zones/${seg(zone)}/rulesets`, 'rulesetList', opts);
  }
  async createRuleset(zone: string, body: CreateRulesetInput, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('POST', `/zones/${seg(zone)}/rulesets`, 'ruleset', { ...opts, body })).result;
  }
  async getRuleset(zone: string, id: string, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('GET', `/zones/${seg(zone)}/rulesets/${seg(id)}`, 'ruleset', opts)).result;
  }
  /** PUT replaces ALL rules of the ruleset. */
  async updateRuleset(zone: string, id: string, body: UpdateRulesetInput, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('PUT', `/zones/${seg(zone)}/rulesets/${seg(id)}`, 'ruleset', { ...opts, body })).result;
  }
  async deleteRuleset(zone: string, id: string, opts: CallOptions = {}): Promise<void> {
    await this.request('DELETE', `/zones/${seg(zone)}/rulesets/${seg(id)}`, 'any', opts);
  }
  async getEntrypoint(zone: string, phase: string, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('GET', `/zones/${seg(zone)}/rulesets/phases/${seg(phase)}/entrypoint`, 'ruleset', opts)).result;
  }
  async updateEntrypoint(zone: string, phase: string, body: Partial<UpdateRulesetInput> & { rules: RuleInput[] }, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('PUT', `/zones/${seg(zone)}/rulesets/phases/${seg(phase)}/entrypoint`, 'ruleset', { ...opts, body })).result;
  }
  listRulesetVersions(zone: string, id: string, opts: PageOptions = {}): Promise<Page<RulesetSummary>> {
    return this.page<RulesetSummary>(`/zones/${seg(zone)}/rulesets/${seg(id)}/versions`, 'rulesetList', opts);
  }
  async getRulesetVersion(zone: string, id: string, version: string, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('GET', `/zones/${seg(zone)}/rulesets/${seg(id)}/versions/${seg(version)}`, 'ruleset', opts)).result;
  }
  async deleteRulesetVersion(zone: string, id: string, version: string, opts: CallOptions = {}): Promise<void> {
    await this.request('DELETE', `/zones/${seg(zone)}/rulesets/${seg(id)}/versions/${seg(version)}`, 'any', opts);
  }
  async addRule(zone: string, rulesetId: string, rule: RuleInput & { position?: RulePosition }, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('POST', `/zones/${seg(zone)}/rulesets/${seg(rulesetId)}/rules`, 'ruleset', { ...opts, body: rule })).result;
  }
  async updateRule(zone: string, rulesetId: string, ruleId: string, patch: Partial<RuleInput> & { position?: RulePosition }, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('PATCH', `/zones/${seg(zone)}/rulesets/${seg(rulesetId)}/rules/${seg(ruleId)}`, 'ruleset', { ...opts, body: patch })).result;
  }
  async deleteRule(zone: string, rulesetId: string, ruleId: string, opts: CallOptions = {}): Promise<Ruleset> {
    return (await this.request<Ruleset>('DELETE', `/zones/${seg(zone)}/rulesets/${seg(rulesetId)}/rules/${seg(ruleId)}`, 'ruleset', opts)).result;
  }

  // ---- log export jobs (API description 2.7, 4.4) ----

  listJobs(zone: string, opts: PageOptions = {}): Promise<Page<Job>> {
    return this.page<Job>(`/zones/${seg(zone)}/logexport/jobs`, 'jobList', opts);
  }
  listAllJobs(zone: string, opts: CallOptions = {}): Promise<Job[]> {
    return this.all<Job>(`/zones/${seg(zone)}/logexport/jobs`, 'jobList', opts);
  }
  async getJob(zone: string, id: number | string, opts: CallOptions = {}): Promise<Job> {
    return (await this.request<Job>('GET', `/zones/${seg(zone)}/logexport/jobs/${seg(id)}`, 'job', opts)).result;
  }
  async createJob(zone: string, body: CreateJobInput, opts: CallOptions = {}): Promise<Job> {
    return (await this.request<Job>('POST', `/zones/${seg(zone)}/logexport/jobs`, 'job', { ...opts, body })).result;
  }
  async updateJob(zone: string, id: number | string, body: UpdateJobInput, opts: CallOptions = {}): Promise<Job> {
    return (await this.request<Job>('PUT', `/zones/${seg(zone)}/logexport/jobs/${seg(id)}`, 'job', { ...opts, body })).result;
  }
  async deleteJob(zone: string, id: number | string, opts: CallOptions = {}): Promise<void> {
    await this.request('DELETE', `/zones/${seg(zone)}/logexport/jobs/${seg(id)}`, 'any', opts);
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
    if (!base) throw new ApiConfigError(`no API base URL: set ${ENV.baseUrl} (for the emulator: the URL it prints)`);
    const creds = this.#conn.credentials;
    if (!creds) throw new ApiConfigError(`no credentials: set ${ENV.token}, or ${ENV.email} and ${ENV.key}`);
    const headers: Record<string, string> = { Accept: opts.text ? 'text/csv, application/json' : 'application/json' };
    if (creds.kind === 'token') headers.Authorization = `Bearer ${creds.token}`;
    else {
      headers['X-Auth-Email'] = creds.email;
      headers['X-Auth-Key'] = creds.key;
    }
    let payload: string | undefined;
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(opts.body);
    }
    const retries = Math.max(0, this.#options.retries ?? 3);
    const timeoutMs = opts.timeoutMs ?? this.#options.timeoutMs ?? 30_000;
    const signals = [this.#options.signal, opts.signal].filter((s): s is AbortSignal => s !== undefined);
    const doFetch = this.#options.fetch ?? fetch;
    const pathOnly = path.split('?')[0];

    for (let attempt = 0; ; attempt++) {
      if (signals.some((s) => s.aborted)) throw new ApiAbortError(method, pathOnly);
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([...signals, timeout]);
      let status = 0;
      let retryAfter: string | null = null;
      let failure: ApiError;
      try {
        const res = await doFetch(base + path, { method, headers, body: payload, signal });
        status = res.status;
        retryAfter = res.headers.get('retry-after');
        const text = await res.text();
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
          if (!(status === 429 || status >= 500)) throw e;
          failure = e;
        } else if (signals.some((s) => s.aborted)) {
          throw new ApiAbortError(method, pathOnly);
        } else if (timeout.aborted) {
          // A hung server tends to stay hung: the caller gets the timeout at once rather than several of them.
          throw new ApiTimeoutError(timeoutMs, method, pathOnly);
        } else {
          failure = new ApiNetworkError(method, pathOnly, e);
          // A POST or PATCH that may have arrived is not repeated: it could create or move twice.
          if (!IDEMPOTENT.has(method)) throw failure;
        }
      }
      if (attempt >= retries) throw failure;
      const delayMs = this.backoff(attempt, retryAfter);
      this.#options.onRetry?.({ attempt: attempt + 1, delayMs, status: status || undefined, reason: failure.message });
      await sleep(delayMs, signals, () => new ApiAbortError(method, pathOnly));
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
  // An answer documented as empty (policy DELETE: api-facts 1) has no envelope to read.
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
  const badResult = explain(schema, env.result);
  if (badResult) return { ok: false, error: new ApiInvalidResponseError(method, path, status, badResult) };
  return { ok: true, value: { result: env.result as T, resultInfo: env.result_info } };
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
