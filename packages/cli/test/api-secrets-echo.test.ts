/**
 * An API that echoes the credential it received: the `Authorization` or `X-Auth-Key` value
 * inside an error message, a result, a retry notice or a malformed answer is never printed. Every message the
 * CLI prints goes through one redaction (redact.ts), for both auth kinds and several commands; real HTTP
 * against a small server on 127.0.0.1 that answers with what it was sent.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { logfilter } from './api-harness.js';
import { redactor } from '../src/redact.js';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

const TOKEN = 'tok-ECHO-"secret"\\x';
const EMAIL = 'echo@example.com';
const KEY = 'key-ECHO-secret';
let server: Server;
let base = '';
/** What the next answers echo: the error message, or the result. */
let mode: 'error' | 'result' | 'raw' = 'error';

beforeAll(async () => {
  server = createServer((req, res) => {
    const seen = `Authorization: ${req.headers.authorization ?? ''}; X-Auth-Key: ${req.headers['x-auth-key'] ?? ''}`;
    if (mode === 'raw') return void res.writeHead(200, { 'content-type': 'application/json' }).end(`{"broken": "${seen}`);
    const body =
      mode === 'error'
        ? { success: false, errors: [{ code: 10000, message: `Authentication error: ${seen}` }], messages: [], result: null }
        : { success: true, errors: [], messages: [{ code: 1, message: seen }], result: [{ id: 'j1', name: seen, dataset: 'http_requests', destination_conf: `s3://b?${seen}`, enabled: true }] };
    res.writeHead(mode === 'error' ? 403 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const auths = {
  token: { LOGFILTER_API_TOKEN: TOKEN },
  key: { LOGFILTER_AUTH_EMAIL: EMAIL, LOGFILTER_AUTH_KEY: KEY },
} as const;

const COMMANDS = [
  ['jobs', 'list', '--zone', 'z'],
  ['rulesets', 'list', '--zone', 'z'],
  ['custom-fields', 'show', '--zone', 'z'],
  ['page-guard', 'scripts', '--zone', 'z'],
];

function expectNoSecret(out: { stdout: string; stderr: string }) {
  for (const secret of [TOKEN, KEY, JSON.stringify(TOKEN).slice(1, -1), encodeURIComponent(TOKEN)]) {
    expect(out.stdout).not.toContain(secret);
    expect(out.stderr).not.toContain(secret);
  }
}

describe.each(Object.entries(auths))('an API echoing the %s credential', (_kind, auth) => {
  it('in its error message: the one-line error names the failure, without the secret (exit 1)', async () => {
    mode = 'error';
    for (const args of COMMANDS) {
      const r = await logfilter([...args, '--retries', '0'], { LOGFILTER_BASE_URL: base, ...auth });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toContain('10000');
      expect(r.stderr).toContain('<redacted>');
      expectNoSecret(r);
    }
  });

  it('in a result and in a malformed answer', async () => {
    mode = 'result';
    for (const json of [[], ['--json']]) {
      const r = await logfilter(['jobs', 'list', '--zone', 'z', ...json], { LOGFILTER_BASE_URL: base, ...auth });
      expectNoSecret(r);
    }
    mode = 'raw';
    const raw = await logfilter(['jobs', 'list', '--zone', 'z', '--retries', '0'], { LOGFILTER_BASE_URL: base, ...auth });
    expect(raw.code).toBe(1);
    expectNoSecret(raw);
  });
});

describe('redactor', () => {
  it('replaces each secret, its JSON-escaped and its URL-encoded spelling; short values are not secrets', () => {
    const r = redactor({ LOGFILTER_API_TOKEN: 'a"b/c d', LOGFILTER_AUTH_KEY: 'xy' }, []);
    expect(r('x a"b/c d y a\\"b/c d z a%22b%2Fc%20d')).toBe('x <redacted> y <redacted> z <redacted>');
    expect(r('xy stays')).toBe('xy stays');
    expect(redactor({}, ['--base-url', 'http://u:pw-LONG@h/x'])('pw-LONG')).toBe('<redacted>');
  });
});
