/**
 * The managed rulesets every zone and account can read and execute (kind `managed`, read-only): the service's
 * managed ruleset and the core rule set that replace the previous WAF's packages. They carry the provider's ids,
 * names and descriptions (as its own list answers show them; emulator README, "Rulesets"), so code that finds a
 * managed ruleset by name in a list (Terraform's `cloudflare_rulesets` filter, scripts) finds it here too.
 */
import { createHash } from 'node:crypto';
import type { Rule, StoredRuleset } from './state.js';

export const MANAGED_RULESET_ID = 'efb7b8c949ac4650a09736fc376e9aee';
export const CORE_RULESET_ID = '4814384a9e5d4991b9815dcfc25d2f1f';
const STAMP = '2024-01-01T00:00:00.000Z';

/** A stable rule id: the same on every run, so overrides written against it keep working. */
const ruleId = (ruleset: string, ref: string) => createHash('sha256').update(`${ruleset}:${ref}`).digest('hex').slice(0, 32);

interface ManagedRuleRow {
  /** The previous WAF rule it replaces (its id there), or a name of its own. */
  ref: string;
  description: string;
  action: string;
  categories: string[];
}

const MANAGED_RULES: ManagedRuleRow[] = [
  { ref: '100015', description: 'Anomaly:Header:User-Agent - Missing', action: 'block', categories: ['header', 'anomaly'] },
  { ref: '100016', description: 'Anomaly:Header:Host - Missing', action: 'block', categories: ['header', 'anomaly'] },
  { ref: '100173', description: 'XSS, HTML Injection - Script Tag', action: 'managed_challenge', categories: ['xss'] },
  { ref: 'WP0025', description: 'WordPress - Broken Access Control', action: 'block', categories: ['wordpress', 'broken-access-control'] },
];

const CORE_RULES: ManagedRuleRow[] = [
  { ref: '990011', description: 'Request Indicates a Security Scanner', action: 'score', categories: ['paranoia-level-1', 'scanner'] },
  { ref: '981318', description: 'SQL Injection Attack: Common Injection Testing', action: 'score', categories: ['paranoia-level-1', 'sqli'] },
  { ref: '942432', description: 'Restricted SQL Character Anomaly Detection', action: 'score', categories: ['paranoia-level-2', 'sqli'] },
  { ref: '942421', description: 'Restricted SQL Character Anomaly Detection (cookies)', action: 'score', categories: ['paranoia-level-3', 'sqli'] },
  { ref: '920202', description: 'Range: Too many fields for pdf request', action: 'score', categories: ['paranoia-level-4', 'protocol'] },
  { ref: 'anomaly-score', description: '949110: Inbound Anomaly Score Exceeded', action: 'block', categories: ['anomaly-score'] },
];

function build(id: string, name: string, description: string, rows: ManagedRuleRow[]): StoredRuleset {
  const rules: Rule[] = rows.map((row) => ({
    id: ruleId(id, row.ref),
    version: '1',
    action: row.action,
    expression: 'true',
    description: row.description,
    enabled: true,
    ref: row.ref,
    categories: row.categories,
    last_updated: STAMP,
  }));
  return {
    id,
    versions: [{ version: '1', name, description, kind: 'managed', phase: 'http_request_firewall_managed', rules, last_updated: STAMP }],
    nextVersion: 2,
  };
}

/** Built once: nothing can change them (every write to a managed ruleset is refused). */
export const MANAGED_RULESETS: readonly StoredRuleset[] = [
  build(
    MANAGED_RULESET_ID,
    'Cloudflare Managed Ruleset',
    'Created by the Cloudflare security team, this ruleset is designed to provide fast and effective protection for all your applications. It is frequently updated to cover new vulnerabilities and reduce false positives',
    MANAGED_RULES,
  ),
  build(
    CORE_RULESET_ID,
    'Cloudflare OWASP Core Ruleset',
    "Cloudflare's implementation of the Open Web Application Security Project (OWASP) ModSecurity Core Rule Set. We routinely monitor for updates from OWASP based on the latest version available from the official code repository",
    CORE_RULES,
  ),
];

/** The managed rule that replaces a previous-WAF rule, when there is one. */
export function managedRuleFor(legacyRuleId: string): { ruleset: string; id: string } | undefined {
  for (const rs of MANAGED_RULESETS) {
    const rule = rs.versions[0].rules.find((r) => r.ref === legacyRuleId);
    if (rule) return { ruleset: rs.id, id: rule.id };
  }
  return undefined;
}

export function isManaged(rs: StoredRuleset): boolean {
  return MANAGED_RULESETS.includes(rs);
}
