// The condition templates the server offers where a condition starts: every choice is a real dataset or
// operator, every default field exists, and the body with its defaults filled in compiles.
import { describe, expect, it } from 'vitest';
import { compile, completionItems, completionSituation, DATASETS, DEFAULT_DATASET, OPERATOR_BY_SPELLING } from '../../src/index.js';
import { conditionSnippets } from '../../src/filter/completion/items.js';

describe('condition templates', () => {
  const all = conditionSnippets(true);

  it('are snippets that filter on a word and come once each; the starter only at the top of a file', () => {
    expect(all.every((s) => s.snippet && /^[a-z]+$/.test(s.filterText ?? ''))).toBe(true);
    expect(new Set(all.map((s) => s.label)).size).toBe(all.length);
    expect(conditionSnippets(false).length).toBe(all.length - 1);
  });

  it.each(all.map((s) => [s.label, s.insertText]))('%s offers real datasets, operators and fields, and compiles as offered', (_label, body) => {
    const fields = DATASETS.get(DEFAULT_DATASET)!.byName;
    for (const [, choices] of body.matchAll(/\$\{\d+\|([^|]*)\|\}/g)) {
      for (const choice of choices!.split(',')) expect(DATASETS.has(choice) || OPERATOR_BY_SPELLING.has(choice), choice).toBe(true);
    }
    for (const [, field] of body.matchAll(/\$\{\d+:([A-Z][A-Za-z]+)[ }]/g)) expect(fields.has(field!), field).toBe(true);
    const filled = body.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$\{\d+\|([^,|]*)[^}]*\}/g, '$1').replace(/\$0/g, '');
    const r = compile(filled);
    expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code), filled).toEqual([]);
  });

  const fill = (body: string) => body.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$\{\d+\|([^,|]*)[^}]*\}/g, '$1').replace(/\$0/g, '');
  it.each([...DATASETS.keys()])('in a %s file, every template offered writes that dataset\u2019s fields and compiles clean', (dataset) => {
    for (const head of [`dataset ${dataset}\n`, `dataset ${dataset}\nEdgeResponseStatus >= 500 and `.replace('EdgeResponseStatus >= 500', `${DATASETS.get(dataset)!.fields.find((f) => f.type === 'string' && f.filterable !== false)!.name} == "x"`)]) {
      const templates = completionItems(completionSituation(head, head.length)).filter((i) => i.kind === 'snippet' && i.filterText && i.filterText !== 'group' && i.label !== 'dataset');
      expect(templates.length).toBeGreaterThan(0);
      for (const t of templates) {
        const text = head + fill(t.insertText);
        const r = compile(text);
        expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code), text).toEqual([]);
      }
    }
  });
});
