/**
 * Parses and checks a policy `value` (README, "Page monitoring (area A)": policies): only `script-src` and `script-src-*` directives,
 * each source a host (optional scheme, port, `*.` prefix), a full script URL, or a keyword (nonces and hashes as CSP
 * Level 3 writes them). Pure; never throws. Diagnostics carry UTF-16 offsets into the value (end exclusive) covering
 * the whole offending source or directive name, like the core's diagnostics.
 */

export type CspSeverity = 'error' | 'warning';

export interface CspDiagnostic {
  code: CspDiagnosticCode;
  severity: CspSeverity;
  message: string;
  start: number;
  end: number;
}

/** Every code the checker produces (README of @logfilter/api lists them). */
export const CSP_DIAGNOSTIC_CODES = [
  'empty-value',
  'unsupported-directive',
  'duplicate-directive',
  'empty-directive',
  'unknown-keyword',
  'unquoted-keyword',
  'unclosed-quote',
  'invalid-nonce',
  'invalid-hash',
  'invalid-scheme',
  'invalid-host',
  'invalid-port',
  'invalid-path',
  'none-with-sources',
  'broad-source',
  'duplicate-source',
] as const;
export type CspDiagnosticCode = (typeof CSP_DIAGNOSTIC_CODES)[number];

/** The directives a policy may hold, and what each governs. */
export const SCRIPT_DIRECTIVES: Record<string, string> = {
  'script-src': 'scripts (elements, and inline handlers when script-src-attr is absent)',
  'script-src-elem': 'script elements; takes precedence over script-src for them',
  'script-src-attr': 'inline event handlers; takes precedence over script-src for them',
};

/** CSP Level 3 keyword sources (without quotes) and what they allow. */
export const CSP_KEYWORDS: Record<string, string> = {
  self: 'scripts of the page\'s own origin (same scheme and host; http pages also allow https)',
  none: 'nothing; must be the only source of its directive',
  'unsafe-inline': 'inline scripts and event handlers',
  'unsafe-eval': 'eval() and similar',
  'strict-dynamic': 'scripts loaded by already trusted scripts; host sources and \'self\' are then ignored',
  'unsafe-hashes': 'event handlers matching a hash source',
  'report-sample': 'a sample of the violating code in reports',
  'wasm-unsafe-eval': 'WebAssembly compilation',
  'unsafe-allow-redirects': 'redirects of allowed requests',
};

/** Hash algorithms CSP allows, with the digest length in bytes. */
export const CSP_HASHES: Record<string, number> = { sha256: 32, sha384: 48, sha512: 64 };

export type CspSource =
  | { kind: 'keyword'; keyword: string; text: string; start: number; end: number }
  | { kind: 'nonce'; text: string; start: number; end: number }
  | { kind: 'hash'; algorithm: string; text: string; start: number; end: number }
  | { kind: 'scheme'; scheme: string; text: string; start: number; end: number }
  | { kind: 'host'; scheme?: string; host: string; port?: string; path?: string; text: string; start: number; end: number };

export interface CspDirective {
  /** Lower case. */
  name: string;
  start: number;
  end: number;
  sources: CspSource[];
}

export interface CspParse {
  ok: boolean;
  directives: CspDirective[];
  diagnostics: CspDiagnostic[];
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const LABEL = /^[A-Za-z0-9-]+$/;
const WS = /[\t\n\f\r ]+/g;

interface Token {
  text: string;
  start: number;
  end: number;
}

/** Splits `text` (at `offset` in the value) on ASCII whitespace, keeping offsets. */
function tokens(text: string, offset: number): Token[] {
  const out: Token[] = [];
  let last = 0;
  for (const m of text.matchAll(WS)) {
    if (m.index! > last) out.push({ text: text.slice(last, m.index), start: offset + last, end: offset + m.index! });
    last = m.index! + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last), start: offset + last, end: offset + text.length });
  return out;
}

function base64Length(value: string): number | undefined {
  if (!BASE64.test(value)) return undefined;
  const bare = value.replace(/=+$/, '');
  if (bare.length % 4 === 1) return undefined;
  return Math.floor((bare.length * 3) / 4);
}

type Diag = Omit<CspDiagnostic, 'start' | 'end'>;
const err = (code: CspDiagnosticCode, message: string): Diag => ({ code, severity: 'error', message });
const warn = (code: CspDiagnosticCode, message: string): Diag => ({ code, severity: 'warning', message });

/** Classifies one source expression; a diagnostic when it is not one CSP (and this API) accepts. */
export function parseSource(t: Token): { source?: CspSource; problem?: Diag } {
  const { text, start, end } = t;
  if (text.startsWith("'")) {
    if (text.length < 2 || !text.endsWith("'")) return { problem: err('unclosed-quote', `${text}: a quoted source needs its closing quote`) };
    const inner = text.slice(1, -1);
    const lower = inner.toLowerCase();
    if (lower.startsWith('nonce-')) {
      const v = inner.slice(6);
      if (!BASE64.test(v)) return { problem: err('invalid-nonce', `${text}: a nonce is 'nonce-' followed by a base64 value`) };
      return { source: { kind: 'nonce', text, start, end } };
    }
    const dash = lower.indexOf('-');
    const alg = dash > 0 ? lower.slice(0, dash) : '';
    if (Object.hasOwn(CSP_HASHES, alg)) {
      const n = base64Length(inner.slice(dash + 1));
      if (n !== CSP_HASHES[alg]) return { problem: err('invalid-hash', `${text}: a ${alg} hash is the base64 of ${CSP_HASHES[alg]} bytes`) };
      return { source: { kind: 'hash', algorithm: alg, text, start, end } };
    }
    if (Object.hasOwn(CSP_KEYWORDS, lower)) return { source: { kind: 'keyword', keyword: lower, text, start, end } };
    return { problem: err('unknown-keyword', `${text}: not a CSP keyword (${Object.keys(CSP_KEYWORDS).map((k) => `'${k}'`).join(', ')}), nonce or hash`) };
  }
  if (Object.hasOwn(CSP_KEYWORDS, text.toLowerCase())) {
    return { problem: err('unquoted-keyword', `${text}: keywords are written in single quotes ('${text.toLowerCase()}'); unquoted it names a host`) };
  }
  if (text === '*') return { source: { kind: 'host', host: '*', text, start, end } };
  // scheme-source: `https:`
  if (/^[^/:]+:$/.test(text)) {
    const scheme = text.slice(0, -1);
    if (!SCHEME.test(scheme)) return { problem: err('invalid-scheme', `${text}: "${scheme}" is not a URL scheme`) };
    return { source: { kind: 'scheme', scheme: scheme.toLowerCase(), text, start, end } };
  }
  let rest = text;
  let scheme: string | undefined;
  const sep = rest.indexOf('://');
  if (sep >= 0) {
    scheme = rest.slice(0, sep);
    if (!SCHEME.test(scheme)) return { problem: err('invalid-scheme', `${text}: "${scheme}" is not a URL scheme`) };
    rest = rest.slice(sep + 3);
  }
  const slash = rest.indexOf('/');
  const authority = slash >= 0 ? rest.slice(0, slash) : rest;
  const path = slash >= 0 ? rest.slice(slash) : undefined;
  const colon = authority.indexOf(':');
  const host = colon >= 0 ? authority.slice(0, colon) : authority;
  const port = colon >= 0 ? authority.slice(colon + 1) : undefined;
  const hostProblem = checkHost(host);
  if (hostProblem) return { problem: err('invalid-host', `${text}: ${hostProblem}`) };
  if (port !== undefined && port !== '*' && !(/^[0-9]{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535)) {
    return { problem: err('invalid-port', `${text}: the port must be a number from 1 to 65535, or *`) };
  }
  if (path !== undefined) {
    if (/[?#]/.test(path)) return { problem: err('invalid-path', `${text}: a source path cannot hold a query or fragment; drop what follows ${path.includes('?') ? '?' : '#'}`) };
    if (path.startsWith('//') || /[\\,'"<>`\u0000-\u001f\u007f]/.test(path) || /%(?![0-9A-Fa-f]{2})/.test(path)) {
      return { problem: err('invalid-path', `${text}: "${path}" is not a URL path`) };
    }
  }
  return { source: { kind: 'host', ...(scheme !== undefined ? { scheme: scheme.toLowerCase() } : {}), host: host.toLowerCase(), ...(port !== undefined ? { port } : {}), ...(path !== undefined ? { path } : {}), text, start, end } };
}

function checkHost(host: string): string | undefined {
  if (host === '') return 'no host';
  if (host === '*') return undefined;
  const bare = host.startsWith('*.') ? host.slice(2) : host;
  if (bare.includes('*')) return '`*` may only start a host, as `*.` before a domain';
  const labels = (bare.endsWith('.') ? bare.slice(0, -1) : bare).split('.');
  const bad = labels.find((l) => !LABEL.test(l));
  if (bad !== undefined) return bad === '' ? `"${host}" has an empty label` : `"${bad}" is not a host label (letters, digits and -)`;
  return undefined;
}

/**
 * Parses a policy value. `ok` is false when any error was found (warnings allowed). Directive names are
 * case-insensitive; each directive at most once.
 */
export function parseCspValue(value: string): CspParse {
  const diagnostics: CspDiagnostic[] = [];
  const directives: CspDirective[] = [];
  const at = (d: Diag, t: { start: number; end: number }) => diagnostics.push({ ...d, start: t.start, end: t.end });
  if (value.trim() === '') {
    at(err('empty-value', 'the value is empty; write a script-src directive, e.g. script-src \'self\''), { start: 0, end: value.length });
    return { ok: false, directives, diagnostics };
  }
  let offset = 0;
  for (const part of value.split(';')) {
    const toks = tokens(part, offset);
    offset += part.length + 1;
    if (toks.length === 0) continue;
    const [nameTok, ...sourceToks] = toks;
    const name = nameTok.text.toLowerCase();
    if (!Object.hasOwn(SCRIPT_DIRECTIVES, name)) {
      at(err('unsupported-directive', `${nameTok.text}: only ${Object.keys(SCRIPT_DIRECTIVES).join(', ')} directives are allowed`), nameTok);
      continue;
    }
    if (directives.some((d) => d.name === name)) {
      at(err('duplicate-directive', `${name} appears twice; browsers ignore the second`), nameTok);
      continue;
    }
    const directive: CspDirective = { name, start: nameTok.start, end: nameTok.end, sources: [] };
    directives.push(directive);
    if (sourceToks.length === 0) at(err('empty-directive', `${name} has no sources; write 'none' to allow no script`), nameTok);
    const seen = new Set<string>();
    for (const t of sourceToks) {
      const { source, problem } = parseSource(t);
      if (problem) {
        at(problem, t);
        continue;
      }
      const key = t.text.toLowerCase();
      if (seen.has(key)) at(warn('duplicate-source', `${t.text} is listed twice in ${name}`), t);
      seen.add(key);
      if (source!.kind === 'scheme' || (source!.kind === 'host' && source!.host === '*')) {
        at(warn('broad-source', `${t.text} allows scripts from every host${source!.kind === 'scheme' ? ` over ${source!.scheme}` : ''}`), t);
      }
      directive.sources.push(source!);
    }
    const none = directive.sources.find((s) => s.kind === 'keyword' && s.keyword === 'none');
    if (none && sourceToks.length > 1) at(err('none-with-sources', `'none' must be the only source of ${name}; browsers ignore it beside others`), none);
  }
  if (directives.length === 0 && diagnostics.length === 0) {
    at(err('empty-value', 'the value has no directive; write a script-src directive, e.g. script-src \'self\''), { start: 0, end: value.length });
  }
  return { ok: !diagnostics.some((d) => d.severity === 'error'), directives, diagnostics };
}

/** The checked directive that governs external scripts: script-src-elem when present, else script-src. */
export function scriptElementDirective(policy: Pick<CspParse, 'directives'>): CspDirective | undefined {
  return policy.directives.find((d) => d.name === 'script-src-elem') ?? policy.directives.find((d) => d.name === 'script-src');
}
