/** Token classes for editor highlighting (LSP semantic tokens), from the lexer: works on broken text too. */
import { editorTokens } from '../completion/tokens.js';
import { datasetOf } from '../completion/dataset-line.js';
import { DEFAULT_DATASET, getDataset } from '../datasets/index.js';
import { readField } from '../syntax/field-names.js';
import { unescapedParts } from '../../lang/editor.js';

/** `unknown-field`: a name the dataset does not have (coloured apart from its fields, which the check flags). */
export type HighlightType = 'keyword' | 'operator' | 'field' | 'unknown-field' | 'dataset' | 'string' | 'number' | 'comment';

export interface HighlightToken {
  start: number;
  end: number;
  type: HighlightType;
  /** A field the dataset marks deprecated. */
  deprecated?: boolean;
}

/** Every highlighted token of `text` in order. Tokens never span lines. */
export function highlightTokens(text: string, dataset: string = DEFAULT_DATASET): HighlightToken[] {
  const schema = getDataset(datasetOf(text, dataset));
  const out: HighlightToken[] = [];
  let prevKind = '';
  for (const t of editorTokens(text)) {
    const base = { start: t.start, end: t.end };
    switch (t.kind) {
      case 'dataset':
      case 'and':
      case 'or':
      case 'not':
        out.push({ ...base, type: 'keyword' });
        break;
      // `true`/`false` get no class: the LSP has no boolean kind, and `keyword` would colour them like
      // `and`; editors keep their grammar's constant colour
      case 'true':
      case 'false':
        break;
      case 'operator':
        out.push({ ...base, type: 'operator' });
        break;
      case 'identifier':
      case 'quoted-identifier': {
        if (prevKind === 'dataset') {
          out.push({ ...base, type: 'dataset' });
          break;
        }
        const name = readField(t.image);
        const field = schema?.byName.get(name);
        if (schema && !field) out.push({ ...base, type: 'unknown-field' });
        else out.push(field?.deprecated ? { ...base, type: 'field', deprecated: true } : { ...base, type: 'field' });
        break;
      }
      case 'string':
        // the parts between escapes only: a token over the whole string would paint over the grammar's
        // escape colour (`\"`, `\u00e9`)
        for (const part of unescapedParts(t.image)) out.push({ start: t.start + part.start, end: t.start + part.end, type: 'string' });
        break;
      case 'int':
      case 'float':
        out.push({ ...base, type: 'number' });
        break;
      case 'comment':
        out.push({ ...base, type: 'comment' });
        break;
      default:
        break;
    }
    if (t.kind !== 'comment') prevKind = t.kind;
  }
  return out;
}
