/** Closest names by edit distance, for "did you mean" suggestions. */

/** Levenshtein distance of `a` and `b`; past `max`, `max + 1` (the work stops as soon as it is known). */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (cur[j] < rowMin) rowMin = cur[j];
    }
    if (rowMin > max) return max + 1;
    [prev, cur] = [cur, prev];
  }
  return Math.min(prev[b.length], max + 1);
}

/**
 * Up to `limit` candidates close to `name`: case-insensitive equality first, then by edit distance within
 * a third of the name's length (at least 2), then names that contain it.
 */
export function closest(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const lower = name.toLowerCase();
  const max = Math.max(2, Math.floor(name.length / 3));
  const scored: { c: string; score: number }[] = [];
  for (const c of candidates) {
    const cl = c.toLowerCase();
    let score: number;
    if (cl === lower) score = 0;
    else {
      const d = editDistance(lower, cl, max);
      if (d <= max) score = d;
      else if (lower.length >= 4 && (cl.includes(lower) || lower.includes(cl))) score = max + 0.5;
      else continue;
    }
    scored.push({ c, score });
  }
  scored.sort((a, b) => a.score - b.score || byCodeUnits(a.c.toLowerCase(), b.c.toLowerCase()) || byCodeUnits(a.c, b.c));
  return scored.slice(0, limit).map((s) => s.c);
}

/**
 * Code-unit order, not localeCompare: the same in every locale, and no ICU collator to create (tens of ms at
 * the first "did you mean" of a freshly started language server, on the way to the first squiggle).
 */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
