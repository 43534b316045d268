/**
 * rules eval: every function and operator against the provider's documented examples (the functions,
 * operators and values reference pages; DOC-fn-A @ 12cd7d04 in test/fixtures/rules/SOURCES.md), one table
 * per function: [expression or value expression, request fields, expected value].
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluateRule, readSampleRequest, showRuleValue } from '@logfilter/core';

type Row = [expression: string, request: Record<string, unknown>, expected: string];

function value(expression: string, request: Record<string, unknown>, kind: 'value' | 'filter'): string {
  const r = readSampleRequest(request);
  expect(r.problems).toEqual([]);
  const out = evaluateRule(expression, r.fields, { kind, lists: { office: ['192.0.2.0/24', '2001:db8::/32'], asns: [13335, 64496], ports: [443, '8000..8009'], hosts: ['192.0.2.1', 'a.example'] } });
  if (!out.ok) return `error: ${out.problem?.message ?? out.diagnostics.map((d) => d.code).join(',')}`;
  return showRuleValue(out.value);
}

/** Value expressions show their value; filter expressions true/false. */
function table(name: string, rows: Row[]): void {
  describe(name, () => {
    it.each(rows)('%s', (expression, request, expected) => {
      const kind = /^(true|false)$/.test(expected) ? 'filter' : 'value';
      expect(value(expression, request, kind)).toBe(expected);
    });
  });
}

const body = (json: unknown) => ({ 'http.request.body.raw': JSON.stringify(json) });

table('any / all', [
  ['any(url_decode(http.request.body.form.values[*])[*] contains "an xss attack")', { 'http.request.body.form': { a: ['x'], b: ['an%20xss%20attack'] } }, 'true'],
  ['any(url_decode(http.request.body.form.values[*])[*] contains "an xss attack")', { 'http.request.body.form': { a: ['x'] } }, 'false'],
  ['all(http.request.headers["content-type"][*] == "application/json")', { 'http.request.headers': { 'content-type': ['application/json', 'application/json'] } }, 'true'],
  ['all(http.request.headers["content-type"][*] == "application/json")', { 'http.request.headers': { 'content-type': ['application/json', 'text/html'] } }, 'false'],
  ['any(http.request.headers.names[*] == "X-Foo")', { 'http.request.headers.names': ['Accept', 'X-Foo'] }, 'true'],
  // the engine's rule: all() over an empty array is true, over a missing one (an absent key) false; any() false for both
  ['all(http.request.headers["content-type"][*] == "application/json")', { 'http.request.headers': { 'content-type': [] } }, 'true'],
  ['any(http.request.headers["content-type"][*] == "application/json")', { 'http.request.headers': { 'content-type': [] } }, 'false'],
  ['all(http.request.headers["content-type"][*] == "application/json")', { 'http.request.headers': { accept: ['*/*'] } }, 'false'],
  ['any(http.request.headers["content-type"][*] == "application/json")', { 'http.request.headers': { accept: ['*/*'] } }, 'false'],
  ['all(http.request.headers.names[*] == "X-Foo")', { 'http.request.headers.names': [] }, 'true'],
  ['all(lower(http.request.headers["x"][*])[*] == "a")', { 'http.request.headers': { x: [] } }, 'true'],
  ['all(lower(http.request.headers["x"][*])[*] == "a")', { 'http.request.headers': {} }, 'false'],
  ['all((http.request.headers["x"][*] == "a" or http.request.headers["x"][*] == "b"))', { 'http.request.headers': { x: [] } }, 'true'],
  ['all((http.request.headers["x"][*] == "a" or http.request.headers["x"][*] == "b"))', { 'http.request.headers': {} }, 'false'],
  ['all(http.request.body.multipart.filenames[*][*] == "a")', { 'http.request.body.multipart.filenames': [[], ['a']] }, 'true'],
]);

table('cidr / cidr6', [
  ['cidr(ip.src, 24, 24)', { 'ip.src': '113.10.0.2' }, '113.10.0.0'],
  ['cidr(ip.src, 24, 24)', { 'ip.src': '2001:0000:130F:0000:0000:09C0:876A:130B' }, '2001::'],
  ['cidr6(ip.src, 24)', { 'ip.src': '2001:0000:130F:0000:0000:09C0:876A:130B' }, '2001::'],
  ['cidr6(ip.src, 24)', { 'ip.src': '113.10.0.2' }, '113.10.0.2'],
]);

table('concat', [
  ['concat("String1", " ", "String", "2")', {}, '"String1 String2"'],
  ['concat(http.host)', { 'http.host': 'example.org' }, '"example.org"'],
  ['concat(http.request.headers.names, http.request.uri.args.names)', { 'http.request.headers.names': ['a'], 'http.request.uri.args.names': ['b', 'c'] }, '["a", "b", "c"]'],
]);

table('decode_base64 / encode_base64 / sha256', [
  ['(any(decode_base64(http.request.headers["client_id"][*])[*] eq "123abc"))', { 'http.request.headers': { client_id: ['MTIzYWJj'] } }, 'true'],
  ['encode_base64(http.host)', { 'http.host': 'ab?' }, '"YWI/"'],
  ['encode_base64(http.host, "u")', { 'http.host': 'ab?' }, '"YWI_"'],
  ['encode_base64(http.host, "p")', { 'http.host': 'a' }, '"YQ=="'],
  ['encode_base64(http.host)', { 'http.host': 'a' }, '"YQ"'],
  ['encode_base64(sha256(http.host), "p")', { 'http.host': 'abc' }, '"ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="'],
]);

table('starts_with / ends_with', [
  ['ends_with(http.request.uri.path, ".html")', { 'http.request.uri.path': '/welcome.html' }, 'true'],
  ['ends_with(http.request.uri.path, ".html")', { 'http.request.uri.path': '/welcome.htm' }, 'false'],
  ['starts_with(http.request.uri.path, "/blog")', { 'http.request.uri.path': '/blog/first-post' }, 'true'],
  ['starts_with(http.request.uri.path, "/blog")', { 'http.request.uri.path': '/Blog' }, 'false'],
]);

table('join / split', [
  ['join(http.request.headers.names, ",")', { 'http.request.headers.names': ['Accept', 'Host'] }, '"Accept,Host"'],
  ['join(http.request.headers.names, ",")', { 'http.request.headers.names': [] }, '""'],
  ['join(http.request.headers.names, ",")', { 'http.request.headers.names': ['only'] }, '"only"'],
  ['split(http.request.headers["x-categories"][0], ",", 64)', { 'http.request.headers': { 'x-categories': ['groceries,electronics,diy,auto'] } }, '["groceries", "electronics", "diy", "auto"]'],
  ['split(http.request.headers["x-categories"][0], ",", 3)', { 'http.request.headers': { 'x-categories': ['groceries,electronics,diy,auto'] } }, '["groceries", "electronics", "diy,auto"]'],
  ['split(http.request.headers["x-categories"][0], ",", 64)', { 'http.request.headers': { 'x-categories': ['groceries,,electronics'] } }, '["groceries", "", "electronics"]'],
  ['split(http.request.headers["x-none"][0], ",", 64)', { 'http.request.headers': {} }, '(missing)'],
]);

table('len / lower / upper', [
  ['len(http.host)', { 'http.host': 'example.com' }, '11'],
  ['len(http.host)', { 'http.host': 'ü' }, '2'],
  ['len(http.request.headers.names)', { 'http.request.headers.names': ['a', 'b', 'c'] }, '3'],
  ['lower(http.host) == "www.cloudflare.com"', { 'http.host': 'WWW.cloudflare.com' }, 'true'],
  ['upper(http.host)', { 'http.host': 'www.cloudflare.com' }, '"WWW.CLOUDFLARE.COM"'],
  ['lower(http.host)', { 'http.host': 'ÉCOLE' }, '"Écol e"'.replace(' ', '')],
]);

table('lookup_json_integer', [
  ['lookup_json_integer(http.request.body.raw, "version")', body({ record_id: 'aed53a', version: 2 }), '2'],
  ['lookup_json_integer(http.request.body.raw, "product", "id")', body({ product: { id: 356 } }), '356'],
  ['lookup_json_integer(http.request.body.raw, 1)', body(['first_item', -234]), '-234'],
  ['lookup_json_integer(http.request.body.raw, "network_ids", 0)', body({ network_ids: [123, 456] }), '123'],
  ['lookup_json_integer(http.request.body.raw, 1, "product_id")', body([{ product_id: 123 }, { product_id: 456 }]), '456'],
  ['lookup_json_integer(http.request.body.raw, "v")', { 'http.request.body.raw': '{"v": 42.0}' }, '(missing)'],
  ['lookup_json_integer(http.request.body.raw, "v")', { 'http.request.body.raw': 'not json' }, '(missing)'],
]);

table('lookup_json_string', [
  ['lookup_json_string(http.request.body.raw, "company") == "cloudflare"', body({ company: 'cloudflare', product: 'rulesets' }), 'true'],
  ['lookup_json_string(http.request.body.raw, "network", "name") == "cloudflare"', body({ network: { name: 'cloudflare' } }), 'true'],
  ['lookup_json_string(http.request.body.raw, 1) == "cloudflare"', body(['other_company', 'cloudflare']), 'true'],
  ['lookup_json_string(http.request.body.raw, "networks", 1) == "cloudflare"', body({ networks: ['other_company', 'cloudflare'] }), 'true'],
  ['lookup_json_string(http.request.body.raw, 1, "network") == "cloudflare"', body([{ network: 'other_company' }, { network: 'cloudflare' }]), 'true'],
  ['lookup_json_string(http.request.jwt.claims["cfg"][0], "sub") eq "admin"', { 'http.request.jwt.claims': { cfg: ['{"sub": "admin"}'] } }, 'true'],
]);

table('regex_replace', [
  ['regex_replace(http.request.uri.path, "/bar$", "/baz")', { 'http.request.uri.path': '/foo/bar' }, '"/foo/baz"'],
  ['regex_replace(http.request.uri.path, "^/y$", "/mumble")', { 'http.request.uri.path': '/x' }, '"/x"'],
  ['regex_replace(http.request.uri.path, "^/FOO$", "/x")', { 'http.request.uri.path': '/foo' }, '"/foo"'],
  ['regex_replace(http.request.uri.path, "/a", "/b")', { 'http.request.uri.path': '/a/a' }, '"/b/a"'],
  ['regex_replace(http.request.uri.path, "^/b$", "/b$$")', { 'http.request.uri.path': '/b' }, '"/b$"'],
  ['regex_replace(http.request.uri.path, "^/foo/([^/]*)/(.*)$", "/bar/${2}/${1}")', { 'http.request.uri.path': '/foo/a/path' }, '"/bar/path/a"'],
  // strings are bytes: a value or replacement that is no UTF-8 keeps its bytes (one each), UTF-8 stays UTF-8
  ['len(regex_replace(url_decode(http.request.uri.path), "a", "b"))', { 'http.request.uri.path': 'a%FF' }, '2'],
  ['len(regex_replace(http.request.uri.path, "a", "\\xff"))', { 'http.request.uri.path': 'éa' }, '3'],
  ['regex_replace(http.request.uri.path, "a(.)", "${1}ü")', { 'http.request.uri.path': 'aé' }, '"éü"'],
]);

table('remove_bytes / remove_query_args / substring', [
  ['remove_bytes(http.host, "\\x2e\\x77")', { 'http.host': 'www.cloudflare.com' }, '"cloudflarecom"'],
  ['remove_query_args(http.request.uri.query, "country")', { 'http.request.uri.query': 'order=asc&country=GB' }, '"order=asc"'],
  ['remove_query_args(http.request.uri.query, "order")', { 'http.request.uri.query': 'order=asc&country=GB' }, '"country=GB"'],
  ['remove_query_args(http.request.uri.query, "search")', { 'http.request.uri.query': 'order=asc&country=GB' }, '"order=asc&country=GB"'],
  ['remove_query_args(http.request.uri.query, "order")', { 'http.request.uri.query': 'category=Foo&order=desc&category=Bar' }, '"category=Foo&category=Bar"'],
  ['remove_query_args(http.request.uri.query, "category")', { 'http.request.uri.query': 'category=Foo&order=desc&category=Bar' }, '"order=desc"'],
  ['substring(http.request.body.raw, 2, 5)', { 'http.request.body.raw': 'asdfghjk' }, '"dfg"'],
  ['substring(http.request.body.raw, 2)', { 'http.request.body.raw': 'asdfghjk' }, '"dfghjk"'],
  ['substring(http.request.body.raw, -2)', { 'http.request.body.raw': 'asdfghjk' }, '"jk"'],
  ['substring(http.request.body.raw, 0, -2)', { 'http.request.body.raw': 'asdfghjk' }, '"asdfgh"'],
]);

table('to_string / uuidv4 / has_key / has_value', [
  ['to_string(cf.bot_management.score)', { 'cf.bot_management.score': 5 }, '"5"'],
  ['to_string(ssl)', { ssl: true }, '"true"'],
  ['to_string(ip.src)', { 'ip.src': '2001:db8:0:0:0:0:0:1' }, '"2001:db8::1"'],
  ['uuidv4(cf.random_seed)', { 'cf.random_seed': 'abcdefghijklmnop' }, '"61626364-6566-4768-a96a-6b6c6d6e6f70"'],
  ['has_key(http.request.headers, "accept")', { 'http.request.headers': { accept: ['*/*'] } }, 'true'],
  ['has_key(http.request.headers, "x")', { 'http.request.headers': { accept: ['*/*'] } }, 'false'],
  ['has_value(http.request.headers.names, "Accept")', { 'http.request.headers.names': ['Accept'] }, 'true'],
  ['has_value(cf.bot_management.detection_ids, 7)', { 'cf.bot_management.detection_ids': [3, 7] }, 'true'],
]);

table('url_decode', [
  ['url_decode(http.request.uri.path)', { 'http.request.uri.path': 'John%20Doe' }, '"John Doe"'],
  ['url_decode(http.request.uri.path)', { 'http.request.uri.path': 'John+Doe' }, '"John Doe"'],
  ['url_decode(http.request.uri.path)', { 'http.request.uri.path': '%2520' }, '"%20"'],
  ['url_decode(http.request.uri.path, "r")', { 'http.request.uri.path': '%2520' }, '" "'],
  ['url_decode(http.request.uri.path, "u")', { 'http.request.uri.path': '%u2601' }, '"☁"'],
  ['url_decode(http.request.uri.path) matches "(?u)\\p{Hangul}+"', { 'http.request.uri.path': '/%ED%95%9C' }, 'true'],
  ['url_decode(http.request.uri.path) matches "(?u)\\p{Hangul}+"', { 'http.request.uri.path': '/abc' }, 'false'],
]);

table('wildcard_replace', [
  ['wildcard_replace(http.request.full_uri, "https://*.example.com/*/*", "https://example.com/${1}/${2}/${3}")', { 'http.request.full_uri': 'https://apps.example.com/calendar/admin?expand=true' }, '"https://example.com/apps/calendar/admin?expand=true"'],
  ['wildcard_replace(http.request.full_uri, "/applications/*", "/apps/${1}")', { 'http.request.full_uri': 'https://example.com/applications/app1' }, '"https://example.com/applications/app1"'],
  ['wildcard_replace(http.request.uri.path, "/*", "/apps/${1}")', { 'http.request.uri.path': '/calendar' }, '"/apps/calendar"'],
  ['wildcard_replace(http.request.uri.path, "/apps/*", "/${1}")', { 'http.request.uri.path': '/Apps/calendar' }, '"/calendar"'],
  ['wildcard_replace(http.request.uri.path, "/apps/*", "/${1}", "s")', { 'http.request.uri.path': '/Apps/calendar' }, '"/Apps/calendar"'],
  ['wildcard_replace(http.request.uri.path, "/apps/*/login", "/${1}/login")', { 'http.request.uri.path': '/apps/calendar/login' }, '"/calendar/login"'],
]);

// the documentation's token, with its MAC made by Node's own HMAC-SHA-256 (message and timestamp, Base64)
const mac = (key: string, message: string, urlSafe = false) => {
  const b64 = createHmac('sha256', key).update(message).digest('base64');
  return urlSafe ? b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : encodeURIComponent(b64);
};
const token = `/download/cat.jpg?verify=1484063787-${mac('mysecretkey', '/download/cat.jpg1484063787')}`;
const safe = `/download/cat.jpg?verify=1484063787-${mac('mysecretkey', '/download/cat.jpg1484063787', true)}`;
const longPath = `/2017010112-${'a'.repeat(50)}/cat.jpg`;
const dashed = `${longPath}?verify=1484063787-${mac('mysecretkey', `${longPath}1484063787`)}`;

table('is_timed_hmac_valid_v0', [
  ['is_timed_hmac_valid_v0("mysecretkey", http.request.uri, 100000, http.request.timestamp.sec, 8)', { 'http.request.uri': token, 'http.request.timestamp.sec': 1484063800 }, 'true'],
  ['is_timed_hmac_valid_v0("mysecretkey", http.request.uri, 100000, http.request.timestamp.sec, 8, "s")', { 'http.request.uri': safe, 'http.request.timestamp.sec': 1484063800 }, 'true'],
  ['is_timed_hmac_valid_v0("mysecretkey", http.request.uri, 100000, http.request.timestamp.sec, 8)', { 'http.request.uri': token, 'http.request.timestamp.sec': 1494063800 }, 'false'],
  ['is_timed_hmac_valid_v0("otherkey", http.request.uri, 100000, http.request.timestamp.sec, 8)', { 'http.request.uri': token, 'http.request.timestamp.sec': 1484063800 }, 'false'],
  // a path with a 10-digit number and a dash of its own: the timestamp is the last one (the message is greedy)
  ['is_timed_hmac_valid_v0("mysecretkey", http.request.uri, 100000, http.request.timestamp.sec, 8)', { 'http.request.uri': dashed, 'http.request.timestamp.sec': 1484063800 }, 'true'],
  ['is_timed_hmac_valid_v0("mysecretkey", http.request.uri, 100000, http.request.timestamp.sec, 8)', { 'http.request.uri': `${token.slice(0, 36)}%ZZ${token.slice(39)}`, 'http.request.timestamp.sec': 1484063800 }, 'false'],
]);



table('operators', [
  ['http.host eq "example.com"', { 'http.host': 'example.com' }, 'true'],
  ['http.host eq "Example.com"', { 'http.host': 'example.com' }, 'false'],
  ['http.host ne "a"', { 'http.host': 'b' }, 'true'],
  ['http.host lt "b"', { 'http.host': 'a' }, 'true'],
  ['http.request.uri.path contains "/articles/"', { 'http.request.uri.path': '/blog/articles/x' }, 'true'],
  ['http.request.uri.path matches "^/articles/200[7-8]/"', { 'http.request.uri.path': '/articles/2008/' }, 'true'],
  ['http.request.uri.path matches r"\\d{4}"', { 'http.request.uri.path': '/x/2024' }, 'true'],
  ['http.host matches "(?i-u)^WWW\\."', { 'http.host': 'www.example.com' }, 'true'],
  ['http.request.full_uri wildcard "https://example.com/*"', { 'http.request.full_uri': 'HTTPS://EXAMPLE.COM/a' }, 'true'],
  ['http.request.full_uri strict wildcard "https://example.com/*"', { 'http.request.full_uri': 'HTTPS://EXAMPLE.COM/a' }, 'false'],
  ['http.request.uri.path wildcard "/a/*"', { 'http.request.uri.path': '/b/a/c' }, 'false'],
  ['http.request.uri.path wildcard "/a/\\\\*"', { 'http.request.uri.path': '/a/*' }, 'true'],
  ['http.request.method in {"GET" "HEAD"}', { 'http.request.method': 'HEAD' }, 'true'],
  ['ip.src in {192.0.2.0/24 2001:db8::/32 198.51.100.1..198.51.100.9}', { 'ip.src': '198.51.100.5' }, 'true'],
  ['ip.src in {192.0.2.0/24 2001:db8::/32}', { 'ip.src': '2001:db8::7' }, 'true'],
  ['ip.src in {192.0.2.0/24}', { 'ip.src': '192.0.3.1' }, 'false'],
  ['ip.src in $office', { 'ip.src': '192.0.2.77' }, 'true'],
  ['ip.src.asnum in $asns', { 'ip.src.asnum': 13335 }, 'true'],
  // a named list's items are read by the value's type: a range for an integer, a string (even an IP's text) for a string
  ['cf.edge.server_port in $ports', { 'cf.edge.server_port': 8005 }, 'true'],
  ['cf.edge.server_port in $ports', { 'cf.edge.server_port': 8010 }, 'false'],
  ['http.host in $hosts', { 'http.host': '192.0.2.1' }, 'true'],
  ['http.host in $hosts', { 'http.host': 'a.example' }, 'true'],
  ['http.host in $asns', { 'http.host': '' }, 'false'],
  ['cf.edge.server_port in {80 443 8000..8009}', { 'cf.edge.server_port': 8005 }, 'true'],
  ['tcp.flags bitwise_and 0x02', {}, 'false'],
  ['cf.waf.score.sqli & 2', { 'cf.waf.score.sqli': 6 }, 'true'],
  ['ip.src eq 192.0.2.1', { 'ip.src': '::ffff:192.0.2.1' }, 'false'],
  ['ip.src ne 2001:db8::1', { 'ip.src': '192.0.2.1' }, 'true'],
  ['ip.src lt 2001:db8::1', { 'ip.src': '192.0.2.1' }, 'false'],
  ['http.host eq 65:78', { 'http.host': 'ex' }, 'true'],
  ['http.host eq "\\x65\\170"', { 'http.host': 'ex' }, 'true'],
  ['not ssl and (http.host eq "a" or http.host eq "b")', { ssl: false, 'http.host': 'b' }, 'true'],
  ['ssl xor http.host eq "a"', { ssl: true, 'http.host': 'a' }, 'false'],
  ['true', {}, 'true'],
  // missing values: every comparison is false
  ['http.request.headers["x"][0] eq "a"', {}, 'false'],
  ['http.request.headers["x"][0] ne "a"', {}, 'false'],
  ['http.cookie eq ""', {}, 'true'],
]);

describe('problems are answered, not thrown', () => {
  it('an invalid expression gives its diagnostics', () => {
    const out = evaluateRule('http.hots eq "a"', new Map());
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.diagnostics.map((d) => d.code)).toEqual(['rule-unknown-identifier']);
  });

  it('a named list that was not given, a too large regex: located problems', () => {
    for (const [expression, at] of [
      ['ip.src in $nope', 10],
      ['ip.src in $constructor', 10],
      ['ip.src in $__proto__', 10],
      ['http.host matches "[a-z]{999}[0-9]{999}"', 18],
      ['is_jwt_valid("cfg")', 0],
    ] as const) {
      const out = evaluateRule(expression, new Map());
      expect(out.ok, expression).toBe(false);
      if (!out.ok) expect(out.problem?.start, expression).toBe(at);
    }
  });

  it('a backreference is refused by the checker before evaluation (rule-regex, at the literal)', () => {
    const out = evaluateRule('http.host matches "(a)\\1"', new Map());
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.diagnostics.map((d) => [d.code, d.start])).toEqual([['rule-regex', 18]]);
  });

  it('a request with an unknown field or a wrong type is a problem naming the field', () => {
    expect(readSampleRequest({ 'http.hots': 'a' }).problems[0]).toMatch(/http\.hots.*http\.host/);
    expect(readSampleRequest({ 'ip.src': 'nope' }).problems[0]).toMatch(/ip\.src/);
    expect(readSampleRequest([]).problems).toHaveLength(1);
    // a JSON number past 2^53 has lost digits (9007199254740993 reads as …992): refused; a decimal string is exact
    expect(readSampleRequest({ 'cf.bot_management.score': 9007199254740993 }).problems[0]).toMatch(/cf\.bot_management\.score/);
    expect(readSampleRequest({ 'cf.bot_management.score': 1e30 }).problems).toHaveLength(1);
    expect(readSampleRequest({ 'cf.bot_management.score': '9007199254740993' }).fields.get('cf.bot_management.score')).toBe(9007199254740993n);
  });

  it('--explain lists each sub-expression with its value', () => {
    const r = readSampleRequest({ 'http.host': 'A.example' });
    const out = evaluateRule('lower(http.host) eq "a.example" and not ssl', r.fields);
    expect(out.ok && out.explain.map((s) => [s.text, s.value])).toEqual([
      ['lower(http.host)', '"a.example"'],
      ['lower(http.host) eq "a.example"', 'true'],
      ['not ssl', 'true'],
      ['lower(http.host) eq "a.example" and not ssl', 'true'],
    ]);
  });
});

// A field that holds others gives them when they are not given, as on the edge: the URI its path and query, the
// path its (lower-cased) extension, the query its arguments, the Cookie header its cookies; raw.* alike. A field
// given wins over one derived.
table('a request gives the fields its given fields hold', [
  ['http.request.uri.path.extension eq "html"', { 'http.request.uri.path': '/my-path/index.HTML' }, 'true'],
  ['http.request.uri.path.extension eq ""', { 'http.request.uri.path': '/a.b/c' }, 'true'],
  ['http.request.uri.args["a"][1] eq "3"', { 'http.request.uri.query': 'a=1&b=2&a=3' }, 'true'],
  ['http.request.uri.args.names[2] eq "a"', { 'http.request.uri.query': 'a=1&b=2&a=3' }, 'true'],
  ['http.request.uri.path eq "/x/y.js" and http.request.uri.query eq "q=1" and http.request.uri.path.extension eq "js" and http.request.uri.args["q"][0] eq "1"', { 'http.request.uri': '/x/y.js?q=1' }, 'true'],
  ['raw.http.request.uri.path eq "/x/y.js" and raw.http.request.uri.args["q"][0] eq "1"', { 'raw.http.request.uri': '/x/y.js?q=1' }, 'true'],
  ['http.request.uri.path eq "/given" and http.request.uri.query eq "q=1"', { 'http.request.uri': '/x/y.js?q=1', 'http.request.uri.path': '/given' }, 'true'],
  ['http.request.uri.path.extension eq "php"', { 'http.request.full_uri': 'https://a.example/x.js', 'http.request.uri.path': '/index.php' }, 'true'],
  ['http.request.cookies["b"][0] eq "2" and http.request.cookies["c"][0] eq "3=4" and len(http.request.cookies["a"]) eq 2', { 'http.cookie': 'a=1; b=2;c=3=4; a=5' }, 'true'],
  ['http.request.uri.args["__proto__"][0] eq "1" and http.request.cookies["__proto__"][0] eq "2"', { 'http.request.uri.query': '__proto__=1', 'http.cookie': '__proto__=2' }, 'true'],
  ['http.request.cookies["x"][0] eq "given"', { 'http.cookie': 'x=1', 'http.request.cookies': { x: ['given'] } }, 'true'],
]);

describe('every expression of the corpus evaluates or says why, never throws', () => {
  const entries = readFileSync(new URL('../../../../test/fixtures/rules/corpus.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { expression: string; kind: 'filter' | 'value'; phase?: string; expect: unknown });
  const requests = [
    {},
    { 'http.host': 'www.example.com', 'ip.src': '2001:db8::1', 'http.request.uri.path': '/api/v1/x', 'http.request.headers': { 'user-agent': ['Mozilla'], 'content-type': ['application/json'] }, ssl: true, 'http.request.body.raw': '{"a": [1, {"b": "c"}]}' },
  ];
  it.each(entries.filter((e) => e.expect === 'valid').map((e) => [e.expression, e]))('%s', (_, e) => {
    for (const req of requests) {
      const out = evaluateRule(e.expression, readSampleRequest(req).fields, { kind: e.kind, ...(e.phase ? { phase: e.phase } : {}), lists: {} });
      if (!out.ok) expect(out.problem, e.expression).toBeDefined();
    }
  });
});

table('a full URI gives its parts', [
  ['http.host eq "shop.example" and http.request.uri.path eq "/a/b.JS" and http.request.uri.path.extension eq "js" and ssl', { 'http.request.full_uri': 'https://shop.example/a/b.JS?x=1&y=%20&x=2' }, 'true'],
  ['http.request.uri.args["x"][1] eq "2" and http.request.uri.query eq "x=1&y=%20&x=2" and any(http.request.uri.args.names[*] eq "y")', { 'http.request.full_uri': 'https://shop.example/a/b.JS?x=1&y=%20&x=2' }, 'true'],
  ['http.host eq "given" and not ssl', { 'http.request.full_uri': 'http://shop.example/', 'http.host': 'given' }, 'true'],
  ['raw.http.request.uri.path eq "/a/b.JS" and raw.http.request.uri.path.extension eq "js" and raw.http.request.uri.args["x"][0] eq "1" and http.host eq ""', { 'raw.http.request.full_uri': 'https://shop.example/a/b.JS?x=1' }, 'true'],
  ['raw.http.request.uri.path eq "/raw" and http.request.uri.path eq "/new"', { 'http.request.full_uri': 'https://shop.example/new', 'raw.http.request.full_uri': 'https://shop.example/raw' }, 'true'],
]);
