/**
 * The server driven end to end by a real LSP client over stdio: the built bin (or a fresh bundle of the
 * sources), spawned as editors spawn it. Asserts codes, ranges and values, never wording.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CancellationTokenSource,
  CodeActionRequest,
  CodeLensRequest,
  CompletionRequest,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  ExitNotification,
  FoldingRangeRequest,
  HoverRequest,
  SemanticTokensRequest,
  ShutdownRequest,
  type CodeAction,
  type CompletionItem,
  type CompletionList,
  type Diagnostic,
  type InitializeResult,
  type Range,
  type TextEdit,
} from 'vscode-languageserver-protocol/node.js';
import { compile, decompile, format } from '@logfilter/core';
import { startSession, type Session } from './support/harness.js';

let dir: string;
const uriOf = (name: string) => client.uriOf(name);

/** LSP range of `needle` (the n-th occurrence) in `text`. */
function rangeOf(text: string, needle: string, nth = 0): Range {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = text.indexOf(needle, at + 1);
  if (at < 0) throw new Error(`${needle} not in text`);
  const doc = TextDocument.create('x:', 'logfilter', 0, text);
  return { start: doc.positionAt(at), end: doc.positionAt(at + needle.length) };
}
function positionAfter(text: string, needle: string) {
  return rangeOf(text, needle).end;
}
function applyEdits(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('x:', 'logfilter', 0, text), edits);
}
const labels = (r: CompletionList | CompletionItem[] | null) => (Array.isArray(r) ? r : r?.items ?? []).map((i) => i.label);

let client: Session;
let init: InitializeResult;

const open = async (name: string, text: string): Promise<string> => (await client.open(text, { name })).uri;
const replaceAll = (uri: string, text: string): Promise<number> => client.change(uri, text);

const BROKEN = [
  'dataset http_requests',
  '# a filter with problems',
  'ClientCountry == "us" and EdgeResponseStatus >= "500"',
  'and ClientReqestHost == "a" and WAFRuleID == "x"',
  'and ClientCountry == "us"',
].join('\n');

beforeAll(async () => {
  client = await startSession({
    configuration: { dataset: 'http_requests', maxOperators: 30, maxBytes: 1000 },
    capabilities: { workspace: { configuration: true, codeLens: { refreshSupport: true } } },
    workspaceFolder: true,
  });
  init = client.init;
  dir = client.dir;
}, 180_000);

afterAll(() => client?.stop());

// generous per-test time: CI machines are shared; nothing here asserts speed (that is bench/lsp.bench.mjs)
describe('language server over stdio', { timeout: 240_000 }, () => {
  it('initializes with the capabilities of the issue', () => {
    const c = init.capabilities;
    expect(init.serverInfo?.name).toBe('logfilter-language-server');
    expect(c.completionProvider).toBeDefined();
    expect(c.hoverProvider).toBe(true);
    expect(c.documentFormattingProvider).toBe(true);
    expect(c.documentRangeFormattingProvider).toBe(true);
    expect(c.foldingRangeProvider).toBe(true);
    expect(c.semanticTokensProvider).toBeDefined();
    expect(c.codeActionProvider).toBeDefined();
    expect(c.codeLensProvider).toBeDefined();
  });

  it('publishes diagnostics with codes, exact ranges, severities and related information', async () => {
    const uri = await open('broken.logfilter', BROKEN);
    const diags = await client.waitForDiagnostics(uri);
    const got = diags.map((d) => ({ code: d.code, severity: d.severity, range: d.range }));
    expect(got).toEqual([
      { code: 'numeric-string', severity: 2, range: rangeOf(BROKEN, '"500"') },
      { code: 'unknown-field', severity: 1, range: rangeOf(BROKEN, 'ClientReqestHost') },
      { code: 'removed-field', severity: 1, range: rangeOf(BROKEN, 'WAFRuleID') },
      { code: 'duplicate-condition', severity: 2, range: rangeOf(BROKEN, 'ClientCountry == "us"', 1) },
    ]);
    const dup = diags.find((d) => d.code === 'duplicate-condition')!;
    expect(dup.relatedInformation?.map((r) => [r.location.uri, r.location.range])).toEqual([[uri, rangeOf(BROKEN, 'ClientCountry == "us"', 0)]]);
    expect(diags.every((d) => d.source === 'logfilter')).toBe(true);
  });

  it('offers the core fixes as quick fixes and the in-list refactor', async () => {
    const uri = uriOf('broken.logfilter');
    const diags = client.diagnostics.get(uri)!.diagnostics;
    const fixesFor = async (code: string) => {
      const d = diags.find((x) => x.code === code)!;
      const actions = (await client.conn.sendRequest(CodeActionRequest.type, {
        textDocument: { uri },
        range: d.range,
        context: { diagnostics: [d], only: ['quickfix'] },
      })) as CodeAction[];
      return actions.map((a) => ({ kind: a.kind, preferred: a.isPreferred, diag: a.diagnostics?.[0]?.code, edits: a.edit?.changes?.[uri] }));
    };
    expect((await fixesFor('unknown-field'))[0]).toEqual({
      kind: 'quickfix',
      preferred: true,
      diag: 'unknown-field',
      edits: [{ range: rangeOf(BROKEN, 'ClientReqestHost'), newText: 'ClientRequestHost' }],
    });
    expect(await fixesFor('removed-field')).toEqual([
      { kind: 'quickfix', preferred: true, diag: 'removed-field', edits: [{ range: rangeOf(BROKEN, 'WAFRuleID'), newText: 'SecurityRuleID' }] },
    ]);
    expect(await fixesFor('numeric-string')).toEqual([
      { kind: 'quickfix', preferred: true, diag: 'numeric-string', edits: [{ range: rangeOf(BROKEN, '"500"'), newText: '500' }] },
    ]);

    const text = 'ClientCountry == "us" or ClientCountry == "ca" or ClientCountry == "mx"';
    const ref = await open('refactor.logfilter', text);
    const actions = (await client.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: ref },
      range: rangeOf(text, 'ClientCountry'),
      context: { diagnostics: [], only: ['refactor'] },
    })) as CodeAction[];
    expect(actions.map((a) => a.kind)).toEqual(['refactor.rewrite']);
    const after = applyEdits(text, actions[0].edit!.changes![ref]);
    expect(after).toBe('ClientCountry in ["us", "ca", "mx"]');

    const notText = 'not (BotScore < 30)';
    const notUri = await open('not.logfilter', notText);
    const notActions = (await client.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: notUri },
      range: rangeOf(notText, 'not'),
      context: { diagnostics: [] },
    })) as CodeAction[];
    expect(notActions.map((a) => applyEdits(notText, a.edit!.changes![notUri]))).toEqual(['BotScore >= 30']);
  });

  it('clears diagnostics when edits fix the text, for the version edited', async () => {
    const uri = uriOf('broken.logfilter');
    const fixed = BROKEN.replace('"500"', '500').replace('ClientReqestHost', 'ClientRequestHost').replace('WAFRuleID', 'SecurityRuleID').replace(/\nand ClientCountry == "us"$/, '');
    // an incremental edit first, then the rest in one replacement
    const v1 = client.nextVersion();
    await client.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: v1 },
      contentChanges: [{ range: rangeOf(BROKEN, '"500"'), text: '500' }],
    });
    const d1 = await client.waitForDiagnostics(uri, (_d, v) => v === v1);
    expect(d1.map((d) => d.code)).toEqual(['unknown-field', 'removed-field', 'duplicate-condition']);
    const v2 = await replaceAll(uri, fixed);
    expect(await client.waitForDiagnostics(uri, (d, v) => v === v2)).toEqual([]);
  });

  it('completes fields, operators for the field type, values and keywords', async () => {
    const text = 'dataset http_requests\nCacheCacheStatus == "mi\n';
    const uri = await open('complete.logfilter', text);
    const at = async (line: number, character: number, t = text) => {
      if (t !== text) await replaceAll(uri, t);
      return client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line, character } });
    };
    const values = await at(1, 23);
    const miss = (values as CompletionList).items.find((i) => i.label === '"miss"')!;
    expect(miss.textEdit).toEqual({ range: { start: { line: 1, character: 20 }, end: { line: 1, character: 23 } }, newText: '"miss"' });

    const ops = labels(await at(1, 9, 'dataset http_requests\nBotScore \n'));
    expect(ops).toContain('>=');
    expect(ops).not.toContain('startsWith');
    const fields = await at(1, 6, 'dataset http_requests\nClient\n');
    const items = (fields as CompletionList).items;
    expect(items.find((i) => i.label === 'ClientIP')).toMatchObject({ kind: 5, detail: 'string' });
    expect(items.find((i) => i.label === 'CacheResponseStatus')).toMatchObject({ tags: [1] });
    expect(labels(await at(1, 18, 'dataset http_requests\nClientCountry in \n'))).toEqual(['[]']);
    const list = (await at(1, 18, 'dataset http_requests\nClientCountry in \n')) as CompletionList;
    expect(list.items[0]).toMatchObject({ insertTextFormat: 2, textEdit: { newText: '[$0]' } });
    expect(labels(await at(1, 9, 'dataset http_requests\nx == 1 \n'))).toEqual(['and', 'or']);
    expect(labels(await at(0, 8, 'dataset \n'))).toContain('dns_logs');
  });

  it('hovers fields and operators with ranges', async () => {
    const text = 'BotScore >= 30 and ClientRequestPath not startsWith "/a"';
    const uri = await open('hover.logfilter', text);
    const h = await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 2 } });
    expect(h?.range).toEqual(rangeOf(text, 'BotScore'));
    expect((h?.contents as { kind: string }).kind).toBe('markdown');
    const op = await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionAfter(text, 'not sta') });
    expect(op?.range).toEqual(rangeOf(text, 'not startsWith'));
    expect((op?.contents as { value: string }).value).toContain('`!startsWith`');
    // a value: its type, over the value's range
    const value = await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionAfter(text, '"/') });
    expect(value?.range).toEqual(rangeOf(text, '"/a"'));
  });

  it('formats documents and ranges through the core formatter', async () => {
    const text = '# keep me\nBotScore  eq 30 and   ClientCountry in ["us","ca"]\nor (ClientRequestHost ==   "a")\n';
    const uri = await open('format.logfilter', text);
    const edits = await client.conn.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    expect(applyEdits(text, edits!)).toBe(format(text).text);
    const none = await client.conn.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri: await open('bad-format.logfilter', 'x == ') }, options: { tabSize: 2, insertSpaces: true } });
    expect(none).toEqual([]);

    const multi = 'ClientRequestHost == "api.example.com"\nand EdgeResponseStatus   >= 500\nand ClientCountry in ["us", "ca"]\nand ClientRequestPath   not startsWith "/static/"\n';
    const muri = await open('range-format.logfilter', multi);
    const r = await client.conn.sendRequest(DocumentRangeFormattingRequest.type, {
      textDocument: { uri: muri },
      range: { start: { line: 1, character: 0 }, end: { line: 1, character: 5 } },
      options: { tabSize: 2, insertSpaces: true },
    });
    const out = applyEdits(multi, r!);
    expect(compile(out).json).toBe(compile(multi).json);
    expect(out).toBe(multi.replace('EdgeResponseStatus   >=', 'EdgeResponseStatus >='));
  });

  it('folds multi-line groups and comment runs; classifies semantic tokens', async () => {
    const text = '# one\n# two\nBotScore > 1 and (\n  ClientCountry == "us"\n  or ClientCountry == "ca"\n)\n';
    const uri = await open('fold.logfilter', text);
    const folds = await client.conn.sendRequest(FoldingRangeRequest.type, { textDocument: { uri } });
    expect(folds?.map((f) => [f.startLine, f.endLine, f.kind ?? null]), JSON.stringify(folds)).toEqual([
      [0, 1, 'comment'],
      [2, 4, null],
    ]);
    const legend = init.capabilities.semanticTokensProvider!.legend;
    const tokens = await client.conn.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
    const data = tokens!.data;
    const types: string[] = [];
    for (let i = 0; i < data.length; i += 5) types.push(legend.tokenTypes[data[i + 3]]);
    expect(types).toEqual(['comment', 'comment', 'property', 'operator', 'number', 'keyword', 'property', 'operator', 'string', 'keyword', 'property', 'operator', 'string']);
    // booleans and string escapes keep the grammar's colours: no token over them
    const esc = 'x == true and y == "a\\"b"';
    const escUri = await open('escapes.logfilter', esc);
    const escData = (await client.conn.sendRequest(SemanticTokensRequest.type, { textDocument: { uri: escUri } }))!.data;
    const spans: [string, string][] = [];
    let character = 0;
    for (let i = 0; i < escData.length; i += 5) {
      character += escData[i + 1];
      spans.push([esc.slice(character, character + escData[i + 2]), legend.tokenTypes[escData[i + 3]]]);
    }
    // x and y are not fields of http_requests: coloured apart from known fields
    expect(spans).toEqual([
      ['x', 'variable'],
      ['==', 'operator'],
      ['and', 'keyword'],
      ['y', 'variable'],
      ['==', 'operator'],
      ['"a', 'string'],
      ['b"', 'string'],
    ]);
    expect(data.slice(0, 5)).toEqual([0, 0, 5, legend.tokenTypes.indexOf('comment'), 0]);
  });

  it('shows the budget as a code lens and answers logfilter/compile and logfilter/decompile', async () => {
    const text = 'dataset http_requests\nClientCountry in ["us", "ca"] and EdgeResponseStatus >= 500\n';
    const uri = await open('budget.logfilter', text);
    const expected = compile(text);
    const lens = await client.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    expect(lens).toHaveLength(1);
    expect(lens![0].range.start).toEqual({ line: 0, character: 0 });
    expect(lens![0].data).toEqual({ operators: 2, bytes: expected.stats.bytes, stale: false });

    const r = await client.conn.sendRequest('logfilter/compile', { textDocument: { uri } });
    expect(r).toEqual({
      json: expected.json,
      string: JSON.stringify(expected.json),
      operators: 2,
      bytes: expected.stats.bytes,
      stale: false,
      maxOperators: 30,
      maxBytes: 1000,
      diagnostics: [],
    });
    const badUri = await open('budget-broken.logfilter', 'ClientReqestHost == "a"');
    const bad = (await client.conn.sendRequest('logfilter/compile', { textDocument: { uri: badUri } })) as { json: unknown; string: unknown; diagnostics: Diagnostic[] };
    expect(bad).toMatchObject({ json: null, string: null });
    expect(bad.diagnostics.map((x) => [x.code, x.range])).toEqual([['unknown-field', rangeOf('ClientReqestHost == "a"', 'ClientReqestHost')]]);

    // a file on disk that the editor has not opened
    writeFileSync(path.join(dir, 'closed.logfilter'), 'BotScore < 10\n');
    expect(await client.conn.sendRequest('logfilter/compile', { textDocument: { uri: uriOf('closed.logfilter') } })).toMatchObject({
      json: '{"where":{"key":"BotScore","operator":"lt","value":10}}',
    });

    const job = { id: 1, dataset: 'http_requests', filter: JSON.stringify({ where: { key: 'BotScore', operator: 'lt', value: 10 } }) };
    const d = (await client.conn.sendRequest('logfilter/decompile', { text: JSON.stringify(job) })) as { source: string; diagnostics: Diagnostic[] };
    expect(d).toEqual({ source: decompile(JSON.stringify(job)).source, dataset: 'http_requests', diagnostics: [] });
    expect(d.source.startsWith('dataset http_requests\n')).toBe(true);
    const broken = (await client.conn.sendRequest('logfilter/decompile', { text: '{"where":{"key":"a","operator":"eqq","value":1}}' })) as { source: null; diagnostics: Diagnostic[] };
    expect(broken.source).toBeNull();
    expect(broken.diagnostics.map((x) => x.code)).toContain('unknown-operator');
  });

  it('reads settings from workspace/configuration and re-checks when they change', async () => {
    const text = 'BotScore > 1 and BotScore < 90 and ClientCountry == "us"';
    const uri = await open('settings.logfilter', text);
    expect(await client.waitForDiagnostics(uri, (d) => d.length === 0)).toEqual([]);
    client.configuration.value = { dataset: 'dns_logs', maxOperators: 2, maxBytes: 1000 };
    await client.conn.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    const d = await client.waitForDiagnostics(uri, (x) => x.some((y) => y.code === 'too-many-operators'));
    expect(d.find((x) => x.code === 'too-many-operators')!.range).toEqual(rangeOf(text, 'ClientCountry == "us"'));
    expect(d.filter((x) => x.code === 'unknown-field')).toHaveLength(3);
    const r = (await client.conn.sendRequest('logfilter/compile', { textDocument: { uri } })) as { maxOperators: number };
    expect(r.maxOperators).toBe(2);
    client.configuration.value = { dataset: 'http_requests', maxOperators: 30, maxBytes: 1000 };
    await client.conn.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    expect(await client.waitForDiagnostics(uri, (x) => x.length === 0)).toEqual([]);
  });

  it('survives a 1 MB document, hundreds of errors, rapid edits, cancellations and internal errors', async () => {
    const line = 'ClientRequestHost == "api.example.com" and EdgeResponseStatus >= 500 or ClientCountry in ["us", "ca"]\n';
    const big = ('or ' + line).repeat(Math.ceil(1_000_000 / (line.length + 3))).slice(3);
    const bigUri = await open('big.logfilter', big);
    // the server keeps answering while the large document is checked
    const hover = await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri: bigUri }, position: { line: 0, character: 3 } });
    expect(hover?.range).toEqual(rangeOf(big, 'ClientRequestHost'));
    const bigDiags = await client.waitForDiagnostics(bigUri, (d) => d.length > 0, 150_000);
    expect(bigDiags.map((d) => d.code)).toContain('too-many-operators');
    // thousands of duplicates: the first 1000 (errors first) and one note with no code
    expect(bigDiags).toHaveLength(1001);
    expect(bigDiags.filter((d) => d.code === undefined)).toHaveLength(1);
    const folds = await client.conn.sendRequest(FoldingRangeRequest.type, { textDocument: { uri: bigUri } });
    expect(folds).toEqual([]);

    // typing slower than the diagnostics' pause: checks of older versions are dropped or their results
    // discarded, nothing is logged as a failure, and the last version gets its diagnostics
    const logsBefore = client.logs.length;
    let typed = 0;
    for (let k = 0; k < 4; k++) {
      typed = client.nextVersion();
      await client.conn.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri: bigUri, version: typed },
        contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: `BotScore < ${k} or ` }],
      });
      await new Promise((r) => setTimeout(r, 250));
    }
    const typedDiags = await client.waitForDiagnostics(bigUri, (_d, v) => v === typed, 150_000);
    const finalText = 'BotScore < 3 or BotScore < 2 or BotScore < 1 or BotScore < 0 or ' + big;
    const tooMany = compile(finalText).diagnostics.find((d) => d.code === 'too-many-operators')!;
    const finalDoc = TextDocument.create('x:', 'logfilter', 0, finalText);
    expect(typedDiags.find((d) => d.code === 'too-many-operators')!.range).toEqual({
      start: finalDoc.positionAt(tooMany.start),
      end: finalDoc.positionAt(tooMany.end),
    });
    expect(client.logs.slice(logsBefore).join('\n')).not.toMatch(/failed/);

    const noisy = Array.from({ length: 400 }, (_, i) => `Nope${i} == 1 and ((( ! @`).join('\n');
    const noisyUri = await open('noisy.logfilter', noisy);
    expect((await client.waitForDiagnostics(noisyUri)).length).toBeGreaterThan(100);

    const uri = await open('rapid.logfilter', '');
    let last = 0;
    let text = '';
    for (const ch of 'ClientCountry == "us" and BotScore < 3') {
      text += ch;
      last = client.nextVersion();
      await client.conn.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version: last },
        contentChanges: [{ range: { start: { line: 0, character: text.length - 1 }, end: { line: 0, character: text.length - 1 } }, text: ch }],
      });
    }
    expect(await client.waitForDiagnostics(uri, (_d, v) => v === last)).toEqual([]);

    const source = new CancellationTokenSource();
    const pending = client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: 3 } }, source.token);
    source.cancel();
    await pending.then(
      () => undefined,
      () => undefined,
    );

    // a request with bad params (no position) is answered InvalidParams naming the member, and the server goes on
    await expect(client.conn.sendRequest(HoverRequest.type, { textDocument: { uri } } as never)).rejects.toMatchObject({ code: -32602, data: { member: 'params.position' } });
    await expect(client.conn.sendRequest('logfilter/compile', {})).rejects.toMatchObject({ code: -32602 });
    expect(labels(await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: 14 } }))).toContain('==');

    for (const name of ['big.logfilter', 'noisy.logfilter']) {
      await client.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: uriOf(name) } });
      await client.waitForDiagnostics(uriOf(name), (d) => d.length === 0);
    }
  }, 180_000);

  it('shuts down and exits with code 0', async () => {
    await client.conn.sendRequest(ShutdownRequest.type);
    const exited = new Promise<number | null>((resolve) => client.proc.on('exit', (code) => resolve(code)));
    await client.conn.sendNotification(ExitNotification.type);
    expect(await exited).toBe(0);
    client.conn.dispose();
  });
});
