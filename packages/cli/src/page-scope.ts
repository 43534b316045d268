/**
 * Which observed scripts a policy's expression covers: a policy applies to the pages its expression matches,
 * so `page-guard policy check` evaluates the expression (the core's rules evaluator, as `rules eval` does)
 * against each page a script was seen on — the page URL read as a request: http.host,
 * http.request.full_uri, http.request.uri(.path, .query, .path.extension, .args) and ssl. A script is in
 * scope when one of its pages matches.
 */
import { evaluateRule, readSampleRequest, type RuleDiagnostic } from '@logfilter/core';

export const POLICY_EVAL_PHASE = 'http_response_page_shield';

export type PageScope<T> = { ok: true; inScope: T[]; outOfScope: T[] } | { ok: false; diagnostics: RuleDiagnostic[] };

/** The request fields of a page URL (undefined for what is no URL). */
export function pageRequest(pageUrl: string): Record<string, unknown> | undefined {
  let u: URL;
  try {
    u = new URL(pageUrl);
  } catch {
    return undefined;
  }
  const path = u.pathname;
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  const args: Record<string, string[]> = {};
  for (const [k, v] of u.searchParams) (args[k] ??= []).push(v);
  const query = u.search.replace(/^\?/, '');
  return {
    'http.host': u.hostname,
    'http.request.full_uri': `${u.protocol}//${u.host}${path}${u.search}`,
    'http.request.uri': `${path}${u.search}`,
    'http.request.uri.path': path,
    'http.request.uri.path.extension': dot > 0 ? last.slice(dot + 1).toLowerCase() : '',
    'http.request.uri.query': query,
    'http.request.uri.args': args,
    ssl: u.protocol === 'https:',
  };
}

export function scriptsInScope<T extends { first_page_url?: string; page_urls?: string[] }>(expression: string, scripts: readonly T[]): PageScope<T> {
  const inScope: T[] = [];
  const outOfScope: T[] = [];
  for (const s of scripts) {
    const pages = [...new Set([...(s.page_urls ?? []), ...(s.first_page_url ? [s.first_page_url] : [])])];
    let covered = false;
    for (const page of pages) {
      const fields = pageRequest(page);
      if (!fields) continue;
      const r = evaluateRule(expression, readSampleRequest(fields).fields, { phase: POLICY_EVAL_PHASE });
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
