/**
 * Conformance fixtures (see README.md): source → exact JSON bytes, or → exact codes with ranges, or →
 * exact formatter output. The fixture files are the readable half of the language's contract tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from "vitest";
import { compile, format, lineColumn, lineStarts, type CompileOptions, type Diagnostic } from '@logfilter/core';

interface Case {
  file: string;
  name: string;
  options: CompileOptions;
  source: string;
  json?: string;
  diagnostics?: string[];
  format?: string;
}

const dir = fileURLToPath(new URL('./fixtures/', import.meta.url));

export function readFixtures(file: string): Case[] {
  const text = readFileSync(path.join(dir, file), 'utf8');
  const cases: Case[] = [];
  for (const chunk of text.split(/^=== /m).slice(1)) {
    const lines = chunk.split('\n');
    const name = lines.shift()!.trim();
    const c: Case = { file, name, options: {}, source: '' };
    let section = 'source';
    const body: Record<string, string[]> = { source: [] };
    for (const line of lines) {
      const m = /^--- (\w+)(?: (.*))?$/.exec(line);
      if (m) {
        if (m[1] === 'options') c.options = JSON.parse(m[2]);
        else {
          section = m[1];
          body[section] = [];
        }
        continue;
      }
      body[section].push(line);
    }
    const trimEnd = (ls: string[]) => {
      while (ls.length && ls[ls.length - 1] === '') ls.pop();
      return ls;
    };
    c.source = trimEnd(body.source).join('\n');
    if (body.json) c.json = trimEnd(body.json).join('\n');
    if (body.diagnostics) c.diagnostics = trimEnd(body.diagnostics);
    if (body.format) c.format = `${trimEnd(body.format).join('\n')}\n`;
    cases.push(c);
  }
  return cases;
}

export function describeRanges(text: string, ds: readonly Diagnostic[]): string[] {
  const starts = lineStarts(text);
  return ds.map((d) => {
    const s = lineColumn(starts, d.start);
    const e = lineColumn(starts, d.end);
    return `${d.code} ${s.line}:${s.column}-${e.line}:${e.column}`;
  });
}

const files = readdirSync(dir).filter((f) => f.endsWith('.txt'));

for (const file of files) {
  describe(file, () => {
    for (const c of readFixtures(file)) {
      it(c.name, () => {
        if (c.format !== undefined) {
          const f = format(c.source);
          expect(f.ok).toBe(true);
          expect(f.text).toBe(c.format);
          expect(format(f.text).text).toBe(f.text);
          expect(compile(f.text, c.options).json).toBe(compile(c.source, c.options).json);
          return;
        }
        const r = compile(c.source, c.options);
        expect(describeRanges(c.source, r.diagnostics)).toEqual(c.diagnostics ?? []);
        if (c.json !== undefined) {
          expect(r.ok).toBe(true);
          expect(r.json).toBe(c.json);
        } else {
          expect(r.ok).toBe(false);
          expect(r.json).toBeUndefined();
        }
      });
    }
  });
}

describe('fixture files', () => {
  it('are all read and hold cases', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) expect(readFixtures(f).length).toBeGreaterThan(0);
  });
});
