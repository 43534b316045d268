/** The README's language tour stays true: every source block followed by a json block compiles to it. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '@logfilter/core';
import { REPO } from './support/paths.js';

const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
const pairs = [...readme.matchAll(/```\n([^`]*?)```\n```json\n([^`]*?)```/g)].map((m) => ({ source: m[1], json: m[2].trim() }));

describe('README tour', () => {
  it('has examples', () => expect(pairs.length).toBeGreaterThanOrEqual(5));
  it.each(pairs.map((p) => [p.source.split('\n')[0], p] as const))('%s', (_, p) => {
    const r = compile(p.source);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.json).toBe(p.json);
  });
});
