/**
 * `logfilter playground`: the built bin serves the built site on 127.0.0.1 (the page itself is tested in a
 * browser by test/playground/run.mjs). Needs `npm run build`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

const BIN = fileURLToPath(new URL('../bin/logfilter.cjs', import.meta.url));
const started: ChildProcessWithoutNullStreams[] = [];
afterEach(() => started.splice(0).forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

function start(args: string[]) {
  const child = spawn(process.execPath, [BIN, 'playground', '--no-open', ...args]);
  started.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m) resolve(m[0]);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  url.catch(() => {}); // a test that expects the exit reads it from the child, not from here
  return { child, url, output: () => ({ out, err }) };
}

describe('logfilter playground', () => {
  it('serves the site on 127.0.0.1 and nothing outside it; Ctrl-C stops it with exit 0', async () => {
    const s = start(['--port', '0']);
    const url = await s.url;
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('connect-src \'none\'');
    const app = await fetch(`${url}app.js`);
    expect(app.status).toBe(200);
    expect(app.headers.get('content-type')).toMatch(/javascript/);
    for (const outside of ['../package.json', '%2e%2e/%2e%2e/package.json', '..%2f..%2fpackage.json', 'nothing-here.js', 'app.js.map']) {
      expect((await fetch(`${url}${outside}`)).status, outside).toBe(404);
    }
    // A known path with another method is 405 naming the methods it takes; an unknown path stays 404 whatever the method.
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const wrong = await fetch(`${url}app.js`, { method });
      expect([method, wrong.status, wrong.headers.get('allow')]).toEqual([method, 405, 'GET, HEAD']);
    }
    expect((await fetch(url, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${url}nothing-here.js`, { method: 'POST' })).status).toBe(404);
    s.child.kill('SIGINT');
    const [code] = await once(s.child, 'exit');
    expect(code).toBe(0);
  });

  it('answers a port in use and a bad --port with exit 2 and one line', async () => {
    const busy = createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    const port = (busy.address() as { port: number }).port;
    try {
      const s = start(['--port', String(port)]);
      const [code] = await once(s.child, 'exit');
      expect(code).toBe(2);
      expect(s.output().err).toContain(String(port));
      expect(s.output().err).not.toMatch(/\n\s+at /);
    } finally {
      busy.close();
    }
    const bad = await runCli('logfilter', ['playground', '--port', 'eighty', '--no-open']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--port');
  });
});
