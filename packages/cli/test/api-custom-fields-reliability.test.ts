/**
 * `logfilter custom-fields add|remove` under concurrency and faults, over real HTTP: every writer that exits 0
 * has its field in the final state; a writer that exits 1 says (in --json: `applied`) whether its change is in,
 * checked against the emulator's state. Faults come from a local proxy that answers 500 for rule writes either
 * without forwarding them (not applied) or after forwarding them (applied, then failed).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { getCustomFields, LogfilterClient } from '@logfilter/api';
import { logfilter } from './api-harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const TOKEN = 'cf-rel-token';
let emu: RunningEmulator;
let api: LogfilterClient;
let env: Record<string, string>;
let zn = 0;
const zone = () => `cli-cf-rel-${++zn}`;
const headers = async (z: string) => (await getCustomFields(api, z)).fields.requestHeaders;

/** What the proxy does with the next rule write (POST/PATCH/DELETE under .../rules). */
let ruleFault: 'none' | 'drop' | 'after' = 'none';
let proxy: Server;
let proxyEnv: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], latencyMs: 2 });
  env = { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: TOKEN };
  api = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {} });
  const target = new URL(emu.url);
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const fault = /\/rules(\/|$)/.test(req.url!) && req.method !== 'GET' ? ruleFault : 'none';
    const fail = () => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ result: null, success: false, errors: [{ code: 10500, message: 'injected' }], messages: [] }));
    if (fault === 'drop') return fail();
    const answer = await fetch(`${target.origin}${req.url}`, {
      method: req.method,
      headers: { authorization: req.headers.authorization!, ...(chunks.length ? { 'content-type': 'application/json' } : {}) },
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const text = await answer.text();
    if (fault === 'after') return fail();
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyEnv = { LOGFILTER_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/client/v4`, LOGFILTER_API_TOKEN: TOKEN };
});
afterAll(async () => {
  await new Promise<void>((r) => proxy.close(() => r()));
  await emu.close();
});

describe('concurrent custom-fields add commands', () => {
  it.each([
    ['a fresh zone', [] as string[]],
    ['a zone with one header', ['hdr-base']],
  ])('20 writers on %s: all exit 0 and every header is there, for 3 rounds', async (_n, base) => {
    for (let round = 0; round < 3; round++) {
      const z = zone();
      if (base.length) expect((await logfilter(['custom-fields', 'add', '--zone', z, '--request-header', base[0]], env)).code).toBe(0);
      const names = Array.from({ length: 20 }, (_, i) => `hdr-${i}`);
      const runs = await Promise.all(names.map((n) => logfilter(['custom-fields', 'add', '--zone', z, '--request-header', n], env)));
      expect(runs.map((r) => r.code)).toEqual(names.map(() => 0));
      expect(new Set(await headers(z))).toEqual(new Set([...base, ...names]));
    }
  });

  it('50 writers on a fresh zone: 40 exit 0 with their header in, 10 exit 1 saying nothing of theirs is in', async () => {
    const z = zone();
    const names = Array.from({ length: 50 }, (_, i) => `hdr-${i}`);
    const runs = await Promise.all(names.map((n) => logfilter(['custom-fields', 'add', '--zone', z, '--request-header', n, '--json'], env)));
    const final = await headers(z);
    const ok = names.filter((_, i) => runs[i].code === 0);
    expect(ok).toHaveLength(40);
    expect(new Set(final)).toEqual(new Set(ok));
    for (const [i, r] of runs.entries()) {
      if (r.code === 0) continue;
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, applied: 'none' });
      expect(final).not.toContain(names[i]);
    }
  });
});

describe('a failed write says truthfully whether it is in', () => {
  it('an add whose rule write is refused with 500 (not forwarded): exit 1, applied none, header absent', async () => {
    const z = zone();
    ruleFault = 'drop';
    try {
      const r = await logfilter(['custom-fields', 'add', '--zone', z, '--request-header', 'x-lost', '--json'], proxyEnv);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).applied).toBe('none');
      expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    } finally {
      ruleFault = 'none';
    }
    expect(await headers(z)).toEqual([]);
  });

  it('an add whose rule write went through but was answered 500: the header is in, and the command says so (exit 0)', async () => {
    const z = zone();
    ruleFault = 'after';
    let r;
    try {
      r = await logfilter(['custom-fields', 'add', '--zone', z, '--request-header', 'x-kept', '--json'], proxyEnv);
    } finally {
      ruleFault = 'none';
    }
    expect(await headers(z)).toEqual(['x-kept']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ changed: true, request_headers: ['x-kept'] });
  });

  it('a remove whose rule write went through but was answered 500: exit 1, applied all, header gone', async () => {
    const z = zone();
    expect((await logfilter(['custom-fields', 'set', '--zone', z, '--request-header', 'a', '--request-header', 'b'], env)).code).toBe(0);
    ruleFault = 'after';
    let r;
    try {
      r = await logfilter(['custom-fields', 'remove', '--zone', z, '--request-header', 'a', '--json'], proxyEnv);
    } finally {
      ruleFault = 'none';
    }
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).applied).toBe('all');
    expect(await headers(z)).toEqual(['b']);
  });
});
