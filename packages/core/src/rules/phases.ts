/**
 * Phases of rulesets that run rules-language expressions, in execution order. Request fields are readable in
 * every phase; response fields only in the response phases.
 */
export const REQUEST_PHASES = [
  'http_request_sanitize',
  'http_request_dynamic_redirect',
  'http_request_transform',
  'http_config_settings',
  'http_request_origin',
  'ddos_l7',
  'http_request_api_gateway',
  'http_request_firewall_custom',
  'http_ratelimit',
  'http_request_firewall_managed',
  'http_request_sbfm',
  'http_request_redirect',
  'http_request_late_transform',
  'http_request_cache_settings',
  'http_request_snippets',
  'http_request_cloud_connector',
] as const;

/** `http_ratelimit` is in both lists: its counting expression may use response information. */
export const RESPONSE_PHASES = [
  'http_custom_errors',
  'http_response_headers_transform',
  'http_ratelimit',
  'http_response_compression',
  'http_response_firewall_managed',
  'http_log_custom_fields',
  'http_response_page_shield',
] as const;

export const PHASES: readonly string[] = [...new Set<string>([...REQUEST_PHASES, ...RESPONSE_PHASES])];

/** Named groups the field and function tables use for availability. */
export const PHASE_GROUPS = {
  response: RESPONSE_PHASES as readonly string[],
  transform: ['http_request_transform', 'http_request_late_transform', 'http_response_headers_transform'],
  'url-rewrite': ['http_request_transform'],
  'header-transform': ['http_request_late_transform', 'http_response_headers_transform'],
  'response-header-transform': ['http_response_headers_transform'],
  'custom-errors': ['http_custom_errors'],
  'custom-rules': ['http_request_firewall_custom'],
  'rate-limiting': ['http_ratelimit'],
  'dynamic-redirect': ['http_request_dynamic_redirect'],
} as const satisfies Record<string, readonly string[]>;

export type PhaseGroup = keyof typeof PHASE_GROUPS;

export function phasesOf(groups: readonly PhaseGroup[]): string[] {
  return [...new Set(groups.flatMap((g) => PHASE_GROUPS[g]))];
}
