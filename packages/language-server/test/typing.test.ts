/**
 * Both languages typed key by key, through the real server over stdio: a table of
 * texts with a `<|>` cursor, the trigger the editor sends there, and what may (or may not) be offered. The
 * editor auto-closes quotes and brackets, so the texts carry the closing half after the cursor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InsertTextFormat, type CompletionItem } from 'vscode-languageserver-protocol/node.js';
import { startSession, type Ask, type Session } from './support/harness.js';

let session: Session;

type Lang = 'filter' | 'rules';

const complete = (lang: Lang, marked: string, ask: Ask) => session.expectCompletion(marked, lang === 'filter' ? 'logfilter' : 'rule', ask);
const newText = (i: CompletionItem) => (i.textEdit && 'newText' in i.textEdit ? i.textEdit.newText : undefined);
const editRange = (i: CompletionItem) => (i.textEdit && 'range' in i.textEdit ? i.textEdit.range : undefined);

beforeAll(async () => {
  session = await startSession();
}, 180_000);
afterAll(() => session?.stop());

describe('typing, key by key', { timeout: 120_000 }, () => {
  // 1. nothing pops up inside a string, in either language, whatever brought the request
  it.each<[Lang, string, Ask]>([
    ['rules', 'http.host eq "<|>"', '"'],
    ['rules', 'http.host eq "a<|>"', 'invoked'],
    ['rules', 'http.host eq "a<|>', 'invoked'],
    ['rules', 'http.host eq "a b<|>"', ' '],
    ['rules', 'http.host in {"a" "x,<|>"}', ','],
    ['rules', 'http.request.uri.path matches r#"^/a [<|>"#', '['],
    ['rules', 'lower(http.host) eq "a\\" and <|>"', ' '],
    ['rules', 'http.host eq "a" and http.host contains "<|>"', '"'],
    ['filter', 'ClientRequestHost == "<|>"', '"'],
    ['filter', 'ClientRequestHost == "a<|>"', 'invoked'],
    ['filter', 'ClientRequestHost == "a b<|>"', ' '],
    ['filter', 'ClientRequestPath == "/a,<|>"', ','],
    ['filter', 'ClientRequestPath contains "[<|>"', '['],
    ['filter', 'ClientCountry in ["us", "<|>"]', '"'],
    ['filter', 'CacheCacheStatus == "<|>"', '"'],
    ['filter', 'CacheCacheStatus == "mi <|>"', ' '],
  ])('%s: nothing inside the string of %s (%s)', async (lang, text, ask) => {
    expect((await complete(lang, text, ask)).items).toEqual([]);
  });

  it('still gives the documented values inside a string when asked for, replacing the whole string', async () => {
    const { items, range } = await complete('filter', 'CacheCacheStatus == <|"mi<|>ss"|>', 'invoked');
    expect(items.map((i) => [i.label, newText(i), editRange(i)])).toContainEqual(['"miss"', '"miss"', range(0)]);
  });

  // 2. the word already typed is not offered again (Enter after it makes a new line)
  it.each<[Lang, string, string]>([
    ['filter', 'dataset http_requests<|>', 'http_requests'],
    ['filter', 'dataset http_requests\nClientRequestHost<|>', 'ClientRequestHost'],
    ['filter', 'ClientRequestHost ==<|>', '=='],
    ['filter', 'CacheReserveUsed == true<|>', 'true'],
    ['rules', 'ssl<|>', 'ssl'],
    ['rules', 'http.host eq "a" and ip.src<|>', 'ip.src'],
    ['rules', 'http.host eq<|>', 'eq'],
  ])('%s: %s does not offer %s again', async (lang, text, word) => {
    const { items } = await complete(lang, text, 'invoked');
    expect(items.filter((i) => (newText(i) ?? '').trimEnd() === word).map((i) => i.label)).toEqual([]);
  });

  // 3. rules: and/or never glued to a closing quote, brace or parenthesis
  it.each<[string]>([['http.request.uri.path eq "/x"<|>'], ['ip.src in {192.0.2.1}<|>'], ['(ssl)<|>'], ['http.host eq "/x"<|and<|>|>'], ['http.host eq r#"/x"#<|>']])(
    'rules: %s asked for gives logical operators with their own space',
    async (text) => {
      const { items, range } = await complete('rules', text, 'invoked');
      expect(items.map((i) => i.label)).toEqual(expect.arrayContaining(['and', 'or']));
      for (const i of items) expect(newText(i)).toMatch(/^ (and|or|xor) $/);
      if (range(0)) for (const i of items) expect(editRange(i)).toEqual(range(0));
    },
  );

  it.each<[string, Ask]>([
    ['http.request.uri.path eq "/x"<|>', '"'],
    ['(ssl)<|>', '"'],
  ])('rules: %s on the punctuation just typed pops up nothing', async (text, ask) => {
    expect((await complete('rules', text, ask)).items).toEqual([]);
  });

  it('rules: after a space and/or need none', async () => {
    const { items } = await complete('rules', 'http.request.uri.path eq "/x" <|>', ' ');
    expect(items.map((i) => newText(i))).toEqual(expect.arrayContaining(['and ', 'or ']));
  });

  it.each<[string, Ask, string[]]>([
    ['any(http.request.headers.names <|>', ' ', []],
    ['any(http.request.headers[*] <|>', ' ', []],
    ['any(http.request.headers["a"] <|>', ' ', []],
    ['any(http.request.headers.names[*] <|>', ' ', ['eq']],
    ['any(http.request.headers[*]<|>', 'invoked', ['[*]']],
  ])('rules: [*] only right after an array: %s', async (text, ask, want) => {
    const labels = (await complete('rules', text, ask)).items.map((i) => i.label);
    expect(labels.includes('[*]')).toBe(want.includes('[*]'));
    for (const w of want) expect(labels).toContain(w);
  });

  // 4. filter: and/or after a number or boolean; snippets only where a condition starts; no duplicates
  it.each<[string, string]>([
    ['EdgeResponseStatus >= <|500<|>|>', '500'],
    ['ClientRequestCached == <|true<|>|>', 'true'],
    ['EdgeResponseCompressionRatio < <|1.5<|>|>', '1.5'],
    ['ClientRequestCached == <|false<|>|>\n', 'false'],
  ])('filter: %s asked for offers and/or written after the value', async (text, value) => {
    const { items, range } = await complete('filter', text.replace(/<\|>(?=\|>)/, '<|>'), 'invoked');
    const connectives = items.filter((i) => i.label === 'and' || i.label === 'or');
    expect(connectives.map((i) => [i.label, newText(i), i.filterText, editRange(i)])).toEqual([
      ['and', `${value} and`, `${value} and`, range(0)],
      ['or', `${value} or`, `${value} or`, range(0)],
    ]);
  });

  it('filter: after a number and a space, and/or come bare', async () => {
    const { items } = await complete('filter', 'EdgeResponseStatus >= 500 <|>', ' ');
    expect(items.map((i) => [i.label, newText(i)])).toEqual([
      ['and', 'and'],
      ['or', 'or'],
    ]);
  });

  it.each<[string, Ask]>([
    ['ClientCountry in [<|>]', 'invoked'],
    ['ClientCountry in ["us", <|>]', ' '],
    ['ClientCountry <|>', ' '],
    ['ClientCountry == <|>', ' '],
    ['dataset <|>', ' '],
    ['dataset http_requests<|>', 'invoked'],
    ['EdgeResponseStatus >= 500 <|>', ' '],
  ])('filter: no condition snippet at %s', async (text, ask) => {
    const { items } = await complete('filter', text, ask);
    expect(items.filter((i) => i.insertTextFormat === InsertTextFormat.Snippet && /\$\{?\d/.test(newText(i) ?? '') && /==|in \[|or /.test(newText(i) ?? '')).map((i) => i.label)).toEqual([]);
  });

  it.each<[string]>([['<|>'], ['dataset http_requests\n<|>'], ['x == 1 and <|>'], ['(<|>)'], ['not <|>']])('filter: condition snippets where a condition starts (%s), each label once', async (text) => {
    const { items } = await complete('filter', text, 'invoked');
    const labels = items.map((i) => i.label);
    expect(labels).toEqual(expect.arrayContaining(['condition', 'in list', 'not in list', 'or group']));
    expect(labels.length).toBe(new Set(labels).size);
    expect(labels.filter((l) => l === 'dataset').length).toBe(text === '<|>' ? 1 : 0);
  });
});
