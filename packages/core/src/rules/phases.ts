/**
 * Phases of rulesets, one table: every phase of the provider's phase list and of its rulesets API, with the
 * layer it runs at. The layer decides which fields an expression may read: HTTP request fields everywhere at
 * the HTTP layer, response fields only in the response phases, packet fields (ip.*, tcp.*, udp.*, icmp.*)
 * only in the network-layer phases. `rules check`, the rulesets commands and the emulator all read this list.
 *
 * Sources: the provider's phases list (ruleset-engine/reference/phases-list, cloudflare-docs e4b98d0), the
 * rulesets API's phase enumeration (the provider's OpenAPI document for rulesets, which adds
 * http_request_select_configuration), and the Page Shield quota error for http_response_page_shield.
 */
export type PhaseLayer = 'request' | 'response' | 'network';

/** [phase, layer]; HTTP phases in execution order, then the network-layer ones. */
const PHASE_TABLE: readonly (readonly [string, PhaseLayer])[] = [
  ['http_request_sanitize', 'request'],
  ['http_request_dynamic_redirect', 'request'],
  ['http_request_transform', 'request'],
  ['http_config_settings', 'request'],
  ['http_request_origin', 'request'],
  ['ddos_l7', 'request'],
  ['http_request_api_gateway', 'request'],
  ['http_request_firewall_custom', 'request'],
  // counts requests, and may use response information in its counting expression: both layers
  ['http_ratelimit', 'request'],
  ['http_request_firewall_managed', 'request'],
  ['http_request_sbfm', 'request'],
  ['http_request_redirect', 'request'],
  ['http_request_late_transform', 'request'],
  ['http_request_select_configuration', 'request'],
  ['http_request_cache_settings', 'request'],
  ['http_request_snippets', 'request'],
  ['http_request_cloud_connector', 'request'],
  ['http_custom_errors', 'response'],
  ['http_response_headers_transform', 'response'],
  ['http_response_cache_settings', 'response'],
  ['http_response_compression', 'response'],
  ['http_response_firewall_managed', 'response'],
  ['http_log_custom_fields', 'response'],
  ['http_response_page_shield', 'response'],
  ['ddos_l4', 'network'],
  ['magic_transit', 'network'],
  ['magic_transit_managed', 'network'],
  ['magic_transit_ids_managed', 'network'],
  ['magic_transit_ratelimit', 'network'],
];

/** Every known phase. */
export const PHASES: readonly string[] = PHASE_TABLE.map(([p]) => p);

export const PHASE_LAYER: ReadonlyMap<string, PhaseLayer> = new Map(PHASE_TABLE);

/** Phases whose expressions read HTTP requests. */
export const HTTP_PHASES: readonly string[] = PHASE_TABLE.filter(([, l]) => l !== 'network').map(([p]) => p);

export const REQUEST_PHASES: readonly string[] = PHASE_TABLE.filter(([, l]) => l === 'request').map(([p]) => p);

/** Phases that see the response; `http_ratelimit` too, for its counting expression. */
export const RESPONSE_PHASES: readonly string[] = ['http_ratelimit', ...PHASE_TABLE.filter(([, l]) => l === 'response').map(([p]) => p)];

/** Network-layer phases (packets, not HTTP requests). */
export const NETWORK_PHASES: readonly string[] = PHASE_TABLE.filter(([, l]) => l === 'network').map(([p]) => p);

/** Named groups the field and function tables use for availability. */
export const PHASE_GROUPS = {
  http: HTTP_PHASES,
  network: NETWORK_PHASES,
  response: RESPONSE_PHASES,
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

/** Whether a field or function with these limits can be used in the phase (no phase, or an unknown one: yes). */
export function availableIn(item: { phases?: readonly string[]; layers?: readonly ('http' | 'network')[] }, phase: string | undefined): boolean {
  if (!phase) return true;
  const layer = PHASE_LAYER.get(phase);
  if (!layer) return true;
  if (item.layers && !item.layers.includes(layer === 'network' ? 'network' : 'http')) return false;
  return !item.phases || item.phases.includes(phase);
}

/** Where an item can be used, in words, for messages and hover. */
export function availabilityText(item: { phases?: readonly string[]; layers?: readonly ('http' | 'network')[] }): string {
  if (item.phases) return item.phases.join(', ');
  if (item.layers && item.layers.length === 1) return item.layers[0] === 'network' ? 'the network-layer phases' : 'the HTTP phases';
  return 'every phase';
}
