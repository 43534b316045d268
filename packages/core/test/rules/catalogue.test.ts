/**
 * The field table against the provider's catalogue (test/fixtures/rules/field-catalogue.txt, its sources and
 * date in its header): every field of the catalogue is known, with the catalogue's type; every field of the
 * table has a type. The phase table: every phase known, each with the fields its layer reads.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkRule, HTTP_PHASES, NETWORK_PHASES, PHASES, RULE_FIELD_BY_NAME, RULE_FIELDS, ruleDocTypeName, type RuleType } from '@logfilter/core';

const catalogue = readFileSync(new URL('../../../../test/fixtures/rules/field-catalogue.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => {
    const [name, type] = l.trim().split(/\s+/);
    return { name: name!, type: type! };
  });

const docName = (t: RuleType) => ruleDocTypeName(t).replace('IP address', 'IP');

describe('field catalogue', () => {
  it('lists the catalogue with types', () => {
    expect(catalogue.length).toBeGreaterThan(200);
    for (const f of catalogue) expect(f.type, f.name).toMatch(/^(String|Bytes|Integer|IP|Boolean|Array<.+>|Map<.+>)$/);
  });

  it.each(catalogue.map((f) => [f.name, f.type] as const))('%s is known as %s', (name, type) => {
    const field = RULE_FIELD_BY_NAME.get(name);
    expect(field, `${name} is missing from the field table`).toBeDefined();
    // the table spells cf.random_seed as Bytes, the one field the documentation types so
    expect(docName(field!.type)).toBe(type === 'Bytes' ? 'String' : type);
  });

  it('every field of the table has a type and a layer', () => {
    for (const f of RULE_FIELDS) {
      expect(f.type, f.name).toBeDefined();
      expect(() => docName(f.type), f.name).not.toThrow();
      expect(f.layers.length, f.name).toBeGreaterThan(0);
    }
  });

  it('the new fields check in the phases that read them', () => {
    const ok = (e: string, phase = 'http_request_firewall_custom') => checkRule(e, { phase }).diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);
    expect(ok('cf.sequence.current_op eq "965a3361" and not cf.sequence.msec_since_op["6ef5fb59"] ge 10000')).toEqual([]);
    expect(ok('any(cf.sequence.previous_ops[*] == "aaaaaaaa")')).toEqual([]);
    expect(ok('lookup_json_string(http.request.jwt.claims["cfg-1"][0], "sub") eq "admin"')).toEqual([]);
    expect(ok('any(cf.intel.ip.target_countries[*] == "FR") and any(cf.intel.ip.datasets[*] == "ddos")')).toEqual([]);
    expect(ok('cf.schema_validation.learned.violated and cf.llm.prompt.custom_topic_categories["x"] gt 50')).toEqual([]);
    expect(ok('cf.tls_client_auth.cert_rfc9440_too_large or cf.timings.client_quic_rtt_msec gt 100')).toEqual([]);
    // http.request.jwt.claims is a map of arrays: comparing the map itself is refused
    expect(ok('http.request.jwt.claims eq "x"')).toEqual(['rule-operator-type']);
  });
});

describe('one error per cause', () => {
  it.each([
    ['any(http.request.headers.nmes[*] == "x")', 'rule-unknown-identifier'],
    ['any(lower(http.request.headers.nmes[*]) == "x")', 'rule-unknown-identifier'],
    ['not any(cf.nope[*] contains "x") and ssl', 'rule-unknown-identifier'],
  ])('%s: only %s', (expression, code) => {
    const errors = checkRule(expression).diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.code)).toEqual([code]);
  });
});

describe('phases', () => {
  it('knows the HTTP and network-layer phases of the provider', () => {
    for (const p of ['magic_transit', 'magic_transit_managed', 'magic_transit_ids_managed', 'magic_transit_ratelimit', 'ddos_l4']) expect(NETWORK_PHASES).toContain(p);
    for (const p of ['http_response_cache_settings', 'http_request_select_configuration', 'http_request_api_gateway', 'http_response_page_shield', 'http_request_firewall_custom']) expect(HTTP_PHASES).toContain(p);
    expect(new Set(PHASES).size).toBe(PHASES.length);
    expect(PHASES.length).toBe(HTTP_PHASES.length + NETWORK_PHASES.length);
  });

  const codes = (e: string, phase: string) => checkRule(e, { phase }).diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);

  it.each(NETWORK_PHASES.map((p) => [p]))('%s reads packet fields and no HTTP field', (phase) => {
    expect(codes('ip.proto eq "tcp" and tcp.dstport in {80 443} and not tcp.flags.syn and ip.src in {192.0.2.0/24} and ip.dst.country eq "GB"', phase)).toEqual([]);
    expect(codes('udp.srcport eq 53 or icmp.type eq 8 or bit_slice("tcp", 104, 111) eq 2', phase)).toEqual([]);
    expect(codes('http.host eq "example.com"', phase)).toEqual(['rule-unavailable-in-phase']);
  });

  it.each(HTTP_PHASES.map((p) => [p]))('%s reads HTTP fields and no packet field', (phase) => {
    expect(codes('http.host eq "example.com" and ip.src in {192.0.2.0/24}', phase)).toEqual([]);
    expect(codes('tcp.dstport eq 80', phase)).toEqual(['rule-unavailable-in-phase']);
    expect(codes('ip.dst eq 192.0.2.1', phase)).toEqual(['rule-unavailable-in-phase']);
  });

  it('response fields only in the response phases', () => {
    expect(codes('http.response.code eq 404', 'http_response_cache_settings')).toEqual([]);
    expect(codes('http.response.code eq 404', 'http_request_firewall_custom')).toEqual(['rule-unavailable-in-phase']);
  });
});
