/**
 * Nothing is sent twice that could apply twice, and no credential leaves: POST and PATCH are not resent after a
 * 5xx or a failure once sent (the error says the change may have been applied); a redirect to another origin is
 * refused for both auth kinds (the other origin receives nothing); credentials that cannot go into a header are
 * refused before sending, naming the variable and never the value; cause chains are redacted.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inspect } from 'node:util';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { ApiError, LogfilterClient, redactCause } from '@logfilter/api';
import { failure } from './support.js';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

const TOKEN = 'tok-SECRET-1';
const EMAIL = 'ops@example.com';
const KEY = 'key-SECRET-2';
const DEST = 's3://bucket/logs?region=us-east-1';
let emu: RunningEmulator;
let zn = 0;
const zone = () => `rel-zone-${++zn}`;

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], email: EMAIL, key: KEY });
});
afterAll(() => emu.close());

/** A raw local server: each request is recorded and answered by `answer`. */
async function rawServer(answer: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const seen: { method: string; url: string; headers: IncomingMessage['headers'] }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers });
      answer(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { seen, port, origin: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const envelope = (result: unknown) => JSON.stringify({ result, success: true, errors: [], messages: [] });

describe('non-idempotent requests are not resent once they may have arrived', () => {
  it('a POST answered 503 is sent once and fails saying it may have been applied', async () => {
    const z = zone();
    const c = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {}, retries: 3, retryDelayMs: 1 });
    const before = emu.requestCount;
    emu.failNext(1, 503);
    const e = await failure(c.createJob(z, { destination_conf: DEST, name: 'ghost' }));
    expect([e.kind, e.status, e.mayHaveApplied]).toEqual(['api', 503, true]);
    expect(emu.requestCount - before).toBe(1);
  });

  it('a server that creates and then answers 500 gets one POST, so one job', async () => {
    let created = 0;
    const s = await rawServer((_req, res) => {
      created++;
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ result: null, success: false, errors: [{ code: 10500, message: 'boom' }], messages: [] }));
    });
    try {
      const c = new LogfilterClient({ baseUrl: `${s.origin}/client/v4`, token: TOKEN, env: {}, retries: 3, retryDelayMs: 1 });
      const e = await failure(c.createJob('z', { destination_conf: DEST, name: 'ghost2' }));
      expect(e.mayHaveApplied).toBe(true);
      expect(created).toBe(1);
      // A PATCH neither; a PUT (idempotent) is retried.
      created = 0;
      await failure(c.updateRule('z', 'a'.repeat(32), 'b'.repeat(32), { description: 'x' }));
      expect(created).toBe(1);
      created = 0;
      const put = await failure(c.updateJob('z', 1, { name: 'x' }));
      expect(put.mayHaveApplied).toBe(false);
      expect(created).toBe(4);
    } finally {
      await s.close();
    }
  });

  it('a POST whose connection drops after sending is not resent', async () => {
    const s = await rawServer((req) => req.socket.destroy());
    try {
      const c = new LogfilterClient({ baseUrl: `${s.origin}/client/v4`, token: TOKEN, env: {}, retries: 3, retryDelayMs: 1 });
      const e = await failure(c.createJob('z', { destination_conf: DEST }));
      expect([e.kind, e.mayHaveApplied]).toEqual(['network', true]);
      expect(s.seen).toHaveLength(1);
      const get = await failure(c.listJobs('z'));
      expect(get.mayHaveApplied).toBe(false);
      expect(s.seen).toHaveLength(5);
    } finally {
      await s.close();
    }
  });

  it('a POST refused at the door (429) is retried and creates exactly once', async () => {
    const z = zone();
    const c = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {}, retries: 3, retryDelayMs: 1 });
    emu.failNext(2, 429, 0);
    await c.createJob(z, { destination_conf: DEST, name: 'once' });
    expect((await c.listAllJobs(z)).map((j) => j.name)).toEqual(['once']);
  });

  it('a connection refused never reached the server: the outcome is known', async () => {
    const s = await rawServer(() => {});
    const dead = `${s.origin}/client/v4`;
    await s.close();
    const c = new LogfilterClient({ baseUrl: dead, token: TOKEN, env: {}, retries: 1, retryDelayMs: 1 });
    const e = await failure(c.createJob('z', { destination_conf: DEST }));
    expect([e.kind, e.mayHaveApplied]).toEqual(['network', false]);
  });
});

describe('redirects never carry credentials to another origin', () => {
  const auths = [
    ['token', { token: TOKEN }],
    ['e-mail and key', { email: EMAIL, key: KEY }],
  ] as const;

  it.each(auths)('with %s auth, a 307 (and 301, 302, 308) to another host:port is refused and that host gets nothing', async (_name, auth) => {
    const other = await rawServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(envelope([])));
    let status = 307;
    const first = await rawServer((req, res) => res.writeHead(status, { location: `http://user:pw-SECRET-3@127.0.0.1:${other.port}${req.url}?k=1` }).end());
    try {
      const c = new LogfilterClient({ baseUrl: `${first.origin}/client/v4`, ...auth, env: {}, retries: 0 });
      for (status of [307, 301, 302, 308]) {
        const e = await failure(c.listJobs('z'));
        expect(e.kind).toBe('invalid-response');
        expect(e.message).toContain(`127.0.0.1:${other.port}`);
        const shown = `${e.message} ${inspect(e)} ${JSON.stringify(e)}`;
        for (const secret of [TOKEN, KEY, 'pw-SECRET-3']) expect(shown).not.toContain(secret);
      }
      expect(other.seen).toEqual([]);
      expect(first.seen).toHaveLength(4);
    } finally {
      await first.close();
      await other.close();
    }
  });

  it('a redirect within the same origin is followed with the credentials, the method and the body', async () => {
    const s = await rawServer((req, res, body) => {
      if (req.url!.startsWith('/client/v4/')) return res.writeHead(307, { location: `/moved${req.url}` }).end();
      const ok = req.headers['x-auth-key'] === KEY;
      res.writeHead(ok ? 200 : 403, { 'content-type': 'application/json' }).end(ok ? envelope({ id: 7, destination_conf: JSON.parse(body).destination_conf, dataset: 'http_requests', enabled: false }) : '{}');
    });
    try {
      const c = new LogfilterClient({ baseUrl: `${s.origin}/client/v4`, email: EMAIL, key: KEY, env: {} });
      const job = await c.createJob('z', { destination_conf: DEST });
      expect(job.id).toBe(7);
      expect(s.seen.map((r) => [r.method, r.url])).toEqual([
        ['POST', '/client/v4/zones/z/logpush/jobs'],
        ['POST', '/moved/client/v4/zones/z/logpush/jobs'],
      ]);
    } finally {
      await s.close();
    }
  });

  it('a redirect loop within the origin ends with an error', async () => {
    const s = await rawServer((req, res) => res.writeHead(302, { location: req.url! }).end());
    try {
      const c = new LogfilterClient({ baseUrl: `${s.origin}/client/v4`, token: TOKEN, env: {}, retries: 0 });
      expect((await failure(c.listJobs('z'))).kind).toBe('invalid-response');
      expect(s.seen.length).toBe(6);
    } finally {
      await s.close();
    }
  });
});

describe('credentials that cannot be sent are refused before sending, by name', () => {
  const bad = ['a\nb', 'a\r\nX-Evil: 1', 'a\u0000b', 'tøken', 'tok€n', 'has space', '😀'];
  it.each(bad)('token %j', (token) => {
    const before = emu.requestCount;
    let err: unknown;
    try {
      new LogfilterClient({ baseUrl: emu.url, env: { LOGFILTER_API_TOKEN: token } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.kind).toBe('config');
    expect(e.message).toContain('LOGFILTER_API_TOKEN');
    expect(`${e.message} ${inspect(e)}`).not.toContain(token.trim());
    expect(emu.requestCount).toBe(before);
  });
  it.each(bad)('key %j (and the e-mail) for e-mail + key auth', (value) => {
    expect(() => new LogfilterClient({ env: { LOGFILTER_AUTH_EMAIL: EMAIL, LOGFILTER_AUTH_KEY: value } })).toThrow(/LOGFILTER_AUTH_KEY/);
    expect(() => new LogfilterClient({ env: { LOGFILTER_AUTH_EMAIL: value, LOGFILTER_AUTH_KEY: KEY } })).toThrow(/LOGFILTER_AUTH_EMAIL/);
    expect(() => new LogfilterClient({ email: EMAIL, key: value, env: {} })).toThrow(/key option/);
  });

  it('a base URL with a user name or password, a query or a fragment is refused without quoting it', () => {
    for (const url of ['http://user:pw-SECRET-4@127.0.0.1:1/client/v4', 'http://pw-SECRET-4@127.0.0.1:1/client/v4', 'http://127.0.0.1:1/client/v4?token=pw-SECRET-4', 'http://127.0.0.1:1/client/v4#pw-SECRET-4', 'ht!tp://pw-SECRET-4']) {
      let err: ApiError | undefined;
      try {
        new LogfilterClient({ env: { LOGFILTER_BASE_URL: url, LOGFILTER_API_TOKEN: TOKEN } });
      } catch (e) {
        err = e as ApiError;
      }
      expect(err?.kind).toBe('config');
      expect(err!.message).toContain('LOGFILTER_BASE_URL');
      expect(inspect(err)).not.toContain('pw-SECRET-4');
    }
  });
});

describe('cause chains are redacted', () => {
  it('a fetch failure quoting the token keeps its code but not the token, at every level', async () => {
    const leaky: typeof fetch = async (_url, init) => {
      const auth = (init!.headers as Record<string, string>).Authorization;
      const inner = Object.assign(new Error(`socket said ${auth}`), { code: 'ECONNRESET', cause: new Error(`deeper ${TOKEN}`) });
      throw new TypeError(`fetch failed for ${auth}`, { cause: inner });
    };
    const c = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {}, fetch: leaky, retries: 1, retryDelayMs: 1 });
    const e = await failure(c.listJobs('z'));
    expect(e.kind).toBe('network');
    expect(e.message).toContain('ECONNRESET');
    const all = `${e.message} ${inspect(e, { depth: 10 })} ${String((e.cause as Error).message)}`;
    expect(all).not.toContain(TOKEN);
    expect(all).toContain('<redacted>');
  });

  it('redactCause replaces every secret in messages and codes, and stops at 8 levels', () => {
    let e: Error = new Error('bottom s3cr3t');
    for (let i = 0; i < 20; i++) e = new Error(`level ${i} s3cr3t`, { cause: e });
    const r = redactCause(e, ['s3cr3t']) as Error;
    expect(inspect(r, { depth: 30 })).not.toContain('s3cr3t');
    let depth = 0;
    for (let x: unknown = r; x instanceof Error; x = x.cause) depth++;
    expect(depth).toBe(9);
  });
});

describe('numeric options have ranges', () => {
  it.each([
    [{ timeoutMs: 3_000_000_000 }],
    [{ timeoutMs: 0 }],
    [{ timeoutMs: 1.5 }],
    [{ retries: -1 }],
    [{ retries: 1e9 }],
    [{ retryDelayMs: -5 }],
    [{ maxRetryDelayMs: 3_000_000_000 }],
  ])('%j is refused as a config error', (opts) => {
    expect(() => new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {}, ...opts })).toThrow(ApiError);
  });
  it('a per-call timeout past what a timer can wait is refused before sending', async () => {
    const before = emu.requestCount;
    const c = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {} });
    expect((await failure(c.listJobs('z', { timeoutMs: 3_000_000_000 }))).kind).toBe('config');
    expect(emu.requestCount).toBe(before);
    const max = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {}, timeoutMs: 2_147_483_647 });
    expect((await max.listJobs('z')).items).toEqual([]);
  });
});
