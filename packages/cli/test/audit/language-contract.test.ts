/**
 * Acceptance audit of the language contract through the commands (docs/language.md):
 * the departures the audit found, seen as a user sees them — exit codes, JSON diagnostics' codes and ranges,
 * and what is printed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers.js';

const json = (stderr: string) =>
  (JSON.parse(stderr) as { code: string; range: { start: { line: number; column: number }; end: { line: number; column: number } } }[]).map((d) => [
    d.code,
    d.range.start.line,
    d.range.start.column,
    d.range.end.column,
  ]);

describe('compile', () => {
  it('<> is one syntax error at both characters, exit 1', async () => {
    const r = await runCli('compile-filter', ['-', '--dataset', 'any', '--diagnostics', 'json'], { stdin: 'a == 1 or b <> 2' });
    expect(r.code).toBe(1);
    expect(json(r.stderr)).toEqual([['syntax', 1, 13, 15]]);
  });
  it('a quoted dataset name is one syntax error on it; the next line is checked against that dataset', async () => {
    const r = await runCli('compile-filter', ['-', '--diagnostics', 'json'], { stdin: 'dataset "dns_logs"\nClientCountry == "us"' });
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(json(r.stderr)).toEqual([
      ['syntax', 1, 9, 19],
      ['unknown-field', 2, 1, 14],
    ]);
  });
  it("a single-quoted string is one syntax error over it, exit 1", async () => {
    const r = await runCli('compile-filter', ['-', '--diagnostics', 'json'], { stdin: "ClientCountry == 'us' and BotScore < 5" });
    expect(r.code).toBe(1);
    expect(json(r.stderr)).toEqual([['syntax', 1, 18, 22]]);
  });
  it('a list in braces is one syntax error over the braces-list, exit 1; the condition after it is still checked', async () => {
    const r = await runCli('compile-filter', ['-', '--diagnostics', 'json'], { stdin: 'ClientCountry in {"us", "ca"} and Foo < 30' });
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(json(r.stderr)).toEqual([
      ['syntax', 1, 18, 30],
      ['unknown-field', 1, 35, 38],
    ]);
  });
  it('each single-quoted string in a list is its own syntax error, exit 1', async () => {
    const r = await runCli('compile-filter', ['-', '--diagnostics', 'json'], { stdin: "ClientCountry in ['us', 'ca', \"gb\"] and Foo < 30" });
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(json(r.stderr)).toEqual([
      ['syntax', 1, 19, 23],
      ['syntax', 1, 25, 29],
      ['unknown-field', 1, 41, 44],
    ]);
  });
  it('an empty list slot is a syntax error, exit 1, nothing printed', async () => {
    const r = await runCli('compile-filter', ['-', '--diagnostics', 'json'], { stdin: 'ClientCountry in ["us",, "ca"]' });
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(json(r.stderr)).toEqual([['syntax', 1, 24, 25]]);
  });
  it('64 negated groups compile; 65 are too-deep at the 65th parenthesis', async () => {
    const ok = await runCli('compile-filter', ['-'], { stdin: `${'not ('.repeat(64)}BotScore < 30${')'.repeat(64)}` });
    expect([ok.code, ok.stdout]).toEqual([0, '{"where":{"key":"BotScore","operator":"lt","value":30}}\n']);
    const deep = await runCli('compile-filter', ['-', '--diagnostics', 'json'], { stdin: `${'not ('.repeat(65)}BotScore < 30${')'.repeat(65)}` });
    expect(deep.code).toBe(1);
    expect(json(deep.stderr)).toEqual([['too-deep', 1, 5 * 64 + 5, 5 * 64 + 6]]);
  });
  it('in on a float field is operator-type, exit 1', async () => {
    const r = await runCli('compile-filter', ['-', '--diagnostics', 'json'], { stdin: 'EdgeResponseCompressionRatio in [1.5]' });
    expect(r.code).toBe(1);
    expect(json(r.stderr)).toEqual([
      ['float-field', 1, 1, 29],
      ['operator-type', 1, 30, 32],
    ]);
  });
});

describe('check, decompile, fmt', () => {
  const tf = 'filter = "{\\"where\\":{\\"key\\":\\"ClientCountry\\",\\"operator\\":\\"eq\\",\\"value\\":\\"us\\"}}"\n';
  it('check reads a Terraform-style filter = "…" assignment, as decompile does', async () => {
    expect(await runCli('logfilter', ['check', '-'], { stdin: tf })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await runCli('logfilter', ['decompile', '-'], { stdin: tf })).stdout).toBe('ClientCountry == "us"\n');
  });
  it("decompile, check and eval read what compile-filter --format terraform writes (the round trip closes)", async () => {
    const source = 'ClientRequestPath startsWith "/a${x}" and ClientCountry == "us"\n';
    const tfOut = await runCli('compile-filter', ['-', '--format', 'terraform'], { stdin: source });
    expect(tfOut.code).toBe(0);
    expect(await runCli('logfilter', ['decompile', '-'], { stdin: tfOut.stdout })).toEqual({ code: 0, stdout: source, stderr: '' });
    expect(await runCli('logfilter', ['check', '-'], { stdin: `filter = ${tfOut.stdout}` })).toEqual({ code: 0, stdout: '', stderr: '' });
    const dir = mkdtempSync(path.join(tmpdir(), 'audit-lang-'));
    const filter = path.join(dir, 'filter.tf');
    writeFileSync(filter, tfOut.stdout);
    const r = await runCli('logfilter', ['eval', filter, '-', '--json'], { stdin: '{"ClientRequestPath":"/a${x}/b","ClientCountry":"us"}\n{"ClientRequestPath":"/a/b","ClientCountry":"us"}\n' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total: 2, matched: 1 });
  });
  it('eval runs a filter given as that assignment', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'audit-lang-'));
    const filter = path.join(dir, 'filter.tf.txt');
    writeFileSync(filter, tf);
    const r = await runCli('logfilter', ['eval', filter, '-', '--json'], { stdin: '{"ClientCountry":"us"}\n{"ClientCountry":"ca"}\n' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total: 2, matched: 1 });
  });
  it('decompile --dataset takes a known dataset, as every other --dataset: another name is a usage error (exit 2)', async () => {
    const doc = '{"where":{"key":"BotScore","operator":"lt","value":30}}';
    const bad = await runCli('logfilter', ['decompile', '-', '--dataset', 'http_request'], { stdin: doc });
    expect([bad.code, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toContain('http_requests');
    expect(await runCli('logfilter', ['decompile', '-', '--dataset', 'any'], { stdin: doc })).toEqual({ code: 0, stdout: 'dataset any\n\nBotScore < 30\n', stderr: '' });
  });
  it('decompile adds no parentheses for one-item groups', async () => {
    const r = await runCli('logfilter', ['decompile', '-'], {
      stdin: '{"where":{"and":[{"key":"BotScore","operator":"lt","value":30},{"or":[{"key":"ClientCountry","operator":"eq","value":"us"}]}]}}',
    });
    expect([r.code, r.stdout]).toEqual([0, 'BotScore < 30 and ClientCountry == "us"\n']);
  });
  it('fmt keeps a short filter that ends with a comment on one line', async () => {
    const r = await runCli('logfilter', ['fmt', '-'], { stdin: 'BotScore<30   and ClientCountry=="us"   # bots from one country\n' });
    expect([r.code, r.stdout]).toEqual([0, 'BotScore < 30 and ClientCountry == "us"  # bots from one country\n']);
  });
});
