import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, type RunningEmulator } from '@logfilter/emulator';
import { api, own } from './http.js';

let emu: RunningEmulator;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  emu = await startEmulator();
  call = api(emu.url, 'any-token');
});
afterAll(() => emu.close());

describe('fault injection', () => {
  it('without configured credentials accepts any well-formed credential but still needs one', async () => {
    expect((await call('GET', '/zones/z/rulesets')).status).toBe(200);
    expect((await fetch(`${emu.url}/zones/z/rulesets`)).status).toBe(401);
  });
  it('answers the next requests with 429 and Retry-After, then normally', async () => {
    emu.failNext(2, 429, 3);
    const a = await call('GET', '/zones/z/rulesets');
    expect([a.status, a.body.success, a.body.errors[0].code, a.headers.get('retry-after')]).toEqual([429, false, ERROR_CODES.rateLimited, '3']);
    expect((await call('GET', '/zones/z/rulesets')).status).toBe(429);
    expect((await call('GET', '/zones/z/rulesets')).status).toBe(200);
  });
  it('answers 5xx and malformed bodies when asked through the admin hook', async () => {
    const r = await fetch(emu.url.replace('/client/v4', '/__emulator/faults'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ faults: [{ status: 503 }, { rawBody: '{"result": [' }] }),
    });
    expect(((await r.json()) as any).result.queued).toBe(2);
    const a = await call('GET', '/zones/z/rulesets');
    expect([a.status, a.body.errors[0].code]).toEqual([503, ERROR_CODES.internal]);
    const b = await fetch(`${emu.url}/zones/z/rulesets`, { headers: { authorization: 'Bearer x' } });
    expect(b.status).toBe(200);
    await expect(b.json()).rejects.toThrow();
  });
  it('refuses a fault the later request could not be answered with (400, 10021, its pointer), and queues nothing', async () => {
    const hook = (body: unknown) => fetch(emu.url.replace('/client/v4', '/__emulator/faults'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const cases: [unknown, string][] = [
      [{ faults: [{ status: 'abc' }] }, '/faults/0/status'],
      [{ faults: [{ status: 503 }, { status: 99 }] }, '/faults/1/status'],
      [{ faults: [{ status: 1000 }] }, '/faults/0/status'],
      [{ faults: [{ retryAfter: 'a\r\nx: y' }] }, '/faults/0/retryAfter'],
      // A raw body that is no string left the request without an answer at all.
      [{ faults: [{ rawBody: 5 }] }, '/faults/0/rawBody'],
      [{ faults: [{ hang: 'yes' }] }, '/faults/0/hang'],
      [{ faults: [null] }, '/faults/0'],
      [{ count: -1 }, '/count'],
      [{ count: 1e9 }, '/count'],
      [{ count: 1, status: 42 }, '/status'],
      [{ count: 1, retry_after: 'soon' }, '/retry_after'],
    ];
    for (const [body, pointer] of cases) {
      const r = await hook(body);
      const answer = (await r.json()) as { errors: { code: number; source?: { pointer: string } }[] };
      expect([r.status, answer.errors[0].code, answer.errors[0].source?.pointer], JSON.stringify(body)).toEqual([400, ERROR_CODES.validation, pointer]);
      expect((await call('GET', '/zones/z/rulesets')).status, JSON.stringify(body)).toBe(200);
    }
  });
  it('simulates a configured rate limit per credential', async () => {
    const limited = await startEmulator({ rateLimit: { requests: 2, windowSeconds: 60 } });
    try {
      const c = api(limited.url, 't1');
      expect((await c('GET', '/zones/z/rulesets')).status).toBe(200);
      expect((await c('GET', '/zones/z/rulesets')).status).toBe(200);
      const third = await c('GET', '/zones/z/rulesets');
      expect([third.status, third.body.errors[0].code]).toEqual([429, ERROR_CODES.rateLimited]);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await api(limited.url, 't2')('GET', '/zones/z/rulesets')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
  it('resets its state', async () => {
    await call('POST', '/zones/z/rulesets', { name: 'x', kind: 'zone', phase: 'p' });
    emu.reset();
    expect(own((await call('GET', '/zones/z/rulesets')).body.result)).toEqual([]);
  });
});
