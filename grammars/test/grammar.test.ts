// The TextMate grammar: generated from the core's tables (freshness), checked against hand-written fixtures
// with vscode-tmgrammar-test (the same vscode-textmate + oniguruma engine as VS Code), and walked entry by entry.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as vsctm from 'vscode-textmate';
import * as oniguruma from 'vscode-oniguruma';
import { OPERATORS } from '../../packages/core/src/filter/operators.js';
import { KEYWORDS } from '../../packages/core/src/filter/syntax/tokens.js';
import { DATASETS, DEFAULT_DATASET } from '../../packages/core/src/filter/datasets/index.js';
// @ts-expect-error plain ESM helper without type declarations
import { grammarText } from '../build-grammar.mjs';

const GRAMMARS = fileURLToPath(new URL('../', import.meta.url));
const REPO = path.resolve(GRAMMARS, '..');
const GRAMMAR_FILE = path.join(GRAMMARS, 'logfilter.tmLanguage.json');
const TMGRAMMAR_TEST = path.join(REPO, 'node_modules/vscode-tmgrammar-test/dist/unit.js');
const require = createRequire(import.meta.url);

const defaultFields = DATASETS.get(DEFAULT_DATASET)!.fields.map((f) => f.name);

function runFixtures(glob: string) {
  return spawnSync(process.execPath, [TMGRAMMAR_TEST, '-g', GRAMMAR_FILE, glob], { cwd: REPO, encoding: 'utf8' });
}

async function loadTokenizer() {
  const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope: string) =>
      scope === 'source.logfilter' ? vsctm.parseRawGrammar(readFileSync(GRAMMAR_FILE, 'utf8'), GRAMMAR_FILE) : null,
  });
  const grammar = (await registry.loadGrammar('source.logfilter'))!;
  /** Tokens of one line as [text, innermost scope], white space left out. */
  return (line: string): Array<[string, string]> =>
    grammar
      .tokenizeLine(line, vsctm.INITIAL)
      .tokens.map((t): [string, string] => [line.slice(t.startIndex, t.endIndex), t.scopes.at(-1)!])
      .filter(([text]) => text.trim() !== '');
}

// The fixture runs spawn node; on a loaded 2-core machine that can exceed the default per-test budget.
describe('TextMate grammar', { timeout: 120_000 }, () => {
  it('is fresh: the committed file is what the core tables generate', () => {
    // The generator's own function, given the sources' tables (the script reads the built core's).
    const expected = grammarText({ OPERATORS, KEYWORDS, DATASETS, DEFAULT_DATASET });
    expect(readFileSync(GRAMMAR_FILE, 'utf8')).toBe(expected);
  });

  it('passes the vscode-tmgrammar-test fixtures', () => {
    const r = runFixtures('grammars/test/fixtures/*.test.logfilter');
    expect(r.stdout + r.stderr).not.toMatch(/✖/);
    expect(r.status).toBe(0);
  });

  it('fails a fixture whose assertion is wrong (the fixture run is not vacuous)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lf-tm-'));
    try {
      writeFileSync(path.join(dir, 'wrong.test.logfilter'), '# SYNTAX TEST "source.logfilter" "wrong"\na == 1\n# <- constant.numeric.integer.logfilter\n');
      expect(runFixtures(path.join(dir, '*.test.logfilter')).status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('scopes every operator spelling of the operator table as one operator token', async () => {
    const tokenize = await loadTokenizer();
    const spellings = OPERATORS.flatMap((o) => [...(o.symbol ? [o.symbol] : []), ...o.words]);
    expect(spellings.length).toBeGreaterThan(OPERATORS.length);
    for (const s of spellings) {
      const [, op] = tokenize(`Field ${s} 1`);
      expect(op, s).toEqual([s, expect.stringMatching(/^keyword\.operator\./)]);
    }
    for (const o of OPERATORS.filter((x) => x.notForm)) {
      const tokens = tokenize(`Field not ${o.notForm} 1`);
      expect(tokens[1], o.name).toEqual(['not', 'keyword.operator.logical.logfilter']);
      expect(tokens[2]?.[1], o.name).toMatch(/^keyword\.operator\./);
    }
  });

  it('scopes every keyword, and every field of the default dataset as a known field', async () => {
    const tokenize = await loadTokenizer();
    for (const k of KEYWORDS) {
      const scope = tokenize(k).find(([t]) => t === k)?.[1];
      expect(scope, k).toMatch(/^(keyword|constant\.language)\./);
    }
    for (const f of defaultFields) {
      expect(tokenize(`${f} == 1`)[0], f).toEqual([f, `support.variable.field.${DEFAULT_DATASET}.logfilter`]);
    }
    expect(tokenize('NotAKnownField == 1')[0]).toEqual(['NotAKnownField', 'variable.other.field.logfilter']);
  });
});
