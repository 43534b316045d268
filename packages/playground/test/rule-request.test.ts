import { describe, expect, it } from 'vitest';
import { evaluateRule, readSampleRequest } from '@logfilter/core';
import { EMPTY_REQUEST, evaluateRequest, requestOf, type RequestForm } from '../src/rule-request.js';

const form = (over: Partial<RequestForm>): RequestForm => ({ ...EMPTY_REQUEST, ...over });

describe('the request form, as `rules eval --request` takes a request', () => {
  it('maps URL, method, IP and header lines to the evaluator fields', () => {
    const r = requestOf(form({ url: 'https://shop.example/admin?x=1', method: 'POST', ip: '192.0.2.10', headers: 'User-Agent: curl/8.5\nAccept: */*\naccept: text/html\n\n' }));
    expect(r.problems).toEqual([]);
    expect(r.request).toEqual({
      'http.request.full_uri': 'https://shop.example/admin?x=1',
      'http.request.method': 'POST',
      'ip.src': '192.0.2.10',
      // header names in lower case, as the provider gives them; a repeated header keeps each value
      'http.request.headers': { 'user-agent': ['curl/8.5'], accept: ['*/*', 'text/html'] },
    });
  });

  it('leaves out what is empty, and takes any other field from the JSON box', () => {
    const r = requestOf(form({ more: '{"ssl": true, "cf.bot_management.score": 12}' }));
    expect(r.problems).toEqual([]);
    expect(r.request).toEqual({ ssl: true, 'cf.bot_management.score': 12 });
  });

  it('names the input, and the line, of each problem', () => {
    const r = requestOf(form({ url: 'shop.example/x', ip: '300.1.1.1', headers: 'accept: */*\nno colon here', more: '{"http.hots": "a"}' }));
    expect(r.problems.map((p) => [p.input, p.line])).toEqual([
      ['url', undefined],
      ['ip', undefined],
      ['headers', 2],
      ['more', undefined],
    ]);
    expect(r.problems.find((p) => p.input === 'more')!.message).toContain('http.host');
  });

  it('reports JSON that is not an object, and a field given twice', () => {
    expect(requestOf(form({ more: '{"ssl": tru' })).problems.map((p) => p.input)).toEqual(['more']);
    expect(requestOf(form({ more: '[1]' })).problems.map((p) => p.input)).toEqual(['more']);
    expect(requestOf(form({ ip: '192.0.2.1', more: '{"ip.src": "192.0.2.2"}' })).problems.map((p) => p.input)).toEqual(['more']);
    expect(requestOf(form({ lists: '{"office": "192.0.2.0/24"}' })).problems.map((p) => p.input)).toEqual(['lists']);
  });
});

describe('evaluating a rule against the request', () => {
  const rule = 'http.request.uri.path contains "/admin" and not ip.src in {192.0.2.0/24}';

  it('gives the evaluator answer, the same as evaluateRule on the same fields', () => {
    for (const [ip, matched] of [
      ['198.51.100.7', true],
      ['192.0.2.9', false],
    ] as const) {
      const f = form({ url: 'https://shop.example/admin/users', ip });
      const r = evaluateRequest(rule, '', f);
      expect(r.state).toBe(matched ? 'match' : 'no-match');
      const direct = evaluateRule(rule, readSampleRequest(requestOf(f).request).fields);
      expect('explain' in r && r.explain).toEqual(direct.ok && direct.explain);
    }
  });

  it('checks the rule in the chosen phase first', () => {
    const r = evaluateRequest('http.response.code eq 403', 'http_request_firewall_custom', EMPTY_REQUEST);
    expect(r.state).toBe('invalid');
    expect(evaluateRequest('http.response.code eq 403', 'http_response_headers_transform', EMPTY_REQUEST).state).toBe('no-match');
  });

  it('uses named lists, and places the problem when one is not given', () => {
    const listed = 'ip.src in $office';
    const missing = evaluateRequest(listed, '', form({ ip: '192.0.2.1' }));
    expect(missing).toMatchObject({ state: 'problem', code: 'rule-eval', start: 10, end: 17 });
    expect(evaluateRequest(listed, '', form({ ip: '192.0.2.1', lists: '{"office": ["192.0.2.0/24"]}' })).state).toBe('match');
  });

  it('does not evaluate a request with problems', () => {
    expect(evaluateRequest(rule, '', form({ ip: 'nope' })).state).toBe('bad-request');
  });
});
