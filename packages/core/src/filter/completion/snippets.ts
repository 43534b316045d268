/**
 * Condition templates, offered where a condition starts (and the starter filter at the top of a file).
 * They are the server's items, not the editor's static snippets, so they never come up inside a list, after
 * a field or after `dataset` (static snippets match anywhere on Ctrl+Space). `word` is what they filter on:
 * the prefixes the editor snippets had. items.ts turns them into items (conditionSnippets).
 */
export interface Template {
  label: string;
  word: string;
  detail: string;
  body: string;
  /** Only where the file starts (it brings its own `dataset` line). */
  fileStart?: true;
}

export const TEMPLATES: Template[] = [
  { label: 'condition', word: 'cond', detail: 'field, operator, value', body: '${1:ClientRequestHost} ${2|==,!=,<,<=,>,>=,startsWith,endsWith,contains,in|} ${3:"value"}' },
  { label: 'in list', word: 'in', detail: 'the value is one of the listed values', body: '${1:ClientCountry} in [${2:"us"}, ${3:"ca"}]' },
  { label: 'not in list', word: 'notin', detail: 'the value is none of the listed values', body: '${1:ClientCountry} not in [${2:"us"}]' },
  { label: 'or group', word: 'or', detail: 'a parenthesised or-group', body: '(${1:EdgeResponseStatus >= 500} or ${2:ClientRequestMethod == "POST"})' },
  {
    label: 'server errors of a host',
    word: 'errors',
    detail: 'a starting filter',
    body: 'dataset http_requests\n\nClientRequestHost == "${1:example.com}"\nand EdgeResponseStatus >= ${2:500}\n$0',
    fileStart: true,
  },
];

