/**
 * A whole log export workflow with an S3-style destination, from the CLI against the emulator:
 * challenge, validate, create with a checked filter, list, update, delete; and `datasets fields`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getDataset } from '@logfilter/core';
import { startEmulator, outboxFile, type RunningEmulator } from '@logfilter/emulator';
import { file, logfilter } from './api-harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 90_000 });

const TOKEN = 'flow-token';
const DEST = 's3://flow-bucket/http?region=us-east-1';
const outbox = mkdtempSync(path.join(tmpdir(), 'cli-outbox-'));
let emu: RunningEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], outbox });
  env = { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: TOKEN };
});
afterAll(() => emu.close());

describe('a log export job from the CLI, end to end', () => {
  it('challenge, validate, create with a checked filter, list, update, delete', async () => {
    const z = 'flow';
    const filter = file('flow.logfilter', 'dataset http_requests\nEdgeResponseStatus >= 500\n');
    // No token, not a terminal: the challenge is requested, where it went is said, and nothing is created (exit 2).
    const first = await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--filter', filter], env);
    expect(first.code).toBe(2);
    const written = outboxFile(outbox, DEST);
    expect(first.stderr).toContain(written);
    const token = readFileSync(written, 'utf8').trim();
    const tokenFile = file('challenge.txt', `${token}\n`);

    const wrong = await logfilter(['jobs', 'validate', '--zone', z, '--destination', DEST, '--ownership-challenge', 'nope', '--json'], env);
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stdout)).toMatchObject({ ownership: 'invalid', exists: false, valid: false });
    const right = await logfilter(['jobs', 'validate', '--zone', z, '--destination', DEST, '--ownership-challenge-file', tokenFile, '--fields', 'ClientIP,EdgeResponseStatus', '--json'], env);
    expect(right.code).toBe(0);
    expect(JSON.parse(right.stdout)).toMatchObject({ ownership: 'valid', exists: false, valid: true, origin: { valid: true } });

    // The filter is still compiled and checked first: a bad one sends nothing.
    const before = emu.requestCount;
    const bad = await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--ownership-challenge-file', tokenFile, '--filter', file('bad.logfilter', 'NoSuchField == 1\n')], env);
    expect(bad.code).toBe(1);
    expect(emu.requestCount).toBe(before);
    const wrongToken = await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--ownership-challenge', 'nope', '--filter', filter], env);
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toContain('1008');

    const made = await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--ownership-challenge-file', tokenFile, '--filter', filter, '--name', 'errors', '--json'], env);
    expect(made.code).toBe(0);
    const job = JSON.parse(made.stdout);
    expect(job).toMatchObject({ name: 'errors', destination_conf: DEST, filter: '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":500}}' });

    const list = await logfilter(['jobs', 'list', '--zone', z, '--json'], env);
    expect(JSON.parse(list.stdout).map((j: { id: number }) => j.id)).toEqual([job.id]);
    const updated = await logfilter(['jobs', 'update', String(job.id), '--zone', z, '--enable', '--json'], env);
    expect([updated.code, JSON.parse(updated.stdout).enabled]).toEqual([0, true]);
    // Validation now sees the job at that destination.
    expect(JSON.parse((await logfilter(['jobs', 'validate', '--zone', z, '--destination', DEST, '--ownership-challenge', token, '--json'], env)).stdout).exists).toBe(true);
    expect((await logfilter(['jobs', 'delete', String(job.id), '--zone', z, '--yes'], env)).code).toBe(0);
    expect(JSON.parse((await logfilter(['jobs', 'list', '--zone', z, '--json'], env)).stdout)).toEqual([]);
  });

  it('jobs validate reads --ownership-challenge-file as create does: from the command\'s directory, an unreadable file is a usage error', async () => {
    const z = 'flow-validate';
    const dest = 's3://flow-bucket/validate?region=us-east-1';
    expect((await logfilter(['jobs', 'create', '--zone', z, '--destination', dest], env)).code).toBe(2);
    const token = readFileSync(outboxFile(outbox, dest), 'utf8').trim();
    file('validate-token.txt', `${token}\n`);
    // A path relative to the command's directory, as create reads it.
    const relative = await logfilter(['jobs', 'validate', '--zone', z, '--destination', dest, '--ownership-challenge-file', 'validate-token.txt', '--json'], env);
    expect([relative.code, JSON.parse(relative.stdout).ownership]).toEqual([0, 'valid']);
    for (const flags of [['--ownership-challenge-file', 'no-such-token.txt'], ['--ownership-challenge-file', '.'], ['--ownership-challenge', token, '--ownership-challenge-file', 'validate-token.txt']]) {
      const before = emu.requestCount;
      const r = await logfilter(['jobs', 'validate', '--zone', z, '--destination', dest, ...flags, '--json'], env);
      expect([r.code, JSON.parse(r.stdout).kind, emu.requestCount]).toEqual([2, 'usage', before]);
    }
  });

  it("datasets fields: the API's list with --zone, the local table without", async () => {
    const names = getDataset('dns_logs')!.fields.map((f) => f.name);
    const local = await logfilter(['datasets', 'fields', 'dns_logs', '--json'], {});
    expect([local.code, JSON.parse(local.stdout).source, Object.keys(JSON.parse(local.stdout).fields)]).toEqual([0, 'local', names]);
    const remote = await logfilter(['datasets', 'fields', 'dns_logs', '--zone', 'flow', '--json'], env);
    expect([remote.code, JSON.parse(remote.stdout).source, Object.keys(JSON.parse(remote.stdout).fields)]).toEqual([0, 'api', names]);
    const text = await logfilter(['datasets', 'fields', 'dns_logs'], {});
    expect(text.stdout.split('\n').filter(Boolean).map((l) => l.split(/\s+/)[0])).toEqual(names);
    expect((await logfilter(['datasets', 'fields', 'nope'], {})).code).toBe(2);
    const unknown = await logfilter(['datasets', 'fields', 'nope', '--zone', 'flow'], env);
    expect([unknown.code, unknown.stderr.includes('1007')]).toEqual([1, true]);
  });

  it("datasets fields --account: the API's list of an account's dataset; --zone and --account together are a usage error", async () => {
    const names = getDataset('http_requests')!.fields.map((f) => f.name);
    const remote = await logfilter(['datasets', 'fields', 'http_requests', '--account', 'acct-flow', '--json'], env);
    expect([remote.code, JSON.parse(remote.stdout).source, Object.keys(JSON.parse(remote.stdout).fields)]).toEqual([0, 'api', names]);
    const verbose = await logfilter(['datasets', 'fields', 'http_requests', '--account', 'acct-flow', '--verbose'], env);
    expect([verbose.code, verbose.stderr]).toEqual([0, expect.stringContaining('/accounts/acct-flow/logpush/datasets/http_requests/fields')]);
    const unknown = await logfilter(['datasets', 'fields', 'nope', '--account', 'acct-flow'], env);
    expect([unknown.code, unknown.stderr.includes('1007')]).toEqual([1, true]);
    expect((await logfilter(['datasets', 'fields', 'http_requests', '--zone', 'flow', '--account', 'acct-flow'], env)).code).toBe(2);
    const offline = await logfilter(['datasets', 'fields', 'http_requests', '--account', 'acct-flow', '--offline', '--json'], {});
    expect([offline.code, JSON.parse(offline.stdout).source]).toEqual([0, 'local']);
  });
});
