/**
 * State of the previous managed WAF of a zone (README, "The migration (area E)" and "Fixture file"): packages with their groups and rules, the
 * URI-based overrides, and the firewall rules the migration has to carry over. Plain JSON, like all state.
 */

/** Traditional packages take these rule modes; anomaly packages take on/off. */
export const TRADITIONAL_MODES = ['default', 'disable', 'simulate', 'block', 'challenge'] as const;
export const ANOMALY_MODES = ['on', 'off'] as const;
export const GROUP_MODES = ['on', 'off'] as const;
export const SENSITIVITIES = ['high', 'medium', 'low', 'off'] as const;
export const ACTION_MODES = ['simulate', 'block', 'challenge'] as const;
export const DETECTION_MODES = ['anomaly', 'traditional'] as const;
/** Actions an override may give a rule (the previous API's vocabulary; on/off for the core rule set's rules). */
export const OVERRIDE_RULE_ACTIONS = ['block', 'challenge', 'simulate', 'disable', 'default', 'on', 'off'] as const;

export interface WafGroup {
  id: string;
  name: string;
  description: string;
  mode: string;
}

export interface WafRule {
  id: string;
  description: string;
  priority: string;
  group_id: string;
  mode: string;
  default_mode: string;
}

export interface WafPackage {
  id: string;
  name: string;
  description: string;
  detection_mode: (typeof DETECTION_MODES)[number];
  /** Anomaly packages only (the core rule set): how sensitive, and what happens on a match. */
  sensitivity: string | null;
  action_mode: string | null;
  groups: WafGroup[];
  rules: WafRule[];
}

export interface WafOverride {
  id: string;
  description: string;
  urls: string[];
  /** Rule id → action (block, challenge, simulate, disable, default). */
  rules: Record<string, string>;
  /** Group id → mode (on, off). */
  groups: Record<string, string>;
  /** Action → replacement action (block → challenge, …). */
  rewrite_action: Record<string, string>;
  paused: boolean;
  priority: number;
}

export interface FirewallRule {
  id: string;
  expression: string;
  action: string;
  description: string;
  paused: boolean;
}

export interface WafState {
  packages: WafPackage[];
  overrides: WafOverride[];
  firewall_rules: FirewallRule[];
}

/** The id of the Cloudflare-style package and of the core rule set (OWASP) package a zone has by default. */
export const DEFAULT_PACKAGE_ID = 'a25a9a7e9c00afc1fb2e0245519d725b';
export const OWASP_PACKAGE_ID = '1e334934fd7ae32ad705667f8c1057aa';

/** What a zone has when its fixture says nothing of the previous WAF: the two usual packages, no overrides. */
export function defaultPackages(): WafPackage[] {
  return [
    {
      id: DEFAULT_PACKAGE_ID,
      name: 'CloudFlare',
      description: 'Managed rules of the service',
      detection_mode: 'traditional',
      sensitivity: null,
      action_mode: null,
      groups: [
        { id: 'de677e5818985db1285d0e80225f06e5', name: 'Cloudflare Specials', description: 'Rules for common attacks', mode: 'on' },
        { id: 'a8f7ae6ff15afb0c1c6ac2bff25ad9e4', name: 'Cloudflare WordPress', description: 'Rules for WordPress', mode: 'off' },
      ],
      rules: [
        { id: '100015', description: 'Anomaly:Header:User-Agent - Missing', priority: '5', group_id: 'de677e5818985db1285d0e80225f06e5', mode: 'default', default_mode: 'block' },
        { id: '100016', description: 'Anomaly:Header:Host - Missing', priority: '6', group_id: 'de677e5818985db1285d0e80225f06e5', mode: 'default', default_mode: 'block' },
        { id: '100173', description: 'XSS, HTML Injection - Script Tag', priority: '20', group_id: 'de677e5818985db1285d0e80225f06e5', mode: 'default', default_mode: 'challenge' },
        { id: 'WP0025', description: 'WordPress - Broken Access Control', priority: '30', group_id: 'a8f7ae6ff15afb0c1c6ac2bff25ad9e4', mode: 'default', default_mode: 'block' },
      ],
    },
    {
      id: OWASP_PACKAGE_ID,
      name: 'OWASP ModSecurity Core Rule Set',
      description: 'Anomaly-scoring core rule set',
      detection_mode: 'anomaly',
      sensitivity: 'medium',
      action_mode: 'challenge',
      groups: [
        { id: 'cfda825dfda411ea218cb70e6c88e82e', name: 'OWASP Bad Robots', description: 'Scanners and bad robots', mode: 'on' },
        { id: '4a0ad1fc2d6b5a4ec3ac2b4b5b1e4a5f', name: 'OWASP SQL Injection Attacks', description: 'SQL injection', mode: 'on' },
      ],
      rules: [
        { id: '990011', description: 'Request Indicates a Security Scanner', priority: '1', group_id: 'cfda825dfda411ea218cb70e6c88e82e', mode: 'on', default_mode: 'on' },
        { id: '981318', description: 'SQL Injection Attack: Common Injection Testing', priority: '2', group_id: '4a0ad1fc2d6b5a4ec3ac2b4b5b1e4a5f', mode: 'on', default_mode: 'on' },
      ],
    },
  ];
}

export function defaultWafState(): WafState {
  return { packages: defaultPackages(), overrides: [], firewall_rules: [] };
}
