/**
 * The limits (packages/core/src/filter/limits.ts) and the default dataset (DEFAULT_DATASET) have one home each: every
 * tool's defaults come from it and agree.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, compile, DEFAULT_DATASET, DEFAULT_MAX_BYTES, DEFAULT_MAX_OPERATORS, MAX_DEPTH } from '@logfilter/core';
import { DEFAULT_SETTINGS } from '../packages/language-server/src/settings.js';
import { runCli } from '../packages/cli/test/helpers.js';
import { REPO } from './support/paths.js';

describe('limits', () => {
  it('are those of the API', () => {
    expect([DEFAULT_MAX_OPERATORS, DEFAULT_MAX_BYTES, MAX_DEPTH]).toEqual([30, 1000, 64]);
  });

  it('are the defaults of compile()', () => {
    const r = compile('BotScore < 30');
    expect([r.stats.maxOperators, r.stats.maxBytes]).toEqual([DEFAULT_MAX_OPERATORS, DEFAULT_MAX_BYTES]);
  });

  it("are the CLI's flag defaults", async () => {
    // one condition per operator; a byte limit high enough that only the operator limit is judged
    const source = (n: number) => Array.from({ length: n }, (_, i) => `BotScore != ${i}`).join(' and ');
    const codes = async (n: number, ...flags: string[]) =>
      JSON.parse((await runCli('compile-filter', ['-', '--diagnostics', 'json', '--max-bytes', '100000', ...flags], { stdin: source(n) })).stderr || '[]').map((d: { code: string }) => d.code);
    expect(await codes(DEFAULT_MAX_OPERATORS)).toEqual([]);
    expect(await codes(DEFAULT_MAX_OPERATORS + 1)).toEqual(['too-many-operators']);
    // the byte limit: the smallest filter over it fails without --max-bytes, one condition less passes
    let n = 1;
    while (compile(source(n)).stats.bytes <= DEFAULT_MAX_BYTES) n++;
    const plain = async (k: number) => JSON.parse((await runCli('compile-filter', ['-', '--diagnostics', 'json'], { stdin: source(k) })).stderr || '[]').map((d: { code: string }) => d.code);
    expect(await plain(n)).toEqual(['too-large']);
    expect(await plain(n - 1)).toEqual([]);
  });

  it('are the language server defaults and the VS Code configuration defaults', () => {
    expect([DEFAULT_SETTINGS.maxOperators, DEFAULT_SETTINGS.maxBytes]).toEqual([DEFAULT_MAX_OPERATORS, DEFAULT_MAX_BYTES]);
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'packages/vscode/package.json'), 'utf8'));
    const props = pkg.contributes.configuration.properties;
    expect([props['logfilter.maxOperators'].default, props['logfilter.maxBytes'].default]).toEqual([DEFAULT_MAX_OPERATORS, DEFAULT_MAX_BYTES]);
  });
});

describe('the default dataset', () => {
  it('is http_requests, used by compile() and check() when nothing names one', () => {
    expect(DEFAULT_DATASET).toBe('http_requests');
    expect(compile('BotScore < 30').dataset).toBe(DEFAULT_DATASET);
    expect(check('{"where":{"key":"BotScore","operator":"lt","value":30}}').dataset).toBe(DEFAULT_DATASET);
    expect(check('not json').dataset).toBe(DEFAULT_DATASET);
  });

  it('is the language server default and the VS Code configuration default', () => {
    expect(DEFAULT_SETTINGS.dataset).toBe(DEFAULT_DATASET);
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'packages/vscode/package.json'), 'utf8'));
    expect(pkg.contributes.configuration.properties['logfilter.dataset'].default).toBe(DEFAULT_DATASET);
  });
});
