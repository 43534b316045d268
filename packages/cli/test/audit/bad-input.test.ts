/**
 * The bad-input audit of the command-line paths, through the built bins (`npm run build` first): each case is a
 * departure the audit found, answered now with a diagnostic or error naming the problem and its place and a
 * documented exit code (packages/cli/README.md, "Exit codes").
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, lstatSync, openSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { REPO } from '../../../../test/support/paths.js';

const LOGFILTER = path.join(REPO, 'packages/cli/bin/logfilter.cjs');
const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-bad-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const put = (name: string, text: string) => {
  const p = path.join(dir, name);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, text);
  return p;
};
const logfilter = (args: string[]) => {
  const r = spawnSync(process.execPath, [LOGFILTER, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('a .json filter file that holds JSON but not a filter object', () => {
  // Read as .logfilter source, `[]` was a syntax error about 'and'/'or'; a .json file is JSON, as decompile reads it.
  for (const [name, text] of [['array', '[]'], ['null', 'null'], ['number', '1'], ['boolean', 'true'], ['array of a filter', '[{"where":{"key":"ClientIP","operator":"eq","value":"1.2.3.4"}}]']]) {
    it(`check: ${name} is invalid-node at 1:1, exit 1`, () => {
      const f = put(`doc-${name.replace(/ /g, '-')}.json`, `${text}\n`);
      const r = logfilter(['check', '--diagnostics', 'json', f]);
      expect(r.code).toBe(1);
      const diags = JSON.parse(r.stderr) as { code: string; range: { start: { line: number; column: number } } }[];
      expect(diags.map((d) => d.code)).toEqual(['invalid-node']);
      expect(diags[0].range.start).toMatchObject({ line: 1, column: 1 });
    });
  }

  it('eval: the filter file is judged the same way, exit 1 and nothing evaluated', () => {
    const f = put('eval-array.json', '[]\n');
    const logs = put('eval-logs.ndjson', '{"ClientIP":"1.2.3.4"}\n');
    const r = logfilter(['eval', '--workers', '0', f, logs]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/eval-array\.json:1:1: error invalid-node/);
  });

  it('a .logfilter file, standard input and a JSON object in a .json file are read as before', () => {
    expect(logfilter(['check', put('src.logfilter', 'ClientIP == "1.2.3.4"\n')]).code).toBe(0);
    expect(logfilter(['check', put('obj.json', '{"where":{"key":"ClientIP","operator":"eq","value":"1.2.3.4"}}\n')]).code).toBe(0);
    const piped = spawnSync(process.execPath, [LOGFILTER, 'check', '-'], { input: 'ClientIP == "1.2.3.4"\n', encoding: 'utf8' });
    expect(piped.status).toBe(0);
  });
});

describe('eval over a directory', () => {
  it('a symbolic link back to an ancestor does not count the same file twice', () => {
    put('loop/logs.ndjson', '{"ClientIP":"1.2.3.4"}\n{"ClientIP":"5.6.7.8"}\n');
    mkdirSync(path.join(dir, 'loop/sub'), { recursive: true });
    symlinkSync('..', path.join(dir, 'loop/sub/up'));
    const f = put('loop.logfilter', 'ClientIP == "1.2.3.4"\n');
    const r = logfilter(['eval', '--json', '--workers', '0', f, 'loop']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total: 2, matched: 1 });
  });

  it('a link to a device under the directory is left out rather than read without end', () => {
    put('dev/logs.ndjson', '{"ClientIP":"1.2.3.4"}\n');
    symlinkSync('/dev/zero', path.join(dir, 'dev/zero'));
    const f = put('dev.logfilter', 'ClientIP == "1.2.3.4"\n');
    const r = spawnSync(process.execPath, [LOGFILTER, 'eval', '--json', '--workers', '0', f, 'dev'], { cwd: dir, encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total: 1, matched: 1 });
  });
});

describe('waf-migration plan --output onto what is not a regular file', () => {
  let emu: RunningEmulator;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    emu = await startEmulator({ tokens: ['t'] });
    env = { ...process.env, LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: 't' };
  });
  afterAll(() => emu.close());
  // spawned, not spawnSync: the emulator answers from this process's event loop
  const plan = (output: string) =>
    new Promise<number | null>((resolve) => spawn(process.execPath, [LOGFILTER, 'waf-migration', 'plan', '--zone', 'z1', '--output', output], { cwd: dir, env, stdio: 'ignore' }).on('exit', resolve));

  it('a directory: exit 2, and no stray file left beside it', async () => {
    const target = path.join(dir, 'out-dir');
    mkdirSync(target);
    const before = readdirSync(dir).sort();
    expect(await plan(target)).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(readdirSync(target)).toEqual([]);
  });

  it('an empty name: exit 2 with nothing asked of the API (it resolved to the working directory after the call)', async () => {
    const before = emu.requestCount;
    expect(await plan('')).toBe(2);
    expect(emu.requestCount).toBe(before);
  });

  it('a FIFO is written through, as a shell redirection does, not replaced by a regular file', async () => {
    const fifo = path.join(dir, 'out.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const reader = spawn('sh', ['-c', `cat "${fifo}" > "${fifo}.read"`]);
    const read = new Promise((resolve) => reader.on('exit', resolve));
    const code = await plan(fifo);
    // a FIFO replaced under the reader never sends it end-of-file
    setTimeout(() => reader.kill(), 5_000).unref();
    await read;
    expect(code).toBe(0);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(JSON.parse(readFileSync(`${fifo}.read`, 'utf8'))).toBeTypeOf('object');
  });
});

describe('the playground server given a request target that is not a URL', () => {
  it('answers 400 and goes on serving (one request used to crash it with a stack trace)', async () => {
    const child = spawn(process.execPath, [LOGFILTER, 'playground', '--no-open', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    try {
      const url = await new Promise<string>((resolve) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
          if (m) resolve(m[0]);
        });
      });
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(Number(new URL(url).port), '127.0.0.1', () => socket.write('GET http://[ HTTP/1.1\r\nHost: x\r\n\r\n'));
        let text = '';
        socket.on('data', (d) => (text += d));
        socket.on('close', () => resolve(text));
        socket.on('error', () => resolve(text));
      });
      expect(answer.split(' ')[1]).toBe('400');
      expect((await fetch(url)).status).toBe(200);
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('rules eval --request and --lists files that are not usable', () => {
  const rule = () => put('host.rule', 'http.host eq "a"\n');
  it('a pretty-printed JSON object broken on line 3 is placed at line 3, not at its first line read as NDJSON', () => {
    const r = logfilter(['rules', 'eval', rule(), '--request', put('ml.json', '{\n  "http.host": "a",\n  "ip.src": ,\n}\n')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ml\.json:3:13: /);
  });

  it('rulesets create --file: the same document is placed at line 3 (V8 names no position for it)', () => {
    const f = put('rs.json', '{\n  "name": "a",\n  "phase": ,\n}\n');
    const r = spawnSync(process.execPath, [LOGFILTER, 'rulesets', 'create', '--zone', 'z', '--file', f, '--dry-run'], { cwd: dir, encoding: 'utf8', env: { ...process.env, LOGFILTER_BASE_URL: 'http://127.0.0.1:9/client/v4', LOGFILTER_API_TOKEN: 't' } });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/rs\.json:3:12: /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('NDJSON broken on its second line is still placed at line 2', () => {
    const r = logfilter(['rules', 'eval', rule(), '--request', put('nd.json', '{"http.host": "a"}\n{"http.host": }\n')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nd\.json:2:/);
  });

  it('an empty array of requests is "no request", exit 2, as an empty file is (it printed nothing, exit 0)', () => {
    const r = logfilter(['rules', 'eval', rule(), '--request', put('none.json', '[]\n')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('--lists that is not JSON names the line and column', () => {
    const r = logfilter(['rules', 'eval', rule(), '--request', put('one.json', '{"http.host": "a"}\n'), '--lists', put('lists.json', '{\n  "a": [1,\n}\n')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/lists\.json:3:1: /);
  });
});

describe('a directory on standard input (< dir)', () => {
  it('is an I/O error (exit 2), not read as an empty filter', () => {
    const fd = openSync(dir, 'r');
    try {
      for (const [bin, args] of [
        [path.join(REPO, 'packages/cli/bin/compile-filter.cjs'), []],
        [LOGFILTER, ['check', '-']],
        [LOGFILTER, ['fmt']],
      ] as const) {
        const r = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8', stdio: [fd, 'pipe', 'pipe'] });
        expect([args, r.status, r.stdout]).toEqual([args, 2, '']);
        expect(r.stderr).not.toContain('empty-filter');
      }
    } finally {
      closeSync(fd);
    }
  });
});

describe('standard output that cannot be written (/dev/full)', () => {
  const full = (bin: string, args: string[]) => {
    const fd = openSync('/dev/full', 'w');
    try {
      return spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8', stdio: ['ignore', fd, 'pipe'] });
    } finally {
      closeSync(fd);
    }
  };
  it.skipIf(!existsSync('/dev/full'))('is an I/O error (exit 2) naming standard output, not an internal error', () => {
    const src = put('full.logfilter', 'ClientIP == "1.2.3.4"\n');
    for (const [bin, args] of [
      [path.join(REPO, 'packages/cli/bin/compile-filter.cjs'), [src]],
      [LOGFILTER, ['fmt', src]],
      [LOGFILTER, ['completion', 'bash']],
    ] as const) {
      const r = full(bin, [...args]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/standard output/);
      expect(r.stderr).not.toMatch(/internal error/);
    }
  });
});
