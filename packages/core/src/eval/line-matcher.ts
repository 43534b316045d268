/**
 * The raw-line matcher on decoded text: one log line in, a verdict out, skipping `JSON.parse` when the line
 * provably cannot match (the same necessary literals as the block scanner, searched in the string).
 */
import type { FilterDocument } from '../filter/filter.js';
import { parseExact } from './exact.js';
import { compileNode, isLogObject } from './matcher.js';
import { needlePlan, type NeedleClause } from './needles.js';
import { evalPlan, expectFilterDocument } from './plan.js';

export type LineVerdict = 'blank' | 'match' | 'no-match' | 'malformed';

export interface LineMatcher {
  /** True when the line is a JSON object the filter keeps. */
  test(line: string): boolean;
  /**
   * Blank, match, no-match or malformed. Without `validate`, a line skipped by the shortcut is `no-match` even
   * if it is not valid JSON; with it, every non-blank line is parsed.
   */
  classify(line: string, validate?: boolean): LineVerdict;
}

const SIMPLE_ESCAPES: Record<string, number> = { '"': 34, '\\': 92, '/': 47, b: 8, f: 12, n: 10, r: 13, t: 9 };
const HEX4 = /^[0-9a-fA-F]{4}$/;

function hasTrigger(line: string, triggers: ReadonlySet<number>): boolean {
  let p = line.indexOf('\\');
  while (p >= 0) {
    const c = line[p + 1] ?? '';
    let unit = -1;
    let width = 2;
    if (c === 'u' && HEX4.test(line.slice(p + 2, p + 6))) {
      unit = parseInt(line.slice(p + 2, p + 6), 16);
      width = 6;
    } else unit = SIMPLE_ESCAPES[c] ?? -1;
    if (unit >= 0 && triggers.has(unit)) return true;
    p = line.indexOf('\\', p + width);
  }
  return false;
}

function clauseHolds(line: string, c: NeedleClause): boolean {
  for (const t of c.texts) if (line.includes(t)) return true;
  return c.triggers.size > 0 && hasTrigger(line, c.triggers);
}

/** A line of only spaces, tabs and CR is blank. */
const BLANK = /^[ \t\r]*$/;

export function createLineMatcher(filter: FilterDocument): LineMatcher {
  expectFilterDocument(filter, 'createLineMatcher');
  const plan = evalPlan(filter);
  const root = compileNode(plan.root);
  const fields = plan.fields;
  const clauses = needlePlan(plan);
  const classify = (raw: string, validate = false): LineVerdict => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (BLANK.test(line)) return 'blank';
    if (!validate) {
      for (const c of clauses) if (!clauseHolds(line, c)) return 'no-match';
    }
    let value: unknown;
    try {
      value = parseExact(line, fields);
    } catch {
      return 'malformed';
    }
    if (!isLogObject(value)) return 'malformed';
    return root(value) ? 'match' : 'no-match';
  };
  return { classify, test: (line) => classify(line) === 'match' };
}
