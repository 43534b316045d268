/**
 * The filters and lines the differential tests run: every valid filter of the corpus, every compiling case of
 * the conformance fixtures, and the real log lines of the corpus (test/fixtures/corpus, sources in
 * test/fixtures/SOURCES.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { compile, decompile, getDataset, type FieldType } from '@logfilter/core';
import { CORPUS, REPO } from '../support/paths.js';
import type { Case } from './differential.js';

const NO_LIMITS = { maxOperators: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER };

/** Exact filter JSON through the canonical source (integers keep their digits). */
function exactJson(input: string): string | undefined {
  const d = decompile(input, {});
  if (!d.ok || d.source === undefined) return undefined;
  return compile(d.source, { dataset: 'any', ...NO_LIMITS }).json;
}

/** `not (F)` through the compiler (which pushes `not` down by De Morgan): the language-level negation of F. */
export function negated(c: Case): Case | undefined {
  const d = decompile(c.json, {});
  if (!d.ok || d.source === undefined) return undefined;
  const json = compile(`not (\n${d.source})\n`, { dataset: 'any', ...NO_LIMITS }).json;
  return json ? { ...c, name: `not (${c.name})`, json } : undefined;
}

/** Every corpus filter that is (or, wrapped in `where`, becomes) a valid filter. */
export function corpusCases(): Case[] {
  const rows = fs.readFileSync(path.join(CORPUS, 'filters.jsonl'), 'utf8').trim().split('\n');
  const cases: Case[] = [];
  rows.forEach((row, i) => {
    const r = JSON.parse(row) as { original: string; filter: unknown };
    const wrapped = r.filter && typeof r.filter === 'object' && !('where' in r.filter) ? JSON.stringify({ where: r.filter }) : undefined;
    const json = exactJson(r.original) ?? (wrapped ? exactJson(wrapped) : undefined);
    if (json) cases.push({ name: `corpus #${i + 1}: ${json}`, json, dataset: 'http_requests' });
  });
  return cases;
}

/** Every conformance case with a `--- json` section (it compiles), with its dataset. */
export function conformanceCases(): Case[] {
  const dir = path.join(REPO, 'test', 'conformance', 'fixtures');
  const cases: Case[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.txt')).sort()) {
    for (const block of fs.readFileSync(path.join(dir, file), 'utf8').split(/^=== /m).slice(1)) {
      const name = block.slice(0, block.indexOf('\n'));
      if (!/^--- json$/m.test(block)) continue;
      let body = block.slice(block.indexOf('\n') + 1);
      const optionsLine = /^--- options (.*)\n/.exec(body);
      const options = optionsLine ? (JSON.parse(optionsLine[1]!) as Record<string, unknown>) : {};
      if (optionsLine) body = body.slice(optionsLine[0].length);
      const source = body.split(/^--- /m)[0]!;
      const r = compile(source, { ...options, ...NO_LIMITS });
      if (!r.ok || !r.json) continue;
      cases.push({ name: `${file}: ${name}`, json: r.json, dataset: r.dataset === 'any' ? 'http_requests' : r.dataset });
    }
  }
  return cases;
}

/** A JSON value fits a field type (null fits every type: it reads as absent). */
function fits(v: unknown, type: FieldType): boolean {
  if (v === null) return true;
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'int':
      return Number.isInteger(v);
    case 'float':
      return typeof v === 'number';
    case 'bool':
      return typeof v === 'boolean';
    case 'int or string':
      return Number.isInteger(v) || typeof v === 'string';
    case 'array[string]':
      return Array.isArray(v) && v.every((x) => typeof x === 'string');
    case 'array[int]':
      return Array.isArray(v) && v.every((x) => Number.isInteger(x));
    case 'object':
      return typeof v === 'object' && !Array.isArray(v);
    case 'array[object]':
      return Array.isArray(v);
  }
}

/**
 * The real log lines of a dataset that are well-typed per its schema (the corpus also holds lines with, say,
 * a string where the schema says array, to test the evaluator; a typed table cannot hold those).
 */
export function realLines(dataset: string): string[] {
  const schema = getDataset(dataset)!;
  const files = fs.readdirSync(CORPUS).filter((f) => f.startsWith(`${dataset}_samples`) && f.endsWith('.ndjson'));
  const lines = files.flatMap((f) => fs.readFileSync(path.join(CORPUS, f), 'utf8').split('\n').filter((l) => l.trim() !== ''));
  return lines.filter((l) => {
    const o = JSON.parse(l) as Record<string, unknown>;
    return Object.entries(o).every(([k, v]) => !schema.byName.has(k) || fits(v, schema.byName.get(k)!.type));
  });
}
