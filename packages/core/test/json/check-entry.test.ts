/**
 * check() as the one entry for filter input: it says whether the input was JSON or source, and hands back the
 * canonical JSON it computed (integers beyond 2^53 exact), so no tool sniffs the input or goes through source.
 */
import { describe, expect, it } from 'vitest';
import { check, compile, inputKind } from '../../src/index.js';

const BIG = '{"where":{"and":[{"key":"EdgeResponseStatus","operator":"geq","value":500},{"key":"EdgeResponseBytes","operator":"eq","value":12345678901234567890}]}}';

describe('check() hands back the JSON it computed', () => {
  it('for JSON input: the canonical compact JSON, integers beyond 2^53 exact', () => {
    const r = check(BIG);
    expect(r).toMatchObject({ ok: true, input: 'json', form: 'filter' });
    expect(r.json).toBe(BIG);
    expect(r.json).toBe(compile('EdgeResponseStatus >= 500 and EdgeResponseBytes == 12345678901234567890').json);
  });

  it('the same JSON from every form the filter travels in (a job, its string, pretty or not)', () => {
    const job = JSON.stringify({ dataset: 'http_requests', filter: BIG.replace('12345678901234567890', '1') });
    expect(check(job)).toMatchObject({ ok: true, input: 'json', form: 'job', json: BIG.replace('12345678901234567890', '1') });
    const pretty = '{\n  "where": { "key": "ClientCountry", "operator": "in", "value": ["us", "ca"] }\n}';
    expect(check(pretty).json).toBe('{"where":{"key":"ClientCountry","operator":"in","value":["us","ca"]}}');
  });

  it('a key no source can spell still has its JSON', () => {
    const r = check('{"where":{"key":"a`b","operator":"eq","value":1}}', { dataset: 'any' });
    expect(r).toMatchObject({ ok: true, json: '{"where":{"key":"a`b","operator":"eq","value":1}}' });
  });

  it("a job's unknown dataset is reported at the name, with its JSON path, in a job or in an answer holding one", () => {
    const filter = '{\\"where\\":{\\"key\\":\\"QueryName\\",\\"operator\\":\\"eq\\",\\"value\\":\\"a\\"}}';
    for (const [text, path] of [
      [`{"dataset":"dns_logz","filter":"${filter}"}`, ['dataset']],
      [`{"result":{"dataset":"dns_logz","filter":"${filter}"},"success":true}`, ['result', 'dataset']],
    ] as const) {
      const r = check(text);
      expect(r.ok).toBe(false);
      const at = text.indexOf('dns_logz');
      expect(r.diagnostics.map((d) => [d.code, d.start, d.end, d.path])).toEqual([['unknown-dataset', at, at + 'dns_logz'.length, path]]);
    }
  });

  it('no JSON when there are errors', () => {
    const r = check('{"where":{"key":"Nope","operator":"eq","value":1}}');
    expect(r.ok).toBe(false);
    expect(r.json).toBeUndefined();
    expect(r.diagnostics.map((d) => d.code)).toEqual(['unknown-field']);
  });
});

describe('JSON or source', () => {
  it('is decided once, by the first character', () => {
    expect(inputKind(' \n{"where":{}}')).toBe('json');
    expect(inputKind('"{\\"where\\":{}}"')).toBe('json');
    expect(inputKind('\ufeff{')).toBe('json');
    expect(inputKind('ClientCountry == "us"')).toBe('source');
    expect(inputKind('# a comment\n{')).toBe('source');
    expect(inputKind('')).toBe('source');
  });

  it('by default only JSON is accepted (what an API checks): source is invalid JSON', () => {
    expect(check('ClientCountry == "us"')).toMatchObject({ ok: false, input: 'json', diagnostics: [expect.objectContaining({ code: 'invalid-json' })] });
  });

  it('with accept json-or-source, source is compiled, with its diagnostics and limits', () => {
    const r = check('dataset dns_logs\nQueryName == "a.example"\n', { accept: 'json-or-source' });
    expect(r).toMatchObject({ ok: true, input: 'source', dataset: 'dns_logs', json: '{"where":{"key":"QueryName","operator":"eq","value":"a.example"}}' });
    expect(r.form).toBeUndefined();
    const bad = check('Nope == 1 and ClientCountry = "us"', { accept: 'json-or-source' });
    expect(bad.ok).toBe(false);
    expect(bad.json).toBeUndefined();
    expect(bad.diagnostics.map((d) => [d.code, d.start])).toEqual([['unknown-field', 0], ['syntax', 28]]);
    const tight = check('ClientCountry == "us" and ClientCountry == "ca"', { accept: 'json-or-source', maxOperators: 1 });
    expect(tight.diagnostics.map((d) => d.code)).toContain('too-many-operators');
    expect(check(BIG, { accept: 'json-or-source' }).json).toBe(BIG);
  });
});
