/**
 * `policy check`: which observed scripts a policy value would allow or block, by CSP Level 3 source matching
 * (csp-match.ts) against the origin of the page each script was seen on. Pure.
 */
import { parseCspValue, scriptElementDirective, type CspDiagnostic } from './csp.js';
import { directiveAllows, type MatchResult } from './csp-match.js';
import { isMaliciousScript, type MaliciousRule } from './malicious.js';
import { pageOrigin } from './origin.js';
import { maliciousConnectionHosts, unwantedReason } from './suggest.js';
import type { Connection, Script } from './types.js';

export interface ScriptVerdict {
  id: string;
  url?: string;
  /** The page origin the URL was matched for. */
  origin?: string;
  allowed: boolean;
  /** The source text that allowed it. */
  source?: string;
  reason?: MatchResult['reason'] | 'no-url' | 'no-page';
  malicious: boolean;
  /** Set when blocking it is wanted: malicious, reported malicious, or from a host a malicious connection went to. */
  unwanted?: 'malicious' | 'reported-malicious' | 'malicious-connection';
}

export interface PolicyCheck {
  ok: boolean;
  diagnostics: CspDiagnostic[];
  /** The directive that governs script elements (script-src-elem, else script-src); absent: every script is allowed. */
  directive?: string;
  verdicts: ScriptVerdict[];
  allowed: number;
  blocked: number;
  /** Blocked scripts that are not unwanted: what moving the policy to `allow` would break. */
  breaks: number;
}

export function checkPolicyValue(value: string, scripts: readonly Script[], rule: MaliciousRule = {}, connections: readonly Connection[] = []): PolicyCheck {
  const parsed = parseCspValue(value);
  if (!parsed.ok) return { ok: false, diagnostics: parsed.diagnostics, verdicts: [], allowed: 0, blocked: 0, breaks: 0 };
  const badHosts = maliciousConnectionHosts(connections);
  const directive = scriptElementDirective(parsed);
  const verdicts = scripts.map((s): ScriptVerdict => {
    const v = verdict(s);
    const unwanted = unwantedReason(s, badHosts, rule);
    return unwanted ? { ...v, unwanted } : v;
  });
  function verdict(s: Script): ScriptVerdict {
    const malicious = isMaliciousScript(s, rule);
    const origin = pageOrigin(s);
    if (typeof s.url !== 'string' || s.url === '') return { id: s.id, allowed: false, reason: 'no-url', malicious };
    if (!origin) return { id: s.id, url: s.url, allowed: false, reason: 'no-page', malicious };
    const m = directiveAllows(directive, s.url, origin);
    return { id: s.id, url: s.url, origin, allowed: m.allowed, ...(m.source ? { source: m.source.text } : {}), ...(m.reason ? { reason: m.reason } : {}), malicious };
  }
  const allowed = verdicts.filter((v) => v.allowed).length;
  const breaks = verdicts.filter((v) => !v.allowed && !v.unwanted).length;
  return { ok: true, diagnostics: parsed.diagnostics, ...(directive ? { directive: directive.name } : {}), verdicts, allowed, blocked: verdicts.length - allowed, breaks };
}
