/**
 * Diagnostics of a large filter at once after an edit, before its whole check (which takes seconds on a
 * 1 MB document) comes back from the worker: the edited region is checked on its own, in the context of the
 * last checked version, and the diagnostics outside it are carried over (shifted by the edit). The region is
 * the edited lines widened to whole conditions: from a line that starts with `and`/`or` (or the start) to
 * the next such line, outside any parenthesis. The limits are judged at the first condition past them, so
 * they stand when that place lies before the region and the region's own counts do not bring the filter
 * over a limit it was under; otherwise the edit is left to the whole check. A duplicate of a condition
 * elsewhere is found by the whole check only, which follows and replaces everything. Pure, main thread.
 */
import { compile, type Diagnostic } from '@logfilter/core';
import type { Published } from './convert.js';

/** What was last published for a document, in that version's text. */
export interface Checked {
  version: number;
  text: string;
  diagnostics: Diagnostic[];
  omitted?: Published['omitted'];
  dataset: string;
}

/** Codes that depend on the whole filter: the region's own check cannot say them. */
const WHOLE_FILTER = new Set(['too-many-operators', 'too-large', 'empty-filter', 'duplicate-condition', 'too-deep']);

/** Limits: judged at the first condition past them. */
const LIMITS = new Set(['too-many-operators', 'too-large']);

/** A region larger than this is left to the whole check (it would not be quick). */
const MAX_REGION = 16 * 1024;

/** The new version's diagnostics, or undefined when the edit cannot be judged on its own (then the whole check answers). */
export function quickDiagnostics(prev: Checked, text: string): Published | undefined {
  const old = prev.text;
  let p = 0;
  const min = Math.min(old.length, text.length);
  while (p < min && old.charCodeAt(p) === text.charCodeAt(p)) p++;
  let s = 0;
  while (s < min - p && old.charCodeAt(old.length - 1 - s) === text.charCodeAt(text.length - 1 - s)) s++;
  const delta = text.length - old.length;
  // an edit before a limit's place is the whole check's (below, exactly; here before any scan)
  if (prev.diagnostics.some((d) => LIMITS.has(d.code) && d.end > p)) return undefined;
  const region = conditionRegion(text, p, text.length - s);
  if (!region) return undefined;
  const [start, end] = region;
  // the same region in the previous text: the edit lies inside it
  const oldStart = start;
  const oldEnd = end - delta;
  const body = text.slice(start, end);
  const lead = /^\s*(?:and|or)\b/.exec(body)?.[0].length ?? 0;
  // a limit's place must be before the region, or no limit reached before or after the edit
  const limits = prev.diagnostics.filter((d) => LIMITS.has(d.code));
  if (limits.some((d) => d.end > start)) return undefined;
  const checked = compile(text.slice(start + lead, end), { dataset: prev.dataset });
  if (limits.length === 0) {
    const oldBody = old.slice(oldStart, oldEnd);
    const oldLead = /^\s*(?:and|or)\b/.exec(oldBody)?.[0].length ?? 0;
    const before = compile(old.slice(oldStart + oldLead, oldEnd), { dataset: prev.dataset }).stats;
    if (checked.stats.operators > before.operators || checked.stats.bytes > before.bytes) return undefined;
  }
  const own = checked.diagnostics.filter((d) => !WHOLE_FILTER.has(d.code)).map((d) => shift(d, start + lead));
  const kept: Diagnostic[] = [];
  for (const d of prev.diagnostics) {
    if (d.end <= oldStart && d.start < oldStart) kept.push(d);
    else if (d.start >= oldEnd) kept.push(shift(d, delta));
  }
  const all = [...kept.filter((d) => d.start < start), ...own, ...kept.filter((d) => d.start >= start)];
  return { kept: all, ...(prev.omitted ? { omitted: { ...prev.omitted, first: prev.omitted.first.start >= oldEnd ? shift(prev.omitted.first, delta) : prev.omitted.first } } : {}) };
}

function shift(d: Diagnostic, by: number): Diagnostic {
  return {
    ...d,
    start: d.start + by,
    end: d.end + by,
    ...(d.related ? { related: d.related.map((r) => ({ ...r, start: r.start + by, end: r.end + by })) } : {}),
    ...(d.fixes ? { fixes: d.fixes.map((f) => ({ ...f, edits: f.edits.map((e) => ({ ...e, start: e.start + by, end: e.end + by })) })) } : {}),
  };
}

/**
 * [start, end) of whole conditions around the changed span [from, to) of `text`: lines from one that starts
 * with `and`/`or` to the next, at parenthesis depth 0 at both ends and inside strings nowhere. Undefined when
 * the span touches the `dataset` line, a parenthesis is open across the boundary, or the region is large.
 */
function conditionRegion(text: string, from: number, to: number): [number, number] | undefined {
  let start = text.lastIndexOf('\n', from - 1) + 1;
  while (start > 0 && !startsCondition(text, start)) start = text.lastIndexOf('\n', start - 2) + 1;
  let end = text.indexOf('\n', Math.max(to, start));
  end = end < 0 ? text.length : end + 1;
  while (end < text.length && !startsCondition(text, end)) {
    const next = text.indexOf('\n', end);
    end = next < 0 ? text.length : next + 1;
  }
  if (end - start > MAX_REGION || !startsCondition(text, start)) return undefined;
  if (/^\s*dataset\b/m.test(text.slice(start, end))) return undefined;
  // the region must be closed in itself and open nothing before it
  if (depthAt(text, start) !== 0) return undefined;
  const inside = depths(text, start, end);
  if (inside.final !== 0 || inside.min < 0 || inside.unclosedString) return undefined;
  return [start, end];
}

/** A line at `at` whose first word is `and`/`or`; the start of the text counts too (after its dataset line, checked apart). */
function startsCondition(text: string, at: number): boolean {
  if (at === 0) return true;
  return /^[ \t]*(?:and|or)\b/.test(text.slice(at, at + 64));
}

/** Parenthesis depth at `offset`, outside strings and comments (a scan from the start: a few milliseconds for 1 MB). */
function depthAt(text: string, offset: number): number {
  const r = depths(text, 0, offset);
  return r.unclosedString ? -1 : r.final;
}

/** Parenthesis depth over [from, to) of `text` (no copy of a 1 MB prefix per keystroke). */
function depths(text: string, from: number, to: number): { final: number; min: number; unclosedString: boolean } {
  let depth = 0;
  let min = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x60) {
      // "…" with backslash escapes, `…` keys
      const quote = c;
      i++;
      while (i < to && text.charCodeAt(i) !== quote && text.charCodeAt(i) !== 0x0a) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      if (i >= to || text.charCodeAt(i) !== quote) return { final: depth, min, unclosedString: true };
    } else if (c === 0x23) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 || nl >= to ? to : nl;
    } else if (c === 0x28) depth++;
    else if (c === 0x29) min = Math.min(min, --depth);
  }
  return { final: depth, min, unclosedString: false };
}
