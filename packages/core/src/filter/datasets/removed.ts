/** Fields removed from http_requests (renamed on 2023-08-01), with their replacements where one exists. */
export const REMOVED_FIELDS: ReadonlyMap<string, string | null> = new Map<string, string | null>([
  ['WAFRuleID', 'SecurityRuleID'],
  ['WAFRuleMessage', 'SecurityRuleDescription'],
  ['WAFAction', 'SecurityAction'],
  ['FirewallMatchesRuleIDs', 'SecurityRuleIDs'],
  ['FirewallMatchesActions', 'SecurityActions'],
  ['FirewallMatchesSources', 'SecuritySources'],
  ['WAFProfile', null],
  ['EdgeRateLimitAction', null],
  ['EdgeRateLimitID', null],
  ['SecurityLevel', null],
]);

/** The datasets the removal applies to. */
export const REMOVED_FIELDS_DATASETS: readonly string[] = ['http_requests'];
