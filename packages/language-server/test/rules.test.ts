/**
 * The rules language (`logfilter-rules`, `.rule` files) through a real LSP client over stdio: diagnostics,
 * completion by type, hover, formatting, semantic tokens and quick fixes. Codes, ranges and values only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CodeActionRequest,
  CompletionRequest,
  DidChangeTextDocumentNotification,
  DocumentFormattingRequest,
  HoverRequest,
  SemanticTokensRequest,
  type CodeAction,
  type CompletionItem,
  type CompletionList,
  type InitializeResult,
  type MarkupContent,
  type Range,
  type TextEdit,
} from 'vscode-languageserver-protocol/node.js';
import { startSession, type Session } from './support/harness.js';

const uriOf = (name: string) => client.uriOf(name);
const docOf = (text: string) => TextDocument.create('x:', 'logfilter-rules', 0, text);
function rangeOf(text: string, needle: string): Range {
  const at = text.indexOf(needle);
  const d = docOf(text);
  return { start: d.positionAt(at), end: d.positionAt(at + needle.length) };
}
const labels = (r: CompletionList | CompletionItem[] | null) => (Array.isArray(r) ? r : (r?.items ?? [])).map((i) => i.label);

let client: Session;
let init: InitializeResult;

const open = async (name: string, text: string, languageId = 'logfilter-rules'): Promise<string> => (await client.open(text, { name, languageId })).uri;

beforeAll(async () => {
  client = await startSession({ configuration: { dataset: 'http_requests', maxOperators: 30, maxBytes: 1000 } });
  init = client.init;
}, 180_000);

afterAll(() => client?.stop());

describe('rules language over stdio', { timeout: 240_000 }, () => {
  const BROKEN = 'http.hots eq "a"\nand ip.src in {192.0.2.1, 192.0.2.2}\nand ip.geoip.country eq "US"';

  it('publishes the rules diagnostics with codes and exact ranges', async () => {
    const uri = await open('broken.rule', BROKEN);
    const diags = await client.waitForDiagnostics(uri);
    expect(diags.map((d) => [d.code, d.severity, d.range])).toEqual([
      ['rule-unknown-identifier', 1, rangeOf(BROKEN, 'http.hots')],
      ['rule-list', 1, rangeOf(BROKEN, ',')],
      ['rule-deprecated-field', 2, rangeOf(BROKEN, 'ip.geoip.country')],
    ]);
  });

  it('updates diagnostics as the text changes, and clears them when it is valid', async () => {
    const uri = uriOf('broken.rule');
    const text = 'http.host eq "a" and ip.src in {192.0.2.1 192.0.2.2}';
    const v = client.nextVersion();
    await client.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: v }, contentChanges: [{ text }] });
    const diags = await client.waitForDiagnostics(uri, (d, ver) => ver === v);
    expect(diags).toEqual([]);
  });

  it('recognises a .rule file whatever language id the editor sends', async () => {
    const uri = await open('plain.rule', 'ssl ==', 'plaintext');
    const diags = await client.waitForDiagnostics(uri);
    expect(diags.map((d) => d.code)).toEqual(['rule-boolean-operator']);
  });

  it('completes fields and functions, then operators by the type before the cursor', async () => {
    const uri = await open('complete.rule', 'http.host ');
    const ops = await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: 10 } });
    expect(labels(ops)).toEqual(expect.arrayContaining(['eq', 'contains', 'matches', 'wildcard', 'strict wildcard', 'in']));
    const uri2 = await open('complete2.rule', 'ip.src ');
    const ipOps = await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: uri2 }, position: { line: 0, character: 7 } });
    expect(labels(ipOps).sort()).toEqual(['eq', 'in', 'ne']);
    const uri3 = await open('complete3.rule', 'ssl and http.h');
    const fields = (await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: uri3 }, position: { line: 0, character: 14 } })) as CompletionList;
    expect(labels(fields)).toEqual(expect.arrayContaining(['http.host', 'lower', 'any']));
    const host = fields.items.find((i) => i.label === 'http.host')!;
    expect((host.textEdit as TextEdit).range).toEqual({ start: { line: 0, character: 8 }, end: { line: 0, character: 14 } });
  });

  it('hovers a field with its type and phases', async () => {
    const uri = await open('hover.rule', 'http.response.code eq 200');
    const h = await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 5 } });
    expect(h?.range).toEqual({ start: { line: 0, character: 0 }, end: { line: 0, character: 18 } });
    expect((h?.contents as MarkupContent).value).toContain('Integer');
    expect((h?.contents as MarkupContent).value).toContain('http_response_headers_transform');
  });

  it('formats the expression, ending it with a line break as rules fmt does', async () => {
    const text = '(http.host=="a"||http.host == "b")&&!ssl';
    const uri = await open('fmt.rule', text);
    const edits = (await client.conn.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } })) as TextEdit[];
    expect(TextDocument.applyEdits(docOf(text), edits)).toBe('(http.host eq "a" or http.host eq "b") and not ssl\n');
    // formatted already (with or without a CRLF file's own ending): nothing to change
    for (const done of ['ssl\n', '# x\r\nssl\r\n']) {
      await client.change(uri, done);
      expect(await client.conn.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } }), done).toEqual([]);
    }
  });

  it.each([
    ['a # phase: header kept as written', '# phase: http_request_firewall_custom\n# note\nhttp.host=="a"&&ssl\n', '# phase: http_request_firewall_custom\n# note\nhttp.host eq "a" and ssl\n'],
    ['a CRLF file kept CRLF on every line it breaks', `# x\r\n${Array.from({ length: 4 }, (_, i) => `http.host eq "host-number-${i}.example.com"`).join(' or ')}\r\n`, `# x\r\n${Array.from({ length: 4 }, (_, i) => `${i ? 'or ' : ''}http.host eq "host-number-${i}.example.com"`).join('\r\n')}\r\n`],
  ])('formats the expression of a .rule file with %s, idempotently', async (_what, text, expected) => {
    const uri = await open(`fmt-header-${text.length}.rule`, text);
    const format = async (t: string) => {
      await client.change(uri, t);
      const edits = (await client.conn.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } })) as TextEdit[];
      return TextDocument.applyEdits(docOf(t), edits);
    };
    const once = await format(text);
    expect(once).toBe(expected);
    expect(await format(once)).toBe(once);
  });

  it('sends semantic tokens in the server legend', async () => {
    const text = 'lower(http.host) eq "a"';
    const uri = await open('tokens.rule', text);
    const legend = init.capabilities.semanticTokensProvider!.legend.tokenTypes;
    const r = await client.conn.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
    const tokens: [string, string][] = [];
    for (let i = 0, ch = 0; i < r!.data.length; i += 5) {
      ch = r!.data[i] === 0 ? ch + r!.data[i + 1] : r!.data[i + 1];
      tokens.push([text.slice(ch, ch + r!.data[i + 2]), legend[r!.data[i + 3]]]);
    }
    expect(tokens).toEqual([
      ['lower', 'function'],
      ['http.host', 'property'],
      ['eq', 'operator'],
      ['"a"', 'string'],
    ]);
  });

  it('offers the core fixes as quick fixes', async () => {
    const text = 'http.hots eq "a"';
    const uri = await open('fix.rule', text);
    const [d] = await client.waitForDiagnostics(uri);
    const actions = (await client.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: d.range, context: { diagnostics: [d], only: ['quickfix'] } })) as CodeAction[];
    expect(actions[0].edit?.changes?.[uri]).toEqual([{ range: rangeOf(text, 'http.hots'), newText: 'http.host' }]);
  });

  it('checks the expressions of a *.ruleset.json file in place, and offers their fixes', async () => {
    const text = JSON.stringify({ phase: 'http_request_firewall_custom', rules: [{ action: 'block', expression: 'ssl' }, { action: 'block', expression: 'http.hots eq "a" and http.response.code eq 5' }] }, null, 2);
    const uri = await open('waf.ruleset.json', text, 'json');
    const diags = await client.waitForDiagnostics(uri);
    expect(diags.map((d) => [d.code, d.range])).toEqual([
      ['rule-unknown-identifier', rangeOf(text, 'http.hots')],
      ['rule-unavailable-in-phase', rangeOf(text, 'http.response.code')],
    ]);
    const actions = (await client.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: diags[0].range, context: { diagnostics: [diags[0]], only: ['quickfix'] } })) as CodeAction[];
    expect(actions[0].edit?.changes?.[uri]).toEqual([{ range: rangeOf(text, 'http.hots'), newText: 'http.host' }]);
    const tokens = await client.conn.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
    expect(tokens?.data).toEqual([]);
  });

  it('a .rule file\'s "# phase:" comment sets the phase its diagnostics and completion follow', async () => {
    const text = '# phase: magic_transit\nhttp.host eq "a" or tcp.dstport eq 80';
    const uri = await open('net.rule', text);
    const diags = await client.waitForDiagnostics(uri);
    expect(diags.map((d) => [d.code, d.range])).toEqual([['rule-unavailable-in-phase', rangeOf(text, 'http.host')]]);
    const completion = labels(await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 1, character: 0 } }));
    expect(completion).toContain('tcp.dstport');
    expect(completion).not.toContain('http.host');
  });

  it('completes nothing inside a header comment; on a blank header line, fields', async () => {
    const text = '# phase: http_request_firewall_custom\n# pha\n\nhttp.host eq "a"';
    const uri = await open('header-complete.rule', text);
    const at = (line: number, character: number) => client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line, character } });
    expect(labels(await at(0, 9))).toEqual([]);
    expect(labels(await at(0, 37))).toEqual([]);
    expect(labels(await at(1, 5))).toEqual([]);
    expect(labels(await at(2, 0))).toContain('http.host');
  });

  it('hovers nothing in a header comment, the expression below it as usual', async () => {
    const text = '# blocks http.host "x" and lower() 10\nhttp.host eq "a"';
    const uri = await open('header-hover.rule', text);
    const hover = (line: number, character: number) => client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } });
    for (const word of ['http.host', '"x"', 'and', 'lower', '10']) expect(await hover(0, text.indexOf(word) + 1), word).toBeNull();
    expect((await hover(1, 2))?.range).toEqual({ start: { line: 1, character: 0 }, end: { line: 1, character: 9 } });
  });

  it('completes and hovers inside the expression strings of a *.ruleset.json file, in its phase', async () => {
    const text = '{"rules": [{"action": "block", "expression": "http.host eq \\"a\\" and tcp.dst"}], "phase": "magic_transit"}';
    const uri = await open('net.ruleset.json', text, 'json');
    const d = docOf(text);
    const at = text.indexOf('tcp.dst') + 'tcp.dst'.length;
    const list = (await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: d.positionAt(at) })) as CompletionList;
    const item = list.items.find((i) => i.label === 'tcp.dstport');
    expect(item?.textEdit).toEqual({ range: rangeOf(text, 'tcp.dst'), newText: 'tcp.dstport' });
    expect(list.items.map((i) => i.label)).not.toContain('http.host');
    const hover = await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: d.positionAt(text.indexOf('http.host') + 2) });
    expect(hover?.range).toEqual(rangeOf(text, 'http.host'));
    expect((hover?.contents as MarkupContent).value).toContain('http.host');
  });

  it('logfilter/compile is for filters: a rules document, open or on disk, is refused with InvalidParams, not compiled as a filter', async () => {
    const uri = await open('refuse.rule', 'http.host eq "a"\n');
    await client.waitForDiagnostics(uri, () => true);
    const asked = (u: string) => client.conn.sendRequest('logfilter/compile', { textDocument: { uri: u } }).then(() => undefined, (e: { code: number }) => e.code);
    expect(await asked(uri)).toBe(-32602);
    const { writeFileSync } = await import('node:fs');
    const { fileURLToPath } = await import('node:url');
    const closed = uriOf('closed.ruleset.json');
    writeFileSync(fileURLToPath(closed), '{"rules":[{"expression":"ssl"}]}');
    expect(await asked(closed)).toBe(-32602);
  });
});
