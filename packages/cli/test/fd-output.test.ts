/**
 * Stdout and stderr written on their descriptors (src/fd-output.ts): every byte arrives, in order, whatever
 * the descriptor does (partial writes, EAGAIN on a non-blocking pipe, a closed pipe), and the bins that use it
 * create no process stream on their small paths. The end-to-end cases run the built bins (`npm run build`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../../test/support/paths.js';
import { applyPatches, PICOCOLORS_PROBE_DROPPED, PICOCOLORS_PROBE_ORIGINAL } from '../../../scripts/bundle-patches.mjs';
import { type FdHost, fdOutput } from '../src/fd-output.js';
import { processContext } from '../src/context.js';
import { tempDir, write } from './eval/support.js';

/** A stand-in for the process: a descriptor that writes at most `chunk` bytes a call and fails where told. */
function fakeHost(failures: Record<number, string>, chunk = 5) {
  const fd: number[] = [];
  const streamed: number[] = [];
  const log: string[] = [];
  let calls = 0;
  const stream = Object.assign(new EventEmitter(), {
    write: (c: string | Uint8Array) => (streamed.push(...Buffer.from(c)), false),
    isTTY: true,
    columns: 77,
  });
  const host: FdHost = {
    writeSync: (_fd, bytes, offset, length) => {
      const failure = failures[calls++];
      if (failure) throw Object.assign(new Error(failure), { code: failure });
      const n = Math.min(length, chunk);
      fd.push(...bytes.subarray(offset, offset + n));
      return n;
    },
    stream: () => (log.push('stream'), stream as unknown as NodeJS.WriteStream),
    isatty: () => (log.push('isatty'), false),
    closed: () => log.push('closed'),
  };
  return { host, fd, streamed, log, stream };
}

describe('fdOutput', () => {
  it('writes every byte through partial writes, and hands the rest over to the stream on EAGAIN, for good', () => {
    const { host, fd, streamed, log } = fakeHost({ 4: 'EAGAIN' });
    const out = fdOutput(1, host);
    expect(out.write('héllo wörld')).toBe(true);
    // (13 bytes: three calls) the second call of the next write is refused: what is left of it goes to the
    // stream, and so does everything after it
    expect(out.write('0123456789abcdef')).toBe(false);
    out.write(new Uint8Array([0x7a]));
    expect(Buffer.from(fd).toString()).toBe('héllo wörld01234');
    expect(Buffer.from(streamed).toString()).toBe('56789abcdefz');
    expect(log).toEqual(['stream']);
  });

  it('waits for drain on the stream once handed over; asks the descriptor whether it is a terminal only when read', () => {
    const { host, log, stream } = fakeHost({ 0: 'EAGAIN' });
    const out = fdOutput(2, host);
    expect(log).toEqual([]);
    expect(out.isTTY).toBe(false);
    expect(out.columns).toBeUndefined();
    expect(log).toEqual(['isatty']);
    expect(out.write('x')).toBe(false);
    let drained = false;
    out.once('drain', () => (drained = true));
    stream.emit('drain');
    expect(drained).toBe(true);
    // the stream's own answer from then on
    const tty = fdOutput(2, fakeHost({}).host);
    expect(tty.stream.isTTY).toBe(true);
    expect([tty.isTTY, tty.columns]).toEqual([true, 77]);
  });

  it('ends the process on a closed pipe on stdout (EPIPE), drops stderr after one, and throws other errors', () => {
    const stdout = fakeHost({ 1: 'EPIPE' });
    const out = fdOutput(1, stdout.host);
    out.write('0123456789');
    out.write('more');
    expect(stdout.log).toEqual(['closed']);
    expect(Buffer.from(stdout.fd).toString()).toBe('01234');
    const stderr = fakeHost({ 0: 'EPIPE' });
    fdOutput(2, stderr.host).write('x');
    expect(stderr.log).toEqual([]);
    expect(() => fdOutput(1, fakeHost({ 0: 'EIO' }).host).write('x')).toThrow('EIO');
  });
});

describe('processContext', () => {
  it('writes on the descriptors, except on Windows, whose console takes text through the terminal stream', () => {
    const ctx = processContext();
    expect(ctx.stdout).not.toBe(process.stdout);
    expect('stream' in ctx.stdout).toBe(true);
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
    Object.defineProperty(process, 'platform', { value: 'win32' });
    try {
      const win = processContext();
      expect(win.stdout).toBe(process.stdout);
      expect(win.stderr).toBe(process.stderr);
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
  });
});

describe('the bins on their descriptors', () => {
  const compileFilter = path.join(REPO, 'packages/cli/bin/compile-filter.cjs');
  const logfilter = path.join(REPO, 'packages/cli/bin/logfilter.cjs');

  it('print all of a large --print output on a non-blocking pipe that fills (EAGAIN), in order', async () => {
    const dir = tempDir();
    const lines = Array.from({ length: 40_000 }, (_, i) => JSON.stringify({ h: 'a', i, pad: 'x'.repeat(i % 90) })).join('\n') + '\n';
    write(dir, 'l.ndjson', lines);
    write(dir, 'f.json', JSON.stringify({ where: { key: 'h', operator: 'eq', value: 'a' } }));
    // creating process.stdout on a pipe makes the descriptor non-blocking (libuv), as a parent sharing it can
    write(dir, 'nonblocking.cjs', 'process.stdout;');
    const child = spawn(process.execPath, ['-r', './nonblocking.cjs', logfilter, 'eval', 'f.json', 'l.ndjson', '--print', '--workers', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    // nothing is read until the child has had time to fill the pipe (64 KB) many times over
    child.stdout.pause();
    await new Promise((r) => setTimeout(r, 300));
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stdout.resume();
    const code = await new Promise((r) => child.on('close', r));
    expect(code).toBe(0);
    expect(Buffer.concat(chunks).toString()).toBe(lines);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('end with status 0 and no stack trace when the reader closes the pipe (`eval --print | head`)', async () => {
    const dir = tempDir();
    write(dir, 'l.ndjson', `${'{"h":"a"}\n'.repeat(200_000)}`);
    write(dir, 'f.json', JSON.stringify({ where: { key: 'h', operator: 'eq', value: 'a' } }));
    const child = spawn(process.execPath, [logfilter, 'eval', 'f.json', 'l.ndjson', '--print', '--workers', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise((r) => child.on('close', r));
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/\n\s+at /);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('write to a file, a pipe and a terminal the same bytes, with colours only on the terminal', () => {
    const dir = tempDir();
    write(dir, 'f.logfilter', 'ClientRequestHost == "a"\n');
    write(dir, 'bad.logfilter', 'ClientRequestHost ==\n');
    const expected = `${JSON.stringify({ where: { key: 'ClientRequestHost', operator: 'eq', value: 'a' } })}\n`;
    const env = { ...process.env, NO_COLOR: '', FORCE_COLOR: '' };
    const piped = spawnSync(process.execPath, [compileFilter, 'f.logfilter'], { cwd: dir, env });
    expect(piped.stdout.toString()).toBe(expected);
    const file = fs.openSync(path.join(dir, 'out.json'), 'w');
    expect(spawnSync(process.execPath, [compileFilter, 'f.logfilter'], { cwd: dir, env, stdio: ['ignore', file, 'pipe'] }).status).toBe(0);
    fs.closeSync(file);
    expect(fs.readFileSync(path.join(dir, 'out.json'), 'utf8')).toBe(expected);
    const bad = spawnSync(process.execPath, [compileFilter, 'bad.logfilter'], { cwd: dir, env });
    expect(bad.status).toBe(1);
    expect(bad.stderr.toString()).not.toContain('\u001b[');
    // a terminal: util-linux's `script` runs the command on a pseudo-terminal
    if (spawnSync('script', ['--version']).status !== 0) return;
    const onTty = (file: string) => spawnSync('script', ['-qec', `"${process.execPath}" "${compileFilter}" ${file}`, '/dev/null'], { cwd: dir, env }).stdout.toString();
    expect(onTty('f.logfilter').replace(/\r\n/g, '\n')).toBe(expected);
    expect(onTty('bad.logfilter')).toContain('\u001b[');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('create no process stream (Node\'s stream modules stay unloaded) for compile-filter and a small eval', () => {
    const dir = tempDir();
    write(dir, 'f.logfilter', 'ClientRequestHost == "a"\n');
    write(dir, 'l.ndjson', '{"ClientRequestHost":"a"}\n');
    write(dir, 'probe.cjs', "process.on('exit', () => require('node:fs').writeSync(2, '\\nmodules:' + JSON.stringify(process.moduleLoadList) + '\\n'));");
    const streams = (args: string[], stdout: 'pipe' | 'ignore' = 'pipe') => {
      const r = spawnSync(process.execPath, ['-r', './probe.cjs', ...args], { cwd: dir, stdio: ['ignore', stdout, 'pipe'] });
      expect(r.status).toBe(0);
      return (JSON.parse(/modules:(.*)/.exec(r.stderr.toString())![1]!) as string[]).filter((m) => /^NativeModule (stream|net|tty|internal\/streams\/writable)$/.test(m));
    };
    // stdout a pipe, and /dev/null (as in scripts and the bench: a character device that is no terminal)
    for (const stdout of ['pipe', 'ignore'] as const) {
      expect(streams([compileFilter, 'f.logfilter'], stdout)).toEqual([]);
      // eval asks whether stderr is a terminal for its summary's colours
      expect(streams([logfilter, 'eval', 'f.logfilter', 'l.ndjson'], stdout)).toEqual([]);
    }
    // the probe sees them when they are loaded
    expect(streams(['-e', 'process.stdout.write("")']).length).toBeGreaterThan(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('picocolors in the bundles', () => {
  it("is only ever asked for colours chosen by the CLI (createColors), so dropping its stdout probe changes nothing", () => {
    const src = path.join(REPO, 'packages/cli/src');
    const files = fs.readdirSync(src, { recursive: true }).map(String).filter((f) => f.endsWith('.ts'));
    const uses = files.flatMap((f) => {
      const text = fs.readFileSync(path.join(src, f), 'utf8');
      const name = /import (\w+) from 'picocolors'/.exec(text)?.[1];
      return name ? [...text.matchAll(new RegExp(`\\b${name}\\.(\\w+)`, 'g'))].map((m) => m[1]) : [];
    });
    expect(uses.length).toBeGreaterThan(0);
    expect(new Set(uses)).toEqual(new Set(['createColors']));
  });

  it('has its probe dropped by the bundle patch, which fails the build when the text is gone', () => {
    const file = path.join(REPO, 'node_modules/picocolors/picocolors.js');
    const source = fs.readFileSync(file, 'utf8');
    const patched = applyPatches(file, source, true);
    expect(patched).toContain(PICOCOLORS_PROBE_DROPPED);
    expect(patched).not.toContain('p.stdout');
    expect(applyPatches(file, source, false)).toBe(source);
    expect(() => applyPatches(file, source.replace(PICOCOLORS_PROBE_ORIGINAL, ''), true)).toThrow(/not found once/);
  });
});
