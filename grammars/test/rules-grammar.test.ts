// The rules-language TextMate grammar: generated from the core's rules tables (freshness), checked against
// hand-written fixtures with vscode-tmgrammar-test, and walked entry by entry (every operator, field, function).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as vsctm from 'vscode-textmate';
import * as oniguruma from 'vscode-oniguruma';
import { COMPARISON_OPERATORS, LOGICAL_OPERATORS } from '../../packages/core/src/rules/operators.js';
import { RULE_FIELDS } from '../../packages/core/src/rules/fields.js';
import { RULE_FUNCTIONS } from '../../packages/core/src/rules/functions.js';
// @ts-expect-error plain ESM helper without type declarations
import { rulesGrammarText } from '../build-rules-grammar.mjs';

const GRAMMARS = fileURLToPath(new URL('../', import.meta.url));
const REPO = path.resolve(GRAMMARS, '..');
const GRAMMAR_FILE = path.join(GRAMMARS, 'logfilter-rules.tmLanguage.json');
const TMGRAMMAR_TEST = path.join(REPO, 'node_modules/vscode-tmgrammar-test/dist/unit.js');
const require = createRequire(import.meta.url);

async function loadTokenizer() {
  const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength)).catch(() => undefined);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope: string) => (scope === 'source.logfilter.rules' ? vsctm.parseRawGrammar(readFileSync(GRAMMAR_FILE, 'utf8'), GRAMMAR_FILE) : null),
  });
  const grammar = (await registry.loadGrammar('source.logfilter.rules'))!;
  /** Tokens of a text (its lines in order, as an editor tokenizes them) as [text, innermost scope], white space left out. */
  return (text: string): Array<[string, string]> => {
    let state = vsctm.INITIAL;
    return text.split('\n').flatMap((line) => {
      const r = grammar.tokenizeLine(line, state);
      state = r.ruleStack;
      return r.tokens.map((t): [string, string] => [line.slice(t.startIndex, t.endIndex), t.scopes.at(-1)!]).filter(([t]) => t.trim() !== '');
    });
  };
}

describe('rules-language TextMate grammar', { timeout: 120_000 }, () => {
  it('is fresh: the committed file is what the core tables generate', () => {
    // The generator's own function, given the sources' tables (the script reads the built core's).
    const expected = rulesGrammarText({ COMPARISON_OPERATORS, LOGICAL_OPERATORS, RULE_FIELDS, RULE_FUNCTIONS });
    expect(readFileSync(GRAMMAR_FILE, 'utf8')).toBe(expected);
  });

  it('passes the vscode-tmgrammar-test fixtures', () => {
    const r = spawnSync(process.execPath, [TMGRAMMAR_TEST, '-g', GRAMMAR_FILE, 'grammars/test/fixtures/*.test.rule'], { cwd: REPO, encoding: 'utf8' });
    expect(r.stdout + r.stderr).not.toMatch(/✖/);
    expect(r.status).toBe(0);
  });

  it('scopes every operator spelling, field and function of the tables', async () => {
    const tokenize = await loadTokenizer();
    for (const o of COMPARISON_OPERATORS) {
      for (const s of [o.word, ...(o.symbol ? [o.symbol] : [])]) expect(tokenize(`http.host ${s} "x"`)[1], s).toEqual([s, 'keyword.operator.comparison.rules']);
    }
    for (const o of LOGICAL_OPERATORS) {
      for (const s of [o.word, o.symbol]) expect(tokenize(`ssl ${s} ssl`).find(([t]) => t === s)?.[1], s).toBe('keyword.operator.logical.rules');
    }
    for (const f of RULE_FIELDS) expect(tokenize(`${f.name} eq 1`)[0], f.name).toEqual([f.name, f.replacedBy ? 'support.variable.field.deprecated.rules' : 'support.variable.field.rules']);
    for (const fn of RULE_FUNCTIONS) expect(tokenize(`${fn.name}(http.host)`)[0], fn.name).toEqual([fn.name, 'support.function.rules']);
    expect(tokenize('http.hots eq 1')[0]).toEqual(['http.hots', 'variable.other.field.rules']);
  });

  it('scopes the # lines a .rule file starts with as comments; a # after the expression has begun stays illegal', async () => {
    const tokenize = await loadTokenizer();
    const comment = 'comment.line.number-sign.rules';
    expect(tokenize('\n# phase: http_request_firewall_custom\n  # note\nssl\n# late')).toEqual([
      ['#', 'punctuation.definition.comment.rules'],
      [' phase: http_request_firewall_custom', comment],
      ['#', 'punctuation.definition.comment.rules'],
      [' note', comment],
      ['ssl', 'support.variable.field.rules'],
      ['#', 'invalid.illegal.character.rules'],
      ['late', 'variable.other.field.rules'],
    ]);
  });
});
