/**
 * The bad-input audit of the emulator: requests Node's HTTP parser cannot read (a method it does not know, headers
 * beyond its limit) are answered with the API envelope and an error code like every other refusal, not a bare
 * status without a body; a fixture that is not JSON names the line and column. Real HTTP on 127.0.0.1.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { bundleEmulatorBin } from './bin.js';

let emu: RunningEmulator;
const dir = mkdtempSync(join(tmpdir(), 'logfilter-emu-bad-'));
beforeAll(async () => {
  emu = await startEmulator({ tokens: ['t'] });
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Sends raw bytes and reads the whole answer (the emulator closes the connection after an unreadable request). */
function raw(request: string): Promise<{ status: number; contentType: string; body: string }> {
  const { hostname, port } = new URL(emu.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => (text += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), contentType: /content-type: *([^\r\n]*)/i.exec(head)?.[1] ?? '', body });
    });
  });
}

describe('requests the HTTP parser refuses', () => {
  it('a method HTTP does not know: 405 with the envelope, code 7001', async () => {
    const r = await raw(`BREW ${new URL(emu.url).pathname}/zones/z/logpush/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\r\n`);
    expect(r.status).toBe(405);
    expect(r.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(r.body)).toMatchObject({ success: false, result: null, errors: [{ code: ERROR_CODES.methodNotAllowed }] });
  });

  it('an Expect other than 100-continue: 417 with the envelope, code 6003, and the connection closed', async () => {
    const r = await raw('POST /client/v4/zones/z/logpush/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nExpect: gimme\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    expect(r.status).toBe(417);
    expect(r.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(r.body)).toMatchObject({ success: false, result: null, errors: [{ code: ERROR_CODES.invalidHeaders }] });
  });

  it('CONNECT (a proxy\'s method): 405 with the envelope, code 7001, not a silently closed connection', async () => {
    const r = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(r.status).toBe(405);
    expect(JSON.parse(r.body)).toMatchObject({ success: false, result: null, errors: [{ code: ERROR_CODES.methodNotAllowed }] });
  });

  it('headers beyond the parser limit: 431 with the envelope, code 6003', async () => {
    const r = await raw(`GET /client/v4/zones HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`);
    expect(r.status).toBe(431);
    expect(JSON.parse(r.body)).toMatchObject({ success: false, errors: [{ code: ERROR_CODES.invalidHeaders }] });
  });

  it('a header line without a colon: 400 with the envelope, code 6003; the emulator goes on serving', async () => {
    const r = await raw('GET /client/v4/zones HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ success: false, errors: [{ code: ERROR_CODES.invalidHeaders }] });
    const ok = await fetch(`${emu.url}/zones/z/logpush/jobs`, { headers: { Authorization: 'Bearer t' } });
    expect(ok.status).not.toBe(500);
  });
});

describe('a request target that is not a URL', () => {
  it('is 400 with code 7005, not an internal error (500)', async () => {
    const r = await raw('GET http://[ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nConnection: close\r\n\r\n');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ success: false, errors: [{ code: ERROR_CODES.malformedPath }] });
  });
});

describe('a body over 1 MiB', () => {
  it('is 413 with code 6008 and Connection: close, and the client\'s next requests are answered', async () => {
    const post = (body: string) =>
      fetch(`${emu.url}/zones/big-body/rulesets`, { method: 'POST', headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' }, body });
    const big = await post(JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) }));
    expect([big.status, big.headers.get('connection')]).toEqual([413, 'close']);
    expect(await big.json()).toMatchObject({ success: false, result: null, errors: [{ code: ERROR_CODES.bodyTooLarge }] });
    const hook = await fetch(`${new URL(emu.url).origin}/__emulator/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ faults: ['x'.repeat(2 * 1024 * 1024)] }) });
    expect([hook.status, hook.headers.get('connection')]).toEqual([413, 'close']);
    // The rest of that body is never read and its connection is reset: a later request sent on it would be lost.
    for (const name of ['after-1', 'after-2', 'after-3']) {
      expect((await post(JSON.stringify({ name, kind: 'custom', phase: 'http_request_firewall_custom' }))).status).toBe(200);
    }
  });
});

describe('the Content-Type of a body', () => {
  const post = (type: string, path = '/zones/ctype/logpush/jobs') =>
    fetch(`${emu.url}${path}`, { method: 'POST', headers: { Authorization: 'Bearer t', 'Content-Type': type }, body: JSON.stringify({ destination_conf: 'https://logs.example.com/in' }) });

  it('is application/json, in any case and with parameters', async () => {
    for (const type of ['application/json', 'Application/JSON; charset=utf-8', 'application/json;charset=UTF-8']) expect((await post(type)).status, type).toBe(200);
  });

  it('refuses other media types that merely start with application/json: 415, code 6003', async () => {
    for (const type of ['application/json-patch+json', 'application/json+x', 'application/json/x', 'text/plain']) {
      const r = await post(type);
      expect([r.status, ((await r.json()) as { errors: { code: number }[] }).errors[0].code], type).toEqual([415, ERROR_CODES.unsupportedMediaType]);
    }
    const reset = await fetch(`${new URL(emu.url).origin}/__emulator/reset`, { method: 'POST', headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json-patch+json' }, body: '{}' });
    expect(reset.status).toBe(415);
  });
});

describe('a body nested very deep', () => {
  const zone = 'deep0000000000000000000000000001';
  const send = (method: string, path: string, text?: string) =>
    fetch(`${emu.url}/zones/${zone}/${path}`, { method, headers: { Authorization: 'Bearer t', ...(text === undefined ? {} : { 'Content-Type': 'application/json' }) }, body: text });
  const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  let id: string;
  beforeAll(async () => {
    const r = await send('POST', 'rulesets', JSON.stringify({ name: 'deep', kind: 'custom', phase: 'http_request_firewall_custom' }));
    id = ((await r.json()) as { result: { id: string } }).result.id;
  });

  for (const [what, method, path, body] of [
    ['a ruleset PUT (action_parameters)', 'PUT', () => `rulesets/${id}`, (deep: string) => `{"rules":[{"action":"block","expression":"true","action_parameters":${deep}}]}`],
    ['a rule POST (action_parameters)', 'POST', () => `rulesets/${id}/rules`, (deep: string) => `{"action":"block","expression":"true","action_parameters":{"response":${deep}}}`],
    ['an entry point PUT', 'PUT', () => 'rulesets/phases/http_request_firewall_custom/entrypoint', (deep: string) => `{"rules":[{"action":"block","expression":"true","action_parameters":${deep}}]}`],
    ['a job POST', 'POST', () => 'logpush/jobs', (deep: string) => `{"destination_conf":"https://example.com/x","output_options":${deep}}`],
  ] as const) {
    it(`${what} nested 20,000 deep: 400, code 6007, not an internal error (500); nothing changes`, async () => {
      const r = await send(method, path(), body(nested(20_000)));
      expect(r.status).toBe(400);
      expect(await r.json()).toMatchObject({ success: false, result: null, errors: [{ code: ERROR_CODES.malformedJson }] });
      const now = (await (await send('GET', `rulesets/${id}`)).json()) as { result: { version: string; rules: unknown[] } };
      expect(now.result).toMatchObject({ version: '1', rules: [] });
    });
  }

  it('action_parameters nested 100 deep are still taken (a new version)', async () => {
    const r = await send('PUT', `rulesets/${id}`, `{"rules":[{"action":"block","expression":"true","action_parameters":${nested(100)}}]}`);
    expect(r.status).toBe(200);
    expect(((await r.json()) as { result: { version: string } }).result.version).toBe('2');
  });
});

describe('a fixture that is not JSON', () => {
  const bundle = join(dir, 'emulator.cjs');
  beforeAll(async () => {
    await bundleEmulatorBin(bundle);
  }, 60_000);
  for (const [what, text, line, column] of [
    ['cut short', '{"zones": {\n  "z1": {\n', 3, 1],
    ['a stray comma', '{"zones": {\n  "z1": {,}\n}}', 2, 10],
    ['a missing value (V8 names no position)', '{"zones": {\n  "z1": ,\n}}', 2, 9],
  ] as const) {
    it(`${what}: exit 2 naming line ${line}, column ${column}`, () => {
      const file = join(dir, `${what.replace(/ /g, '-')}.json`);
      writeFileSync(file, text);
      const r = spawnSync(process.execPath, [bundle, '--fixture', file], { encoding: 'utf8', timeout: 30_000 });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`${file}:${line}:${column}`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }
});
