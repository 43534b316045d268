/**
 * Wildcard patterns (`wildcard`, `strict wildcard`, wildcard_replace()): the whole value must match; `*` is
 * any run of bytes, lazy (the shortest first, as the documentation says of wildcard_replace); `\*` and `\\`
 * are the only escapes. Case-insensitive compares ASCII letters without case. Matching is a dynamic
 * programme over (pattern position, value position): quadratic at worst, never exponential.
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

/** The texts the stars matched, or undefined when the whole value does not match. */
export function wildcardCaptures(value: string, pattern: string, caseInsensitive: boolean): string[] | undefined {
  const ps = parts(pattern);
  const v = fold(value, caseInsensitive);
  // memo of failures: (part index, value offset)
  const failed = new Set<number>();
  const caps: string[] = [];
  const go = (pi: number, vi: number): boolean => {
    if (pi === ps.length) return vi === v.length;
    const key = pi * (v.length + 1) + vi;
    if (failed.has(key)) return false;
    const p = ps[pi]!;
    if (!p.star) {
      const lit = fold(p.lit, caseInsensitive);
      if (v.startsWith(lit, vi) && go(pi + 1, vi + lit.length)) return true;
    } else {
      for (let end = vi; end <= v.length; end++) {
        caps.push(value.slice(vi, end));
        if (go(pi + 1, end)) return true;
        caps.pop();
      }
    }
    failed.add(key);
    return false;
  };
  return go(0, 0) ? caps : undefined;
}

export function wildcardMatches(value: string, pattern: string, caseInsensitive: boolean): boolean {
  return wildcardCaptures(value, pattern, caseInsensitive) !== undefined;
}
