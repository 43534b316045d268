/**
 * The field catalogue of the rules language: one table drives the checker, completion, hover and the
 * TextMate grammar. Types use the documentation's names; `where` limits a field to groups of phases
 * (absent: every HTTP phase; `network` for packet fields; `everywhere` for the few both layers have);
 * `plan` is the plan or add-on the documentation names; `replacedBy` marks a deprecated field that still
 * works.
 *
 * Sources (checked 2026-11-26): the provider's fields reference
 * (developers.cloudflare.com/ruleset-engine/rules-language/fields/reference/, "last updated Aug 12, 2026",
 * copy fetched 2026-10-08) and its per-field pages for the types; the sequence rules page
 * (bots/additional-configurations/sequence-rules) for cf.sequence.*; the threat intelligence fields page
 * (waf/detections/threat-intelligence/fields) for cf.intel.ip.*; account abuse protection
 * (bots/account-abuse-protection) for cf.fraud_detection.disposable_email and cf.fraud.email_risk; the JWT validation pages for
 * http.request.jwt.claims; the Network Firewall fields page (cloudflare-network-firewall/reference/
 * network-firewall-fields, "last updated May 6, 2026") for the packet fields. test/fixtures/rules/
 * field-catalogue.txt lists the catalogue's names; a test keeps this table complete against it.
 */
import { parseTypeName, type RuleType } from './types.js';
import { phasesOf, type PhaseGroup } from './phases.js';

export interface RuleField {
  name: string;
  type: RuleType;
  doc: string;
  /** Phases the field can be used in, when narrower than its layers; undefined: every phase of its layers. */
  phases?: readonly string[];
  /** The layers whose phases can read the field: HTTP (requests and responses) or network (packets). */
  layers: readonly FieldLayer[];
  plan?: string;
  /** Deprecated in favour of this field (still accepted). */
  replacedBy?: string;
}

export type FieldLayer = 'http' | 'network';

type Where = PhaseGroup[] | 'network' | 'everywhere';
type Row = [name: string, type: string, doc: string, extra?: { where?: Where; plan?: string; replacedBy?: string }];

const ENT_BM = 'Enterprise Bot Management';
const ENT_ADDON = 'Enterprise add-on';
const RESPONSE: { where: PhaseGroup[] } = { where: ['response'] };
const NETWORK: { where: Where } = { where: 'network' };
const EVERYWHERE: { where: Where } = { where: 'everywhere' };

const ROWS: Row[] = [
  // request: host, URI, method, headers
  ['http.host', 'String', 'Hostname of the request'],
  ['http.request.full_uri', 'String', 'Full URI with scheme, without the #fragment'],
  ['http.request.uri', 'String', 'Path and query string'],
  ['http.request.uri.path', 'String', 'URI path'],
  ['http.request.uri.path.extension', 'String', 'Extension of the last path segment, lower case, without the dot'],
  ['http.request.uri.query', 'String', 'Query string without the ?'],
  ['http.request.uri.args', 'Map<Array<String>>', 'Query arguments by name (not decoded)'],
  ['http.request.uri.args.names', 'Array<String>', 'Names of the query arguments, in order'],
  ['http.request.uri.args.values', 'Array<String>', 'Values of the query arguments, in order'],
  ['http.request.method', 'String', 'Method, upper case'],
  ['http.request.version', 'String', 'HTTP version (HTTP/1.1, HTTP/2, HTTP/3)'],
  ['http.request.timestamp.sec', 'Integer', 'Time the request was received, Unix seconds'],
  ['http.request.timestamp.msec', 'Integer', 'Millisecond part of the receive time (0-999)'],
  ['http.cookie', 'String', 'Entire Cookie header'],
  ['http.request.cookies', 'Map<Array<String>>', 'Cookies by URL-decoded name', { plan: 'Pro and above' }],
  ['http.referer', 'String', 'Referer header'],
  ['http.user_agent', 'String', 'User-Agent header'],
  ['http.x_forwarded_for', 'String', 'X-Forwarded-For header'],
  ['http.request.headers', 'Map<Array<String>>', 'Request headers by lower-case name'],
  ['http.request.headers.names', 'Array<String>', 'Header names, original case, in order'],
  ['http.request.headers.values', 'Array<String>', 'Header values, in order'],
  ['http.request.headers.truncated', 'Boolean', 'Too many headers: the header fields may be incomplete'],
  ['raw.http.request.headers', 'Map<Array<String>>', 'Request headers by lower-case name, before any rule changed them'],
  ['raw.http.request.headers.names', 'Array<String>', 'Original request header names'],
  ['raw.http.request.headers.values', 'Array<String>', 'Original request header values'],
  ['http.request.accepted_languages', 'Array<String>', 'Accept-Language tags by weight', { where: ['transform'] }],
  // request body
  ['http.request.body.raw', 'String', 'Unmodified body (may be truncated)', { plan: ENT_ADDON }],
  ['http.request.body.truncated', 'Boolean', 'Body fields are incomplete', { plan: ENT_ADDON }],
  ['http.request.body.size', 'Integer', 'Full body size in bytes', { plan: ENT_ADDON }],
  ['http.request.body.form', 'Map<Array<String>>', 'URL-encoded form fields', { plan: ENT_ADDON }],
  ['http.request.body.form.names', 'Array<String>', 'Form field names', { plan: ENT_ADDON }],
  ['http.request.body.form.values', 'Array<String>', 'Form field values', { plan: ENT_ADDON }],
  ['http.request.body.mime', 'String', 'MIME type sniffed from the body'],
  ['http.request.body.multipart', 'Map<Array<String>>', 'Multipart values by name', { plan: ENT_ADDON }],
  ['http.request.body.multipart.names', 'Array<Array<String>>', 'Names of each part', { plan: ENT_ADDON }],
  ['http.request.body.multipart.values', 'Array<String>', 'Value of each part', { plan: ENT_ADDON }],
  ['http.request.body.multipart.content_types', 'Array<Array<String>>', 'Content-Type of each part', { plan: ENT_ADDON }],
  ['http.request.body.multipart.content_dispositions', 'Array<Array<String>>', 'Content-Disposition of each part', { plan: ENT_ADDON }],
  ['http.request.body.multipart.content_transfer_encodings', 'Array<Array<String>>', 'Content-Transfer-Encoding of each part', { plan: ENT_ADDON }],
  ['http.request.body.multipart.filenames', 'Array<Array<String>>', 'File names of each part', { plan: ENT_ADDON }],
  // raw fields
  ['raw.http.request.full_uri', 'String', 'Full URI before any rule changed it'],
  ['raw.http.request.uri', 'String', 'Path and query before any rule changed them'],
  ['raw.http.request.uri.path', 'String', 'URI path before any rule changed it'],
  ['raw.http.request.uri.path.extension', 'String', 'Path extension before any rule changed it'],
  ['raw.http.request.uri.query', 'String', 'Query string before any rule changed it'],
  ['raw.http.request.uri.args', 'Map<Array<String>>', 'Query arguments before any rule changed them'],
  ['raw.http.request.uri.args.names', 'Array<String>', 'Original query argument names'],
  ['raw.http.request.uri.args.values', 'Array<String>', 'Original query argument values'],
  ['raw.http.response.headers', 'Map<Array<String>>', 'Response headers before any rule changed them', RESPONSE],
  ['raw.http.response.headers.names', 'Array<String>', 'Original response header names', RESPONSE],
  ['raw.http.response.headers.values', 'Array<String>', 'Original response header values', RESPONSE],
  // client IP and geolocation
  ['ip.src', 'IP', 'Client IP address (network phases: source address of the packet)', EVERYWHERE],
  ['ip.src.lat', 'String', 'Latitude of the client'],
  ['ip.src.lon', 'String', 'Longitude of the client'],
  ['ip.src.city', 'String', 'City of the client'],
  ['ip.src.postal_code', 'String', 'Postal code of the client'],
  ['ip.src.metro_code', 'String', 'Metro code of the client'],
  ['ip.src.region', 'String', 'Region of the client'],
  ['ip.src.region_code', 'String', 'Region code of the client'],
  ['ip.src.timezone.name', 'String', 'Time zone of the client', { where: ['transform'] }],
  ['ip.src.asnum', 'Integer', 'Autonomous system number of the client', EVERYWHERE],
  ['ip.src.continent', 'String', 'Continent code (AF AN AS EU NA OC SA, T1 for Tor)'],
  ['ip.src.country', 'String', 'ISO 3166-1 alpha-2 country code', EVERYWHERE],
  ['ip.src.subdivision_1_iso_code', 'String', 'ISO 3166-2 code of the first-level region', { plan: 'Business and above' }],
  ['ip.src.subdivision_2_iso_code', 'String', 'ISO 3166-2 code of the second-level region', { plan: 'Business and above' }],
  ['ip.src.is_in_european_union', 'Boolean', 'The country is in the European Union', { plan: 'Business and above' }],
  ['ip.geoip.asnum', 'Integer', 'Autonomous system number (deprecated)', { replacedBy: 'ip.src.asnum' }],
  ['ip.geoip.continent', 'String', 'Continent code (deprecated)', { replacedBy: 'ip.src.continent' }],
  ['ip.geoip.country', 'String', 'Country code (deprecated; in network phases: source or destination)', { replacedBy: 'ip.src.country', where: 'everywhere' }],
  ['ip.geoip.subdivision_1_iso_code', 'String', 'First-level region (deprecated)', { replacedBy: 'ip.src.subdivision_1_iso_code' }],
  ['ip.geoip.subdivision_2_iso_code', 'String', 'Second-level region (deprecated)', { replacedBy: 'ip.src.subdivision_2_iso_code' }],
  ['ip.geoip.is_in_european_union', 'Boolean', 'In the European Union (deprecated)', { replacedBy: 'ip.src.is_in_european_union' }],
  // TLS, connection, metadata
  ['ssl', 'Boolean', 'The client connection is encrypted'],
  ['cf.tls_cipher', 'String', 'TLS cipher of the client connection'],
  ['cf.tls_version', 'String', 'TLS version of the client connection'],
  ['cf.tls_client_random', 'String', 'Client random value, Base64'],
  ['cf.tls_client_hello_length', 'Integer', 'Length of the ClientHello in bytes'],
  ['cf.tls_client_extensions_sha1', 'String', 'SHA-1 of the client extensions, Base64'],
  ['cf.tls_client_extensions_sha1_le', 'String', 'SHA-1 of the client extensions (little-endian), Base64'],
  ['cf.tls_ciphers_sha1', 'String', 'SHA-1 of the client cipher list, Base64'],
  ['cf.tls_client_auth.cert_presented', 'Boolean', 'The client presented a certificate (mTLS)'],
  ['cf.tls_client_auth.cert_verified', 'Boolean', 'The client certificate is valid (mTLS)'],
  ['cf.tls_client_auth.cert_revoked', 'Boolean', 'The client certificate is revoked (mTLS)'],
  ['cf.tls_client_auth.cert_issuer_dn', 'String', 'Issuer DN of the client certificate'],
  ['cf.tls_client_auth.cert_issuer_dn_rfc2253', 'String', 'Issuer DN (RFC 2253)'],
  ['cf.tls_client_auth.cert_issuer_dn_legacy', 'String', 'Issuer DN (legacy form)'],
  ['cf.tls_client_auth.cert_subject_dn', 'String', 'Subject DN of the client certificate'],
  ['cf.tls_client_auth.cert_subject_dn_rfc2253', 'String', 'Subject DN (RFC 2253)'],
  ['cf.tls_client_auth.cert_subject_dn_legacy', 'String', 'Subject DN (legacy form)'],
  ['cf.tls_client_auth.cert_serial', 'String', 'Serial number of the client certificate'],
  ['cf.tls_client_auth.cert_issuer_serial', 'String', 'Serial number of the issuer certificate'],
  ['cf.tls_client_auth.cert_fingerprint_sha256', 'String', 'SHA-256 fingerprint of the client certificate'],
  ['cf.tls_client_auth.cert_fingerprint_sha1', 'String', 'SHA-1 fingerprint of the client certificate'],
  ['cf.tls_client_auth.cert_not_before', 'String', 'Start of validity of the client certificate'],
  ['cf.tls_client_auth.cert_not_after', 'String', 'End of validity of the client certificate'],
  ['cf.tls_client_auth.cert_ski', 'String', 'Subject key identifier of the client certificate'],
  ['cf.tls_client_auth.cert_issuer_ski', 'String', 'Subject key identifier of the issuer'],
  ['cf.tls_client_auth.cert_rfc9440', 'String', 'Client certificate as an RFC 9440 structured-field byte sequence'],
  ['cf.tls_client_auth.cert_rfc9440_too_large', 'Boolean', 'The RFC 9440 client certificate is over the 10 KiB limit'],
  ['cf.tls_client_auth.cert_chain_rfc9440', 'String', 'Client certificate chain (without the leaf) as an RFC 9440 list'],
  ['cf.tls_client_auth.cert_chain_rfc9440_too_large', 'Boolean', 'The RFC 9440 certificate chain is over the 16 KiB limit'],
  ['cf.edge.server_ip', 'IP', 'Edge IP address the request reached'],
  ['cf.edge.server_port', 'Integer', 'Edge port the request reached (1-65535)'],
  ['cf.edge.client_tcp', 'Boolean', 'The client connected over TCP'],
  ['cf.edge.l4.delivery_rate', 'Integer', 'Latest delivery rate estimate of the client connection, bytes per second'],
  ['cf.hostname.metadata', 'String', 'Per-hostname metadata (JSON) of custom hostnames'],
  ['cf.random_seed', 'Bytes', 'Random bytes per request, for uuidv4()'],
  ['cf.ray_id', 'String', 'Ray ID of the request'],
  ['cf.worker.upstream_zone', 'String', 'Zone of the Worker that made the request, empty if none'],
  ['cf.threat_score', 'Integer', 'Legacy threat score (always 0 now)'],
  ['cf.timings.client_tcp_rtt_msec', 'Integer', 'Client TCP round-trip time in ms'],
  ['cf.timings.client_quic_rtt_msec', 'Integer', 'Client QUIC round-trip time in ms'],
  ['cf.timings.worker_msec', 'Integer', 'Time spent running a Worker in ms'],
  ['cf.timings.edge_msec', 'Integer', 'Time spent at the edge in ms'],
  ['cf.timings.origin_ttfb_msec', 'Integer', 'Time to first byte from the origin in ms'],
  ['cf.zone.name', 'String', 'Name of the zone'],
  ['cf.zone.plan', 'String', 'Plan of the zone'],
  // bots, WAF, API protection, content scanning, AI
  ['cf.bot_management.score', 'Integer', 'Bot score 1-99 (low: bot)', { plan: ENT_BM }],
  ['cf.bot_management.verified_bot', 'Boolean', 'Known good bot', { plan: ENT_BM }],
  ['cf.client.bot', 'Boolean', 'Known good bot'],
  ['cf.verified_bot_category', 'String', 'Category of the verified bot'],
  ['cf.bot_management.static_resource', 'Boolean', 'The request is for a static resource', { plan: ENT_BM }],
  ['cf.bot_management.ja3_hash', 'String', 'JA3 fingerprint of the TLS handshake', { plan: ENT_BM }],
  ['cf.bot_management.ja4', 'String', 'JA4 fingerprint of the TLS handshake', { plan: ENT_BM }],
  ['cf.bot_management.js_detection.passed', 'Boolean', 'The client passed JavaScript detection', { plan: ENT_BM }],
  ['cf.bot_management.detection_ids', 'Array<Integer>', 'IDs of the bot heuristics that matched', { plan: ENT_BM }],
  ['cf.bot_management.corporate_proxy', 'Boolean', 'The request comes from a known corporate proxy', { plan: ENT_BM }],
  ['cf.bot_management.signed_agent', 'Boolean', 'The request comes from a known agent signing with Web Bot Auth', { plan: ENT_BM }],
  ['cf.bot_management.tags', 'Array<String>', 'Tags of the bot traffic', { plan: ENT_BM }],
  ['cf.waf.score', 'Integer', 'WAF attack score 1-99 (low: attack)', { plan: 'Enterprise' }],
  ['cf.waf.score.sqli', 'Integer', 'SQL injection attack score', { plan: 'Enterprise' }],
  ['cf.waf.score.xss', 'Integer', 'Cross-site scripting attack score', { plan: 'Enterprise' }],
  ['cf.waf.score.rce', 'Integer', 'Remote code execution attack score', { plan: 'Enterprise' }],
  ['cf.waf.score.class', 'String', 'Attack score class: attack, likely_attack, likely_clean, clean', { plan: 'Business and above' }],
  ['cf.waf.auth_detected', 'Boolean', 'Credentials were detected in the request', { plan: 'Enterprise' }],
  ['cf.waf.credential_check.password_leaked', 'Boolean', 'The password was found in a leak'],
  ['cf.waf.credential_check.username_leaked', 'Boolean', 'The username was found in a leak', { plan: 'Enterprise' }],
  ['cf.waf.credential_check.username_password_similar', 'Boolean', 'A similar username and password pair was leaked', { plan: 'Enterprise' }],
  ['cf.waf.credential_check.username_and_password_leaked', 'Boolean', 'The username and password pair was leaked', { plan: 'Pro and above' }],
  ['cf.waf.content_scan.has_obj', 'Boolean', 'The request contains a content object', { plan: ENT_ADDON }],
  ['cf.waf.content_scan.has_malicious_obj', 'Boolean', 'The request contains a malicious object', { plan: ENT_ADDON }],
  ['cf.waf.content_scan.has_failed', 'Boolean', 'Scanning an object failed', { plan: ENT_ADDON }],
  ['cf.waf.content_scan.num_obj', 'Integer', 'Number of content objects', { plan: ENT_ADDON }],
  ['cf.waf.content_scan.num_malicious_obj', 'Integer', 'Number of malicious objects', { plan: ENT_ADDON }],
  ['cf.waf.content_scan.obj_sizes', 'Array<Integer>', 'Sizes of the content objects', { plan: ENT_ADDON }],
  ['cf.waf.content_scan.obj_types', 'Array<String>', 'MIME types of the content objects', { plan: ENT_ADDON }],
  ['cf.waf.content_scan.obj_results', 'Array<String>', 'Scan results: clean, suspicious, infected, not scanned', { plan: ENT_ADDON }],
  ['cf.waf.content_scan.truncated', 'Boolean', 'The body was over the scanning limit and truncated before the scan', { plan: ENT_ADDON }],
  ['cf.waf.signature.request.categories', 'Array<String>', 'Categories of the attack signatures that matched', { plan: 'Early Access' }],
  ['cf.waf.signature.request.confidence', 'Array<String>', 'Confidence (high, low) of the attack signatures that matched', { plan: 'Early Access' }],
  ['cf.waf.signature.request.refs', 'Array<String>', 'Refs of the attack signatures that matched (up to 10)', { plan: 'Early Access' }],
  ['cf.web_asset.labels', 'Array<String>', 'Labels of the operation the request matched'],
  ...['learned', 'uploaded'].flatMap((k): Row[] => [
    [`cf.schema_validation.${k}.violated`, 'Boolean', `The request violates the ${k} schema`],
    [`cf.schema_validation.${k}.body.violated_parameters`, 'Array<String>', `JSON path of the body violation of the ${k} schema`],
    [`cf.schema_validation.${k}.cookies.violated_parameters`, 'Array<String>', `Cookies violating the ${k} schema`],
    [`cf.schema_validation.${k}.headers.violated_parameters`, 'Array<String>', `Request headers violating the ${k} schema`],
    [`cf.schema_validation.${k}.path.violated_parameters`, 'Array<String>', `Path parameters violating the ${k} schema`],
    [`cf.schema_validation.${k}.query.undeclared_parameters`, 'Array<String>', `Query parameters the ${k} schema does not declare`],
    [`cf.schema_validation.${k}.query.violated_parameters`, 'Array<String>', `Query parameters violating the ${k} schema`],
  ]),
  ['cf.fraud_detection.disposable_email', 'Boolean', 'The email of the request uses a disposable email domain', { plan: 'Enterprise Bot Management add-on (early access)' }],
  ['cf.fraud.email_risk', 'String', 'Risk of the email of the request: low, medium, high, unknown', { plan: 'Enterprise Bot Management add-on (early access)' }],
  ['cf.sequence.current_op', 'String', 'ID of the saved operation the request matches, empty if none'],
  ['cf.sequence.previous_ops', 'Array<String>', 'IDs of the previous operations of the sequence, most recent first'],
  ['cf.sequence.msec_since_op', 'Map<Integer>', 'Milliseconds since each previous operation, by operation ID'],
  ['cf.intel.ip.datasets', 'Array<String>', 'Threat intelligence datasets that flagged the client IP (ddos, waf)'],
  ['cf.intel.ip.target_industries', 'Array<String>', 'Industries the client IP has targeted'],
  ['cf.intel.ip.attacker_names', 'Array<String>', 'Threat actor names associated with the client IP'],
  ['cf.intel.ip.attacker_countries', 'Array<String>', 'Source countries of the threat activity (ISO 3166-1 alpha-2)'],
  ['cf.intel.ip.target_countries', 'Array<String>', 'Countries the client IP has targeted (ISO 3166-1 alpha-2)'],
  ['cf.api_gateway.auth_id_present', 'Boolean', 'The request carries a session identifier', { plan: ENT_ADDON }],
  ['cf.api_gateway.request_violates_schema', 'Boolean', 'The request violates the API schema'],
  ['cf.api_gateway.fallthrough_detected', 'Boolean', 'The request matches no saved endpoint'],
  ...['aud', 'iss', 'jti', 'sub'].flatMap((c): Row[] => [
    [`http.request.jwt.claims.${c}`, 'Map<Array<String>>', `JWT ${c} claims by token configuration`, { plan: ENT_ADDON }],
    [`http.request.jwt.claims.${c}.names`, 'Array<String>', `Token configurations of the ${c} claims`, { plan: ENT_ADDON }],
    [`http.request.jwt.claims.${c}.values`, 'Array<String>', `Values of the ${c} claims`, { plan: ENT_ADDON }],
  ]),
  ['http.request.jwt.claims', 'Map<Array<String>>', 'Claims of each validated JWT (a JSON string), by token configuration ID', { plan: ENT_ADDON }],
  ...['iat', 'nbf', 'exp'].flatMap((c): Row[] => [
    [`http.request.jwt.claims.${c}.sec`, 'Map<Array<Integer>>', `JWT ${c} claims (Unix seconds) by token configuration`, { plan: ENT_ADDON }],
    [`http.request.jwt.claims.${c}.sec.names`, 'Array<String>', `Token configurations of the ${c} claims`, { plan: ENT_ADDON }],
    [`http.request.jwt.claims.${c}.sec.values`, 'Array<Integer>', `Values of the ${c} claims`, { plan: ENT_ADDON }],
  ]),
  ['cf.llm.prompt.detected', 'Boolean', 'The request contains an AI prompt', { plan: 'Enterprise' }],
  ['cf.llm.prompt.pii_detected', 'Boolean', 'The prompt contains personal information', { plan: 'Enterprise' }],
  ['cf.llm.prompt.unsafe_topic_detected', 'Boolean', 'The prompt touches an unsafe topic', { plan: 'Enterprise' }],
  ['cf.llm.prompt.injection_score', 'Integer', 'Prompt injection score', { plan: 'Enterprise' }],
  ['cf.llm.prompt.pii_categories', 'Array<String>', 'Categories of personal information in the prompt', { plan: 'Enterprise' }],
  ['cf.llm.prompt.unsafe_topic_categories', 'Array<String>', 'Unsafe topic categories of the prompt', { plan: 'Enterprise' }],
  ['cf.llm.prompt.custom_topic_categories', 'Map<Integer>', 'Relevance (1-99) of each custom topic label to the prompt', { plan: 'Enterprise' }],
  ['cf.llm.prompt.token_count', 'Integer', 'Estimated token count of the prompt', { plan: 'Enterprise' }],
  // response fields
  ['http.response.code', 'Integer', 'Status code sent to the client', RESPONSE],
  ['http.response.headers', 'Map<Array<String>>', 'Response headers by lower-case name', RESPONSE],
  ['http.response.headers.names', 'Array<String>', 'Response header names', RESPONSE],
  ['http.response.headers.values', 'Array<String>', 'Response header values', RESPONSE],
  ['http.response.headers.truncated', 'Boolean', 'Too many response headers: the maps may be incomplete', RESPONSE],
  ['http.response.content_type.media_type', 'String', 'Media type of the response, lower case, without parameters', RESPONSE],
  ['cf.response.1xxx_code', 'Integer', 'Error code 1xxx of the response, 0 if none', { where: ['response-header-transform', 'custom-errors'] }],
  ['cf.response.error_type', 'String', 'Kind of error response (waf, 5xx, 1xxx, ratelimit, ...), empty if none', { where: ['response-header-transform', 'custom-errors'] }],
  // packet fields of the network-layer phases
  ['ip', 'String', 'The raw IP packet (use with bit_slice)', NETWORK],
  ['ip.dst', 'IP', 'Destination address of the packet', NETWORK],
  ['ip.dst.country', 'String', 'Country code of the destination address (ISO 3166-1 alpha-2)', NETWORK],
  ['ip.dst.asnum', 'Integer', 'Autonomous system number of the destination address', NETWORK],
  ['ip.hdr_len', 'Integer', 'Length of the IPv4 header', NETWORK],
  ['ip.len', 'Integer', 'Length of the packet including the header', NETWORK],
  ['ip.opt.type', 'Integer', 'First byte of the IP options, when set', NETWORK],
  ['ip.proto', 'String', 'Transport protocol of the packet (tcp, udp, icmp, ...)', NETWORK],
  ['ip.ttl', 'Integer', 'Time to live of the packet', NETWORK],
  ['cf.colo.name', 'String', 'Data center handling the traffic', NETWORK],
  ['cf.colo.region', 'String', 'Region of the data center handling the traffic', NETWORK],
  ['sip', 'Boolean', 'The UDP packet is valid SIP', NETWORK],
  ['tcp', 'String', 'The raw TCP packet (use with bit_slice)', NETWORK],
  ['tcp.flags', 'Integer', 'The TCP flags byte', NETWORK],
  ...['ack', 'cwr', 'ecn', 'fin', 'push', 'reset', 'syn', 'urg'].map((f): Row => [`tcp.flags.${f}`, 'Boolean', `TCP ${f} flag`, NETWORK]),
  ['tcp.srcport', 'Integer', 'Source port of a TCP packet', NETWORK],
  ['tcp.dstport', 'Integer', 'Destination port of a TCP packet', NETWORK],
  ['udp', 'String', 'The raw UDP packet (use with bit_slice)', NETWORK],
  ['udp.srcport', 'Integer', 'Source port of a UDP packet', NETWORK],
  ['udp.dstport', 'Integer', 'Destination port of a UDP packet', NETWORK],
  ['icmp', 'String', 'The raw ICMP packet (use with bit_slice)', NETWORK],
  ['icmp.type', 'Integer', 'ICMP type', NETWORK],
  ['icmp.code', 'Integer', 'ICMP code', NETWORK],
  // the expression that matches everything, accepted by the API as a Boolean
  ['true', 'Boolean', 'Matches every request (the API accepts the expression true)', EVERYWHERE],
];

function layersOf(where: Where | undefined): FieldLayer[] {
  if (where === 'network') return ['network'];
  if (where === 'everywhere') return ['http', 'network'];
  return ['http'];
}

export const RULE_FIELDS: readonly RuleField[] = ROWS.map(([name, type, doc, extra]) => ({
  name,
  type: parseTypeName(type),
  doc,
  layers: layersOf(extra?.where),
  ...(Array.isArray(extra?.where) ? { phases: phasesOf(extra.where) } : {}),
  ...(extra?.plan ? { plan: extra.plan } : {}),
  ...(extra?.replacedBy ? { replacedBy: extra.replacedBy } : {}),
}));

export const RULE_FIELD_BY_NAME: ReadonlyMap<string, RuleField> = new Map(RULE_FIELDS.map((f) => [f.name, f]));

/** Managed IP lists every account has (`ip.src in $cf.open_proxies`). */
export const MANAGED_LISTS: readonly string[] = ['cf.open_proxies', 'cf.anonymizer', 'cf.vpn', 'cf.malware', 'cf.botnetcc'];
