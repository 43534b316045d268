import { describe, expect, it } from 'vitest';
import { cursor } from '../../../../test/support/markers.js';
import { completionItems, completionSituation } from '../../src/filter/completion/index.js';
import { DATASETS, REMOVED_FIELDS, getDataset } from '../../src/filter/datasets/index.js';

function items(marked: string, dataset = 'http_requests') {
  const { text, offset } = cursor(marked);
  return completionItems(completionSituation(text, offset, dataset));
}
const labels = (marked: string, dataset?: string) => items(marked, dataset).map((i) => i.label);

describe('completionItems', () => {
  it('offers dataset names after `dataset`', () => {
    expect(labels('dataset <|>')).toEqual([...[...DATASETS.keys()].sort(), 'any']);
  });

  it('offers the dataset line only at the start of the file', () => {
    expect(items('<|>').find((i) => i.label === 'dataset')).toMatchObject({ kind: 'snippet', snippet: true });
    expect(labels('x == 1 and <|>')).not.toContain('dataset');
  });

  it('offers the filterable fields of the dataset with type and description; deprecated ones marked, removed absent', () => {
    const http = getDataset('http_requests')!;
    const got = items('x == 1 and <|>').filter((i) => i.kind === 'field');
    const filterable = http.fields.filter((f) => f.type !== 'object' && f.type !== 'array[object]' && f.filterable !== false);
    expect(got.map((i) => i.label).sort()).toEqual(filterable.map((f) => f.name).sort());
    const status = got.find((i) => i.label === 'CacheResponseStatus')!;
    expect(status).toMatchObject({ deprecated: true });
    expect(status.sortText > got.find((i) => i.label === 'ClientIP')!.sortText).toBe(true);
    const score = got.find((i) => i.label === 'BotScore')!;
    expect(score.detail).toBe('int');
    expect(score.documentation).toBe(http.byName.get('BotScore')!.description);
    for (const removed of REMOVED_FIELDS.keys()) expect(got.map((i) => i.label)).not.toContain(removed);
    expect(got.map((i) => i.label)).not.toContain('Cookies');
  });

  it('follows the dataset line', () => {
    const snippets = completionItems(completionSituation('x == 1 and ', 11)).filter((i) => i.kind === 'snippet').map((i) => i.label);
    const got = labels('dataset dns_logs\n<|>').filter((l) => l !== 'not' && !snippets.includes(l));
    expect(got.sort()).toEqual(getDataset('dns_logs')!.fields.filter((f) => f.filterable !== false && f.type !== 'object').map((f) => f.name).sort());
  });

  it.each([
    ['BotScore <|>', ['==', 'eq', '!=', '!eq', '<', 'lt', '<=', 'leq', '>', 'gt', '>=', 'geq', 'in', 'not in', '!in']],
    ['CacheReserveUsed <|>', ['==', 'eq', '!=', '!eq']],
    ['ClientRequestPath <|>', ['==', 'eq', '!=', '!eq', 'startsWith', 'not startsWith', '!startsWith', 'endsWith', 'not endsWith', '!endsWith', 'contains', 'not contains', '!contains', 'in', 'not in', '!in']],
    ['BotTags <|>', ['contains', 'not contains', '!contains', 'in', 'not in', '!in']],
    ['EdgeResponseCompressionRatio <|>', ['==', 'eq', '!=', '!eq', '<', 'lt', '<=', 'leq', '>', 'gt', '>=', 'geq']],
    ['ClientRequestPath not <|>', ['startsWith', 'endsWith', 'contains', 'in']],
    ['BotScore not <|>', ['in']],
    ['CacheReserveUsed not <|>', []],
  ])('after a field only the operators its type allows: %j', (marked, expected) => {
    const got = items(marked);
    expect(got.every((i) => i.kind === 'operator')).toBe(true);
    expect(got.map((i) => i.label)).toEqual(expected);
  });

  it('names the JSON operator of every operator item', () => {
    const got = items('ClientRequestPath not <|>');
    expect(got.map((i) => i.detail)).toEqual(['JSON: !startsWith', 'JSON: !endsWith', 'JSON: !contains', 'JSON: !in']);
  });

  it('offers documented values after an operator', () => {
    const values = getDataset('http_requests')!.byName.get('CacheCacheStatus')!.values!;
    // in the documented order
    expect(labels('CacheCacheStatus == <|>')).toEqual(values.map((v) => JSON.stringify(v)));
    expect(labels('CacheCacheStatus == "mi<|>')).toContain('"miss"');
  });

  it('offers true and false for booleans', () => {
    expect(labels('CacheReserveUsed == <|>')).toEqual(['true', 'false']);
  });

  it('offers [] with the cursor inside for in, then the values inside the list', () => {
    expect(items('ClientCountry in <|>')).toEqual([expect.objectContaining({ label: '[]', insertText: '[$0]', snippet: true })]);
    expect(labels('CacheCacheStatus not in <|>')).toEqual(['[]']);
    const inside = labels('CacheCacheStatus in ["hit", <|>]');
    expect(inside).toContain('"miss"');
    expect(inside).not.toContain('"hit"');
  });

  it('offers nothing for values of free-text fields', () => {
    expect(items('ClientRequestHost == <|>')).toEqual([]);
  });

  it('offers and/or after a condition, nothing inside comments', () => {
    expect(labels('x == 1 <|>')).toEqual(['and', 'or']);
    expect(labels('x == 1 # <|>')).toEqual([]);
  });

  it('offers not and a group at the start of a condition', () => {
    const got = items('x == 1 or <|>');
    expect(got.find((i) => i.label === 'not')).toMatchObject({ kind: 'keyword' });
    expect(got.find((i) => i.insertText === '($0)')).toMatchObject({ snippet: true });
  });

  it('offers every operator after an unknown field', () => {
    expect(labels('dataset any\nFoo <|>')).toContain('startsWith');
    expect(labels('dataset any\nFoo <|>')).toContain('>=');
  });

  it('sorts items by sortText in the order given', () => {
    for (const m of ['<|>', 'BotScore <|>', 'CacheCacheStatus == <|>', 'dataset <|>']) {
      const s = items(m).map((i) => i.sortText);
      expect([...s].sort()).toEqual(s);
    }
  });
});
