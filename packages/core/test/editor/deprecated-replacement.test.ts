/** Deprecated fields with a known replacement: the warning names it and offers the rename as a fix. */
import { describe, expect, it } from 'vitest';
import { compile, DATASETS, hoverAt } from '../../src/index.js';

describe('deprecated-field', () => {
  it('names the replacement and offers it as the preferred fix', () => {
    const text = 'FirewallForAIInjectionScore < 20';
    const [d] = compile(text).diagnostics;
    expect(d).toMatchObject({ code: 'deprecated-field', severity: 'warning', start: 0, end: 27, suggestions: ['AISecurityInjectionScore'] });
    expect(d.message).toContain('AISecurityInjectionScore');
    expect(d.fixes).toEqual([{ title: expect.any(String), preferred: true, edits: [{ start: 0, end: 27, newText: 'AISecurityInjectionScore' }] }]);
  });

  it('offers a replacement whose values differ, but not as the preferred fix', () => {
    const [d] = compile('OriginResponseTime > 100').diagnostics;
    expect(d.suggestions).toEqual(['OriginResponseDurationMs']);
    expect(d.fixes?.map((f) => [f.preferred, f.edits[0].newText])).toEqual([[false, 'OriginResponseDurationMs']]);
  });

  it('has no fix where the table knows no replacement', () => {
    const [d] = compile('CacheResponseStatus == 200').diagnostics;
    expect(d.code).toBe('deprecated-field');
    expect(d.fixes).toBeUndefined();
  });

  it('names it in the hover too', () => {
    expect(hoverAt('FirewallForAITokenCount > 1', 3)?.markdown).toContain('`AISecurityTokenCount`');
  });

  it('every replacement in the tables is a current, filterable field of the same dataset', () => {
    for (const ds of DATASETS.values()) {
      for (const f of ds.fields) {
        if (!f.replacement) continue;
        expect(f.deprecated, `${ds.name}.${f.name}`).toBe(true);
        const r = ds.byName.get(f.replacement.field);
        expect(r, `${ds.name}.${f.name} → ${f.replacement.field}`).toBeDefined();
        expect(r!.deprecated ?? false).toBe(false);
        expect(r!.type).toBe(f.type);
      }
    }
  });
});
