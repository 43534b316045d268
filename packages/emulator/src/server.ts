/**
 * The HTTP side of the emulator: node:http, routing, authentication, the envelope of section 2.1, paging, and
 * injected faults (429, 5xx, malformed answers, hangs) so clients can be tested against every failure for real.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { EmulatorError, ERROR_CODES, badRequest, fail } from './errors.js';
import { Store } from './state.js';
import { validateBody } from './validate.js';
import * as rs from './rulesets.js';
import * as jobs from './jobs.js';
import { pageGuardRoutes } from './page-guard.js';
import { applyFixture } from './fixture.js';

export const BASE_PATH = '/client/v4';
export const ADMIN_PATH = '/__emulator';
const MAX_BODY = 1024 * 1024;
const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 1000;

export interface EmulatorOptions {
  /** 0 or absent: a free port chosen by the system. */
  port?: number;
  host?: string;
  /** Accepted bearer tokens. With no tokens and no email/key, any well-formed credential is accepted. */
  tokens?: string[];
  email?: string;
  key?: string;
  /** Persist the state to this file (atomic writes, before each answer). */
  dataFile?: string;
  /** Delay every API answer by this many milliseconds. */
  latencyMs?: number;
  /** Simulated rate limit: at most `requests` API calls per credential in each window of `windowSeconds`. */
  rateLimit?: { requests: number; windowSeconds: number };
  /**
   * Initial content (the parsed fixture file: `{accounts, zones: {id: {account, plan, page_guard, ...}}}`), loaded
   * at start over the state and again by reset(). A bad fixture makes startEmulator throw a FixtureError.
   */
  fixture?: unknown;
  /** Called once per API request with method, path and status; never with headers or bodies. */
  log?: (line: string) => void;
}

/** One injected answer, used by the next API request instead of handling it. */
export interface Fault {
  /** HTTP status of the error answer (default 429). */
  status?: number;
  /** Seconds for the Retry-After header. */
  retryAfter?: number;
  /** Answer with this raw body (status 200 unless given) instead of an envelope: for malformed answers. */
  rawBody?: string;
  /** Never answer; the connection stays open until the client gives up or the emulator closes. */
  hang?: boolean;
}

export interface RunningEmulator {
  /** The base URL, e.g. http://127.0.0.1:41234/client/v4 */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly store: Store;
  /** The next `count` API requests get a `status` error (429 by default) with an optional Retry-After. */
  failNext(count: number, status?: number, retryAfter?: number): void;
  /** Queue arbitrary faults for the next API requests, in order. */
  injectFaults(...faults: Fault[]): void;
  /** API requests seen so far (including faulted ones). */
  readonly requestCount: number;
  reset(): void;
  close(): Promise<void>;
}

export interface Ctx {
  method: string;
  segments: string[];
  query: URLSearchParams;
  body: unknown;
}

/** What a handler answers: an envelope (the default), a raw body (CSV export), or nothing (`empty`). */
export interface HandlerAnswer {
  status?: number;
  result?: unknown;
  resultInfo?: unknown;
  mutates?: boolean;
  raw?: { contentType: string; body: string };
  empty?: boolean;
}

export type Handler = (ctx: Ctx, params: Record<string, string>) => HandlerAnswer;

export interface Route {
  pattern: string[];
  methods: Record<string, Handler>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  const store = new Store(options.dataFile);
  if (options.fixture !== undefined) {
    applyFixture(store.state, options.fixture);
    store.commit();
  }
  const faults: Fault[] = [];
  const sockets = new Set<Socket>();
  const windows = new Map<string, { start: number; count: number }>();
  let requestCount = 0;
  const routes = buildRoutes(store);

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      // Only a bug of the emulator gets here: still one envelope, never a stack trace on the wire.
      send(res, 500, envelopeError(ERROR_CODES.internal, `internal emulator error: ${(e as Error).message}`));
    });
  });
  // Clients reuse idle connections; with Node's default of 5 s, a busy client can send on a socket the server is
  // closing ("other side closed"). A long keep-alive keeps that race away from callers and tests.
  server.keepAliveTimeout = 65_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const method = (req.method ?? 'GET').toUpperCase();
    if (url.pathname.startsWith(ADMIN_PATH + '/')) return admin(req, res, url.pathname.slice(ADMIN_PATH.length + 1), method);
    if (!(url.pathname === BASE_PATH || url.pathname.startsWith(BASE_PATH + '/'))) {
      return send(res, 404, envelopeError(ERROR_CODES.noRoute, `no route for ${url.pathname}; the API is under ${BASE_PATH}`));
    }
    requestCount++;
    let status = 200;
    try {
      const fault = faults.shift();
      if (fault?.hang) {
        req.resume();
        return; // never answered: the socket is destroyed when the client gives up or close() runs
      }
      if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
      if (fault) {
        const headers: Record<string, string> = fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {};
        if (fault.rawBody !== undefined) {
          req.resume();
          status = fault.status ?? 200;
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(fault.rawBody);
          return;
        }
        const st = fault.status ?? 429;
        throw new EmulatorError(st, st === 429 ? ERROR_CODES.rateLimited : ERROR_CODES.internal, st === 429 ? 'rate limited: too many requests, retry later' : `simulated server error ${st}`, headers);
      }
      const who = authenticate(req);
      rateLimit(who);
      const segments = url.pathname.slice(BASE_PATH.length).split('/').filter((s) => s !== '').map(decodeURIComponent);
      const { handler, params } = route(routes, segments, method);
      const body = await readBody(req, method);
      const out = handler({ method, segments, query: url.searchParams, body }, params);
      if (out.mutates) store.commit();
      status = out.status ?? 200;
      if (out.empty) {
        res.writeHead(status, { 'content-length': 0 });
        res.end();
      } else if (out.raw) {
        res.writeHead(status, { 'content-type': out.raw.contentType, 'content-length': Buffer.byteLength(out.raw.body) });
        res.end(out.raw.body);
      } else {
        send(res, status, { result: out.result ?? null, success: true, errors: [], messages: [], ...(out.resultInfo ? { result_info: out.resultInfo } : {}) });
      }
    } catch (e) {
      req.resume();
      if (e instanceof EmulatorError) {
        status = e.status;
        send(res, e.status, envelopeError(e.code, e.message, e.source), e.headers);
      } else {
        status = 500;
        send(res, 500, envelopeError(ERROR_CODES.internal, `internal emulator error: ${(e as Error).message}`));
      }
    } finally {
      options.log?.(`${method} ${url.pathname} ${status}`);
    }
  }

  function authenticate(req: IncomingMessage): string {
    const auth = req.headers.authorization;
    const email = header(req, 'x-auth-email');
    const key = header(req, 'x-auth-key');
    const open = (options.tokens?.length ?? 0) === 0 && options.email === undefined;
    if (auth !== undefined) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
      if (!m) throw fail(403, 'invalidCredentials', 'authentication failed: the Authorization header is not "Bearer <token>"');
      if (!open && !(options.tokens ?? []).includes(m[1])) throw fail(403, 'invalidCredentials', 'authentication failed: invalid API token');
      return `token:${m[1]}`;
    }
    if (email !== undefined || key !== undefined) {
      if (!email || !key) throw fail(401, 'missingCredentials', 'authentication failed: X-Auth-Email and X-Auth-Key go together');
      if (!open && !(email === options.email && key === options.key)) throw fail(403, 'invalidCredentials', 'authentication failed: invalid e-mail or API key');
      return `key:${email}`;
    }
    throw fail(401, 'missingCredentials', 'authentication required: send Authorization: Bearer <token>, or X-Auth-Email and X-Auth-Key');
  }

  function rateLimit(who: string): void {
    const limit = options.rateLimit;
    if (!limit) return;
    const now = Date.now();
    let w = windows.get(who);
    if (!w || now - w.start >= limit.windowSeconds * 1000) {
      w = { start: now, count: 0 };
      windows.set(who, w);
    }
    if (w.count >= limit.requests) {
      const wait = Math.max(1, Math.ceil((w.start + limit.windowSeconds * 1000 - now) / 1000));
      throw new EmulatorError(429, ERROR_CODES.rateLimited, 'rate limited: too many requests, retry later', { 'retry-after': String(wait) });
    }
    w.count++;
  }

  async function admin(req: IncomingMessage, res: ServerResponse, path: string, method: string): Promise<void> {
    try {
      if (path === 'health' && method === 'GET') return send(res, 200, ok({ ok: true, requests: requestCount }));
      if (path === 'reset' && method === 'POST') {
        req.resume();
        handleApi.reset();
        return send(res, 200, ok(null));
      }
      if (path === 'faults' && method === 'POST') {
        const body = (await readBody(req, method)) as { faults?: Fault[]; count?: number; status?: number; retry_after?: number } | undefined;
        if (Array.isArray(body?.faults)) handleApi.injectFaults(...body.faults);
        else handleApi.failNext(body?.count ?? 1, body?.status ?? 429, body?.retry_after);
        return send(res, 200, ok({ queued: faults.length }));
      }
      req.resume();
      send(res, 404, envelopeError(ERROR_CODES.noRoute, `no admin route ${method} ${ADMIN_PATH}/${path}`));
    } catch (e) {
      const err = e instanceof EmulatorError ? e : badRequest('validation', (e as Error).message);
      send(res, err.status, envelopeError(err.code, err.message));
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  const handleApi: RunningEmulator = {
    url: `http://${urlHost}:${port}${BASE_PATH}`,
    port,
    host,
    store,
    get requestCount() {
      return requestCount;
    },
    failNext(count, status = 429, retryAfter) {
      for (let i = 0; i < count; i++) faults.push({ status, retryAfter });
    },
    injectFaults(...f) {
      faults.push(...f);
    },
    reset() {
      faults.length = 0;
      windows.clear();
      store.reset();
      if (options.fixture !== undefined) {
        applyFixture(store.state, options.fixture);
        store.commit();
      }
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
  return handleApi;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function ok(result: unknown) {
  return { result, success: true, errors: [], messages: [] };
}

function envelopeError(code: number, message: string, source?: object) {
  return { result: null, success: false, errors: [{ code, message, ...(source ? { source } : {}) }], messages: [] };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

async function readBody(req: IncomingMessage, method: string): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw fail(413, 'bodyTooLarge', `request body larger than ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return method === 'GET' || method === 'DELETE' ? undefined : {};
  const type = header(req, 'content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) throw fail(415, 'unsupportedMediaType', 'a request body must be sent with Content-Type: application/json');
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('malformedJson', 'request body is not valid JSON');
  }
}

function paging(query: URLSearchParams): { page: number; perPage: number } {
  const int = (name: string, dflt: number, max: number) => {
    const raw = query.get(name);
    if (raw === null) return dflt;
    if (!/^[0-9]+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
      throw badRequest('invalidPaging', `${name}: must be an integer from 1 to ${max}`);
    }
    return Number(raw);
  };
  return { page: int('page', 1, 1_000_000), perPage: int('per_page', DEFAULT_PER_PAGE, MAX_PER_PAGE) };
}

function paged<T>(items: T[], query: URLSearchParams) {
  const { page, perPage } = paging(query);
  const result = items.slice((page - 1) * perPage, page * perPage);
  return {
    result,
    resultInfo: { page, per_page: perPage, count: result.length, total_count: items.length, total_pages: Math.ceil(items.length / perPage) },
  };
}

const ZONE_ID = /^[A-Za-z0-9_-]{1,64}$/;

function route(routes: Route[], segments: string[], method: string): { handler: Handler; params: Record<string, string> } {
  let pathMatched = false;
  for (const r of routes) {
    if (r.pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const ok = r.pattern.every((p, i) => {
      if (p.startsWith(':')) {
        params[p.slice(1)] = segments[i];
        return true;
      }
      return p === segments[i];
    });
    if (!ok) continue;
    pathMatched = true;
    const handler = r.methods[method];
    if (!handler) continue;
    if (params.zone !== undefined && !ZONE_ID.test(params.zone)) throw badRequest('invalidZone', `zone id "${params.zone}" is not valid`);
    return { handler, params };
  }
  if (pathMatched) throw fail(405, 'methodNotAllowed', `method ${method} is not allowed on this path`);
  throw fail(404, 'noRoute', `no route for ${method} /${segments.join('/')}`);
}

function buildRoutes(store: Store): Route[] {
  const z = (p: Record<string, string>) => store.zone(p.zone);
  const R = ['zones', ':zone', 'rulesets'];
  const J = ['zones', ':zone', 'logexport', 'jobs'];
  return [
    {
      pattern: [...R, 'phases', ':phase', 'entrypoint'],
      methods: {
        GET: (_c, p) => {
          const found = rs.findEntrypoint(z(p), p.phase);
          if (!found) throw fail(404, 'entrypointNotFound', `no entry point ruleset for phase ${p.phase} in this zone`);
          return { result: rs.full(found) };
        },
        PUT: (c, p) => ({ result: rs.full(rs.putEntrypoint(z(p), p.phase, validateBody('updateRuleset', c.body))), mutates: true }),
      },
    },
    {
      pattern: R,
      methods: {
        GET: (c, p) => paged(z(p).rulesets.map((r) => rs.summary(r)), c.query),
        POST: (c, p) => ({ result: rs.full(rs.createRuleset(z(p), validateBody('createRuleset', c.body))), mutates: true }),
      },
    },
    {
      pattern: [...R, ':id'],
      methods: {
        GET: (_c, p) => ({ result: rs.full(rs.findRuleset(z(p), p.id)) }),
        PUT: (c, p) => {
          const body = validateBody<rs.RulesetInput & { rules: rs.RuleInput[] }>('updateRuleset', c.body);
          return { result: rs.full(rs.updateRuleset(z(p), rs.findRuleset(z(p), p.id), body)), mutates: true };
        },
        DELETE: (_c, p) => {
          rs.deleteRuleset(z(p), rs.findRuleset(z(p), p.id));
          return { result: null, mutates: true };
        },
      },
    },
    {
      pattern: [...R, ':id', 'versions'],
      methods: {
        GET: (c, p) => {
          const found = rs.findRuleset(z(p), p.id);
          return paged([...found.versions].reverse().map((v) => rs.summary(found, v)), c.query);
        },
      },
    },
    {
      pattern: [...R, ':id', 'versions', ':version'],
      methods: {
        GET: (_c, p) => {
          const found = rs.findRuleset(z(p), p.id);
          return { result: rs.full(found, rs.findVersion(found, p.version)) };
        },
        DELETE: (_c, p) => {
          rs.deleteVersion(rs.findRuleset(z(p), p.id), p.version);
          return { result: null, mutates: true };
        },
      },
    },
    {
      pattern: [...R, ':id', 'rules'],
      methods: {
        POST: (c, p) => ({ result: rs.full(rs.addRule(z(p), rs.findRuleset(z(p), p.id), validateBody('addRule', c.body))), mutates: true }),
      },
    },
    {
      pattern: [...R, ':id', 'rules', ':rule'],
      methods: {
        PATCH: (c, p) => ({ result: rs.full(rs.patchRule(z(p), rs.findRuleset(z(p), p.id), p.rule, validateBody('patchRule', c.body))), mutates: true }),
        DELETE: (_c, p) => ({ result: rs.full(rs.deleteRule(z(p), rs.findRuleset(z(p), p.id), p.rule)), mutates: true }),
      },
    },
    ...pageGuardRoutes(store),
    {
      pattern: J,
      methods: {
        GET: (c, p) => paged(z(p).jobs, c.query),
        POST: (c, p) => ({ result: jobs.createJob(store.state, z(p), validateBody('createJob', c.body, 'jobInvalid')), mutates: true }),
      },
    },
    {
      pattern: [...J, ':job'],
      methods: {
        GET: (_c, p) => ({ result: jobs.findJob(z(p), p.job) }),
        PUT: (c, p) => ({ result: jobs.updateJob(z(p), jobs.findJob(z(p), p.job), validateBody('updateJob', c.body, 'jobInvalid')), mutates: true }),
        DELETE: (_c, p) => {
          const job = jobs.findJob(z(p), p.job);
          jobs.deleteJob(z(p), job);
          return { result: { id: job.id }, mutates: true };
        },
      },
    },
  ];
}
