/** How many diagnostics a document publishes, and which, when a pasted filter has thousands. */
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity } from 'vscode-languageserver/node.js';
import { compile, type Diagnostic } from '@logfilter/core';
import { MAX_PUBLISHED, toDiagnostics } from '../src/convert.js';

const doc = (text: string) => TextDocument.create('file:///x.logfilter', 'logfilter', 1, text);
const diag = (start: number, severity: Diagnostic['severity'], code: string): Diagnostic =>
  ({ start, end: start + 1, severity, code, message: code }) as Diagnostic;

describe('toDiagnostics', () => {
  it('publishes every diagnostic up to the limit, in the core order, with codes', () => {
    const text = 'BotScore == 1 or BotScore == 1 or BotScore == 1';
    const r = compile(text, { dataset: 'http_requests' });
    const out = toDiagnostics(doc(text), r.diagnostics);
    expect(out).toHaveLength(r.diagnostics.length);
    expect(out.map((d) => d.code)).toEqual(r.diagnostics.map((d) => d.code));
  });

  it('keeps errors before warnings past the limit, in document order, and notes how many were left out', () => {
    const text = 'x'.repeat(100);
    const all = [diag(0, 'warning', 'w0'), diag(1, 'warning', 'w1'), diag(2, 'error', 'e2'), diag(3, 'info', 'i3'), diag(4, 'error', 'e4'), diag(5, 'warning', 'w5')];
    const out = toDiagnostics(doc(text), all, 4);
    expect(out.slice(0, 4).map((d) => d.code)).toEqual(['w0', 'w1', 'e2', 'e4']);
    const note = out[4];
    expect(note.code).toBeUndefined();
    expect(note.severity).toBe(DiagnosticSeverity.Information);
    expect(note.message).toMatch(/\b2\b/);
    // at the first one left out in the document: i3 (offset 3)
    expect(note.range.start).toEqual({ line: 0, character: 3 });
    expect(out).toHaveLength(5);
  });

  it('caps a filter with thousands of duplicates at the limit plus one note, keeping its errors', () => {
    const text = Array.from({ length: 1500 }, () => 'BotScore == 1').join(' or ');
    const r = compile(text, { dataset: 'http_requests' });
    expect(r.diagnostics.length).toBeGreaterThan(MAX_PUBLISHED);
    const out = toDiagnostics(doc(text), r.diagnostics);
    expect(out).toHaveLength(MAX_PUBLISHED + 1);
    for (const code of new Set(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code))) {
      expect(out.map((d) => d.code)).toContain(code);
    }
    expect(out.at(-1)!.message).toMatch(new RegExp(`\\b${r.diagnostics.length - MAX_PUBLISHED}\\b`));
  });
});
