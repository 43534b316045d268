/**
 * The HTTP side of the emulator: node:http, routing, authentication, the envelope (README, "Behaviour"), paging, and
 * injected faults (429, 5xx, malformed answers, hangs) so clients can be tested against every failure for real.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { EmulatorError, ERROR_CODES, badRequest, clip, fail, malformedAuthorization } from './errors.js';
import { Store } from './state.js';
import { matchRoute } from './routing.js';
import { AREAS } from './areas.js';
import { MAX_BODY_DEPTH, tooDeep } from './depth.js';
import { stateFromFixture, unlistedZones } from './fixture.js';

export const BASE_PATH = '/client/v4';
export const ADMIN_PATH = '/__emulator';
const MAX_BODY = 1024 * 1024;

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
  /**
   * The parsed fixture (zones, accounts, plans, the previous WAF, …; see the README). It is the starting state, and
   * what reset() returns to; with `dataFile`, it seeds a new data file and an existing one wins. A bad fixture
   * throws FixtureError naming the place.
   */
  fixture?: unknown;
  /** Delay every API answer by this many milliseconds. */
  latencyMs?: number;
  /** Simulated rate limit: at most `requests` API calls per credential in each window of `windowSeconds`. */
  rateLimit?: { requests: number; windowSeconds: number };
  /** Called once per API request with method, path and status; never with headers or bodies. */
  log?: (line: string) => void;
  /** Directory of the ownership challenges of log export destinations, one file per destination (README). */
  outbox?: string;
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
  /** What the fixture had that the emulator ignored (unknown keys), each naming its place. */
  readonly fixtureWarnings: readonly string[];
  reset(): void;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  // Built once, up front: a bad fixture fails the start, not the first request.
  const fixtureWarnings: string[] = [];
  const fixture = options.fixture !== undefined ? stateFromFixture(options.fixture, AREAS, (warning) => fixtureWarnings.push(warning)) : undefined;
  const store = new Store(options.dataFile, fixture ? () => structuredClone(fixture) : undefined);
  const refuseUnlisted = fixture !== undefined && unlistedZones(options.fixture) === 'refuse';
  const faults: Fault[] = [];
  const sockets = new Set<Socket>();
  const windows = new Map<string, { start: number; count: number }>();
  let requestCount = 0;
  const routes = AREAS.flatMap((area) => area.routes(store, { outbox: options.outbox }));

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      // Only a bug of the emulator gets here: still one envelope, never a stack trace on the wire.
      send(res, 500, envelopeError(ERROR_CODES.internal, `internal emulator error: ${(error as Error).message}`));
    });
  });
  // Clients reuse idle connections; with Node's default of 5 s, a busy client can send on a socket the server is
  // closing ("other side closed"). A long keep-alive keeps that race away from callers and tests.
  server.keepAliveTimeout = 65_000;
  // A request Node's parser cannot read never reaches handle(): Node would answer a bare 400 or 431 with no body.
  // It gets the envelope like every other refusal (README, "Error codes"), then the connection is closed.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    answerAndClose(socket, ...unreadableRequest(error.code));
  });
  // CONNECT (a proxy's method) never reaches handle(): Node would close the connection without a word.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    answerAndClose(socket, 405, 'Method Not Allowed', envelopeError(ERROR_CODES.methodNotAllowed, 'method CONNECT is not allowed: the emulator is no proxy'));
  });
  // An Expect other than 100-continue: Node would answer a bare 417 without a body; the envelope like every refusal.
  // The body the client may still send is not read: the connection is closed after the answer.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    send(res, 417, envelopeError(ERROR_CODES.invalidHeaders, 'Expect: only 100-continue is supported'), { connection: 'close' });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://emulator');
    } catch {
      // a request target that is not a URL (`GET http://[`): the client's fault, not an internal error (500)
      return send(res, 400, envelopeError(ERROR_CODES.malformedPath, 'the request target is not a URL'));
    }
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
      if (options.latencyMs) await new Promise((resume) => setTimeout(resume, options.latencyMs));
      if (fault) {
        const headers: Record<string, string> = fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {};
        if (fault.rawBody !== undefined) {
          req.resume();
          status = fault.status ?? 200;
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(fault.rawBody);
          return;
        }
        const faultStatus = fault.status ?? 429;
        const limited = faultStatus === 429;
        throw new EmulatorError(faultStatus, limited ? ERROR_CODES.rateLimited : ERROR_CODES.internal, limited ? 'rate limited: too many requests, retry later' : `simulated server error ${faultStatus}`, headers);
      }
      const who = authenticate(req);
      rateLimit(who);
      const segments = pathSegments(url.pathname.slice(BASE_PATH.length));
      const { handler, params } = matchRoute(routes, segments, method);
      // Every zone endpoint alike: an unknown zone is refused before any handler could create it (README, "Fixture").
      if (refuseUnlisted && params.zone !== undefined && !Object.hasOwn(store.state.zones, params.zone)) {
        throw fail(403, 'zoneNotAccessible', `Authentication error: zone ${clip(params.zone)} is not one of the emulator's zones (the fixture lists them; unlisted_zones: refuse)`);
      }
      const body = await readBody(req, method);
      // Only reads skip the transaction: a change that fails (validation half-way, or the write to --data) is undone.
      const run = () => handler({ method, segments, query: url.searchParams, body }, params);
      const answer = method === 'GET' || method === 'HEAD' ? store.read(run) : store.transact(run);
      // Acknowledged only once on disk (the journal's flush, shared by the changes made meanwhile).
      if (answer.mutates) await store.durable();
      status = answer.status ?? 200;
      if (status === 204) {
        res.writeHead(204);
        res.end();
        return;
      }
      if (answer.raw) {
        res.writeHead(status, { 'content-type': answer.raw.contentType, 'content-length': Buffer.byteLength(answer.raw.body) });
        res.end(answer.raw.body);
        return;
      }
      send(res, status, { result: answer.result ?? null, success: true, errors: [], messages: [], ...(answer.resultInfo ? { result_info: answer.resultInfo } : {}) });
    } catch (error) {
      req.resume();
      if (error instanceof EmulatorError) {
        status = error.status;
        send(res, error.status, envelopeError(error.code, error.message, error.pointer, error.chain), error.headers);
      } else {
        status = 500;
        send(res, 500, envelopeError(ERROR_CODES.internal, `internal emulator error: ${(error as Error).message}`));
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
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(auth);
      if (!bearer) throw malformedAuthorization();
      const token = bearer[1];
      if (!open && !(options.tokens ?? []).includes(token)) throw fail(403, 'invalidCredentials', 'authentication failed: invalid API token');
      return `token:${token}`;
    }
    if (email !== undefined || key !== undefined) {
      if (!email || !key) throw unauthenticated('authentication failed: X-Auth-Email and X-Auth-Key go together');
      if (!open && !(email === options.email && key === options.key)) throw fail(403, 'invalidCredentials', 'authentication failed: invalid e-mail or API key');
      return `key:${email}`;
    }
    throw unauthenticated('authentication required: send Authorization: Bearer <token>, or X-Auth-Email and X-Auth-Key');
  }

  function rateLimit(who: string): void {
    const limit = options.rateLimit;
    if (!limit) return;
    const now = Date.now();
    let window = windows.get(who);
    if (!window || now - window.start >= limit.windowSeconds * 1000) {
      window = { start: now, count: 0 };
      windows.set(who, window);
    }
    if (window.count >= limit.requests) {
      const wait = Math.max(1, Math.ceil((window.start + limit.windowSeconds * 1000 - now) / 1000));
      throw new EmulatorError(429, ERROR_CODES.rateLimited, 'rate limited: too many requests, retry later', { 'retry-after': String(wait) });
    }
    window.count++;
  }

  async function admin(req: IncomingMessage, res: ServerResponse, path: string, method: string): Promise<void> {
    try {
      if (path === 'health' && method === 'GET') return send(res, 200, ok({ ok: true, requests: requestCount }));
      if (path === 'reset' && method === 'POST') {
        // It wipes the state (and the --data file): the API's credentials are required, which a web page cannot
        // send without a CORS preflight this server never grants; a browser-simple body type is refused outright.
        authenticate(req);
        const type = header(req, 'content-type');
        if (type !== undefined && !isJsonType(type)) throw fail(415, 'unsupportedMediaType', 'reset takes no body, or one sent with Content-Type: application/json');
        req.resume();
        try {
          handleApi.reset();
        } catch (cause) {
          // The emulator's own failure (its data file), not the caller's: a 500, as for a change of the API.
          throw fail(500, 'internal', `internal emulator error: ${(cause as Error).message}`);
        }
        return send(res, 200, ok(null));
      }
      if (path === 'faults' && method === 'POST') {
        const body = (await readBody(req, method)) as { faults?: Fault[]; count?: number; status?: number; retry_after?: number } | undefined;
        if (Array.isArray(body?.faults)) handleApi.injectFaults(...body.faults.map((fault, i) => checkedFault(fault, `/faults/${i}`)));
        else {
          checkedFault({ status: body?.status, retryAfter: body?.retry_after }, '', 'retry_after');
          const count = body?.count ?? 1;
          if (!Number.isInteger(count) || count < 0 || count > MAX_QUEUED_FAULTS) throw badRequest('validation', `count: must be an integer from 0 to ${MAX_QUEUED_FAULTS}`, '/count');
          handleApi.failNext(count, body?.status ?? 429, body?.retry_after);
        }
        return send(res, 200, ok({ queued: faults.length }));
      }
      req.resume();
      send(res, 404, envelopeError(ERROR_CODES.noRoute, `no admin route ${method} ${ADMIN_PATH}/${path}`));
    } catch (error) {
      const failure = error instanceof EmulatorError ? error : badRequest('validation', (error as Error).message);
      send(res, failure.status, envelopeError(failure.code, failure.message, failure.pointer, failure.chain), failure.headers);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      store.close(); // not started: the data file is free again
      reject(error);
    });
    server.listen(options.port ?? 0, host, () => {
      server.removeAllListeners('error');
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
    fixtureWarnings,
    get requestCount() {
      return requestCount;
    },
    failNext(count, status = 429, retryAfter) {
      for (let queued = 0; queued < count; queued++) faults.push({ status, retryAfter });
    },
    injectFaults(...queued) {
      faults.push(...queued);
    },
    reset() {
      faults.length = 0;
      windows.clear();
      store.reset();
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => {
          store.close();
          resolve();
        });
        for (const socket of sockets) socket.destroy();
      });
    },
  };
  return handleApi;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function ok(result: unknown) {
  return { result, success: true, errors: [], messages: [] };
}

/** A 401 names the scheme to use, as HTTP requires of every 401 (RFC 9110, 11.6.1). */
const unauthenticated = (message: string) => new EmulatorError(401, ERROR_CODES.missingCredentials, message, { 'www-authenticate': 'Bearer' });

/** The most faults one admin call queues: a count of a billion would fill the memory one object at a time. */
const MAX_QUEUED_FAULTS = 100_000;

/**
 * A fault from the admin hook, checked before it is queued: a status HTTP cannot send, a Retry-After that is no
 * header value or a raw body that is no string broke the later request it was used on (a 500, or no answer at all).
 */
function checkedFault(fault: unknown, at: string, retryName = 'retryAfter'): Fault {
  if (fault === null || typeof fault !== 'object' || Array.isArray(fault)) throw badRequest('validation', `${at ? at.slice(1) : 'body'}: a fault is an object`, at);
  const { status, retryAfter, rawBody, hang } = fault as Record<string, unknown>;
  if (status !== undefined && !(Number.isInteger(status) && (status as number) >= 200 && (status as number) <= 599)) throw badRequest('validation', 'status: must be an HTTP status from 200 to 599', `${at}/status`);
  if (retryAfter !== undefined && !(Number.isInteger(retryAfter) && (retryAfter as number) >= 0)) throw badRequest('validation', `${retryName}: must be a whole number of seconds`, `${at}/${retryName}`);
  if (rawBody !== undefined && typeof rawBody !== 'string') throw badRequest('validation', 'rawBody: must be a string', `${at}/rawBody`);
  if (hang !== undefined && typeof hang !== 'boolean') throw badRequest('validation', 'hang: must be true or false', `${at}/hang`);
  return fault as Fault;
}

/** An answer written straight to the socket (for requests that never reach handle()), then the connection closed. */
function answerAndClose(socket: Socket, status: number, reason: string, body: unknown): void {
  const text = JSON.stringify(body);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}

/** The answer to a request the HTTP parser refused, by the parser's error code. */
function unreadableRequest(code: string | undefined): [number, string, unknown] {
  if (code === 'HPE_INVALID_METHOD') return [405, 'Method Not Allowed', envelopeError(ERROR_CODES.methodNotAllowed, 'the request method is not one HTTP defines')];
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'Request Header Fields Too Large', envelopeError(ERROR_CODES.invalidHeaders, 'request headers larger than the server reads')];
  return [400, 'Bad Request', envelopeError(ERROR_CODES.invalidHeaders, `the request is not readable HTTP (${code ?? 'parse error'})`)];
}

function envelopeError(code: number, message: string, pointer?: string, chain?: { code: number; message: string }[]) {
  const error = { code, message, ...(pointer !== undefined ? { source: { pointer } } : {}), ...(chain ? { error_chain: chain } : {}) };
  return { result: null, success: false, errors: [error], messages: [] };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** application/json, with parameters (charset) or not; `application/json-patch+json` and the like are other types. */
function isJsonType(type: string): boolean {
  return /^\s*application\/json\s*(;|$)/i.test(type);
}

async function readBody(req: IncomingMessage, method: string): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    // The rest of the body is left unread and the connection is reset once the answer is out: it says so, or a
    // client would send its next request on this connection and lose it.
    if (size > MAX_BODY) throw new EmulatorError(413, ERROR_CODES.bodyTooLarge, `request body larger than ${MAX_BODY} bytes`, { connection: 'close' });
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return method === 'GET' || method === 'DELETE' ? undefined : {};
  const type = header(req, 'content-type') ?? '';
  if (!isJsonType(type)) throw fail(415, 'unsupportedMediaType', 'a request body must be sent with Content-Type: application/json');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('malformedJson', 'request body is not valid JSON');
  }
  // No API body nests more than a few levels; one nested thousands deep would be stored (some members are left
  // open) and then overflow the stack in every answer that holds it. Refused before any area reads it.
  const deep = tooDeep(body, 'body', MAX_BODY_DEPTH);
  if (deep) throw badRequest('malformedJson', `request body nests deeper than ${MAX_BODY_DEPTH} levels (at ${deep})`);
  return body;
}

/** Path segments, percent-decoded; malformed percent-encoding is the client's error (400), not ours. */
function pathSegments(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw fail(400, 'malformedPath', `path segment "${clip(segment)}" has malformed percent-encoding`);
      }
    });
}
