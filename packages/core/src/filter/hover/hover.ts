/**
 * Hover: what the word under the cursor means, from the operator table and the dataset schema (DESIGN
 * principle 2). Pure: text and offset in, markdown and the span it is about out.
 */
import { NOT_FORMS, type OperatorInfo } from '../operators.js';
import { ANY_DATASET, DEFAULT_DATASET, getDataset, isFilterable, REMOVED_FIELDS, REMOVED_FIELDS_DATASETS, type FieldInfo } from '../datasets/index.js';
import { editorTokens, type EditorToken } from '../completion/tokens.js';
import { fieldOperators } from '../completion/field-operators.js';
import { datasetOf } from '../completion/dataset-line.js';
import { readField } from '../syntax/field-names.js';
import type { HoverInfo } from '../../lang/editor.js';

export type { HoverInfo } from '../../lang/editor.js';

const KEYWORD_DOCS: Record<string, string> = {
  and: '**and**: both sides must hold. Binds tighter than `or`; compiles to one flat `"and"` array.',
  or: '**or**: either side may hold. Compiles to one flat `"or"` array.',
  not: '**not**: negates what follows. The JSON has no `not` node: it is pushed down with De Morgan\'s laws, each operator replaced by its negation.',
  dataset: '**dataset**: names the dataset whose fields the filter uses (default `http_requests`).',
};

/** What to show for the position `offset` of `text`, or undefined where there is nothing to say. */
export function hoverAt(text: string, offset: number, dataset: string = DEFAULT_DATASET): HoverInfo | undefined {
  if (offset < 0 || offset > text.length) return undefined;
  // Tokens never span lines (strings and comments end at the line end), so the line alone is enough.
  const lineStart = Math.max(text.lastIndexOf('\n', offset - 1), text.lastIndexOf('\r', offset - 1)) + 1;
  const nl = text.slice(offset).search(/[\r\n]/);
  const lineEnd = nl < 0 ? text.length : offset + nl;
  const tokens = editorTokens(text.slice(lineStart, lineEnd)).map((t) => ({ ...t, start: t.start + lineStart, end: t.end + lineStart }));
  const i = tokens.findIndex((t) => t.start <= offset && offset < t.end);
  const idx = i >= 0 ? i : tokens.findIndex((t) => t.end === offset);
  if (idx < 0) return undefined;
  const t = tokens[idx];
  const prev = tokens[idx - 1];
  const next = tokens[idx + 1];
  const span = (a: EditorToken, b: EditorToken, markdown: string): HoverInfo => ({ start: a.start, end: b.end, markdown });

  switch (t.kind) {
    case 'operator': {
      if (!t.operator) return undefined;
      // `field not in`: the pair means the negated operator
      if (prev?.kind === 'not' && NOT_FORMS.has(t.operator.name) && isAfterField(tokens, idx - 1)) {
        return span(prev, t, operatorMarkdown(NOT_FORMS.get(t.operator.name)!, `not ${t.image}`));
      }
      return span(t, t, operatorMarkdown(t.operator, t.image));
    }
    case 'not':
      if (next?.kind === 'operator' && next.operator && NOT_FORMS.has(next.operator.name) && isAfterField(tokens, idx)) {
        return span(t, next, operatorMarkdown(NOT_FORMS.get(next.operator.name)!, `not ${next.image}`));
      }
      return span(t, t, KEYWORD_DOCS.not);
    case 'and':
    case 'or':
    case 'dataset':
      return span(t, t, KEYWORD_DOCS[t.kind]);
    case 'identifier':
    case 'quoted-identifier': {
      if (prev?.kind === 'dataset') return datasetHover(t);
      const name = readField(t.image);
      const md = fieldMarkdown(name, datasetOf(text, dataset));
      return md === undefined ? undefined : span(t, t, md);
    }
    case 'string':
    case 'int':
    case 'float':
    case 'true':
    case 'false':
      return span(t, t, valueMarkdown(t, fieldBefore(tokens, idx), datasetOf(text, dataset)));
    default:
      return undefined;
  }
}

/** The field a value on this line is compared with: back over the list, the operator and its `not`. */
function fieldBefore(tokens: EditorToken[], valueIndex: number): string | undefined {
  let j = valueIndex - 1;
  while (j >= 0 && ['string', 'int', 'float', 'true', 'false', 'comma', 'lbracket'].includes(tokens[j].kind)) j--;
  if (tokens[j]?.kind !== 'operator') return undefined;
  j--;
  if (tokens[j]?.kind === 'not') j--;
  const f = tokens[j];
  return f && (f.kind === 'identifier' || f.kind === 'quoted-identifier') && tokens[j - 1]?.kind !== 'dataset' ? readField(f.image) : undefined;
}

const VALUE_TYPES: Partial<Record<EditorToken['kind'], string>> = { string: 'string', int: 'number (integer)', float: 'number', true: 'boolean', false: 'boolean' };

/** A value's type, and what the dataset says of it: the field it is compared with, documented or not. */
function valueMarkdown(t: EditorToken, fieldName: string | undefined, dataset: string): string {
  const lines = [`**${t.image}**: ${VALUE_TYPES[t.kind]}`];
  const field = fieldName === undefined ? undefined : getDataset(dataset)?.byName.get(fieldName);
  if (!field) return lines.join('\n');
  lines.push('', `Compared with ${code(field.name)} (${code(field.type)}): ${field.description}`);
  if (field.values?.length) {
    let written = t.image;
    if (t.kind === 'string') {
      try {
        written = JSON.parse(t.image) as string;
      } catch {
        /* an unterminated or badly escaped string: compared as written */
      }
    }
    const documented = field.values.includes(written);
    lines.push('', documented ? `A documented value of ${field.name}.` : `Not a documented value of ${field.name}; those are ${field.values.map((v) => code(v)).join(', ')}.`);
  }
  return lines.join('\n');
}

/** `not` directly after a field is part of the operator (`x not in`), elsewhere it negates an expression. */
function isAfterField(tokens: EditorToken[], notIndex: number): boolean {
  const before = tokens[notIndex - 1];
  if (!before) return false;
  if (before.kind !== 'identifier' && before.kind !== 'quoted-identifier') return false;
  return tokens[notIndex - 2]?.kind !== 'dataset';
}

function datasetHover(t: EditorToken): HoverInfo | undefined {
  if (t.image === ANY_DATASET) return { start: t.start, end: t.end, markdown: '**any**: no field checks; syntax and limits are still checked.' };
  const d = getDataset(t.image);
  if (!d) return undefined;
  return { start: t.start, end: t.end, markdown: `**${d.name}** (dataset, ${d.fields.length} fields)\n\n${d.description}` };
}

const code = (s: string) => '`' + s + '`';

function operatorMarkdown(o: OperatorInfo, written: string): string {
  const spellings = [...new Set([o.symbol, o.canonical, ...o.words].filter((s): s is string => s !== undefined))];
  const lines = [
    `**${written}**: ${o.doc}`,
    '',
    `JSON operator: ${code(o.name)}. Negation: ${code(o.negation)}.`,
    `Spellings: ${spellings.map(code).join(', ')}.`,
    `Field types: ${o.types.join(', ')}. Value: ${o.shape === 'list' ? 'a list `[v, ...]`' : 'one value'}.`,
  ];
  if (o.negative) lines.push('', 'Holds for log lines where the field is absent or null.');
  return lines.join('\n');
}

function fieldMarkdown(name: string, dataset: string): string | undefined {
  const schema = getDataset(dataset);
  if (!schema) return undefined;
  const field = schema.byName.get(name);
  if (!field) {
    if (!REMOVED_FIELDS.has(name) || !REMOVED_FIELDS_DATASETS.includes(schema.name)) return undefined;
    const replacement = REMOVED_FIELDS.get(name);
    return [
      `**${name}**: removed from ${schema.name} (renamed on 2023-08-01).`,
      '',
      replacement ? `Use ${code(replacement)} instead.` : 'It has no replacement.',
    ].join('\n');
  }
  return describeField(field, schema.name);
}

function describeField(f: FieldInfo, dataset: string): string {
  const lines = [`**${f.name}**: ${code(f.type)} (${dataset})`, '', f.description];
  if (f.deprecated) {
    const r = f.replacement;
    lines.push('', `**Deprecated**: the API may stop sending it; ${r ? `use ${code(r.field)} instead${r.note ? ` (${r.note})` : ''}.` : 'prefer a current field.'}`);
  }
  if (!isFilterable(f)) {
    lines.push('', '**Not filterable**: filters cannot use this field.');
  } else {
    const ops = fieldOperators(f);
    lines.push('', `Operators: ${ops.map((o) => code(o.canonical)).join(' ')}`);
  }
  if (f.values?.length) lines.push('', `Values: ${f.values.map((v) => code(JSON.stringify(v))).join(', ')}`);
  return lines.join('\n');
}
