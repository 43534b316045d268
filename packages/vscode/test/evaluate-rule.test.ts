// The evaluate panel on a `.rule` file: its expression against sample requests with the core's rules
// evaluator, in the file's phase or the default-phase setting's; problems located in the expression or at
// the request's line; the panel's page (per request: match, the value of each sub-expression).
import { describe, expect, it } from 'vitest';
import { evaluateRuleRequests, parseRequests } from '../src/evaluate-rule.js';
import { ruleEvaluationHtml } from '../src/rule-evaluation-html.js';

const RULE = '# a rule\nhttp.host eq "a.example" and ip.src in {192.0.2.0/24}\n';

describe('evaluateRuleRequests', () => {
  it('evaluates each request of NDJSON, a JSON array or one object, with the value of each sub-expression', () => {
    const ndjson = '{"http.host":"a.example","ip.src":"192.0.2.7"}\n\n{"http.host":"a.example","ip.src":"198.51.100.1"}\n{"http.host":"b.example"}\n';
    const r = evaluateRuleRequests(RULE, ndjson);
    expect(r.ok && r.results.map((x) => [x.request, x.matched])).toEqual([
      [1, true],
      [3, false],
      [4, false],
    ]);
    const first = r.ok ? r.results[0]!.explain : [];
    expect(first.map((s) => [s.text, s.value])).toContainEqual(['http.host eq "a.example"', 'true']);
    const array = evaluateRuleRequests(RULE, '[{"http.host":"b.example"},{"http.host":"a.example","ip.src":"192.0.2.1"}]');
    expect(array.ok && array.results.map((x) => [x.request, x.matched])).toEqual([
      [1, false],
      [2, true],
    ]);
    const one = evaluateRuleRequests(RULE, '{"http.host":"a.example","ip.src":"192.0.2.200"}');
    expect(one.ok && one.results.map((x) => x.matched)).toEqual([true]);
  });

  it('uses the default phase when the file names none, and the file\u2019s own phase over it', () => {
    const rule = 'http.response.code eq 503';
    const req = '{"http.response.code": 503}';
    expect(evaluateRuleRequests(rule, req, 'http_response_headers_transform')).toMatchObject({ ok: true, phase: 'http_response_headers_transform' });
    // a request-phase default refuses a response field: located at the field
    const refused = evaluateRuleRequests(rule, req, 'http_request_firewall_custom');
    expect(refused).toMatchObject({ ok: false, problem: { in: 'expression', start: 0, end: 'http.response.code'.length } });
    const own = evaluateRuleRequests(`# phase: http_response_headers_transform\n${rule}`, req, 'http_request_firewall_custom');
    expect(own).toMatchObject({ ok: true, phase: 'http_response_headers_transform' });
  });

  it('locates problems: a wrong header or expression in the rule, a bad request at its line', () => {
    const header = '# phase: nope\nssl';
    expect(evaluateRuleRequests(header, '{}')).toMatchObject({ ok: false, problem: { in: 'expression', start: header.indexOf('nope') } });
    const syntax = 'http.host eq';
    expect(evaluateRuleRequests(syntax, '{}')).toMatchObject({ ok: false, problem: { in: 'expression' } });
    expect(evaluateRuleRequests(RULE, '{"http.host":"a"}\n{"http.hots":"a"}\n')).toMatchObject({ ok: false, problem: { in: 'requests', line: 2 } });
    expect(evaluateRuleRequests(RULE, '{"http.host":"a"}\n{oops\n')).toMatchObject({ ok: false, problem: { in: 'requests', line: 2 } });
    expect(evaluateRuleRequests(RULE, '  \n')).toMatchObject({ ok: false, problem: { in: 'requests' } });
    expect(parseRequests('{"a":1}\n{"b":2}').ok).toBe(true);
  });

  it('renders the panel: counts, phase, and per request its result and explain steps, escaped', () => {
    const r = evaluateRuleRequests('http.host eq "<a>"', '{"http.host":"<a>"}\n{"http.host":"b"}', 'http_request_firewall_custom');
    if (!r.ok) throw new Error('expected an evaluation');
    const html = ruleEvaluationHtml('x.rule', 'reqs.ndjson', r, 'vscode-resource:');
    expect(html).toContain('<td class="big" id="matched">1</td>');
    expect(html).toContain('<td id="total">2</td>');
    expect(html).toContain('<code>http_request_firewall_custom</code>');
    expect(html).toMatch(/data-request="1" data-matched="true"/);
    expect(html).toMatch(/data-request="2" data-matched="false"/);
    expect(html).not.toContain('"<a>"');
    expect(html).not.toMatch(/<script/);
  });
});
