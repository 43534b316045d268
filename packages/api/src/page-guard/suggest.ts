/**
 * `policy suggest`: a script-src value that allows the scripts observed (active, not malicious) and nothing that was
 * left out. Same-origin scripts become 'self'; a host serving at least `minScriptsPerHost` distinct scripts becomes a
 * host source; others their full URL. A shortcut that would also allow a left-out script (a malicious one on the same
 * host or origin) is not taken: the good scripts there are listed by URL instead. Pure.
 */
import { parseCspValue, scriptElementDirective } from './csp.js';
import { directiveAllows } from './csp-match.js';
import { isMaliciousConnection, isMaliciousScript, type MaliciousRule } from './malicious.js';
import { pageOrigin } from './origin.js';
import type { Connection, Script } from './types.js';

export type SuggestSourceKind = 'self' | 'host' | 'url';

export interface SuggestedSource {
  source: string;
  kind: SuggestSourceKind;
  /** The scripts it allows, by id and URL. */
  scripts: { id: string; url: string }[];
}

/** Why a script is not allowed by the suggestion (README of @logfilter/api). */
export type LeftOutReason =
  | 'malicious'
  | 'reported-malicious'
  | 'malicious-connection'
  | 'not-active'
  | 'no-url'
  | 'not-a-network-url'
  | 'ipv6-host'
  | 'same-url-as-left-out';

export interface LeftOutScript {
  id: string;
  url?: string;
  reason: LeftOutReason;
}

export interface Suggestion {
  /** The directive text, e.g. `script-src 'self' https://cdn.example.com`. */
  value: string;
  sources: SuggestedSource[];
  leftOut: LeftOutScript[];
  /** A rules-language expression selecting the page hosts the scripts were seen on. */
  expression: string;
}

export interface SuggestOptions {
  malicious?: MaliciousRule;
  /** Distinct script URLs on one host from which a host source is proposed (default 2). */
  minScriptsPerHost?: number;
}

/** The URL as a CSP source: scheme, host, port when not the default, path (no query or fragment; `;` `,` `'` encoded, which the value's checker refuses in a path and the URL parser leaves as they are). */
function urlSource(u: URL, withPath: boolean): string {
  const base = `${u.protocol}//${u.host}`;
  return withPath ? base + u.pathname.replace(/;/g, '%3B').replace(/,/g, '%2C').replace(/'/g, '%27') : base;
}

function quoteHost(h: string): string {
  return JSON.stringify(h);
}

/** Hosts that a connection reported malicious went to. */
export function maliciousConnectionHosts(connections: readonly Connection[]): Set<string> {
  const hosts = new Set<string>();
  for (const c of connections) {
    if (!isMaliciousConnection(c) || typeof c.url !== 'string') continue;
    try {
      hosts.add(new URL(c.url).hostname);
    } catch {
      /* a connection without a usable URL says nothing about hosts */
    }
  }
  return hosts;
}

/** Why a script must not be allowed (malicious, reported malicious, or from a host a malicious connection went to); undefined when none. */
export function unwantedReason(s: Script, badConnectionHosts: ReadonlySet<string>, rule: MaliciousRule = {}): 'malicious' | 'reported-malicious' | 'malicious-connection' | undefined {
  if (isMaliciousScript(s, rule)) return 'malicious';
  if (s.domain_reported_malicious === true || s.url_reported_malicious === true) return 'reported-malicious';
  try {
    if (typeof s.url === 'string' && badConnectionHosts.has(new URL(s.url).hostname)) return 'malicious-connection';
  } catch {
    /* no host, no verdict */
  }
  return undefined;
}

export function suggestPolicy(scripts: readonly Script[], connections: readonly Connection[] = [], options: SuggestOptions = {}): Suggestion {
  const minPerHost = Math.max(1, options.minScriptsPerHost ?? 2);
  const badConnectionHosts = maliciousConnectionHosts(connections);

  interface Candidate {
    script: Script;
    url: URL;
    origin?: string;
  }
  const candidates: Candidate[] = [];
  const leftOut: (LeftOutScript & { parsed?: URL; origin?: string })[] = [];
  for (const s of scripts) {
    if (typeof s.url !== 'string' || s.url === '') {
      leftOut.push({ id: s.id, reason: 'no-url' });
      continue;
    }
    let url: URL;
    try {
      url = new URL(s.url);
    } catch {
      leftOut.push({ id: s.id, url: s.url, reason: 'not-a-network-url' });
      continue;
    }
    const origin = pageOrigin(s);
    const out = (reason: LeftOutReason) => leftOut.push({ id: s.id, url: s.url, reason, parsed: url, origin });
    const unwanted = unwantedReason(s, badConnectionHosts, options.malicious);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') out('not-a-network-url');
    else if (unwanted) out(unwanted);
    // CSP's host-source grammar has no IPv6 literal: no source can name such a script ('self' aside)
    else if (url.hostname.startsWith('[') && url.origin !== origin) out('ipv6-host');
    else if (s.status !== undefined && s.status !== 'active') out('not-active');
    else candidates.push({ script: s, url, origin });
  }

  // Left-out network scripts a source must not allow ('not-active' ones are only unobserved lately, not unwanted).
  const forbidden = leftOut.filter((l) => l.parsed && l.reason !== 'not-active' && l.reason !== 'not-a-network-url' && l.reason !== 'ipv6-host');
  const allowsForbidden = (value: string) => {
    const directive = scriptElementDirective(parseCspValue(`script-src ${value}`));
    return forbidden.some((f) => f.origin !== undefined && directiveAllows(directive, f.parsed!.href, f.origin).allowed);
  };

  const sources: SuggestedSource[] = [];
  const add = (source: string, kind: SuggestSourceKind, c: Candidate) => {
    let entry = sources.find((x) => x.source === source);
    if (!entry) sources.push((entry = { source, kind, scripts: [] }));
    entry.scripts.push({ id: c.script.id, url: c.script.url! });
  };

  const selfOk = !allowsForbidden("'self'");
  const rest: Candidate[] = [];
  for (const c of candidates) {
    if (selfOk && c.origin !== undefined && c.url.origin === c.origin) add("'self'", 'self', c);
    else rest.push(c);
  }

  const byHost = new Map<string, Candidate[]>();
  for (const c of rest) {
    const key = urlSource(c.url, false);
    byHost.set(key, [...(byHost.get(key) ?? []), c]);
  }
  for (const [host, group] of [...byHost].sort(([a], [b]) => a.localeCompare(b))) {
    const paths = new Set(group.map((c) => c.url.pathname));
    if (paths.size >= minPerHost && !allowsForbidden(host)) {
      for (const c of group) add(host, 'host', c);
      continue;
    }
    for (const c of group.sort((a, b) => a.url.href.localeCompare(b.url.href))) {
      const src = urlSource(c.url, true);
      if (allowsForbidden(src)) leftOut.push({ id: c.script.id, url: c.script.url, reason: 'same-url-as-left-out' });
      else add(src, 'url', c);
    }
  }

  const order: Record<SuggestSourceKind, number> = { self: 0, host: 1, url: 2 };
  sources.sort((a, b) => order[a.kind] - order[b.kind] || a.source.localeCompare(b.source));
  for (const x of sources) x.scripts.sort((a, b) => a.url.localeCompare(b.url));
  const value = `script-src ${sources.length ? sources.map((s) => s.source).join(' ') : "'none'"}`;
  const hosts = [...new Set(scripts.map((s) => s.host).filter((h): h is string => typeof h === 'string' && h !== ''))].sort();
  const expression = hosts.length === 0 ? 'true' : hosts.length === 1 ? `http.host eq ${quoteHost(hosts[0])}` : `http.host in {${hosts.map(quoteHost).join(' ')}}`;
  return { value, sources, leftOut: leftOut.map(({ id, url, reason }) => ({ id, ...(url !== undefined ? { url } : {}), reason })), expression };
}
