/**
 * What a user probably meant by an operator name the API does not know. Known misspellings (`neq`, `lte`,
 * `gte`, `equals`...) and case slips (`StartsWith`) have one certain answer; anything else gets the closest
 * names by edit distance, or nothing when no name is close.
 */
import { OPERATORS, OPERATOR_MISSPELLINGS, type OperatorName } from '../operators.js';
import { editDistance } from '../../lang/closest.js';

export interface OperatorSuggestion {
  names: OperatorName[];
  /** One certain answer: safe to offer as the preferred fix. */
  certain: boolean;
}

export function suggestOperators(written: string): OperatorSuggestion {
  const known = OPERATOR_MISSPELLINGS.get(written) ?? OPERATOR_MISSPELLINGS.get(written.trim());
  if (known) return { names: [known], certain: true };
  const lower = written.trim().toLowerCase();
  const sameLetters = OPERATORS.find((o) => o.name.toLowerCase() === lower);
  if (sameLetters) return { names: [sameLetters.name], certain: true };
  const misspelt = OPERATOR_MISSPELLINGS.get(lower);
  if (misspelt) return { names: [misspelt], certain: true };

  // Beyond a third of the word, an "closest" name is a guess that misleads more than it helps.
  const limit = Math.max(1, Math.ceil(lower.length / 3));
  const scored = OPERATORS.map((o) => ({ name: o.name, d: editDistance(lower, o.name.toLowerCase(), limit) }))
    .filter((s) => s.d <= limit)
    .sort((a, b) => a.d - b.d);
  return { names: scored.slice(0, 3).map((s) => s.name), certain: false };
}
