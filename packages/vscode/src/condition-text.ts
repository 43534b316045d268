// A condition of the evaluation panel in the language's own canonical spelling: the core's decompiler writes it
// (field names backquoted where the language needs it, canonical operators, numbers as source writes them).
import { decompile, type ExplainNode } from '@logfilter/core';

/** e.g. `ClientRequestPath not startsWith "/static/"`, `` `in` == 1 ``. */
export function conditionText(n: ExplainNode): string {
  const source = n.key !== undefined && n.operator !== undefined && n.value !== undefined ? decompile({ where: { key: n.key, operator: n.operator, value: n.value } }).source : null;
  return source?.trimEnd() ?? `${n.key} ${n.operator} ${JSON.stringify(n.value)}`;
}
