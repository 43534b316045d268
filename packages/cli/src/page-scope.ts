/**
 * Which observed scripts a policy's expression covers: a policy applies to the pages its expression matches,
 * so `page-guard policy check` evaluates the expression (the core's rules evaluator, as `rules eval` does)
 * against each page a script was seen on — the page URL read as a request by its full URI (http.host,
 * ssl, http.request.uri and its parts: the core's readSampleRequest). A script is in scope when one of its
 * pages matches.
 */
import { evaluateRule, readSampleRequest, type RuleDiagnostic } from '@logfilter/core';

export const POLICY_EVAL_PHASE = 'http_response_page_shield';

export type PageScope<T> = { ok: true; inScope: T[]; outOfScope: T[] } | { ok: false; diagnostics: RuleDiagnostic[] };

export function scriptsInScope<T extends { first_page_url?: string; page_urls?: string[] }>(expression: string, scripts: readonly T[]): PageScope<T> {
  const inScope: T[] = [];
  const outOfScope: T[] = [];
  for (const s of scripts) {
    const pages = [...new Set([...(s.page_urls ?? []), ...(s.first_page_url ? [s.first_page_url] : [])])];
    let covered = false;
    for (const page of pages) {
      if (!/^https?:\/\//i.test(page)) continue;
      // the page as a request: its full URI gives http.host, ssl and the http.request.uri fields
      const r = evaluateRule(expression, readSampleRequest({ 'http.request.full_uri': page.replace(/#.*$/, '') }).fields, { phase: POLICY_EVAL_PHASE });
      if (!r.ok) {
        const p = r.problem;
        return { ok: false, diagnostics: p ? [{ code: 'rule-eval', severity: 'error', message: p.message, start: p.start, end: Math.max(p.end, p.start + 1) }] : r.diagnostics };
      }
      if (r.matched) {
        covered = true;
        break;
      }
    }
    (covered ? inScope : outOfScope).push(s);
  }
  return { ok: true, inScope, outOfScope };
}
