// Streams an NDJSON log file through the core's explainer: counts and per-condition explain tree
// (docs/language.md#evaluation). No vscode dependency, so it is unit-tested directly.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createExplainer, isLogObject, type ExplainReport, type FilterDocument } from '@logfilter/core';

export interface EvaluationResult {
  /** Non-blank lines read. */
  total: number;
  /** Lines kept by the filter. */
  matched: number;
  /** Non-blank lines that are not a JSON object (they never match). */
  malformed: number;
  /** 1-based line number of the first malformed line, to point the user at it. */
  firstMalformedLine?: number;
  report: ExplainReport;
}

export async function evaluateNdjson(
  filter: FilterDocument,
  file: string,
  isCancelled: () => boolean = () => false,
): Promise<EvaluationResult | undefined> {
  const explainer = createExplainer(filter);
  let total = 0;
  let malformed = 0;
  let firstMalformedLine: number | undefined;
  let lineNo = 0;
  const stream = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  try {
    for await (const raw of lines) {
      lineNo++;
      if (isCancelled()) return undefined;
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line.trim() === '') continue;
      total++;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        value = undefined;
      }
      if (!isLogObject(value)) {
        malformed++;
        firstMalformedLine ??= lineNo;
        continue;
      }
      explainer.add(value);
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  const report = explainer.report();
  return { total, matched: report.matched, malformed, firstMalformedLine, report };
}
