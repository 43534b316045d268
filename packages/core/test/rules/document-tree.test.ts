// carryJsonTree: a ruleset's tree carried across edits inside one string must be exactly the tree a fresh
// parse gives (offsets of every later node, the string's value and escapes); any other edit is refused and
// leaves the tree as it was. ruleDocumentExpressionAt answers the same from a given tree as from the text.
import { describe, expect, it } from 'vitest';
import { carryJsonTree, parseJson, ruleDocumentExpressionAt, type JsonValue } from '@logfilter/core';

const doc = JSON.stringify(
  {
    phase: 'http_request_firewall_custom',
    rules: [
      { action: 'block', expression: 'http.host eq "a.example.com" and not ssl', ratelimit: { counting_expression: 'ip.src eq 192.0.2.1' } },
      { action: 'rewrite', expression: 'ssl', action_parameters: { uri: { path: { expression: 'lower(http.request.uri.path)' } } } },
      { action: 'log', expression: 'http.request.uri.path contains "/caf\u00e9"', enabled: true, n: 12 },
    ],
  },
  null,
  2,
);
const tree = (text: string) => parseJson(text).value!;
/** `text` with [from, to) replaced by `insert`. */
const edit = (text: string, from: number, to: number, insert: string) => text.slice(0, from) + insert + text.slice(to);
const inside = (needle: string) => doc.indexOf(needle) + 1;
/** What ruleDocumentExpressionAt found, without its mapping function (compared by its values instead). */
const found = (text: string, offset: number, options?: { tree?: JsonValue }) => {
  const r = ruleDocumentExpressionAt(text, offset, options);
  return r && { ...r, toDocument: undefined, mapped: [...Array(r.text.length + 1).keys()].map(r.toDocument) };
};

describe('carryJsonTree', () => {
  const carried = [
    ['a letter typed in an expression', inside('a.example.com'), 0, 's'],
    ['a word deleted', doc.indexOf('and not'), 4, ''],
    ['a selection replaced', inside('a.example'), 3, 'api.'],
    ['an escaped quote typed', inside('a.example'), 0, '\\"x\\"'],
    ['an escaped quote deleted', doc.indexOf('\\"a.example'), 2, ''],
    ['typed in the counting expression', inside('192.0.2'), 0, '8'],
    ['typed in a value expression of action_parameters', inside('lower('), 0, 'x'],
    ['typed at the end of the last string', doc.indexOf('"log"') + 4, 0, 'x'],
    ['a character that JSON escapes typed as an escape', inside('caf'), 0, '\\t'],
  ] as const;
  it.each(carried)('%s: the tree is a fresh parse of the new text', (_, at, removed, insert) => {
    const t = tree(doc);
    const after = edit(doc, at, at + removed, insert);
    expect(carryJsonTree(t, doc, after)).toBe(true);
    expect(t).toEqual(tree(after));
    // and the expression under the edit reads the same from the carried tree
    for (const offset of [at, at + insert.length, after.length - 10]) {
      expect(found(after, offset, { tree: t })).toEqual(found(after, offset));
    }
  });

  const refused = [
    ['an unescaped quote typed in a string', inside('a.example'), 0, '"'],
    ['a backslash typed (a broken escape)', inside('a.example'), 0, '\\'],
    ['the backslash of an escape deleted', doc.indexOf('\\"a.example'), 1, ''],
    ['a key edited', inside('action"'), 0, 's'],
    ['a number edited', doc.indexOf('12'), 0, '3'],
    ['a property added', doc.indexOf('"enabled"'), 0, '"x": 1, '],
    ['an edit across two strings', inside('block'), doc.indexOf('and not') - inside('block'), 'x'],
    ['a control character typed in a string', inside('a.example'), 0, '\n'],
  ] as const;
  it.each(refused)('%s: refused, the tree untouched', (_, at, removed, insert) => {
    const t = tree(doc);
    const after = edit(doc, at, at + removed, insert);
    expect(carryJsonTree(t, doc, after)).toBe(false);
    expect(t).toEqual(tree(doc));
  });

  it('the same text: nothing to do', () => {
    const t = tree(doc);
    expect(carryJsonTree(t, doc, doc)).toBe(true);
    expect(t).toEqual(tree(doc));
  });

  it('keystroke after keystroke, the carried tree stays a fresh parse', () => {
    let text = doc;
    let t: JsonValue | undefined = tree(text);
    let at = inside('a.example.com');
    let parsedAgain = 0;
    for (const ch of 'xyz \\"q\\" or ssl') {
      const after = edit(text, at, at, ch);
      // as an editor does: carry the tree, else parse (a lone backslash is not JSON until its escape is typed)
      if (!t || !carryJsonTree(t, text, after)) {
        t = parseJson(after).value;
        parsedAgain++;
      }
      text = after;
      at += ch.length;
      expect(t).toEqual(parseJson(text).value);
    }
    // the two backslashes (not JSON yet) and the quotes that complete their escapes
    expect(parsedAgain).toBe(4);
  });
});

describe('ruleDocumentExpressionAt with a tree', () => {
  it('answers as from the text at every offset', () => {
    const t = tree(doc);
    for (let offset = 0; offset <= doc.length; offset++) expect(found(doc, offset, { tree: t })).toEqual(found(doc, offset));
  });
  it('a document that is not JSON (tree given as undefined) has no expression, and is not parsed again', () => {
    expect(ruleDocumentExpressionAt(doc, inside('a.example'), { tree: undefined })).toBeUndefined();
  });
});
