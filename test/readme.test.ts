/**
 * The README's language tour stays true: every source block followed by a json block compiles to it. Its
 * set-up block (which .ci/run runs as written) is the set-up line and `npm test`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '@logfilter/core';
import { REPO } from './support/paths.js';

const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
/** Fenced blocks in order, with their language; a plain block directly followed by a json block is a pair. */
const blocks: { lang: string; text: string; end: number; start: number }[] = [];
{
  const lines = readme.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]);
    blocks.push({ lang: open[1], text: `${body.join('\n')}\n`, start, end: i });
  }
}
const pairs = blocks
  .map((b, i) => ({ b, next: blocks[i + 1] }))
  .filter(({ b, next }) => b.lang === '' && next?.lang === 'json' && next.start === b.end + 1)
  .map(({ b, next }) => ({ source: b.text, json: next!.text.trim() }));

describe('README tour', () => {
  it('has examples', () => expect(pairs.length).toBeGreaterThanOrEqual(5));
  it.each(pairs.map((p) => [p.source.split('\n')[0], p] as const))('%s', (_, p) => {
    const r = compile(p.source);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.json).toBe(p.json);
  });
});

describe('README set-up block', () => {
  it('is the first sh block: install, build and compile the example filter, then npm test; .ci/run runs it', () => {
    const setup = blocks.find((b) => b.lang === 'sh')!;
    const lines = setup.text.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^npm ci && npm run build && npx compile-filter \S+\.logfilter$/);
    expect(readFileSync(path.join(REPO, lines[0]!.split(' ').at(-1)!), 'utf8').length).toBeGreaterThan(0);
    expect(lines[1]).toBe('npm test');
    expect(readFileSync(path.join(REPO, '.ci/run'), 'utf8')).toContain("/^```sh$/");
  });
});
