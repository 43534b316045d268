/** Token classes for editor highlighting (LSP semantic tokens), from the lexer: works on broken text too. */
import { editorTokens } from '../completion/tokens.js';
import { datasetOf } from '../completion/dataset-line.js';
import { DEFAULT_DATASET, getDataset } from '../datasets/index.js';
import { readField } from '../syntax/field-names.js';

export type HighlightType = 'keyword' | 'operator' | 'field' | 'dataset' | 'string' | 'number' | 'comment';

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
      case 'true':
      case 'false':
        out.push({ ...base, type: 'keyword' });
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
        out.push(schema?.byName.get(name)?.deprecated ? { ...base, type: 'field', deprecated: true } : { ...base, type: 'field' });
        break;
      }
      case 'string':
        out.push({ ...base, type: 'string' });
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
