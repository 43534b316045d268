/**
 * The CLI's edges under careless and hostile use: an input size cap (exit 2, `/dev/zero` included), `fmt --write`
 * that keeps mode, symbolic links and hard links, ranges for every numeric flag, `--zone ''`, usage and I/O errors
 * as JSON with `--diagnostics json`, long names cut in messages, and `jobs create` showing every error it refuses.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { chmodSync, linkSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '@logfilter/emulator';
import { runCli } from './helpers.js';
import { MAX_INPUT_BYTES } from '../src/io.js';

vi.setConfig({ testTimeout: 60_000 });

const dir = mkdtempSync(join(tmpdir(), 'logfilter-cli-rel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const UNFORMATTED = 'ClientRequestHost=="a"   and BotScore<30\n';
const FORMATTED = 'ClientRequestHost == "a" and BotScore < 30\n';

describe('input size cap', () => {
  it('/dev/zero is refused at the cap with exit 2, not read to the end', async () => {
    const r = await runCli('compile-filter', ['/dev/zero']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
  it.each([
    ['compile-filter', []],
    ['logfilter', ['check']],
    ['logfilter', ['decompile']],
    ['logfilter', ['fmt']],
  ] as const)('%s %s: one byte over the cap is an io error (JSON with --diagnostics json); at the cap it is read', async (cmd, args) => {
    const over = join(dir, `over-${args.join('')}.logfilter`);
    writeFileSync(over, ' '.repeat(MAX_INPUT_BYTES + 1));
    const r = await runCli(cmd, [...args, over, '--diagnostics', 'json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toEqual([{ file: over, code: 'io', severity: 'error', message: expect.any(String) }]);
    const at = join(dir, `at-${args.join('')}.logfilter`);
    writeFileSync(at, `${' '.repeat(MAX_INPUT_BYTES - 12)}a == 1`);
    expect((await runCli(cmd, [...args, at, '--dataset', 'any'].filter((a) => !(cmd === 'logfilter' && args[0] === 'fmt' && (a === '--dataset' || a === 'any'))))).code).not.toBe(2);
  });
  it('standard input over the cap is refused too', async () => {
    const r = await runCli('compile-filter', ['-'], { stdin: 'x'.repeat(MAX_INPUT_BYTES + 1) });
    expect(r.code).toBe(2);
  });
});

describe('fmt --write keeps what the file is', () => {
  it('keeps a 0600 mode', async () => {
    const f = join(dir, 'private.logfilter');
    writeFileSync(f, UNFORMATTED);
    chmodSync(f, 0o600);
    expect((await runCli('logfilter', ['fmt', '--write', f])).code).toBe(0);
    expect(readFileSync(f, 'utf8')).toBe(FORMATTED);
    expect(statSync(f).mode & 0o777).toBe(0o600);
  });
  it('follows a symbolic link: the link stays a link, its target is rewritten', async () => {
    const target = join(dir, 'target.logfilter');
    const link = join(dir, 'link.logfilter');
    writeFileSync(target, UNFORMATTED);
    chmodSync(target, 0o640);
    symlinkSync(target, link);
    expect((await runCli('logfilter', ['fmt', '--write', link])).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe(FORMATTED);
    expect(statSync(target).mode & 0o777).toBe(0o640);
  });
  it('writes a new file (waf-migration plan --output) with the usual mode', async () => {
    const { writeFileAtomic } = await import('../src/io.js');
    const f = join(dir, 'new-dir-file.yaml');
    await writeFileAtomic(f, 'x: 1\n');
    expect(readFileSync(f, 'utf8')).toBe('x: 1\n');
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps hard links: every name sees the new text, no recovery file is left', async () => {
    const a = join(dir, 'hard-a.logfilter');
    const b = join(dir, 'hard-b.logfilter');
    writeFileSync(a, UNFORMATTED);
    linkSync(a, b);
    expect((await runCli('logfilter', ['fmt', '--write', a])).code).toBe(0);
    expect(statSync(a).ino).toBe(statSync(b).ino);
    expect(readFileSync(b, 'utf8')).toBe(FORMATTED);
    expect(readdirSync(dir).filter((n) => n.includes('logfilter-new') || n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('numeric flags have ranges', () => {
  it.each([
    [['jobs', 'list', '--zone', 'z', '--timeout', '3000000000']],
    [['jobs', 'list', '--zone', 'z', '--timeout', '0']],
    [['jobs', 'list', '--zone', 'z', '--retries', '101']],
    [['jobs', 'list', '--zone', 'z', '--retries', '-1']],
    [['custom-fields', 'show', '--zone', 'z', '--timeout', '1e3']],
    [['check', '-', '--max-operators', '0']],
    [['check', '-', '--max-operators', '1000001']],
    [['compile', '-', '--max-bytes', '99999999999']],
    [['eval', 'f', 'l', '--workers', '65']],
  ])('logfilter %j is a usage error (exit 2)', async (args) => {
    const r = await runCli('logfilter', args, { stdin: 'a == 1', env: { LOGFILTER_BASE_URL: 'http://127.0.0.1:9/client/v4', LOGFILTER_API_TOKEN: 't' } });
    expect(r.code).toBe(2);
  });
  it('the largest timeout a timer can wait is accepted', async () => {
    const emu = await startEmulator({ tokens: ['t'] });
    try {
      const r = await runCli('logfilter', ['jobs', 'list', '--zone', 'z', '--timeout', '2147483647', '--retries', '100', '--json'], { env: { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: 't' } });
      expect([r.code, JSON.parse(r.stdout)]).toEqual([0, []]);
    } finally {
      await emu.close();
    }
  });
});

describe('messages', () => {
  it("--zone '' is a usage error naming --zone", async () => {
    const r = await runCli('logfilter', ['jobs', 'list', '--zone', ''], { env: { LOGFILTER_BASE_URL: 'http://127.0.0.1:9/client/v4', LOGFILTER_API_TOKEN: 't' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--zone');
  });

  it.each([
    [['check', '--nope', '--diagnostics', 'json'], 'usage'],
    [['check', join(dir, 'missing.logfilter'), '--diagnostics=json'], 'io'],
    [['fmt', '--check', '--write', 'x', '--diagnostics', 'json'], 'usage'],
    [['decompile', '--diagnostics', 'json', '--format', 'x'], 'usage'],
  ])('logfilter %j with --diagnostics json prints the error as one JSON array (code %s)', async (args, code) => {
    const r = await runCli('logfilter', args);
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toEqual([{ file: code === 'io' ? args[1] : null, code, severity: 'error', message: expect.any(String) }]);
  });

  it('compile-filter usage errors are JSON too', async () => {
    const r = await runCli('compile-filter', ['--format', 'nope', '--diagnostics', 'json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)[0]).toMatchObject({ code: 'usage', severity: 'error' });
  });

  it('a 1 MB unknown name is cut in messages: diagnostics, usage errors and API command errors', async () => {
    const long = 'q'.repeat(1_000_000);
    const unknownField = await runCli('compile-filter', ['-', '--diagnostics', 'json'], { stdin: `${long} == 1` });
    expect(unknownField.code).toBe(1);
    const [d] = JSON.parse(unknownField.stderr);
    expect([d.code, d.message.length < 300]).toEqual(['unknown-field', true]);
    const dataset = await runCli('compile-filter', ['-', '--dataset', long], { stdin: 'a == 1' });
    expect(dataset.stderr.length).toBeLessThan(2000);
    const command = await runCli('logfilter', [long]);
    expect(command.code).toBe(2);
    expect(command.stderr.length).toBeLessThan(2000);
    const jobs = await runCli('logfilter', ['jobs', 'create', '--zone', 'z', '--destination', 's3://b/p?region=x', '--dataset', long], { env: { LOGFILTER_BASE_URL: 'http://127.0.0.1:9/client/v4', LOGFILTER_API_TOKEN: 't' } });
    expect(jobs.code).toBe(2);
    expect(jobs.stderr.length).toBeLessThan(2000);
  });

  it('no credentials: the hint is given once', async () => {
    const r = await runCli('logfilter', ['jobs', 'list', '--zone', 'z'], { env: { LOGFILTER_BASE_URL: 'http://127.0.0.1:9/client/v4' } });
    expect(r.code).toBe(1);
    expect(r.stderr.split('LOGFILTER_API_TOKEN').length - 1).toBe(1);
  });
});

describe('jobs create', () => {
  it('a JSON filter that check accepts but cannot be written as source shows its error, and sends nothing', async () => {
    const emu = await startEmulator({ tokens: ['t'] });
    try {
      const f = join(dir, 'empty-in.json');
      writeFileSync(f, '{"where":{"key":"EdgeResponseStatus","operator":"in","value":[]}}');
      const before = emu.requestCount;
      const r = await runCli('logfilter', ['jobs', 'create', '--zone', 'z', '--destination', 's3://b/p?region=x', '--filter', f], { env: { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: 't' } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('empty-list');
      expect(emu.requestCount).toBe(before);
    } finally {
      await emu.close();
    }
  });

  it('a JSON filter with an exponent number is created', async () => {
    const emu = await startEmulator({ tokens: ['t'] });
    try {
      const f = join(dir, 'exp.json');
      writeFileSync(f, '{"where":{"key":"EdgeResponseCompressionRatio","operator":"gt","value":1e2}}');
      const r = await runCli('logfilter', ['jobs', 'create', '--zone', 'z', '--destination', 'https://logs.example.com/in', '--filter', f, '--json'], { env: { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: 't' } });
      expect(r.code).toBe(0);
      expect(JSON.parse(JSON.parse(r.stdout).filter).where.value).toBe(100);
    } finally {
      await emu.close();
    }
  });

  it('a create answered 500 is sent once, exits 1 and says the job may exist (how to check)', async () => {
    const emu = await startEmulator({ tokens: ['t'] });
    try {
      // The check before creating (does a job write there?) answers; the create itself gets the 500.
      emu.injectFaults({ status: 200, rawBody: '{"result":{"exists":false},"success":true,"errors":[],"messages":[]}' }, { status: 500 });
      const r = await runCli('logfilter', ['jobs', 'create', '--zone', 'z', '--destination', 'https://logs.example.com/in', '--name', 'ghost2'], { env: { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: 't' } });
      expect(r.code).toBe(1);
      expect(emu.requestCount).toBe(2);
      expect(r.stderr).toContain('logfilter jobs list --zone z');
      expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    } finally {
      await emu.close();
    }
  });
});
