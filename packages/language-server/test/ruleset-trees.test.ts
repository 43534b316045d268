// One JSON tree per ruleset document version, carried across keystrokes inside an expression: completion and
// hover of a 1 MB ruleset must not parse the whole document at each request.
import { describe, expect, it } from 'vitest';
import { parseJson } from '@logfilter/core';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { rulesetTree } from '../src/ruleset-trees.js';

const text = JSON.stringify({ phase: 'http_request_firewall_custom', rules: [{ expression: 'http.host eq "a"' }, { expression: 'ssl' }] }, null, 2);
const at = (doc: TextDocument, needle: string) => doc.positionAt(doc.getText().indexOf(needle));

describe('rulesetTree', () => {
  it('parses a version once: every request at that version gets the same tree', () => {
    const doc = TextDocument.create('file:///a.ruleset.json', 'json', 1, text);
    const t = rulesetTree(doc);
    expect(t).toEqual(parseJson(text).value);
    expect(rulesetTree(doc)).toBe(t);
  });

  it('carries the tree across a keystroke inside an expression, and parses again after a JSON edit', () => {
    const doc = TextDocument.create('file:///b.ruleset.json', 'json', 1, text);
    const t = rulesetTree(doc);
    const p = at(doc, 'ssl');
    TextDocument.update(doc, [{ range: { start: p, end: p }, text: 'not ' }], 2);
    expect(rulesetTree(doc)).toBe(t);
    expect(t).toEqual(parseJson(doc.getText()).value);
    // a new rule: the JSON's structure changed, a new parse
    const q = at(doc, '{\n      "expression": "not ssl"');
    TextDocument.update(doc, [{ range: { start: q, end: q }, text: '{ "expression": "ip.src eq 192.0.2.1" },\n    ' }], 3);
    const u = rulesetTree(doc);
    expect(u).not.toBe(t);
    expect(u).toEqual(parseJson(doc.getText()).value);
  });

  it('a version that is not JSON has no tree; the next one that is, has', () => {
    const doc = TextDocument.create('file:///c.ruleset.json', 'json', 1, text);
    rulesetTree(doc);
    const p = at(doc, 'ssl');
    TextDocument.update(doc, [{ range: { start: p, end: p }, text: '"' }], 2);
    expect(rulesetTree(doc)).toBeUndefined();
    TextDocument.update(doc, [{ range: { start: p, end: { line: p.line, character: p.character + 1 } }, text: '' }], 3);
    expect(rulesetTree(doc)).toEqual(parseJson(text).value);
  });
});
