import { describe, expect, it } from 'vitest';
import { cursor } from '../../../../test/support/markers.js';
import { completionSituation, type CompletionSituation } from '../../src/filter/completion/index.js';

/** Splits a table source at its `<|>` cursor marker. */
function at(marked: string): [string, number] {
  const { text, offset } = cursor(marked);
  return [text, offset];
}

type Expect = Partial<Record<string, unknown>> & { kind: CompletionSituation['kind'] };

function pick(s: CompletionSituation, e: Expect): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(e)) {
    if (k === 'field') out[k] = (s as { field?: { name: string } }).field?.name;
    else if (k === 'operator') out[k] = (s as { operator?: { name: string } }).operator?.name;
    else out[k] = (s as unknown as Record<string, unknown>)[k];
  }
  return out;
}

const table: [string, Expect][] = [
  // start of file and dataset line
  ['<|>', { kind: 'expression', fileStart: true, prefix: '' }],
  ['# comment\n<|>', { kind: 'expression', fileStart: true }],
  ['data<|>', { kind: 'expression', fileStart: true, prefix: 'data' }],
  ['dataset <|>', { kind: 'dataset-name', prefix: '' }],
  ['dataset dns<|>', { kind: 'dataset-name', prefix: 'dns' }],
  ['dataset dns<|>_logs', { kind: 'dataset-name', prefix: 'dns', replace: { start: 8, end: 16 } }],
  ['dataset dns_logs\n<|>', { kind: 'expression', fileStart: false, dataset: 'dns_logs' }],
  ['dataset nope\n<|>', { kind: 'expression', dataset: 'http_requests' }],
  ['dataset any\nX <|>', { kind: 'operator', dataset: 'any', fieldName: 'X', field: undefined }],
  // fields
  ['Client<|>', { kind: 'expression', prefix: 'Client', replace: { start: 0, end: 6 } }],
  ['Cli<|>entIP == "x"', { kind: 'expression', prefix: 'Cli', replace: { start: 0, end: 8 } }],
  ['x == 1 and <|>', { kind: 'expression', fileStart: false }],
  ['x == 1 or Bot<|>', { kind: 'expression', prefix: 'Bot' }],
  ['not <|>', { kind: 'expression' }],
  ['(<|>', { kind: 'expression' }],
  ['x == 1 and (y == 2 or <|>)', { kind: 'expression' }],
  // operators
  ['ClientIP <|>', { kind: 'operator', fieldName: 'ClientIP', field: 'ClientIP', afterNot: false }],
  ['BotScore st<|>', { kind: 'operator', field: 'BotScore', prefix: 'st', replace: { start: 9, end: 11 } }],
  ['ClientIP not <|>', { kind: 'operator', field: 'ClientIP', afterNot: true }],
  ['`odd-name` <|>', { kind: 'operator', fieldName: 'odd-name', field: undefined }],
  ['Nope <|>', { kind: 'operator', fieldName: 'Nope', field: undefined }],
  ['WAFRuleID <|>', { kind: 'operator', fieldName: 'WAFRuleID', field: undefined }],
  ['x == 1 and\n  ClientCountry <|>', { kind: 'operator', field: 'ClientCountry' }],
  ['ClientCountry in<|>', { kind: 'operator', field: 'ClientCountry', prefix: 'in' }],
  // values
  ['CacheCacheStatus == <|>', { kind: 'value', field: 'CacheCacheStatus', operator: 'eq', inList: false }],
  ['CacheCacheStatus eq "mi<|>', { kind: 'value', field: 'CacheCacheStatus', prefix: '"mi', replace: { start: 20, end: 23 } }],
  ['CacheCacheStatus == "mi<|>ss" and x == 1', { kind: 'value', prefix: '"mi', replace: { start: 20, end: 26 } }],
  ['CacheCacheStatus == mi<|>', { kind: 'value', prefix: 'mi' }],
  ['CacheReserveUsed == <|>', { kind: 'value', field: 'CacheReserveUsed' }],
  ['CacheReserveUsed == tr<|>', { kind: 'value', prefix: 'tr' }],
  ['ClientCountry in <|>', { kind: 'value', operator: 'in', inList: false }],
  ['ClientCountry not in <|>', { kind: 'value', operator: '!in', inList: false }],
  ['ClientCountry !in [<|>', { kind: 'value', operator: '!in', inList: true, listValues: [] }],
  ['CacheCacheStatus in ["hit", <|>]', { kind: 'value', inList: true, listValues: ['"hit"'] }],
  ['CacheCacheStatus in ["hit" <|>', { kind: 'none' }],
  ['ClientRequestPath not startsWith <|>', { kind: 'value', operator: '!startsWith' }],
  ['EdgeResponseStatus >= <|>', { kind: 'value', operator: 'geq', field: 'EdgeResponseStatus' }],
  ['EdgeResponseStatus >=<|>', { kind: 'value', operator: 'geq' }],
  ['EdgeResponseStatus >= 5<|>', { kind: 'value', prefix: '5' }],
  // connectives
  ['x == 1 <|>', { kind: 'connective', depth: 0 }],
  ['x == 1 a<|>', { kind: 'connective', prefix: 'a' }],
  ['(x == 1 <|>', { kind: 'connective', depth: 1 }],
  ['x in [1, 2] <|>', { kind: 'connective' }],
  ['(x == 1) <|>', { kind: 'connective', depth: 0 }],
  ['x == "a"\n# note\n<|>', { kind: 'connective' }],
  // comments and broken input
  ['x == 1 # and <|>', { kind: 'none' }],
  ['# <|>', { kind: 'none' }],
  ['x == "unterminated and <|>', { kind: 'value', prefix: '"unterminated and ' }],
  ['@@ ?? <|>', { kind: 'expression' }],
  ['x == == <|>', { kind: 'value' }],
  [')))) <|>', { kind: 'connective', depth: 0 }],
  ['x == 1 y <|>', { kind: 'operator', fieldName: 'y' }],
  ['x !foo <|>', { kind: 'operator', fieldName: 'x' }],
  ['and or <|>', { kind: 'expression' }],
];

describe('completionSituation', () => {
  it.each(table)('%j', (marked, expected) => {
    const [text, offset] = at(marked);
    const s = completionSituation(text, offset, 'http_requests');
    expect(pick(s, expected)).toEqual(expected);
  });

  it('uses the caller dataset when the file has no dataset line', () => {
    expect(completionSituation('Query<|>', 5, 'dns_logs')).toMatchObject({ kind: 'expression', dataset: 'dns_logs' });
  });

  it('clamps offsets outside the text', () => {
    expect(completionSituation('x == 1 ', 99).kind).toBe('connective');
    expect(completionSituation('x', -5).kind).toBe('expression');
  });

  it('never throws on arbitrary text at any offset', () => {
    const samples = ['"\\', '`', '`abc', '[[[', ']]]', '!', 'not not not', 'dataset', '\u{1F600} == "\u{1F600}"', '\r\n\r\n'];
    for (const text of samples) for (let i = 0; i <= text.length; i++) expect(() => completionSituation(text, i)).not.toThrow();
  });
});

describe('completionSituation in a large text', () => {
  it('reads a window before the cursor and keeps the dataset line', () => {
    const body = 'ClientCountry == "us" or\n'.repeat(2000);
    const text = `dataset dns_logs\n${body}QueryName `;
    expect(completionSituation(text, text.length)).toMatchObject({ kind: 'operator', fieldName: 'QueryName', dataset: 'dns_logs' });
    expect(completionSituation(text, text.length - 'QueryName '.length)).toMatchObject({ kind: 'expression', fileStart: false });
  });
});
