/** suggestPolicy and checkPolicyValue as pure functions: the shortcuts they take and refuse. */
import { describe, expect, it } from 'vitest';
import { checkPolicyValue, mergedCategories, suggestPolicy, type Script } from '@logfilter/api';

const page = 'https://www.shop.test/';
const s = (id: string, url: string, extra: Partial<Script> = {}): Script => ({ id, url, host: 'www.shop.test', first_page_url: page, status: 'active', ...extra });

describe('suggestPolicy', () => {
  it("never takes 'self' when a malicious script is same-origin: the good same-origin ones are listed by URL", () => {
    const r = suggestPolicy([s('1', 'https://www.shop.test/a.js'), s('2', 'https://www.shop.test/b.js'), s('3', 'https://www.shop.test/evil.js', { js_integrity_score: 90 })]);
    expect(r.value).toBe('script-src https://www.shop.test/a.js https://www.shop.test/b.js');
    expect(r.leftOut).toEqual([{ id: '3', url: 'https://www.shop.test/evil.js', reason: 'malicious' }]);
    const check = checkPolicyValue(r.value, [s('1', 'https://www.shop.test/a.js'), s('3', 'https://www.shop.test/evil.js', { js_integrity_score: 90 })]);
    expect(check.verdicts.map((v) => v.allowed)).toEqual([true, false]);
  });

  it('a script sharing its URL (query aside) with a malicious one is left out too', () => {
    const r = suggestPolicy([s('1', 'https://cdn.test/x.js?v=1'), s('2', 'https://cdn.test/x.js?v=2', { js_integrity_score: 70 })]);
    expect(r.value).toBe("script-src 'none'");
    expect(r.leftOut.map((l) => [l.id, l.reason])).toEqual([['2', 'malicious'], ['1', 'same-url-as-left-out']]);
  });

  it('keeps the port, drops query and fragment, encodes ; and , in paths', () => {
    const r = suggestPolicy([s('1', 'https://cdn.test:8443/a;b,c.js?q=1#f')]);
    expect(r.value).toBe('script-src https://cdn.test:8443/a%3Bb%2Cc.js');
    expect(checkPolicyValue(r.value, [s('1', 'https://cdn.test:8443/a;b,c.js?q=1#f')]).verdicts[0].allowed).toBe(true);
  });

  it("encodes ' in paths: the value passes the checker and allows the script", () => {
    const r = suggestPolicy([s('1', "https://cdn.test/it's.js")]);
    expect(r.value).toBe('script-src https://cdn.test/it%27s.js');
    expect(checkPolicyValue(r.value, [s('1', "https://cdn.test/it's.js")]).verdicts[0].allowed).toBe(true);
  });

  it('leaves out a script served from an IPv6 address of another origin (no CSP source can name it); same-origin is self', () => {
    const r = suggestPolicy([s('1', 'https://[2001:db8::1]:8443/v6.js'), s('2', 'https://cdn.test/a.js')]);
    expect(r.value).toBe('script-src https://cdn.test/a.js');
    expect(r.leftOut).toEqual([{ id: '1', url: 'https://[2001:db8::1]:8443/v6.js', reason: 'ipv6-host' }]);
    const v6page = 'https://[2001:db8::2]/';
    const same = suggestPolicy([s('3', 'https://[2001:db8::2]/a.js', { host: '[2001:db8::2]', first_page_url: v6page })]);
    expect([same.value, same.leftOut]).toEqual(["script-src 'self'", []]);
  });

  it('leaves out non-network URLs and items without URL; several page hosts give an `in` expression', () => {
    const r = suggestPolicy([s('1', 'data:text/javascript,1'), { id: '2', host: 'a.test' }, s('3', 'https://x.test/a.js', { host: 'b.test' })]);
    expect(r.leftOut.map((l) => l.reason)).toEqual(['not-a-network-url', 'no-url']);
    expect(r.expression).toBe('http.host in {"a.test" "b.test" "www.shop.test"}');
  });

  it('the malicious rule given is the one used', () => {
    const scripts = [s('1', 'https://a.test/1.js', { js_integrity_score: 20 }), s('2', 'https://b.test/2.js', { js_integrity_score: 80 })];
    expect(suggestPolicy(scripts).value).toBe('script-src https://a.test/1.js');
    expect(suggestPolicy(scripts, [], { malicious: { direction: 'below', threshold: 50 } }).value).toBe('script-src https://b.test/2.js');
  });
});

describe('mergedCategories', () => {
  it('is the union without duplicates, first occurrence first, ignoring absent or null lists', () => {
    expect(mergedCategories({ malicious_domain_categories: ['Malware', 'Phishing'], malicious_url_categories: ['Phishing', 'Malware', 'Spyware'] })).toEqual(['Malware', 'Phishing', 'Spyware']);
    expect(mergedCategories({ malicious_domain_categories: null })).toEqual([]);
    expect(mergedCategories({})).toEqual([]);
  });
});
