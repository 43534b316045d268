/**
 * An answer larger than the API client reads (its `maxAnswerBytes`, 64 MiB by default: no real answer comes near)
 * fails the command with exit 1 as soon as that is known, one line, no stack: by its Content-Length before the
 * body is read, or once a body with no length passes the limit. The `--timeout` given is far away, so a client that
 * read on would hang the test. Real HTTP against a small server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { logfilter } from './api-harness.js';

let server: Server;
let base = '';
let mode: 'declared' | 'endless' = 'declared';
const CHUNK = Buffer.alloc(256 * 1024, 'x');

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    if (mode === 'declared') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 ** 31) });
      return void res.write('{"result":[');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"result":"');
    const pump = () => {
      while (!res.destroyed) if (!res.write(CHUNK)) return void res.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

const env = () => ({ LOGFILTER_BASE_URL: base, LOGFILTER_API_TOKEN: 't' });

describe('an answer too large to read', () => {
  it('declared by Content-Length: exit 1 before the body is read', async () => {
    mode = 'declared';
    const r = await logfilter(['jobs', 'list', '--zone', 'z', '--timeout', '600000'], env());
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toContain(String(2 ** 31));
    const json = await logfilter(['jobs', 'list', '--zone', 'z', '--timeout', '600000', '--json'], env());
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, exit: 1, kind: 'failure' });
  }, 120_000);

  it('a body with no length that never ends: exit 1 once it passes 64 MiB', async () => {
    mode = 'endless';
    const r = await logfilter(['jobs', 'list', '--zone', 'z', '--timeout', '600000'], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(String(64 * 1024 * 1024));
  }, 120_000);

  it('with --verbose too: the log shows the start of the body, and reads no more of it', async () => {
    mode = 'endless';
    const r = await logfilter(['jobs', 'list', '--zone', 'z', '--timeout', '600000', '--verbose'], env());
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n');
    expect(lines.some((l) => l.startsWith('< 200'))).toBe(true);
    // the body's log line is cut near 4000 characters, not the 64 MiB read
    const bodyLine = lines.find((l) => l.startsWith('< {"result":"'));
    expect(bodyLine).toBeDefined();
    expect(bodyLine!.length).toBeLessThan(5000);
    expect(r.stderr).toContain(String(64 * 1024 * 1024));
  }, 120_000);
});
