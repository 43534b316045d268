/**
 * The derived `malicious` flag and merged `categories` (api README, "Page monitoring (area A)"). Never sent to the
 * API. Public sources disagree on the score's direction (a high score is malicious in the API's description, a low
 * one in later docs), so threshold and direction are settable; the default follows the description: strictly above
 * 50 is malicious, 50 is not.
 */
import type { Connection, ConnectionView, ObservedItem, Script, ScriptView } from './types.js';

export type MaliciousDirection = 'above' | 'below';

export interface MaliciousRule {
  /** Default 50. */
  threshold?: number;
  /** `above` (default): a score strictly above the threshold is malicious; `below`: strictly below. */
  direction?: MaliciousDirection;
}

export const DEFAULT_MALICIOUS_THRESHOLD = 50;
export const MALICIOUS_DIRECTIONS: readonly MaliciousDirection[] = ['above', 'below'];

/** A script is malicious when its js_integrity_score is past the threshold; no score, no verdict (false). */
export function isMaliciousScript(script: Pick<Script, 'js_integrity_score'>, rule: MaliciousRule = {}): boolean {
  const score = script.js_integrity_score;
  if (typeof score !== 'number' || !Number.isFinite(score)) return false;
  const threshold = rule.threshold ?? DEFAULT_MALICIOUS_THRESHOLD;
  return (rule.direction ?? 'above') === 'above' ? score > threshold : score < threshold;
}

/** A connection has no score: it is malicious when its domain or URL was reported malicious. */
export function isMaliciousConnection(c: Pick<Connection, 'domain_reported_malicious' | 'url_reported_malicious'>): boolean {
  return c.domain_reported_malicious === true || c.url_reported_malicious === true;
}

/** The union of both category lists, each value once (first occurrence wins the position). */
export function mergedCategories(item: Pick<ObservedItem, 'malicious_domain_categories' | 'malicious_url_categories'>): string[] {
  const out = new Set<string>();
  for (const list of [item.malicious_domain_categories, item.malicious_url_categories]) {
    if (Array.isArray(list)) for (const c of list) if (typeof c === 'string' && c !== '') out.add(c);
  }
  return [...out];
}

export function viewScript(s: Script, rule: MaliciousRule = {}): ScriptView {
  return { ...s, malicious: isMaliciousScript(s, rule), categories: mergedCategories(s) };
}

export function viewConnection(c: Connection): ConnectionView {
  return { ...c, malicious: isMaliciousConnection(c), categories: mergedCategories(c) };
}

/** Checks a rule given by a caller (client option, CLI flags); undefined when valid. */
export function checkMaliciousRule(rule: MaliciousRule): string | undefined {
  // a number (the threshold alone) would otherwise be read as no rule at all: the default
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) return 'must be an object {threshold?, direction?}';
  if (rule.threshold !== undefined && !(typeof rule.threshold === 'number' && Number.isFinite(rule.threshold))) return 'threshold must be a number';
  if (rule.direction !== undefined && !MALICIOUS_DIRECTIONS.includes(rule.direction)) return `direction must be one of ${MALICIOUS_DIRECTIONS.join(', ')}`;
  return undefined;
}
