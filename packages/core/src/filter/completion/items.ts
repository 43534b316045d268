/**
 * Rendering a completion situation into plain items. No LSP types here: the language server maps `kind`
 * and `snippet` onto the protocol, other tools may use the items as they are.
 */
import { OPERATORS, type OperatorInfo } from '../operators.js';
import { ANY_DATASET, DATASETS, DEFAULT_DATASET, getDataset, isFilterable, typeClasses, type FieldInfo } from '../datasets/index.js';
import { fieldOperators } from './field-operators.js';
import { writeField } from '../syntax/field-names.js';
import type { CompletionSituation } from './situation.js';
import { TEMPLATES, templateFields } from './snippets.js';
import type { CompletionEntry } from '../../lang/editor.js';

export type { CompletionEntry, CompletionItemKind } from '../../lang/editor.js';

/** The items for a situation, in `sortText` order. */
export function completionItems(situation: CompletionSituation): CompletionEntry[] {
  return unsorted(situation).sort((a, b) => (a.sortText < b.sortText ? -1 : a.sortText > b.sortText ? 1 : 0));
}

function unsorted(situation: CompletionSituation): CompletionEntry[] {
  switch (situation.kind) {
    case 'none':
      return [];
    case 'dataset-name':
      return datasetItems();
    case 'expression':
      return [
        ...(situation.fileStart ? [datasetSnippet()] : []),
        ...fieldItems(situation.dataset),
        keyword('not', 'negates the condition or group that follows', '3'),
        {
          label: '( … )',
          kind: 'snippet',
          detail: 'group',
          documentation: 'A parenthesised group of conditions.',
          insertText: '($0)',
          snippet: true,
          sortText: '4(',
          filterText: 'group',
        },
        ...conditionSnippets(situation.fileStart, situation.dataset),
      ];
    case 'operator':
      return operatorItems(situation.field, situation.afterNot);
    case 'value':
      return [
        ...valueItems(situation.field, situation.operator, situation.inList, situation.listValues),
        // after `>= 500|`: the value is written with the word, so the items filter on what is typed
        // (`500 and`) and drop out of the list as soon as another digit is typed
        ...(situation.complete ? [connectiveAfter('and', situation.prefix, '8'), connectiveAfter('or', situation.prefix, '9')] : []),
      ];
    case 'connective':
      return [
        keyword('and', 'both sides must hold (binds tighter than `or`)', '1', situation.space),
        keyword('or', 'either side may hold', '2', situation.space),
      ];
  }
}

/** `space`: the word follows a value or `)` directly and brings its own separating space. */
function keyword(word: string, doc: string, rank: string, space = false): CompletionEntry {
  return { label: word, kind: 'keyword', detail: 'keyword', documentation: doc, insertText: space ? ` ${word}` : word, sortText: `${rank}${word}` };
}

/**
 * The condition templates (snippets.ts), their placeholders fields of `dataset`; the starter filter only where
 * the file starts.
 */
export function conditionSnippets(fileStart: boolean, dataset: string = DEFAULT_DATASET): CompletionEntry[] {
  const fields = templateFields(dataset);
  return TEMPLATES.filter((t) => fileStart || !t.fileStart).map((t) => {
    const body = t.body(fields);
    return {
      label: t.label,
      kind: 'snippet',
      detail: t.detail,
      documentation: `\`\`\`logfilter\n${body.replace(/\$\{\d+[:|]([^}|]*)[^}]*\}/g, '$1').replace(/\$0/g, '')}\n\`\`\``,
      insertText: body,
      snippet: true,
      sortText: `5${t.word}`,
      filterText: t.word,
    };
  });
}

function connectiveAfter(word: 'and' | 'or', value: string, rank: string): CompletionEntry {
  const doc = word === 'and' ? 'both sides must hold (binds tighter than `or`)' : 'either side may hold';
  return { label: word, kind: 'keyword', detail: 'keyword', documentation: doc, insertText: `${value} ${word}`, filterText: `${value} ${word}`, sortText: `${rank}${word}` };
}

function datasetItems(): CompletionEntry[] {
  const items: CompletionEntry[] = [...DATASETS.values()].map((d) => ({
    label: d.name,
    kind: 'dataset',
    detail: `dataset, ${d.fields.length} fields`,
    documentation: d.description,
    insertText: d.name,
    sortText: `1${d.name}`,
  }));
  items.push({
    label: ANY_DATASET,
    kind: 'dataset',
    detail: 'dataset without field checks',
    documentation: 'Skips field checks; syntax and limits are still checked.',
    insertText: ANY_DATASET,
    sortText: `2${ANY_DATASET}`,
  });
  return items;
}

function datasetSnippet(): CompletionEntry {
  const names = [...DATASETS.keys()].join(',');
  return {
    label: 'dataset',
    kind: 'snippet',
    detail: 'dataset line',
    documentation: 'Names the dataset whose fields the filter uses (default `http_requests`).',
    insertText: `dataset \${1|${names}|}\n$0`,
    snippet: true,
    sortText: '0dataset',
  };
}

function fieldItems(dataset: string): CompletionEntry[] {
  const schema = getDataset(dataset);
  if (!schema) return [];
  return schema.fields.filter(isFilterable).map((f) => ({
    label: f.name,
    kind: 'field',
    detail: f.deprecated ? `${f.type} (deprecated)` : f.type,
    documentation: f.description,
    insertText: writeField(f.name),
    ...(f.deprecated ? { deprecated: true } : {}),
    // deprecated fields sort after the others
    sortText: `${f.deprecated ? '2' : '1'}${f.name}`,
  }));
}

function operatorItems(field: FieldInfo | undefined, afterNot: boolean): CompletionEntry[] {
  const allowed = fieldOperators(field);
  const items: CompletionEntry[] = [];
  for (const o of allowed) {
    const rank = String(OPERATORS.indexOf(o)).padStart(2, '0');
    // the canonical spelling first, then the other forms that mean the same
    const forms = [o.symbol, o.canonical, ...o.words].filter((s): s is string => s !== undefined);
    const spellings = afterNot ? (o.notForm ? [o.notForm] : []) : [...new Set(forms)];
    spellings.forEach((s, i) => {
      items.push({
        label: s,
        kind: 'operator',
        detail: `JSON: ${o.name}`,
        documentation: o.doc,
        insertText: s,
        sortText: `1${rank}${i}`,
      });
    });
  }
  return items;
}

function valueItems(
  field: FieldInfo | undefined,
  operator: OperatorInfo | undefined,
  inList: boolean,
  listValues: readonly string[],
): CompletionEntry[] {
  const items: CompletionEntry[] = [];
  const wantsList = operator?.shape === 'list';
  if (wantsList && !inList) {
    items.push({
      label: '[]',
      kind: 'snippet',
      detail: 'list',
      documentation: `\`${operator.canonical}\` takes a list of values.`,
      insertText: '[$0]',
      snippet: true,
      sortText: '0[]',
      filterText: 'list',
    });
  }
  if (!field) return items;
  const classes = typeClasses(field.type);
  if (classes.includes('bool') && !wantsList && !inList) {
    items.push(
      { label: 'true', kind: 'value', detail: field.name, documentation: '', insertText: 'true', sortText: '1a' },
      { label: 'false', kind: 'value', detail: field.name, documentation: '', insertText: 'false', sortText: '1b' },
    );
  }
  // Documented values go inside the list for `in`, directly after any other operator.
  if (wantsList && !inList) return items;
  const numeric = classes.includes('int') && !classes.includes('string') && !classes.includes('array');
  const taken = new Set(listValues);
  (field.values ?? []).forEach((v, i) => {
    const text = numeric && /^-?[0-9]+$/.test(v) ? v : JSON.stringify(v);
    if (taken.has(text)) return;
    items.push({
      label: text,
      kind: 'value',
      detail: `${field.name} value`,
      documentation: '',
      insertText: text,
      sortText: `2${String(i).padStart(4, '0')}`,
    });
  });
  return items;
}
