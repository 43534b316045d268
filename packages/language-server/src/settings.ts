/**
 * The `logfilter` settings section: default dataset and limits for filters, default phase for rules,
 * validated so a bad value falls back to the default, and told (see `settingsProblems`).
 */
import { ANY_DATASET, closest, DATASETS, DEFAULT_DATASET, DEFAULT_MAX_BYTES, DEFAULT_MAX_OPERATORS, PHASES } from '@logfilter/core';

export interface Settings {
  dataset: string;
  maxOperators: number;
  maxBytes: number;
  /**
   * The phase a rules expression is checked and completed in when its document names none (no `# phase:`
   * header in a `.rule` file, no `phase` in a ruleset JSON file). Absent: no phase (every field allowed).
   */
  defaultPhase?: string;
}

export const DEFAULT_SETTINGS: Settings = { dataset: DEFAULT_DATASET, maxOperators: DEFAULT_MAX_OPERATORS, maxBytes: DEFAULT_MAX_BYTES };

/** A limit setting: a positive whole number. */
const isLimit = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0;

/** The section's object in whatever a client sent (possibly nested under `logfilter`). */
function section(raw: unknown): Record<string, unknown> {
  let o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  if (o.logfilter && typeof o.logfilter === 'object') o = o.logfilter as Record<string, unknown>;
  return o;
}

/** Reads `{dataset, maxOperators, maxBytes, defaultPhase}` from whatever a client sent (possibly nested under `logfilter`). */
export function readSettings(raw: unknown): Settings {
  const o = section(raw);
  const positive = (v: unknown, d: number) => (isLimit(v) ? (v as number) : d);
  const phase = typeof o.defaultPhase === 'string' ? o.defaultPhase.trim() : '';
  return {
    dataset: typeof o.dataset === 'string' && o.dataset.trim() !== '' ? o.dataset.trim() : DEFAULT_SETTINGS.dataset,
    maxOperators: positive(o.maxOperators, DEFAULT_SETTINGS.maxOperators),
    maxBytes: positive(o.maxBytes, DEFAULT_SETTINGS.maxBytes),
    ...(PHASES.includes(phase) ? { defaultPhase: phase } : {}),
  };
}

const didYouMean = (v: string, names: readonly string[]) => {
  const near = closest(v, names);
  return near.length ? `; did you mean ${near.join(', ')}?` : '';
};

/**
 * What the server tells the user about settings it cannot use (an editor without the extension's settings
 * schema passes them by hand): each bad one named, with the closest names and what is used instead. Absent
 * settings and empty strings (an editor's "not set") are not problems.
 */
export function settingsProblems(raw: unknown): string[] {
  const o = section(raw);
  const problems: string[] = [];
  const set = (v: unknown) => v !== undefined && v !== null && v !== '';
  const dataset = typeof o.dataset === 'string' ? o.dataset.trim() : o.dataset;
  const datasets = [...DATASETS.keys(), ANY_DATASET];
  if (set(dataset) && !(typeof dataset === 'string' && datasets.includes(dataset))) {
    problems.push(
      typeof dataset === 'string'
        ? `logfilter.dataset: unknown dataset ${JSON.stringify(dataset)}${didYouMean(dataset, datasets)} Filters without a dataset line report it until it is fixed.`
        : `logfilter.dataset must be a dataset name (${datasets.join(', ')}), not ${JSON.stringify(dataset)}; using ${DEFAULT_SETTINGS.dataset}.`,
    );
  }
  for (const [key, fallback] of [['maxOperators', DEFAULT_SETTINGS.maxOperators], ['maxBytes', DEFAULT_SETTINGS.maxBytes]] as const) {
    if (set(o[key]) && !isLimit(o[key])) problems.push(`logfilter.${key} must be a positive whole number, not ${JSON.stringify(o[key])}; using ${fallback}.`);
  }
  const phase = typeof o.defaultPhase === 'string' ? o.defaultPhase.trim() : o.defaultPhase;
  if (set(phase) && !(typeof phase === 'string' && PHASES.includes(phase))) {
    problems.push(`logfilter.defaultPhase: unknown phase ${JSON.stringify(phase)}${typeof phase === 'string' ? didYouMean(phase, PHASES) : ''} Rules are checked without a phase until it is fixed.`);
  }
  return problems;
}

export function sameSettings(a: Settings, b: Settings): boolean {
  return a.dataset === b.dataset && a.maxOperators === b.maxOperators && a.maxBytes === b.maxBytes && a.defaultPhase === b.defaultPhase;
}
