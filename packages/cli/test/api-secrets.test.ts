/**
 * No credential in any output of the API commands, for both auth kinds, whatever goes wrong: wrong credentials,
 * 5xx, a hung server (timeout), a redirect to another origin (which must receive nothing), malformed answers,
 * credentials that cannot be sent, a base URL carrying a password, dry runs and --json output.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { logfilter } from './api-harness.js';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

const TOKEN = 'tok-SWEEP-SECRET';
const EMAIL = 'sweep@example.com';
const KEY = 'key-SWEEP-SECRET';
const PASSWORD = 'pw-SWEEP-SECRET';
let emu: RunningEmulator;
let other: Server;
let otherSeen: IncomingMessage[] = [];
let redirector: Server;

const listen = async (s: Server) => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
};

let redirectUrl = '';
beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], email: EMAIL, key: KEY });
  other = createServer((req, res) => {
    otherSeen.push(req);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":[],"success":true,"errors":[],"messages":[]}');
  });
  const otherPort = await listen(other);
  redirector = createServer((req, res) => res.writeHead(307, { location: `http://127.0.0.1:${otherPort}${req.url}` }).end());
  redirectUrl = `http://127.0.0.1:${await listen(redirector)}/client/v4`;
});
afterAll(async () => {
  await new Promise<void>((r) => other.close(() => r()));
  await new Promise<void>((r) => redirector.close(() => r()));
  await emu.close();
});

const auths = {
  token: { LOGFILTER_API_TOKEN: TOKEN },
  key: { LOGFILTER_AUTH_EMAIL: EMAIL, LOGFILTER_AUTH_KEY: KEY },
} as const;

function expectNoSecret(out: { stdout: string; stderr: string }) {
  for (const secret of [TOKEN, KEY, PASSWORD]) {
    expect(out.stdout).not.toContain(secret);
    expect(out.stderr).not.toContain(secret);
  }
}

describe.each(Object.entries(auths))('with %s auth', (_kind, auth) => {
  const env = (base: string, extra: Record<string, string> = {}) => ({ LOGFILTER_BASE_URL: base, ...auth, ...extra });

  it('success, --json and --dry-run outputs hold no secret', async () => {
    expectNoSecret(await logfilter(['jobs', 'list', '--zone', 'z', '--json'], env(emu.url)));
    const dry = await logfilter(['jobs', 'create', '--zone', 'z', '--destination', 's3://b/p?region=x', '--dry-run'], env(emu.url));
    expect(dry.code).toBe(0);
    expectNoSecret(dry);
    expectNoSecret(await logfilter(['custom-fields', 'add', '--zone', 'z', '--request-header', 'a', '--json'], env(emu.url)));
  });

  it('failures hold no secret: 5xx (with retries), malformed answer, timeout', async () => {
    emu.failNext(4, 503);
    const fivexx = await logfilter(['jobs', 'list', '--zone', 'z', '--retries', '3'], env(emu.url));
    expect(fivexx.code).toBe(1);
    expectNoSecret(fivexx);
    emu.injectFaults({ rawBody: `{"echo":"${TOKEN}"` });
    expectNoSecret(await logfilter(['jobs', 'list', '--zone', 'z'], env(emu.url)));
    emu.injectFaults({ hang: true });
    const hung = await logfilter(['jobs', 'list', '--zone', 'z', '--timeout', '200'], env(emu.url));
    expect(hung.code).toBe(1);
    expectNoSecret(hung);
  });

  it('a redirect to another origin: refused, and the other origin receives nothing', async () => {
    otherSeen = [];
    const r = await logfilter(['jobs', 'list', '--zone', 'z'], env(redirectUrl));
    expect(r.code).toBe(1);
    expectNoSecret(r);
    expect(otherSeen).toHaveLength(0);
  });

  it('a base URL with a password is refused without showing it, also in a dry run', async () => {
    const base = `http://user:${PASSWORD}@127.0.0.1:${new URL(emu.url).port}/client/v4`;
    const r = await logfilter(['jobs', 'create', '--zone', 'z', '--destination', 's3://b/p?region=x', '--dry-run'], env(base));
    expect(r.code).toBe(2);
    expectNoSecret(r);
    const flag = await logfilter(['jobs', 'list', '--zone', 'z', '--base-url', base], env(emu.url));
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--base-url');
    expectNoSecret(flag);
  });
});

describe('credentials that cannot be sent', () => {
  it.each([
    [{ LOGFILTER_API_TOKEN: `${TOKEN}\nX-Evil: 1` }, 'LOGFILTER_API_TOKEN'],
    [{ LOGFILTER_API_TOKEN: `${TOKEN}\u0000` }, 'LOGFILTER_API_TOKEN'],
    [{ LOGFILTER_AUTH_EMAIL: EMAIL, LOGFILTER_AUTH_KEY: `${KEY}é` }, 'LOGFILTER_AUTH_KEY'],
    [{ LOGFILTER_AUTH_EMAIL: `x\r${EMAIL}`, LOGFILTER_AUTH_KEY: KEY }, 'LOGFILTER_AUTH_EMAIL'],
  ])('are refused naming %s, before any request', async (creds, name) => {
    const before = emu.requestCount;
    const r = await logfilter(['jobs', 'list', '--zone', 'z'], { LOGFILTER_BASE_URL: emu.url, ...creds });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(name);
    expectNoSecret(r);
    expect(emu.requestCount).toBe(before);
  });
});
