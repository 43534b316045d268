import { describe, expect, it } from 'vitest';
import { compile } from '@logfilter/core';
import { compileView, decompileView } from '../src/views.js';

describe('compileView', () => {
  it('gives the compact JSON, its indented form and the job-body string of the same filter', () => {
    const v = compileView('BotScore < 30 and ClientCountry in ["fr", "de"]', 'http_requests');
    expect(v.ok).toBe(true);
    expect(v.compact).toBe(compile('BotScore < 30 and ClientCountry in ["fr", "de"]').json);
    expect(JSON.parse(v.json)).toEqual(JSON.parse(v.compact));
    expect(JSON.parse(v.escaped)).toBe(v.compact);
    expect(v.stats).toMatchObject({ operators: 2, bytes: new TextEncoder().encode(v.compact).length, maxOperators: 30, maxBytes: 1000 });
  });

  it('checks fields against the chosen dataset when the source has no dataset line', () => {
    const v = compileView('QueryName == "a"', 'dns_logs');
    expect(v.ok).toBe(true);
    expect(v.dataset).toBe('dns_logs');
    const wrong = compileView('QueryName == "a"', 'http_requests');
    expect(wrong.ok).toBe(false);
    expect(wrong.json).toBe('');
    expect(wrong.diagnostics.map((d) => [d.code, d.start, d.end])).toEqual([['unknown-field', 0, 9]]);
  });

  it('compiles with the options the page sets, as compile --optimize --max-operators --max-bytes', () => {
    const src = 'ClientCountry == "fr" or ClientCountry == "de" or BotScore < 3';
    const v = compileView(src, 'http_requests', { optimize: true });
    expect(v.compact).toBe(compile(src, { optimize: true }).json);
    expect(v.stats).toMatchObject({ operators: 2, operatorsBeforeOptimize: 3 });
    const tight = compileView(src, 'http_requests', { maxOperators: 2, maxBytes: 50 });
    expect(tight.ok).toBe(false);
    expect(tight.diagnostics.map((d) => d.code).sort()).toEqual(['too-large', 'too-many-operators']);
    expect(tight.stats).toMatchObject({ maxOperators: 2, maxBytes: 50 });
  });
});

describe('decompileView', () => {
  it('reads a filter object, its JSON string and a job, and the source compiles back to the same filter', () => {
    const compact = '{"where":{"key":"BotScore","operator":"lt","value":30}}';
    for (const text of [compact, JSON.stringify(compact), JSON.stringify({ dataset: 'http_requests', filter: compact })]) {
      const d = decompileView(text, 'http_requests');
      expect(d.ok).toBe(true);
      expect(compile(d.source!).json).toBe(compact);
    }
  });

  it("keeps a job's dataset, else the page's choice", () => {
    const job = JSON.stringify({ dataset: 'dns_logs', filter: '{"where":{"key":"QueryName","operator":"eq","value":"a"}}' });
    expect(decompileView(job, 'http_requests').source).toMatch(/^dataset dns_logs\n/);
    const bare = decompileView('{"where":{"key":"QueryName","operator":"eq","value":"a"}}', 'dns_logs');
    expect(compile(bare.source!).dataset).toBe('dns_logs');
  });

  it('answers broken JSON with located diagnostics, not an exception', () => {
    const d = decompileView('{"where":{"key":"a","operator":"lt"', 'any');
    expect(d.ok).toBe(false);
    expect(d.diagnostics[0].code).toBe('invalid-json');
    expect(d.diagnostics[0].start).toBeGreaterThanOrEqual(0);
  });
});
