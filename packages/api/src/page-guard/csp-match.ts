/**
 * CSP Level 3 source matching (W3C CSP3 §6.7.2, "Does url match expression in origin with redirect count"), for
 * `policy check`: whether a script URL loaded by a page of a given origin is allowed by a directive. Pure functions
 * over parsed sources (csp.ts); redirects are not modelled (redirect count 0: paths are compared).
 */
import type { CspDirective, CspSource } from './csp.js';

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443', 'ftp:': '21' };

/** §6.7.2.7 scheme-part match: `http` also matches `https`, `ws` matches `wss`, `http`, `https`; `wss` matches `https`. */
export function schemePartMatches(a: string, b: string): boolean {
  const x = a.toLowerCase().replace(/:$/, '');
  const y = b.toLowerCase().replace(/:$/, '');
  if (x === y) return true;
  if (x === 'http' && y === 'https') return true;
  if (x === 'ws' && (y === 'wss' || y === 'http' || y === 'https')) return true;
  if (x === 'wss' && y === 'https') return true;
  return false;
}

/** §6.7.2.8 host-part match: `*.example.com` matches subdomains of any depth, never example.com itself. */
export function hostPartMatches(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase().replace(/\.$/, '');
  const h = host.toLowerCase().replace(/\.$/, '');
  if (p.startsWith('*')) {
    const rest = p.slice(1);
    return h.length > rest.length && h.endsWith(rest);
  }
  return p === h;
}

/** §6.7.2.10 port-part match. `port` is the source's port text (undefined: none given); `url` is a parsed URL. */
export function portPartMatches(port: string | undefined, url: URL): boolean {
  if (port === '*') return true;
  const input = port === undefined || port === '' ? null : String(Number(port));
  const urlPort = url.port === '' ? null : url.port;
  if (input === urlPort) return true;
  if (urlPort === null && input !== null && DEFAULT_PORTS[url.protocol] === input) return true;
  return false;
}

/** §6.7.2.11 path-part match: a path ending in `/` is a prefix of directories, else the exact path. */
export function pathPartMatches(pathA: string, pathB: string): boolean {
  if (pathA === '') return true;
  if (pathA === '/' && pathB === '') return true;
  const exact = !pathA.endsWith('/');
  const listA = pathA.split('/');
  const listB = pathB.split('/');
  if (listA.length > listB.length) return false;
  if (exact && listA.length !== listB.length) return false;
  if (!exact) listA.pop();
  return listA.every((piece, i) => safeDecode(piece) === safeDecode(listB[i]));
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function sameOrigin(a: URL, b: URL): boolean {
  return a.protocol === b.protocol && a.hostname === b.hostname && a.port === b.port;
}

/** Whether one source allows `url` for a page of origin `origin`. Keywords other than 'self', nonces and hashes never match a URL. */
export function sourceMatches(source: CspSource, url: URL, origin: URL): boolean {
  const isHttp = (u: URL) => u.protocol === 'http:' || u.protocol === 'https:';
  switch (source.kind) {
    case 'scheme':
      return schemePartMatches(source.scheme, url.protocol);
    case 'keyword':
      if (source.keyword !== 'self') return false;
      if (sameOrigin(url, origin)) return true;
      // 'self' also allows the secure upgrade of the page's own host (§6.7.2.8 step for 'self').
      return (
        url.hostname === origin.hostname &&
        url.port === origin.port &&
        (url.protocol === 'https:' || url.protocol === 'wss:' || (origin.protocol === 'http:' && (url.protocol === 'http:' || url.protocol === 'ws:')))
      );
    case 'host': {
      if (source.host === '*' && source.scheme === undefined && source.port === undefined && source.path === undefined) {
        // `*` matches network schemes and the page's own scheme (never data:, blob:, filesystem:).
        return isHttp(url) || url.protocol === 'ws:' || url.protocol === 'wss:' || url.protocol === origin.protocol;
      }
      if (url.hostname === '') return false;
      if (source.scheme === undefined) {
        if (!schemePartMatches(origin.protocol, url.protocol)) return false;
      } else if (!schemePartMatches(source.scheme, url.protocol)) return false;
      if (source.host !== '*' && !hostPartMatches(source.host, url.hostname)) return false;
      if (!portPartMatches(source.port, url)) return false;
      if (source.path !== undefined && source.path !== '' && !pathPartMatches(source.path, url.pathname)) return false;
      return true;
    }
    default:
      return false;
  }
}

export interface MatchResult {
  allowed: boolean;
  /** The source that allowed it. */
  source?: CspSource;
  /** Why it is blocked: `no-directive` never happens for a parsed policy with a script directive. */
  reason?: 'no-matching-source' | 'none' | 'strict-dynamic' | 'not-a-url';
}

/**
 * Whether a directive allows loading the script at `url` into a page of `origin`. With 'strict-dynamic', host
 * sources and 'self' are ignored (CSP3 §8.2), so only a nonce or hash could allow it: reported as blocked.
 */
export function directiveAllows(directive: CspDirective | undefined, url: string, origin: string): MatchResult {
  if (!directive) return { allowed: true };
  let u: URL;
  let o: URL;
  try {
    u = new URL(url);
    o = new URL(origin);
  } catch {
    return { allowed: false, reason: 'not-a-url' };
  }
  const sources = directive.sources;
  if (sources.some((s) => s.kind === 'keyword' && s.keyword === 'strict-dynamic')) return { allowed: false, reason: 'strict-dynamic' };
  if (sources.length === 1 && sources[0].kind === 'keyword' && sources[0].keyword === 'none') return { allowed: false, reason: 'none' };
  const source = sources.find((s) => sourceMatches(s, u, o));
  return source ? { allowed: true, source } : { allowed: false, reason: 'no-matching-source' };
}
