/**
 * A repeated group (same operator, same members in any order) over a real LSP client: the duplicate-condition
 * diagnostic covers the whole repeat, its related information the first, and the quick fix removes the repeat
 * with its joining word.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeActionRequest, type CodeAction } from 'vscode-languageserver-protocol/node.js';
import { startSession, type Session } from './support/harness.js';

let client: Session;
beforeAll(async () => {
  client = await startSession();
}, 180_000);
afterAll(() => client?.stop());

describe('duplicate group over stdio', { timeout: 240_000 }, () => {
  it('is marked on the repeat and removed by its quick fix', async () => {
    const f = await client.open('dataset http_requests\n<|(ClientCountry == "us" or EdgeResponseStatus >= 500)|> and\n<|(EdgeResponseStatus >= 500 or ClientCountry == "us")|>\n');
    const diags = (await f.diagnostics()).filter((d) => d.code === 'duplicate-condition');
    expect(diags.map((d) => d.range)).toEqual([f.ranges[1]]);
    expect(diags[0].relatedInformation?.map((r) => r.location.range)).toEqual([f.ranges[0]]);
    const actions = (await client.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: f.uri },
      range: diags[0].range,
      context: { diagnostics: diags, only: ['quickfix'] },
    })) as CodeAction[];
    const fix = actions.find((a) => a.diagnostics?.[0]?.code === 'duplicate-condition');
    expect(fix?.isPreferred).toBe(true);
    const edits = fix!.edit!.changes![f.uri];
    const out = TextDocument.applyEdits(TextDocument.create(f.uri, 'logfilter', 0, f.text), edits);
    expect(out).toBe('dataset http_requests\n(ClientCountry == "us" or EdgeResponseStatus >= 500)\n');
  });
});
