/**
 * Wildcard patterns (`wildcard`, `strict wildcard`, wildcard_replace()): the whole value must match; `*` is
 * any run of bytes, lazy (the shortest first, as the documentation says of wildcard_replace); `\*` and `\\`
 * are the only escapes. Case-insensitive compares ASCII letters without case. Matching backtracks only to the
 * last star: O(pattern × value) at worst, never exponential.
 */

type Part = { star: true } | { star: false; lit: string };

function parts(pattern: string): Part[] {
  const out: Part[] = [];
  let lit = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && (pattern[i + 1] === '*' || pattern[i + 1] === '\\')) lit += pattern[++i];
    else if (c === '*') {
      if (lit) out.push({ star: false, lit });
      lit = '';
      out.push({ star: true });
    } else lit += c;
  }
  if (lit) out.push({ star: false, lit });
  return out;
}

const fold = (s: string, ci: boolean) => (ci ? s.replace(/[A-Z]/g, (c) => c.toLowerCase()) : s);

/**
 * The texts the stars matched, or undefined when the whole value does not match. The classic glob match:
 * each star takes as little as it can, and on a mismatch only the last star grows by one. That is complete
 * for `*`-only patterns (a later star can absorb whatever an earlier one would), gives every star its
 * shortest (lazy) text, and takes O(pattern × value) steps at worst.
 */
export function wildcardCaptures(value: string, pattern: string, caseInsensitive: boolean): string[] | undefined {
  const ps = parts(pattern);
  const v = fold(value, caseInsensitive);
  const lits = ps.map((p) => (p.star ? '' : fold(p.lit, caseInsensitive)));
  const starts: number[] = new Array(ps.length).fill(-1);
  let pi = 0;
  let vi = 0;
  let lastStar = -1;
  let lastStarValue = 0;
  for (;;) {
    if (pi === ps.length && vi === v.length) break;
    const p = ps[pi];
    if (p && p.star) {
      starts[pi] = vi;
      lastStar = pi;
      lastStarValue = vi;
      pi++;
      continue;
    }
    if (p && v.startsWith(lits[pi]!, vi)) {
      vi += lits[pi]!.length;
      pi++;
      continue;
    }
    // mismatch (or the pattern ended early): the last star takes one more byte
    if (lastStar < 0 || lastStarValue >= v.length) return undefined;
    lastStarValue++;
    pi = lastStar + 1;
    vi = lastStarValue;
  }
  // each star's text runs from where it started to where the next literal (or the end) began
  const caps: string[] = [];
  let end = value.length;
  const ends: number[] = new Array(ps.length).fill(0);
  for (let i = ps.length - 1; i >= 0; i--) {
    const p = ps[i]!;
    if (p.star) {
      ends[i] = end;
      end = starts[i]!;
    } else end -= lits[i]!.length;
  }
  ps.forEach((p, i) => {
    if (p.star) caps.push(value.slice(starts[i]!, ends[i]!));
  });
  return caps;
}

export function wildcardMatches(value: string, pattern: string, caseInsensitive: boolean): boolean {
  return wildcardCaptures(value, pattern, caseInsensitive) !== undefined;
}
