/**
 * Sound raw-text prefilters. From a filter we derive literals that the raw text of every matching line must
 * contain, in CNF: an `and` of clauses, each clause an `or` of needles. A line that satisfies no needle of some
 * clause cannot match and need not be parsed.
 *
 * Why a needle is necessary: a positive string condition holds only when some JSON string token decodes to a
 * value built from the filter text (`eq "s"` needs a token `"s"`, `startsWith` its prefix `"s`, `endsWith` its
 * suffix `s"`, `contains` the text `s`). That token either spells the text literally, or uses an escape
 * (`\u0026`, `\/`, `\"`...) for one of the text's characters. So a line can only match when it contains the
 * needle, or an escape that decodes to one of the needle's characters (its "triggers"). Escapes of other
 * characters (Go writes `&` as `\u0026` in every URL) do not make a line a candidate. Key order, whitespace,
 * duplicate keys and values in other fields only add candidates, which the full parse then rejects.
 *
 * Conditions that give no needle: every `!` operator (true on absent fields), comparisons, and equality with
 * numbers or numeric strings (a number has many spellings: `30`, `3e1`, `30.0`).
 */
import type { FilterCondition, FilterDocument, FilterNode, FilterScalar } from '../filter/filter.js';
import { isCondition } from '../filter/filter.js';
import { OPERATOR_BY_NAME } from '../filter/operators.js';
import { asList, asScalar, isNumericString, type EvalScalar } from './values.js';

export interface NeedleClause {
  /** The needles as text (for decoded lines). */
  readonly texts: readonly string[];
  /** The needles as UTF-8 bytes (for raw lines). */
  readonly bytes: readonly Uint8Array[];
  /** UTF-16 code units whose escape could stand for a character of a needle. */
  readonly triggers: ReadonlySet<number>;
}

/** An `and` of clauses; empty when the filter gives no necessary literal (every line is a candidate). */
export type NeedlePlan = NeedleClause[];

const encoder = new TextEncoder();

/**
 * Text that a needle can carry literally: no quote, backslash or control character (these are always escaped
 * in JSON, so their spelling is not fixed), and well-formed UTF-16 (a lone surrogate has no UTF-8 spelling).
 */
function literalSafe(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

interface Needle {
  text: string;
  /** The characters of the filter text inside the needle (not the quotes around it). */
  inner: string;
}

/** The needle for one scalar that a token must equal exactly (`eq`, `in`, array elements). */
/** (A number, double or bigint, has many spellings: no needle.) */
function tokenNeedle(v: EvalScalar): Needle | null {
  if (typeof v === 'boolean') return { text: String(v), inner: '' };
  if (typeof v === 'string' && !isNumericString(v) && literalSafe(v)) return { text: `"${v}"`, inner: v };
  return null;
}

function conditionNeedles(c: FilterCondition): Needle[] | null {
  const info = OPERATOR_BY_NAME.get(c.operator);
  if (!info || info.negative) return null;
  switch (info.name) {
    case 'eq': {
      const n = tokenNeedle(asScalar(c.value));
      return n ? [n] : null;
    }
    case 'in': {
      const out: Needle[] = [];
      for (const m of asList(c.value)) {
        const n = tokenNeedle(m);
        if (!n) return null;
        out.push(n);
      }
      return out.length > 0 ? out : null;
    }
    case 'startsWith':
    case 'endsWith':
    case 'contains': {
      const v = asScalar(c.value);
      if (typeof v !== 'string' && !(info.name === 'contains' && typeof v === 'boolean')) return null;
      const s = String(v);
      // A numeric text can equal an array element written as a number in any spelling.
      if (s === '' || !literalSafe(s) || (info.name === 'contains' && isNumericString(s))) return null;
      if (info.name === 'startsWith') return [{ text: `"${s}`, inner: s }];
      if (info.name === 'endsWith') return [{ text: `${s}"`, inner: s }];
      return [{ text: s, inner: s }];
    }
    default:
      return null;
  }
}

function clauseOf(needles: Needle[]): NeedleClause {
  const texts = [...new Set(needles.map((n) => n.text))];
  const triggers = new Set<number>();
  for (const n of needles) for (let i = 0; i < n.inner.length; i++) triggers.add(n.inner.charCodeAt(i));
  return { texts, bytes: texts.map((t) => encoder.encode(t)), triggers };
}

function mergeClauses(parts: NeedleClause[]): NeedleClause {
  const texts = [...new Set(parts.flatMap((p) => p.texts))];
  const triggers = new Set<number>();
  for (const p of parts) for (const t of p.triggers) triggers.add(t);
  return { texts, bytes: texts.map((t) => encoder.encode(t)), triggers };
}

/** Most clauses an `or` may expand into (the cross product of its children's clauses). */
const MAX_OR_CLAUSES = 16;

function nodePlan(n: FilterNode): NeedlePlan {
  if (isCondition(n)) {
    const needles = conditionNeedles(n);
    return needles ? [clauseOf(needles)] : [];
  }
  if ('and' in n && Array.isArray(n.and)) return n.and.flatMap(nodePlan);
  if ('or' in n && Array.isArray(n.or)) {
    const kids = n.or.map(nodePlan);
    if (kids.length === 0 || kids.some((k) => k.length === 0)) return [];
    // (A1 ∧ A2) ∨ (B1) ⇒ (A1 ∨ B1) ∧ (A2 ∨ B1): every combination is a necessary clause.
    let combos: NeedleClause[][] = [[]];
    for (const k of kids) {
      const next: NeedleClause[][] = [];
      for (const combo of combos) for (const c of k) next.push([...combo, c]);
      combos = next.length <= MAX_OR_CLAUSES ? next : combos.map((combo) => [...combo, k[0]!]);
    }
    return combos.map(mergeClauses);
  }
  return [];
}

/** The necessary literals of a filter (see the file comment). */
export function needlePlan(filter: FilterDocument): NeedlePlan {
  return nodePlan(filter.where);
}
