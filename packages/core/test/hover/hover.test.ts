import { describe, expect, it } from 'vitest';
import { cursor } from '../../../../test/support/markers.js';
import { hoverAt } from '../../src/filter/hover/index.js';
import { getDataset } from '../../src/filter/datasets/index.js';

/** `<|>` marks the cursor; the expected span is given as text. */
function hover(marked: string, dataset?: string) {
  const { text, offset } = cursor(marked);
  const h = hoverAt(text, offset, dataset);
  return h && { ...h, text: text.slice(h.start, h.end) };
}

describe('hoverAt', () => {
  it.each([
    ['Client<|>IP == "1"', 'ClientIP'],
    ['<|>ClientIP == "1"', 'ClientIP'],
    ['ClientIP<|> == "1"', 'ClientIP'],
    ['ClientIP =<|>= "1"', '=='],
    ['x not start<|>sWith "a"', 'not startsWith'],
    ['x n<|>ot in [1]', 'not in'],
    ['not<|> (x == 1)', 'not'],
    ['x == 1 a<|>nd y == 2', 'and'],
    ['dataset dns<|>_logs', 'dns_logs'],
    ['# ClientIP\nBot<|>Score > 1', 'BotScore'],
    ['`Client<|>IP` == "1"', '`ClientIP`'],
  ])('%j covers %j', (marked, text) => {
    expect(hover(marked)?.text).toBe(text);
  });

  it.each([['# Client<|>IP'], ['Unknown<|>Field == 1'], ['  <|>  ']])('nothing for %j', (marked) => {
    expect(hover(marked)).toBeUndefined();
  });

  // a value: its type, even where the field is unknown
  it.each([
    ['x == "Client<|>IP"', 5, 15, /string/],
    ['x == 1<|>2', 5, 7, /number/],
    ['x == tr<|>ue', 5, 9, /boolean/],
  ])('the type of the value in %j', (marked, start, end, type) => {
    const h = hover(marked)!;
    expect([h.start, h.end]).toEqual([start, end]);
    expect(h.markdown).toMatch(type);
  });

  it('shows a field type, description, allowed operators and documented values', () => {
    const f = getDataset('http_requests')!.byName.get('CacheCacheStatus')!;
    const md = hover('Cache<|>CacheStatus == "hit"')!.markdown;
    expect(md).toContain(f.description);
    expect(md).toContain('`string`');
    for (const op of ['`==`', '`startsWith`', '`not in`']) expect(md).toContain(op);
    expect(md).not.toContain('`>=`');
    for (const v of f.values!) expect(md).toContain(JSON.stringify(v));
  });

  it('shows the JSON name of an operator, and of `not` pairs the negated one', () => {
    expect(hover('x ><|>= 1')!.markdown).toContain('`geq`');
    expect(hover('x not con<|>tains "a"')!.markdown).toContain('`!contains`');
  });

  it('notes deprecated and removed fields, with the replacement', () => {
    expect(hover('CacheResponse<|>Status == 200')!.markdown).toMatch(/deprecated/i);
    const removed = hover('WAFRule<|>ID == "1"')!;
    expect(removed.text).toBe('WAFRuleID');
    expect(removed.markdown).toContain('SecurityRuleID');
  });

  it('follows the dataset line, then the caller dataset', () => {
    expect(hover('dataset dns_logs\nQuery<|>Name == "a"')).toBeDefined();
    expect(hover('QueryName<|> == "a"')).toBeUndefined();
    expect(hover('QueryName<|> == "a"', 'dns_logs')).toBeDefined();
  });
});
