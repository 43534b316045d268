/** The policy value checker and CSP Level 3 source matching: pure, table-driven. */
import { describe, expect, it } from 'vitest';
import {
  CSP_DIAGNOSTIC_CODES,
  CSP_KEYWORDS,
  directiveAllows,
  hostPartMatches,
  parseCspValue,
  pathPartMatches,
  portPartMatches,
  schemePartMatches,
  scriptElementDirective,
} from '@logfilter/api';

/** The one diagnostic of `value`, with the text its range covers. */
function only(value: string) {
  const r = parseCspValue(value);
  expect(r.diagnostics).toHaveLength(1);
  const d = r.diagnostics[0];
  return { ok: r.ok, code: d.code, severity: d.severity, text: value.slice(d.start, d.end) };
}

describe('policy value: accepted sources', () => {
  it.each([
    "script-src 'self'",
    "script-src 'none'",
    "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
    'script-src cdn.example.com',
    'script-src https://cdn.example.com',
    'script-src *.example.com',
    'script-src https://*.example.com:8443',
    'script-src https://cdn.example.com:*',
    'script-src https://cdn.example.com/lib/app.js',
    'script-src https://cdn.example.com/lib/',
    'script-src example.com.',
    "script-src 'nonce-r4nd0m+/='",
    "script-src 'nonce-abcde'",
    'script-src constructor.example',
    "script-src 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
    "script-src 'sha384-OLBgp1GsljhM2TJ+sbHjaiH9txEUvgdDTAzHv2P24donTt6/529l+9Ua0vFImLlb'",
    "script-src 'sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=='",
    "script-src 'strict-dynamic' 'nonce-abc'",
    "SCRIPT-SRC 'SELF'",
    "script-src 'self'; script-src-elem https://cdn.example.com; script-src-attr 'none'",
    "  script-src 'self' ;  ",
  ])('%s', (value) => {
    const r = parseCspValue(value);
    expect(r.diagnostics).toEqual([]);
    expect(r.ok).toBe(true);
  });
});

describe('policy value: each kind of bad source refused, pointing at it', () => {
  it.each([
    ["img-src 'self'", 'unsupported-directive', 'img-src'],
    ["default-src 'self'", 'unsupported-directive', 'default-src'],
    ["script-src 'self'; style-src 'self'", 'unsupported-directive', 'style-src'],
    ["script-src 'self'; script-src https://a.com", 'duplicate-directive', 'script-src'],
    ['script-src', 'empty-directive', 'script-src'],
    ["script-src 'selfish'", 'unknown-keyword', "'selfish'"],
    ["script-src 'constructor'", 'unknown-keyword', "'constructor'"],
    ["script-src 'toString'", 'unknown-keyword', "'toString'"],
    ["constructor 'self'", 'unsupported-directive', 'constructor'],
    ['script-src https://a.com self', 'unquoted-keyword', 'self'],
    ['script-src unsafe-inline', 'unquoted-keyword', 'unsafe-inline'],
    ["script-src 'self", 'unclosed-quote', "'self"],
    ["script-src 'nonce-'", 'invalid-nonce', "'nonce-'"],
    ["script-src 'nonce-a*b'", 'invalid-nonce', "'nonce-a*b'"],
    ["script-src 'sha256-abc'", 'invalid-hash', "'sha256-abc'"],
    ["script-src 'sha512-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='", 'invalid-hash', "'sha512-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"],
    ['script-src ht!tp://a.com', 'invalid-scheme', 'ht!tp://a.com'],
    ['script-src 1http:', 'invalid-scheme', '1http:'],
    ['script-src https://', 'invalid-host', 'https://'],
    ['script-src https://exa_mple.com', 'invalid-host', 'https://exa_mple.com'],
    ['script-src cdn.*.example.com', 'invalid-host', 'cdn.*.example.com'],
    ['script-src *example.com', 'invalid-host', '*example.com'],
    ['script-src example..com', 'invalid-host', 'example..com'],
    ['script-src https://a.com:99999', 'invalid-port', 'https://a.com:99999'],
    ['script-src https://a.com:http', 'invalid-port', 'https://a.com:http'],
    ['script-src https://a.com:', 'invalid-port', 'https://a.com:'],
    ['script-src https://a.com/app.js?v=1', 'invalid-path', 'https://a.com/app.js?v=1'],
    ['script-src https://a.com/app.js#x', 'invalid-path', 'https://a.com/app.js#x'],
    ["script-src 'none' https://a.com", 'none-with-sources', "'none'"],
  ])('%s → %s', (value, code, text) => {
    const d = only(value);
    expect(d).toEqual({ ok: false, code, severity: 'error', text });
  });

  it('reports every bad source of a value, each at its own offsets', () => {
    const value = "script-src 'self' https://ok.com bad_host.com https://a.com:0 'nope'";
    const r = parseCspValue(value);
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => [d.code, d.start, d.end])).toEqual([
      ['invalid-host', value.indexOf('bad_host.com'), value.indexOf('bad_host.com') + 'bad_host.com'.length],
      ['invalid-port', value.indexOf('https://a.com:0'), value.indexOf('https://a.com:0') + 'https://a.com:0'.length],
      ['unknown-keyword', value.indexOf("'nope'"), value.length],
    ]);
  });

  it('refuses an empty value', () => {
    for (const v of ['', '   ', ';']) expect(parseCspValue(v).ok).toBe(false);
    expect(parseCspValue('').diagnostics[0].code).toBe('empty-value');
  });

  it('warns (and accepts) what allows too much or is written twice', () => {
    expect(only('script-src *')).toEqual({ ok: true, code: 'broad-source', severity: 'warning', text: '*' });
    expect(only('script-src https:')).toEqual({ ok: true, code: 'broad-source', severity: 'warning', text: 'https:' });
    const value = 'script-src https://a.com https://A.com';
    expect(only(value)).toEqual({ ok: true, code: 'duplicate-source', severity: 'warning', text: 'https://A.com' });
  });

  it('knows every keyword of its table and produces only documented codes', () => {
    for (const k of Object.keys(CSP_KEYWORDS)) {
      const r = parseCspValue(`script-src '${k}'`);
      expect(r.ok).toBe(true);
      expect(r.directives[0].sources[0]).toMatchObject({ kind: 'keyword', keyword: k });
    }
    const r = parseCspValue("img-src x; script-src 'x' y_ 'nonce-' 'sha256-' h:// *. a.com:1x /p");
    for (const d of r.diagnostics) expect(CSP_DIAGNOSTIC_CODES).toContain(d.code);
  });
});

describe('CSP3 matching parts', () => {
  it.each([
    ['http', 'http', true], ['http', 'https', true], ['https', 'http', false], ['ws', 'wss', true], ['ws', 'https', true],
    ['wss', 'https', true], ['wss', 'ws', false], ['HTTPS', 'https:', true], ['ftp', 'http', false],
  ])('scheme %s vs %s → %s', (a, b, m) => expect(schemePartMatches(a, b)).toBe(m));

  it.each([
    ['*.example.com', 'a.example.com', true], ['*.example.com', 'a.b.example.com', true], ['*.example.com', 'example.com', false],
    ['*.example.com', 'badexample.com', false], ['example.com', 'EXAMPLE.com', true], ['example.com', 'www.example.com', false],
    ['example.com.', 'example.com', true],
  ])('host %s vs %s → %s', (a, b, m) => expect(hostPartMatches(a, b)).toBe(m));

  it.each([
    [undefined, 'https://a.com/x', true], [undefined, 'https://a.com:8443/x', false], ['443', 'https://a.com/x', true],
    ['8443', 'https://a.com:8443/x', true], ['80', 'https://a.com/x', false], ['*', 'https://a.com:1234/x', true], ['80', 'http://a.com/', true],
  ])('port %s vs %s → %s', (p, u, m) => expect(portPartMatches(p, new URL(u))).toBe(m));

  it.each([
    ['', '/anything', true], ['/', '', true], ['/lib/', '/lib/a.js', true], ['/lib/', '/lib/x/a.js', true], ['/lib/', '/library/a.js', false],
    ['/lib/a.js', '/lib/a.js', true], ['/lib/a.js', '/lib/a.jsx', false], ['/lib/a.js', '/lib/a.js/x', false], ['/lib/%61.js', '/lib/a.js', true],
  ])('path %s vs %s → %s', (a, b, m) => expect(pathPartMatches(a, b)).toBe(m));
});

describe('does a directive allow a script URL for a page origin', () => {
  const page = 'https://shop.example.com';
  const allows = (value: string, url: string, origin = page) => directiveAllows(scriptElementDirective(parseCspValue(value)), url, origin);
  it.each([
    ["script-src 'self'", 'https://shop.example.com/app.js', true],
    ["script-src 'self'", 'https://cdn.example.com/app.js', false],
    ["script-src 'self'", 'http://shop.example.com/app.js', false],
    ["script-src 'self'", 'https://shop.example.com:8443/app.js', false],
    ['script-src cdn.example.com', 'https://cdn.example.com/a.js', true],
    ['script-src cdn.example.com', 'http://cdn.example.com/a.js', false],
    ['script-src http://cdn.example.com', 'https://cdn.example.com/a.js', true],
    ['script-src https://cdn.example.com', 'http://cdn.example.com/a.js', false],
    ['script-src *.example.com', 'https://cdn.example.com/a.js', true],
    ['script-src *.example.com', 'https://example.com/a.js', false],
    ['script-src https://example.com', 'https://sub.example.com/a.js', false],
    ['script-src https://cdn.example.com/lib/', 'https://cdn.example.com/lib/v2/a.js', true],
    ['script-src https://cdn.example.com/lib/', 'https://cdn.example.com/other/a.js', false],
    ['script-src https://cdn.example.com/lib/a.js', 'https://cdn.example.com/lib/a.js?v=3', true],
    ['script-src https://cdn.example.com/lib/a.js', 'https://cdn.example.com/lib/b.js', false],
    ['script-src https://cdn.example.com:8443', 'https://cdn.example.com:8443/a.js', true],
    ['script-src https://cdn.example.com', 'https://cdn.example.com:8443/a.js', false],
    ['script-src *', 'https://anything.test/a.js', true],
    ['script-src *', 'data:text/javascript,1', false],
    ['script-src https:', 'https://anything.test/a.js', true],
    ["script-src 'none'", 'https://shop.example.com/app.js', false],
    ["script-src 'unsafe-inline' 'nonce-abc'", 'https://shop.example.com/app.js', false],
    ["script-src 'self' 'strict-dynamic'", 'https://shop.example.com/app.js', false],
    ["script-src 'self'; script-src-elem https://cdn.example.com", 'https://shop.example.com/app.js', false],
    ["script-src 'self'; script-src-elem https://cdn.example.com", 'https://cdn.example.com/a.js', true],
    ["script-src-attr 'none'", 'https://cdn.example.com/a.js', true],
  ])('%s, %s → %s', (value, url, allowed) => expect(allows(value, url).allowed).toBe(allowed));

  it("'self' on an http page also allows the https upgrade of its host, not the reverse", () => {
    expect(allows("script-src 'self'", 'https://shop.example.com/a.js', 'http://shop.example.com').allowed).toBe(true);
    expect(allows("script-src 'self'", 'http://shop.example.com/a.js', 'https://shop.example.com').allowed).toBe(false);
  });

  it('names the source that allowed and the reason of a block', () => {
    expect(allows("script-src 'self' https://cdn.example.com", 'https://cdn.example.com/a.js')).toMatchObject({ allowed: true, source: { text: 'https://cdn.example.com' } });
    expect(allows("script-src 'self'", 'https://x.test/a.js')).toEqual({ allowed: false, reason: 'no-matching-source' });
    expect(allows("script-src 'none'", 'https://x.test/a.js')).toEqual({ allowed: false, reason: 'none' });
    expect(allows("script-src 'strict-dynamic'", 'https://x.test/a.js')).toEqual({ allowed: false, reason: 'strict-dynamic' });
  });
});
