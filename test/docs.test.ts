/**
 * docs/language.md stays true: every diagnostic code the core can produce has a section whose example
 * produces it, every source block followed by a json block compiles to it, and every in-page link has its
 * heading.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, compile, DIAGNOSTIC_CODES, type DiagnosticCode } from '@logfilter/core';
import { REPO } from './support/paths.js';

const doc = readFileSync(path.join(REPO, 'docs', 'language.md'), 'utf8');
const lines = doc.split('\n');

interface Block {
  lang: string;
  text: string;
  start: number;
  end: number;
}
const blocks: Block[] = [];
for (let i = 0; i < lines.length; i++) {
  const open = /^```(\w*)$/.exec(lines[i]);
  if (!open) continue;
  const start = i;
  const body: string[] = [];
  for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]);
  blocks.push({ lang: open[1], text: `${body.join('\n')}\n`, start, end: i });
}

/** `#### \`code\`` headings (a trailing note such as "(warning)" allowed) and the first block after each. */
const examples = new Map<string, Block>();
lines.forEach((line, i) => {
  const m = /^#### `([a-z-]+)`/.exec(line);
  if (!m) return;
  const block = blocks.find((b) => b.start > i);
  if (block) examples.set(m[1], block);
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchors = new Set(
  lines
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) =>
      l
        .replace(/^#+ /, '')
        .toLowerCase()
        .replace(/[^a-z0-9 _-]/g, '')
        .replace(/ /g, '-'),
    ),
);

describe('docs/language.md', () => {
  const codes = Object.keys(DIAGNOSTIC_CODES) as DiagnosticCode[];

  // Codes of another language of the core (such as the rules language) may be documented in their own page of
  // docs/; every other code has its example section here.
  const elsewhere = readdirSync(path.join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md') && f !== 'language.md')
    .map((f) => readFileSync(path.join(REPO, 'docs', f), 'utf8'))
    .join('\n');
  const here = codes.filter((c) => examples.has(c) || !elsewhere.includes(`\`${c}\``));

  it('has an example section for every diagnostic code of the core not documented in another page of docs/', () => {
    expect(codes.filter((c) => !examples.has(c) && !elsewhere.includes(`\`${c}\``))).toEqual([]);
    expect([...examples.keys()].filter((c) => !(c in DIAGNOSTIC_CODES))).toEqual([]);
    expect(examples.size).toBeGreaterThanOrEqual(28);
  });

  it.each(here)('the example of %s produces it, with its severity', (code) => {
    const block = examples.get(code);
    expect(block, `no example for ${code}`).toBeDefined();
    const text = block!.text;
    const result = block!.lang === 'json' ? check(text) : compile(text);
    const found = result.diagnostics.find((d) => d.code === code);
    expect(found, `${code}: got ${result.diagnostics.map((d) => d.code).join(', ')}`).toBeDefined();
    expect(found!.severity).toBe(DIAGNOSTIC_CODES[code]);
  });

  const pairs = blocks
    .map((b, i) => ({ b, next: blocks[i + 1] }))
    .filter(({ b, next }) => b.lang === '' && next?.lang === 'json' && next.start === b.end + 1);

  it('has compiled examples', () => expect(pairs.length).toBeGreaterThanOrEqual(3));

  it.each(pairs.map(({ b, next }) => [b.text.split('\n')[0], b.text, next!.text.trim()] as const))('%s compiles as shown', (_, source, json) => {
    const r = compile(source);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.json).toBe(json);
  });

  it('has every section that comments and READMEs cite by its anchor', () => {
    const cited = new Set<string>();
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.') || e.name === 'fixtures') continue;
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(ts|mjs|md|json)$/.test(e.name)) for (const m of readFileSync(p, 'utf8').matchAll(/docs\/language\.md#([a-z0-9-]+)/g)) cited.add(m[1]);
      }
    };
    for (const d of ['packages', 'test', 'bench', 'scripts']) walk(path.join(REPO, d));
    for (const m of readFileSync(path.join(REPO, 'README.md'), 'utf8').matchAll(/docs\/language\.md#([a-z0-9-]+)/g)) cited.add(m[1]);
    expect(cited.size).toBeGreaterThan(5);
    expect([...cited].filter((a) => !anchors.has(a))).toEqual([]);
  });

  it('links only to headings it has', () => {
    const links = [...doc.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((l) => !anchors.has(l))).toEqual([]);
  });
});
