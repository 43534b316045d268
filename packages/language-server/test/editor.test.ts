/**
 * The defects found by using the editor (typing a filter from scratch), pinned through the real server
 * over stdio: completion after a closed value, where missing input is reported, recovery after a syntax
 * error, an empty new file, deprecated fields, the budget during syntax errors, formatting a broken file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CodeActionRequest,
  CodeLensRequest,
  CompletionRequest,
  CompletionTriggerKind,
  DocumentFormattingRequest,
  type CodeAction,
  type CompletionItem,
  type CompletionList,
  type InitializeResult,
} from 'vscode-languageserver-protocol/node.js';
import type { CompileResponse, DecompileResponse } from '../src/protocol.js';
import { lspMarkers, startSession, type Session } from './support/harness.js';

let client: Session;
let init: InitializeResult;

/** LSP ranges of the `<|…|>` markers and positions of the `<|>` cursors, in the text without markers. */
const marked = lspMarkers;
const open = async (text: string): Promise<string> => (await client.open(text)).uri;
const change = (uri: string, text: string) => client.change(uri, text);
const items = (r: CompletionList | CompletionItem[] | null) => (Array.isArray(r) ? r : r?.items ?? []);

beforeAll(async () => {
  client = await startSession();
  init = client.init;
}, 180_000);
afterAll(() => client?.stop());

describe('the editor, typed from scratch', { timeout: 120_000 }, () => {
  it('does not pop up and/or on a punctuation trigger after a closed value; asked for, they bring their own space', async () => {
    const m = marked('ClientRequestHost == "example.com"<|>');
    const uri = await open(m.text);
    const complete = (context: { triggerKind: CompletionTriggerKind; triggerCharacter?: string }) =>
      client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: m.cursors[0], context });
    // the closing quote typed over the auto-closed one is a trigger character
    expect(items(await complete({ triggerKind: CompletionTriggerKind.TriggerCharacter, triggerCharacter: '"' }))).toEqual([]);
    const invoked = items(await complete({ triggerKind: CompletionTriggerKind.Invoked }));
    expect(invoked.map((i) => [i.label, i.textEdit && 'newText' in i.textEdit ? i.textEdit.newText : undefined, i.filterText])).toEqual([
      ['and', ' and', 'and'],
      ['or', ' or', 'or'],
    ]);
  });

  it('does not trigger on `(` (Enter after it opens an indented line, not a field)', async () => {
    expect(init.capabilities.completionProvider?.triggerCharacters).toEqual([' ', '[', ',', '"']);
  });

  it('filters the group and list snippets on a word, so typing `(` or `[` closes the list and Enter opens a line', async () => {
    for (const [text, label] of [
      ['x == 1 and <|>', '( … )'],
      ['ClientCountry in <|>', '[]'],
    ] as const) {
      const m = marked(text);
      const uri = await open(m.text);
      const r = items(await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: m.cursors[0], context: { triggerKind: 2, triggerCharacter: ' ' } }));
      const item = r.find((i) => i.label === label);
      expect(item?.filterText, text).toMatch(/^[a-z]+$/);
      // and no item at all filters on punctuation
      expect(r.filter((i) => !/^[A-Za-z_!`"0-9-]/.test(i.filterText ?? i.label)).map((i) => i.label), text).toEqual([]);
    }
  });

  it('every trigger character: no connective pops up glued to what precedes; after a space it needs none', async () => {
    for (const [text, trigger] of [
      ['ClientCountry in ["us"]<|>', '"'],
      ['x == 1,<|>', ','],
      ['(x == 1)(<|>', '('],
    ] as const) {
      const m = marked(text);
      const uri = await open(m.text);
      const r = items(await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: m.cursors[0], context: { triggerKind: 2, triggerCharacter: trigger } }));
      expect(r.filter((i) => i.label === 'and' || i.label === 'or'), text).toEqual([]);
    }
    const m = marked('ClientRequestHost == "example.com" <|>');
    const uri = await open(m.text);
    const r = items(await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: m.cursors[0], context: { triggerKind: 2, triggerCharacter: ' ' } }));
    expect(r.map((i) => [i.label, i.textEdit && 'newText' in i.textEdit ? i.textEdit.newText : undefined])).toEqual([
      ['and', 'and'],
      ['or', 'or'],
    ]);
  });

  it('reports an incomplete condition just after its last token, not at the end of the file', async () => {
    const m = marked('EdgeResponseStatus >= 500\nand ClientReq<||>\n\n\n');
    const uri = await open(m.text);
    const diags = await client.waitForDiagnostics(uri);
    expect(diags.map((d) => [d.code, d.range])).toEqual([['syntax', m.ranges[0]]]);
  });

  it('still checks the lines after a syntax error', async () => {
    const m = marked('ClientRequestHost == "example.com"<|andand|> ClientCountry in ["us"]\nand EdgeResponseStatus in <|500|>\nand <|WAFAction|> == "block"\n');
    const uri = await open(m.text);
    const diags = await client.waitForDiagnostics(uri);
    expect(diags.map((d) => [d.code, d.range])).toEqual([
      ['syntax', m.ranges[0]],
      ['in-needs-list', m.ranges[1]],
      ['removed-field', m.ranges[2]],
    ]);
  });

  it('shows no error on a new empty file (or one with only comments); compiling it still says why not', async () => {
    for (const text of ['', '\n\n', '# to do: the API host\n  \n']) {
      const { uri, version: v } = await client.open(text);
      expect(await client.waitForDiagnostics(uri, (_d, pv) => pv === v)).toEqual([]);
      const r = (await client.conn.sendRequest('logfilter/compile', { textDocument: { uri } })) as CompileResponse;
      expect(r.json).toBeNull();
      expect(r.diagnostics.map((d) => d.code)).toEqual(['empty-filter']);
    }
    // a dataset line is something written: a filter without a condition is reported
    const uri = await open('dataset dns_logs\n');
    expect((await client.waitForDiagnostics(uri)).map((d) => d.code)).toEqual(['empty-filter']);
  });

  it('names a deprecated field\u2019s replacement and offers it as a quick fix', async () => {
    const m = marked('dataset firewall_events\n<|FirewallForAITokenCount|> > 100\n');
    const uri = await open(m.text);
    const [d] = await client.waitForDiagnostics(uri);
    expect([d.code, d.range, d.severity, d.tags]).toEqual(['deprecated-field', m.ranges[0], 2, [2]]);
    expect(d.message).toContain('AISecurityTokenCount');
    const actions = (await client.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: d.range, context: { diagnostics: [d], only: ['quickfix'] } })) as CodeAction[];
    expect(actions.map((a) => [a.kind, a.isPreferred, a.edit?.changes?.[uri]])).toEqual([['quickfix', true, [{ range: m.ranges[0], newText: 'AISecurityTokenCount' }]]]);
  });

  it('reports a list in braces once, over the braces-list, with a quick fix that writes it in square brackets', async () => {
    const m = marked('ClientCountry in <|{|>"us", "ca"<|}|>\nand BotScore < 30\n');
    const uri = await open(m.text);
    const ds = await client.waitForDiagnostics(uri);
    const braces = { start: m.ranges[0].start, end: m.ranges[1].end };
    expect(ds.map((d) => [d.code, d.range])).toEqual([['syntax', braces]]);
    const actions = (await client.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: braces, context: { diagnostics: ds, only: ['quickfix'] } })) as CodeAction[];
    expect(actions.map((a) => [a.kind, a.isPreferred, a.edit?.changes?.[uri]])).toEqual([
      ['quickfix', true, [{ range: m.ranges[0], newText: '[' }, { range: m.ranges[1], newText: ']' }]],
    ]);
  });

  it('reports each single-quoted string of a list, each with its quick fix to double quotes', async () => {
    const m = marked(`ClientCountry in [<|'us'|>, <|'ca'|>, "gb"]\n`);
    const uri = await open(m.text);
    const ds = await client.waitForDiagnostics(uri);
    expect(ds.map((d) => [d.code, d.range])).toEqual([
      ['syntax', m.ranges[0]],
      ['syntax', m.ranges[1]],
    ]);
    const edits = [];
    for (const d of ds) {
      const actions = (await client.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: d.range, context: { diagnostics: [d], only: ['quickfix'] } })) as CodeAction[];
      edits.push(actions.map((a) => [a.isPreferred, a.edit?.changes?.[uri]]));
    }
    expect(edits).toEqual([[[true, [{ range: m.ranges[0], newText: '"us"' }]]], [[true, [{ range: m.ranges[1], newText: '"ca"' }]]]]);
  });

  it('keeps the last parsed figures in the budget during a syntax error, marked stale', async () => {
    const good = 'ClientCountry in ["us", "ca"] and EdgeResponseStatus >= 500\n';
    const uri = await open(good);
    await client.waitForDiagnostics(uri, (d) => d.length === 0);
    const lens = async () => (await client.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri } }))![0];
    const fresh = await lens();
    expect(fresh.data).toMatchObject({ operators: 2, stale: false });
    const bytes = (fresh.data as { bytes: number }).bytes;
    expect(bytes).toBeGreaterThan(0);
    // a condition half typed
    const v = await change(uri, `${good}and ClientReq`);
    await client.waitForDiagnostics(uri, (_d, pv) => pv === v);
    const stale = await lens();
    expect(stale.data).toEqual({ operators: 2, bytes, stale: true });
    expect(stale.command?.title).toMatch(/^2\/30 .* (\d+)\/1000 /);
    const r = (await client.conn.sendRequest('logfilter/compile', { textDocument: { uri } })) as CompileResponse;
    expect([r.json, r.operators, r.bytes, r.stale]).toEqual([null, 2, bytes, true]);
    // typed to the end: fresh figures again
    const v2 = await change(uri, `${good}and ClientRequestHost == "a"`);
    await client.waitForDiagnostics(uri, (_d, pv) => pv === v2);
    expect((await lens()).data).toMatchObject({ operators: 3, stale: false });
    // a document that never parsed has no figures to keep
    const never = await open('x ==');
    const r2 = (await client.conn.sendRequest('logfilter/compile', { textDocument: { uri: never } })) as CompileResponse;
    expect([r2.operators, r2.bytes, r2.stale]).toEqual([0, 0, true]);
  });

  it('says why a file with a syntax error is not formatted, once per version', async () => {
    const m = marked('ClientCountry == "us"\nand<||>\n');
    const uri = await open(m.text);
    const before = client.messages.length;
    const format = () => client.conn.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    expect(await format()).toEqual([]);
    expect(await format()).toEqual([]);
    const told = client.messages.slice(before);
    expect(told.map((x) => x.type)).toEqual([2]);
    // it names where: line 2, column 4 (1-based, as the editor's status bar)
    expect(told[0].message).toContain(`${m.ranges[0].start.line + 1}, column ${m.ranges[0].start.character + 1}`);
    await change(uri, `${m.text} `);
    expect(await format()).toEqual([]);
    expect(client.messages.length - before).toBe(2);
  });

  it('imports a job with its dataset line (logfilter/decompile)', async () => {
    const job = { dataset: 'firewall_events', filter: JSON.stringify({ where: { key: 'ClientRefererHost', operator: 'eq', value: 'a.example' } }) };
    const r = (await client.conn.sendRequest('logfilter/decompile', { text: JSON.stringify(job) })) as DecompileResponse;
    expect(r.dataset).toBe('firewall_events');
    expect(r.source?.split('\n')[0]).toBe('dataset firewall_events');
    const { uri, version: v } = await client.open(r.source!);
    expect(await client.waitForDiagnostics(uri, (_d, pv) => pv === v)).toEqual([]);
  });
});
