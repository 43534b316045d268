/**
 * Condition templates, offered where a condition starts (and the starter filter at the top of a file).
 * They are the server's items, not the editor's static snippets, so they never come up inside a list, after
 * a field or after `dataset` (static snippets match anywhere on Ctrl+Space). `word` is what they filter on:
 * the prefixes the editor snippets had. items.ts turns them into items (conditionSnippets).
 *
 * Their placeholders are fields of the document's dataset (templateFields): the http_requests examples where
 * the dataset has them, else its first filterable fields of the type the template needs, so that accepting a
 * template never writes a field the file's dataset does not have.
 */
import { getDataset, isFilterable, type FieldInfo } from '../datasets/index.js';

/** The fields a template writes: a string field compared with `==`, one listed with `in`, and the or-group's two. */
export interface TemplateFields {
  text: string;
  list: string;
  /** An int field compared with `>=` (a string one with `==` where the dataset has no int field). */
  number: { field: string; int: boolean };
  other: string;
}

export interface Template {
  label: string;
  word: string;
  detail: string;
  body: (f: TemplateFields) => string;
  /** Only where the file starts (it brings its own `dataset` line). */
  fileStart?: true;
}

export const TEMPLATES: Template[] = [
  { label: 'condition', word: 'cond', detail: 'field, operator, value', body: (f) => `\${1:${f.text}} \${2|==,!=,<,<=,>,>=,startsWith,endsWith,contains,in|} \${3:"value"}` },
  { label: 'in list', word: 'in', detail: 'the value is one of the listed values', body: (f) => `\${1:${f.list}} in [\${2:"us"}, \${3:"ca"}]` },
  { label: 'not in list', word: 'notin', detail: 'the value is none of the listed values', body: (f) => `\${1:${f.list}} not in [\${2:"us"}]` },
  {
    label: 'or group',
    word: 'or',
    detail: 'a parenthesised or-group',
    body: (f) => `(\${1:${f.number.field} ${f.number.int ? '>= 500' : '== "a"'}} or \${2:${f.other} == "POST"})`,
  },
  {
    label: 'server errors of a host',
    word: 'errors',
    detail: 'a starting filter',
    body: () => 'dataset http_requests\n\nClientRequestHost == "${1:example.com}"\nand EdgeResponseStatus >= ${2:500}\n$0',
    fileStart: true,
  },
];

/** The http_requests examples, which every other dataset falls back from field by field. */
const EXAMPLES = { text: 'ClientRequestHost', list: 'ClientCountry', number: 'EdgeResponseStatus', other: 'ClientRequestMethod' };

/** The fields the templates write in a file of `dataset` (`any` or an unknown name: the examples). */
export function templateFields(dataset: string): TemplateFields {
  const schema = getDataset(dataset);
  const examples = { ...EXAMPLES, number: { field: EXAMPLES.number, int: true } };
  if (!schema) return examples;
  const usable = (f: FieldInfo | undefined, type: FieldInfo['type']): f is FieldInfo => f !== undefined && isFilterable(f) && !f.deprecated && f.type === type;
  const strings = schema.fields.filter((f) => usable(f, 'string'));
  const ints = schema.fields.filter((f) => usable(f, 'int'));
  // the example where the dataset has it, else the dataset's n-th field of that type (the last when it has fewer)
  const pick = (example: string, type: 'string' | 'int', n: number): string | undefined => {
    if (usable(schema.byName.get(example), type)) return example;
    const pool = type === 'string' ? strings : ints;
    return (pool[n] ?? pool.at(-1))?.name;
  };
  const text = pick(EXAMPLES.text, 'string', 0) ?? EXAMPLES.text;
  const list = pick(EXAMPLES.list, 'string', 1) ?? text;
  const int = pick(EXAMPLES.number, 'int', 0);
  const other = pick(EXAMPLES.other, 'string', 2) ?? text;
  return { text, list, number: int ? { field: int, int: true } : { field: text, int: false }, other };
}
