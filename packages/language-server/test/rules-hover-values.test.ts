/**
 * Rules hover on values and lists over a real LSP client: a value's type and what it stands for, a `$list`'s kind,
 * in a `.rule` file and in an expression of a `*.ruleset.json` file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HoverRequest, type MarkupContent } from 'vscode-languageserver-protocol/node.js';
import { startSession, type Session } from './support/harness.js';

let client: Session;
beforeAll(async () => {
  client = await startSession();
}, 180_000);
afterAll(() => client?.stop());

const hover = async (uri: string, position: { line: number; character: number }) => {
  const h = await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  return h && { range: h.range, text: (h.contents as MarkupContent).value };
};

describe('rules hover on values over stdio', { timeout: 240_000 }, () => {
  it('shows an IP network\'s range and a list\'s kind in a .rule file', async () => {
    const f = await client.open('ip.src in {<|10.0.0.0/8|>} and ip.src.asnum in <|$carriers|>', { kind: 'rule' });
    const net = await hover(f.uri, f.ranges[0].start);
    expect(net?.range).toEqual(f.ranges[0]);
    expect(net?.text).toContain('10.255.255.255');
    const list = await hover(f.uri, f.ranges[1].start);
    expect(list?.range).toEqual(f.ranges[1]);
    expect(list?.text).toMatch(/ASN list/);
  });

  it('shows a string literal in a ruleset file\'s expression', async () => {
    const f = await client.open('{"name": "r", "kind": "custom", "phase": "http_request_firewall_custom", "rules": [{"action": "log", "expression": "http.host eq <|\\"a\\"|>"}]}', { kind: 'ruleset.json' });
    const h = await hover(f.uri, { line: 0, character: f.ranges[0].start.character + 2 });
    expect(h?.text).toMatch(/String/);
  });
});
