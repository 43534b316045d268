/**
 * Fenced blocks of the documentation (README.md, docs/*.md, packages/*\/README.md), each with its place, its
 * language and the marker the line before it may carry:
 *
 *   <!-- not runnable: REASON -->   the block is shown, not run (a synopsis, an output, a set-up step); the reason
 *                                   is required and says why
 *
 * test/docs-blocks.test.ts runs every other block.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './paths.js';

export interface DocBlock {
  /** Repository-relative file. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  text: string;
  /** The reason of a `not runnable` marker, when there is one ('' when the marker gives none). */
  notRunnable?: string;
  /** Another HTML comment on the line before (such as `nvim-0.10`, which the Neovim test reads). */
  tag?: string;
}

export function docFiles(): string[] {
  const docs = readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  const packages = readdirSync(path.join(REPO, 'packages'))
    .map((p) => `packages/${p}/README.md`)
    .filter((f) => {
      try {
        readFileSync(path.join(REPO, f));
        return true;
      } catch {
        return false;
      }
    });
  return ['README.md', ...docs.sort(), ...packages.sort()];
}

export function docBlocks(file: string): DocBlock[] {
  const lines = readFileSync(path.join(REPO, file), 'utf8').split('\n');
  const out: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]); i++) body.push(lines[i].slice(Math.min(indent, lines[i].length - lines[i].trimStart().length)));
    let before = start - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const marker = before >= 0 ? /^\s*<!--\s*not runnable:\s*(.*?)\s*-->\s*$/.exec(lines[before]) : null;
    const tag = before >= 0 && !marker ? /^\s*<!--\s*(.*?)\s*-->\s*$/.exec(lines[before]) : null;
    out.push({ file, line: start + 1, lang: open[2], text: `${body.join('\n')}\n`, ...(marker ? { notRunnable: marker[1] } : {}), ...(tag ? { tag: tag[1] } : {}) });
  }
  return out;
}
