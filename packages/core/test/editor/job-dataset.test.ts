/** A job (or an API answer holding one) names its dataset: decompile writes its `dataset` line, check uses it. */
import { describe, expect, it } from 'vitest';
import { check, compile, decompile } from '../../src/index.js';

const FILTER = { where: { and: [{ key: 'ClientRefererHost', operator: 'eq', value: 'a.example' }, { key: 'ClientRefererPath', operator: 'startsWith', value: '/x' }] } };
const JOB = { id: 7, dataset: 'firewall_events', filter: JSON.stringify(FILTER) };

describe('decompile', () => {
  it('starts the source with the job\u2019s dataset line', () => {
    const r = decompile(JSON.stringify(JOB));
    expect(r.ok).toBe(true);
    expect(r.form).toBe('job');
    expect(r.dataset).toBe('firewall_events');
    expect(r.source?.split('\n')[0]).toBe('dataset firewall_events');
    // and the source checks clean against that dataset (firewall fields are not unknown in http_requests)
    const back = compile(r.source!);
    expect(back.diagnostics).toEqual([]);
    expect(JSON.parse(back.json!)).toEqual(FILTER);
  });

  it('does the same for an API answer holding the job, and for a parsed job object', () => {
    expect(decompile(JSON.stringify({ success: true, errors: [], messages: [], result: JOB })).source?.split('\n')[0]).toBe('dataset firewall_events');
    expect(decompile({ ...JOB, filter: FILTER }).source?.split('\n')[0]).toBe('dataset firewall_events');
  });

  it('reads a list answer holding one job (GET …/jobs with one job) as that job; two still ask which', () => {
    const r = decompile(JSON.stringify({ success: true, errors: [], messages: [], result: [JOB] }));
    expect([r.ok, r.dataset, r.source?.split('\n')[0]]).toEqual([true, 'firewall_events', 'dataset firewall_events']);
    expect(JSON.parse(compile(r.source!).json!)).toEqual(FILTER);
    const two = decompile(JSON.stringify({ success: true, errors: [], messages: [], result: [JOB, { ...JOB, id: 8 }] }));
    expect(two.ok).toBe(false);
    expect(two.diagnostics.map((d) => d.code)).toEqual(['invalid-node']);
  });

  it('writes no dataset line for a bare filter, and the option\u2019s when the input names none', () => {
    expect(decompile(JSON.stringify(FILTER)).source).not.toMatch(/^dataset/);
    expect(decompile(JSON.stringify(FILTER)).dataset).toBeUndefined();
    expect(decompile(JSON.stringify(FILTER), { dataset: 'dns_logs' }).source?.split('\n')[0]).toBe('dataset dns_logs');
    expect(decompile(JSON.stringify({ filter: JSON.stringify(FILTER) }), { dataset: 'dns_logs' }).dataset).toBe('dns_logs');
  });

  it('the job\u2019s dataset wins over the option, as a dataset line wins over the compile option', () => {
    expect(decompile(JSON.stringify(JOB), { dataset: 'http_requests' }).source?.split('\n')[0]).toBe('dataset firewall_events');
  });

  it('ignores a dataset that a dataset line cannot hold', () => {
    const r = decompile(JSON.stringify({ ...JOB, dataset: 'not a name' }));
    expect(r.ok).toBe(true);
    expect(r.source).not.toMatch(/^dataset/);
  });
});

describe('check', () => {
  it('checks a job\u2019s fields against the job\u2019s dataset', () => {
    const r = check(JSON.stringify(JOB));
    expect(r.dataset).toBe('firewall_events');
    expect(r.diagnostics.map((d) => d.code)).toEqual([]);
    expect(check(JSON.stringify(FILTER)).diagnostics.map((d) => d.code)).toEqual(['unknown-field', 'unknown-field']);
  });
});
