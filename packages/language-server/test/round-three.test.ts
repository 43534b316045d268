/**
 * Issue 27, items 6-9, through the real server over stdio: where missing input is marked, a filter that
 * starts with `and`, quick fixes, rules formatting and empty documents, colours and hover on values.
 * Codes, ranges and values only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CodeActionRequest,
  DidOpenTextDocumentNotification,
  InitializedNotification,
  InitializeRequest,
  type CodeAction,
  type Range,
} from 'vscode-languageserver-protocol/node.js';
import { markers } from '../../../test/support/markers.js';
import { startClient, type TestClient } from './support/lsp-client.js';
import { serverScript } from './support/server-bundle.js';

const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-round3-'));
let client: TestClient;
let files = 0;
let version = 1;

/** Opens the marked text; its `<|…|>` ranges as LSP ranges, its `<|>` cursors as positions. */
async function open(marked: string, ext: 'logfilter' | 'rule' = 'logfilter') {
  const m = markers(marked);
  const doc = TextDocument.create('x:', 'x', 0, m.text);
  const uri = pathToFileURL(path.join(dir, `r${files++}.${ext}`)).href;
  const v = version++;
  await client.conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: ext === 'logfilter' ? 'logfilter' : 'logfilter-rules', version: v, text: m.text },
  });
  const ranges: Range[] = m.ranges.map((r) => ({ start: doc.positionAt(r.start), end: doc.positionAt(r.end) }));
  return { uri, text: m.text, ranges, cursors: m.cursors.map((c) => doc.positionAt(c)), diagnostics: () => client.waitForDiagnostics(uri, (_d, pv) => pv === v) };
}
async function quickFixes(uri: string, range: Range) {
  const diagnostics = (client.diagnostics.get(uri)?.diagnostics ?? []).filter((d) => d.range.start.line <= range.end.line && d.range.end.line >= range.start.line);
  return ((await client.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics, only: ['quickfix'] } })) ?? []) as CodeAction[];
}

beforeAll(async () => {
  client = startClient(await serverScript());
  await client.conn.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(dir).href, capabilities: {} });
  await client.conn.sendNotification(InitializedNotification.type, {});
}, 180_000);
afterAll(() => {
  if (client && client.proc.exitCode === null) client.proc.kill();
});

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
