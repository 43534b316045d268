/**
 * The differential harness: the built-in evaluator, and each engine running the SQL that `toSql` generates,
 * on the same NDJSON lines; every disagreement is returned with what each side said and the SQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLineMatcher, exactFilter, toSql } from '@logfilter/core';
import type { Engine } from './engines.js';

export interface Case {
  name: string;
  /** The filter JSON text (exact digits). */
  json: string;
  dataset: string;
}

export interface Mismatch {
  engine: string;
  case: string;
  line: string;
  evaluator: boolean;
  engineSaid: boolean | null;
  sql: string;
}

/** Puts `"__row":i` first in each line, as text, so numbers and escapes stay exactly as written. */
export function withRows(lines: readonly string[]): string {
  return lines.map((l, i) => l.replace(/^\s*\{\s*/, (m) => `{"__row":${i}${/^\s*\{\s*\}/.test(l) ? '' : ','}`)).join('\n') + '\n';
}

/** Writes the lines to a temporary NDJSON file and returns its path. */
export function writeLines(lines: readonly string[], dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logfilter-engines-'))): string {
  const file = path.join(dir, 'lines.ndjson');
  fs.writeFileSync(file, withRows(lines));
  return file;
}

/** Runs every case over every line on every engine; returns the disagreements (empty when all agree). */
export async function differential(cases: readonly Case[], lines: readonly string[], engines: readonly Engine[], file = writeLines(lines)): Promise<Mismatch[]> {
  const mismatches: Mismatch[] = [];
  const byDataset = new Map<string, Case[]>();
  for (const c of cases) byDataset.set(c.dataset, [...(byDataset.get(c.dataset) ?? []), c]);
  for (const [dataset, group] of byDataset) {
    const expected = group.map((c) => {
      // exactFilter: the filter's integers beyond 2^53 keep their digits (JSON.parse would round them)
      const m = createLineMatcher(exactFilter(c.json));
      return lines.map((l) => m.test(l));
    });
    for (const engine of engines) {
      const sqls = group.map((c) => {
        const r = toSql(c.json, { dialect: engine.dialect, dataset });
        if (!r.ok) throw new Error(`toSql failed on ${c.name}: ${r.diagnostics.map((d) => d.code).join(', ')}`);
        return { sql: r.sql!, fields: r.fields };
      });
      const fields = [...new Set(sqls.flatMap((s) => s.fields))];
      const got = await engine.run(file, fields, dataset, sqls.map((s) => s.sql));
      group.forEach((c, i) => {
        lines.forEach((line, row) => {
          const e = expected[i]![row]!;
          const g = got[i]![row];
          if (g !== e) mismatches.push({ engine: engine.dialect, case: c.name, line, evaluator: e, engineSaid: g ?? null, sql: sqls[i]!.sql });
        });
      });
    }
  }
  return mismatches;
}

/** One engine's verdicts (per case, per line) on its generated SQL. */
export async function runEngine(cases: readonly Case[], lines: readonly string[], engine: Engine, file = writeLines(lines)): Promise<(boolean | null)[][]> {
  const out: (boolean | null)[][] = [];
  const byDataset = new Map<string, number[]>();
  cases.forEach((c, i) => byDataset.set(c.dataset, [...(byDataset.get(c.dataset) ?? []), i]));
  for (const [dataset, indexes] of byDataset) {
    const sqls = indexes.map((i) => toSql(cases[i]!.json, { dialect: engine.dialect, dataset }));
    const fields = [...new Set(sqls.flatMap((s) => s.fields))];
    const got = await engine.run(file, fields, dataset, sqls.map((s) => s.sql!));
    indexes.forEach((i, k) => (out[i] = got[k]!));
  }
  return out;
}

/** A readable report of the first disagreements (test failure messages). */
export function describeMismatches(ms: readonly Mismatch[], max = 8): string {
  return ms
    .slice(0, max)
    .map((m) => `[${m.engine}] ${m.case}\n  line: ${m.line}\n  evaluator: ${m.evaluator}, engine: ${m.engineSaid}\n  sql: ${m.sql}`)
    .join('\n');
}
