/**
 * Comments and names in the packages cite what a reader of the repository can open: docs/ or a package README,
 * never the design documents the project was started from (they are not in the repository). Every package is held
 * to it here.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = ['core', 'api', 'emulator', 'cli', 'language-server', 'vscode', 'playground'];
// The names of the design documents the project was started from, one per line (kept as data beside the other
// fixtures: a name listed there is what this test forbids, not a citation).
const OUTSIDE_NAMES = readFileSync(join(root, 'test/fixtures/citations/outside-documents.txt'), 'utf8').split('\n').filter(Boolean);
const OUTSIDE = new RegExp(OUTSIDE_NAMES.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));

function sources(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith('.ts') && !n.split(/[\\/]/).includes('node_modules')).map((n) => join(dir, n));
}

describe('citations', () => {
  const files = PACKAGES.flatMap((p) => ['src', 'test'].flatMap((d) => sources(join(root, 'packages', p, d))));

  it('finds the sources of every package it checks', () => {
    for (const p of PACKAGES) expect([p, files.some((f) => f.includes(join('packages', p, 'src')))]).toEqual([p, true]);
  });

  it('cites no document outside the repository', () => {
    const found = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (OUTSIDE.test(line) ? [`${f.slice(root.length)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
