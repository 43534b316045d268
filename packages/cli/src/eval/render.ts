/** Human and JSON renderings of an evaluation result: the summary, the explain tree, the `--json` object. */
import { OPERATOR_BY_NAME, type ExplainNode, type ExplainReport } from '@logfilter/core';
import pc from 'picocolors';
import type { EvalResult } from './types.js';

/** Thousands separators without Intl (loading ICU costs more than a small evaluation). */
const n = (x: number) => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
/** `1 line`, `2 lines`: the count with its noun, singular for one. */
const count = (x: number, noun: string) => `${n(x)} ${x === 1 ? noun : `${noun}s`}`;
const pct = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : '0.0%');

export function describeNode(node: ExplainNode): string {
  if (node.kind !== 'condition') return node.kind;
  const op = OPERATOR_BY_NAME.get(node.operator ?? '')?.canonical ?? node.operator;
  return `${node.key} ${op} ${JSON.stringify(node.value)}`;
}

/** The summary on stderr: counts, percentage, time and throughput, then malformed lines and field warnings. */
export function renderSummary(r: EvalResult, color = false): string {
  const c = pc.createColors(color);
  const mb = r.bytes / 1048576;
  const rate = r.seconds > 0 ? mb / r.seconds : 0;
  let out = `${c.bold(n(r.total))} ${r.total === 1 ? 'line' : 'lines'}, ${c.bold(n(r.matched))} matched (${pct(r.matched, r.total)}), ${n(r.malformed)} malformed`;
  out += ` in ${r.seconds.toFixed(2)} s (${mb.toFixed(1)} MB, ${rate.toFixed(1)} MB/s)\n`;
  if (!r.validated) {
    out += c.dim('  malformed counts only the lines the evaluator had to read; use --validate for an exact count\n');
  }
  for (const m of r.malformedLines) out += `${m.file}:${m.line}: ${c.red('malformed')}: not a JSON object\n`;
  if (r.malformed > r.malformedLines.length) out += c.dim(`  (${count(r.malformed - r.malformedLines.length, 'more malformed line')} not listed)\n`);
  if (r.stoppedAt) out += `${r.stoppedAt.file}:${r.stoppedAt.line}: stopped at the first malformed line (--strict)\n`;
  for (const e of r.errors) out += `${c.red('error')}: ${e.message}\n`;
  for (const f of r.missingFields) {
    out += `${c.yellow('warning')}: no line carried the field ${f} that the filter reads (is it in the job's field list?)\n`;
  }
  return out;
}

/** The explain tree: each node with the lines it held for and rejected, then the most rejecting node. */
export function renderExplain(report: ExplainReport, color = false): string {
  const c = pc.createColors(color);
  const lines: string[] = [`explain: ${n(report.matched)} of ${count(report.evaluated, 'JSON line')} matched`];
  const walk = (node: ExplainNode, prefix: string, last: boolean, root: boolean) => {
    const branch = root ? '' : last ? '└─ ' : '├─ ';
    const label = node.kind === 'condition' ? describeNode(node) : c.bold(node.kind);
    const stats = `held ${n(node.held)} (${pct(node.held, node.evaluated)})${node.rejected > 0 ? `, rejected ${n(node.rejected)}` : ''}`;
    const mark = report.mostRejecting?.id === node.id ? c.red(' ◀ rejected the most') : '';
    lines.push(`${prefix}${branch}${label}  ${c.dim(stats)}  ${c.dim(node.id)}${mark}`);
    const kids = node.children ?? [];
    kids.forEach((k, i) => walk(k, root ? '' : prefix + (last ? '   ' : '│  '), i === kids.length - 1, false));
  };
  walk(report.root, '', true, true);
  if (report.mostRejecting) {
    const node = find(report.root, report.mostRejecting.id);
    lines.push(`rejected the most: ${node ? describeNode(node) : report.mostRejecting.id} (${count(report.mostRejecting.rejected, 'line')}, ${report.mostRejecting.id})`);
  }
  return lines.join('\n') + '\n';
}

function find(node: ExplainNode, id: string): ExplainNode | undefined {
  if (node.id === id) return node;
  for (const k of node.children ?? []) {
    const f = find(k, id);
    if (f) return f;
  }
  return undefined;
}

/** The `--json` object. */
export function toJsonReport(r: EvalResult): Record<string, unknown> {
  return {
    total: r.total,
    matched: r.matched,
    malformed: r.malformed,
    malformedExact: r.validated,
    parsed: r.parsed,
    bytes: r.bytes,
    seconds: Number(r.seconds.toFixed(3)),
    malformedLines: r.malformedLines,
    missingFields: r.missingFields,
    ...(r.stoppedAt ? { stoppedAt: r.stoppedAt } : {}),
    ...(r.errors.length > 0 ? { errors: r.errors } : {}),
    ...(r.explain ? { explain: r.explain } : {}),
  };
}
