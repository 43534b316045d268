/**
 * The editor round three, through the real server over stdio: where missing input is marked, a filter that
 * starts with `and`, quick fixes, rules formatting and empty documents, colours and hover on values.
 * Codes, ranges and values only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CodeActionRequest,
  CodeLensRequest,
  DocumentFormattingRequest,
  HoverRequest,
  SemanticTokensRequest,
  type MarkupContent,
  type CodeAction,
  type Range,
} from 'vscode-languageserver-protocol/node.js';
import { startSession, type Session } from './support/harness.js';

let client: Session;

/** Opens the marked text; its `<|…|>` ranges as LSP ranges, its `<|>` cursors as positions. */
const open = (marked: string, kind: 'logfilter' | 'rule' = 'logfilter') => client.open(marked, { kind });
async function quickFixes(uri: string, range: Range) {
  const diagnostics = (client.diagnostics.get(uri)?.diagnostics ?? []).filter((d) => d.range.start.line <= range.end.line && d.range.end.line >= range.start.line);
  return ((await client.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics, only: ['quickfix'] } })) ?? []) as CodeAction[];
}

beforeAll(async () => {
  client = await startSession();
}, 180_000);
afterAll(() => client?.stop());

describe('6. where a filter\u2019s syntax errors are marked', { timeout: 120_000 }, () => {
  it.each([
    ['a value missing mid-file', 'ClientCountry == "us"\nand EdgeResponseStatus >=<||>\nand ClientRequestHost == "a"\n'],
    ['an operator missing mid-file', 'ClientCountry == "us"\nand ClientRequestHost<||>\nand EdgeResponseStatus >= 500\n'],
    ['a value missing before a comment and a blank line', 'ClientCountry == "us"\nand ClientRequestHost ==<||>\n\n# next\nor EdgeResponseStatus >= 500\n'],
    ['a list left open', 'ClientCountry in ["us",<||>\nand EdgeResponseStatus >= 500\n'],
    ['a value missing in a group', '(ClientCountry ==<||>\n)\n'],
  ])('%s: just after the last token', async (_name, text) => {
    const f = await open(text);
    expect((await f.diagnostics()).map((d) => [d.code, d.range])).toEqual([['syntax', f.ranges[0]]]);
  });

  it.each([
    ['<|and|> ClientRequestHosst == "a"\nand EdgeResponseStatus >= 500\n', 'and'],
    ['# errors\n<|or|> ClientRequestHosst == "a"\n', 'or'],
    ['dataset http_requests\n<|and|> ClientRequestHosst == "a"\n', 'and'],
  ])('a filter starting with a connective (%s): reported with a fix, and the first field still checked', async (text) => {
    const f = await open(text);
    const diags = await f.diagnostics();
    const field = f.text.indexOf('ClientRequestHosst');
    const doc = TextDocument.create('x:', 'x', 0, f.text);
    expect(diags.map((d) => [d.code, d.range])).toEqual([
      ['syntax', f.ranges[0]],
      ['unknown-field', { start: doc.positionAt(field), end: doc.positionAt(field + 'ClientRequestHosst'.length) }],
    ]);
    const fix = (await quickFixes(f.uri, f.ranges[0])).find((a) => a.isPreferred);
    const edits = fix?.edit?.changes?.[f.uri] ?? [];
    expect(TextDocument.applyEdits(doc, edits).startsWith(f.text.slice(0, doc.offsetAt(f.ranges[0].start)) + 'ClientRequestHosst')).toBe(true);
  });
});

/** The text after applying the quick fix titled by `title` (or the preferred one) at the first diagnostic's range. */
async function fixed(f: Awaited<ReturnType<typeof open>>, pick: (a: CodeAction) => boolean = (a) => a.isPreferred === true) {
  const [d] = await f.diagnostics();
  const actions = await quickFixes(f.uri, d.range);
  const action = actions.find(pick);
  return { actions, text: action ? TextDocument.applyEdits(TextDocument.create('x:', 'x', 0, f.text), action.edit?.changes?.[f.uri] ?? []) : undefined };
}

describe('7. quick fixes', { timeout: 120_000 }, () => {
  it.each([
    ['ClientCountry == "us"\nand ClientCountry == "us"\n', 'ClientCountry == "us"\n'],
    ['ClientCountry == "us" and EdgeResponseStatus >= 500 and ClientCountry == "us"', 'ClientCountry == "us" and EdgeResponseStatus >= 500'],
    ['EdgeResponseStatus >= 500 or (ClientCountry == "us" or EdgeResponseStatus >= 500)', 'EdgeResponseStatus >= 500 or (ClientCountry == "us")'],
    ['ClientCountry == "us" and (ClientCountry == "us" and EdgeResponseStatus >= 500)', 'ClientCountry == "us" and (EdgeResponseStatus >= 500)'],
  ])('a duplicate condition can be removed: %s', async (text, want) => {
    expect((await fixed(await open(text), (a) => /^Remove/.test(a.title))).text).toBe(want);
  });

  it.each([
    ['ClientCountry = "us"', 'ClientCountry == "us"'],
    ['ClientCountry == "us" AND EdgeResponseStatus >= 500', 'ClientCountry == "us" and EdgeResponseStatus >= 500'],
    ['ClientCountry == "us" OR EdgeResponseStatus >= 500', 'ClientCountry == "us" or EdgeResponseStatus >= 500'],
    ['ClientCountry == "us" && EdgeResponseStatus >= 500', 'ClientCountry == "us" and EdgeResponseStatus >= 500'],
    ['ClientCountry IN ["us"]', 'ClientCountry in ["us"]'],
  ])('a misspelt operator or keyword has a preferred fix: %s', async (text, want) => {
    expect((await fixed(await open(text))).text).toBe(want);
  });

  it.each([
    ['ssl == true', 'ssl'],
    ['ssl eq false and http.host eq "a"', 'not ssl and http.host eq "a"'],
    ['http.host eq "a" or ssl != true', 'http.host eq "a" or not ssl'],
    ['ssl ne false', 'ssl'],
  ])('rules: a Boolean compared with a literal is rewritten: %s', async (text, want) => {
    expect((await fixed(await open(text, 'rule'))).text).toBe(want);
  });

  it('a replacement field in another unit says in its title that the value is not converted', async () => {
    const f = await open('OriginResponseTime > 1000000000\n');
    const { actions } = await fixed(f);
    const change = actions.find((a) => a.edit?.changes?.[f.uri]?.[0]?.newText === 'OriginResponseDurationMs');
    expect(change?.isPreferred).toBeFalsy();
    expect(change?.title).toMatch(/OriginResponseDurationMs.*milliseconds.*convert/);
  });
});

describe('8. formatting rules, empty documents', { timeout: 120_000 }, () => {
  it('rules: formatting a file with a syntax error says which line, once per version', async () => {
    const f = await open('http.host eq "a"\nand <|>(ip.src in {192.0.2.1}\n', 'rule');
    const before = client.messages.length;
    const format = () => client.conn.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri: f.uri }, options: { tabSize: 2, insertSpaces: true } });
    expect(await format()).toEqual([]);
    expect(await format()).toEqual([]);
    const told = client.messages.slice(before);
    expect(told.map((m) => m.type)).toEqual([2]);
    expect(told[0].message).toMatch(/line [23], column \d+/);
  });

  it.each([[''], ['\n'], ['  \n\n']])('rules: a blank .rule (%j) has no error while it is written; typing makes it checked', async (text) => {
    const f = await open(text, 'rule');
    expect(await f.diagnostics()).toEqual([]);
    const g = await open(`${text}http.host eq`, 'rule');
    expect((await g.diagnostics()).map((d) => d.severity)).toContain(1);
  });

  it.each([[''], ['# to do\n'], ['\n\n']])('an empty .logfilter (%j): the lens does not claim errors the editor does not list', async (text) => {
    const f = await open(text);
    expect(await f.diagnostics()).toEqual([]);
    const [lens] = (await client.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri: f.uri } }))!;
    expect(lens.command?.title).not.toMatch(/has errors/);
    expect(lens.command?.title).toMatch(/^0\/30 operators/);
  });
});

/** [text, token type] of each semantic token of a document, with its modifiers bitmask. */
async function tokensOf(uri: string, text: string) {



  const r = await client.conn.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
  const doc = TextDocument.create('x:', 'x', 0, text);
  const out: [string, string, number][] = [];
  let line = 0;
  let ch = 0;
  for (let i = 0; i < r!.data.length; i += 5) {
    line += r!.data[i];
    ch = r!.data[i] === 0 ? ch + r!.data[i + 1] : r!.data[i + 1];
    const at = doc.offsetAt({ line, character: ch });
    out.push([text.slice(at, at + r!.data[i + 2]), legendTypes[r!.data[i + 3]], r!.data[i + 4]]);
  }
  return out;
}
let legendTypes: string[] = [];

describe('9. colours and hover on values', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    // a second client's initialize answers the same legend
    const other = await startSession();
    legendTypes = other.init.capabilities.semanticTokensProvider!.legend.tokenTypes;
    other.stop();
  });

  it('rules: escapes keep the grammar colour (no string token over them)', async () => {
    const text = 'http.host eq "a\\"b" and http.request.uri.path matches "^/x\\.y$"';
    const f = await open(text, 'rule');
    const strings = (await tokensOf(f.uri, f.text)).filter(([, t]) => t === 'string').map(([s]) => s);
    expect(strings).toEqual(['"a', 'b"', '"^/x', 'y$"']);
  });

  it('rules: a deprecated field is struck through (Deprecated tag) and its token carries the deprecated modifier', async () => {
    const f = await open('<|ip.geoip.country|> eq "US"', 'rule');
    const [d] = await f.diagnostics();
    expect([d.code, d.range, d.tags]).toEqual(['rule-deprecated-field', f.ranges[0], [2]]);
    expect((await tokensOf(f.uri, f.text))[0]).toEqual(['ip.geoip.country', 'property', 1]);
  });

  it('filter: an unknown field is not coloured like a known one', async () => {
    const f = await open('ClientRequestHost == "a" and ClientRequestHosst == "b"');
    const fields = (await tokensOf(f.uri, f.text)).filter(([s]) => s.startsWith('Client'));
    expect(fields.map(([s, t]) => [s, t])).toEqual([
      ['ClientRequestHost', 'property'],
      ['ClientRequestHosst', 'variable'],
    ]);
  });

  it.each([
    ['CacheCacheStatus == <|"h<|>it"|>', /string/, /documented/],
    ['EdgeResponseStatus >= <|5<|>00|>', /number/, /EdgeResponseStatus/],
    ['CacheReserveUsed == <|tr<|>ue|>', /boolean/, /CacheReserveUsed/],
    ['ClientCountry in ["us", <|"c<|>a"|>]', /string/, /ClientCountry/],
    ['CacheCacheStatus == <|"ho<|>t"|>', /string/, /Not a documented value/],
  ])('hover on the value of %s: its type and what the dataset says', async (text, type, meaning) => {
    const f = await open(text);
    const h = await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri: f.uri }, position: f.cursors[0] });
    expect(h?.range).toEqual(f.ranges[0]);
    const md = (h?.contents as MarkupContent).value;
    expect(md).toMatch(type);
    expect(md).toMatch(meaning);
  });
});
