/**
 * Smallest edits between a text and its formatted version: one edit for the changed middle (so cursors
 * and folds outside it stay put), or line hunks for range formatting.
 */
export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

/** The one edit that turns `a` into `b`, or none. */
export function minimalEdit(a: string, b: string): OffsetEdit | undefined {
  if (a === b) return undefined;
  let p = 0;
  const max = Math.min(a.length, b.length);
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let s = 0;
  while (s < max - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  return { start: p, end: a.length - s, newText: b.slice(p, b.length - s) };
}

/** Above this many lines per side the quadratic line diff is not worth it: callers use `minimalEdit`. */
export const LINE_DIFF_LIMIT = 3000;

/**
 * Line hunks turning `a` into `b` (longest common subsequence of lines), as edits on `a`; undefined when
 * the texts are too large for the quadratic diff.
 */
export function lineHunks(a: string, b: string): OffsetEdit[] | undefined {
  const al = splitLines(a);
  const bl = splitLines(b);
  if (al.length > LINE_DIFF_LIMIT || bl.length > LINE_DIFF_LIMIT) return undefined;
  const n = al.length;
  const m = bl.length;
  // lcs[i][j]: common lines of al[i..] and bl[j..]
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i][j] = al[i] === bl[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const aStart: number[] = [0];
  for (const l of al) aStart.push(aStart[aStart.length - 1] + l.length);
  const hunks: OffsetEdit[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && al[i] === bl[j]) {
      i++;
      j++;
      continue;
    }
    const i0 = i;
    const j0 = j;
    while ((i < n || j < m) && !(i < n && j < m && al[i] === bl[j])) {
      if (j < m && (i >= n || lcs[i][j + 1] >= lcs[i + 1][j])) j++;
      else i++;
    }
    hunks.push({ start: aStart[i0], end: aStart[i], newText: bl.slice(j0, j).join('') });
  }
  return hunks;
}

/** Lines with their terminators, so joining them gives the text back. */
function splitLines(t: string): string[] {
  return t.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}
