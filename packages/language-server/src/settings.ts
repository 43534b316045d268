/**
 * The `logfilter` settings section: default dataset and limits for filters, default phase for rules,
 * validated so a bad value falls back to the default (and a bad phase is told, see `settingsProblems`).
 */
import { closest, DEFAULT_DATASET, DEFAULT_MAX_BYTES, DEFAULT_MAX_OPERATORS, PHASES } from '@logfilter/core';

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

/** The section's object in whatever a client sent (possibly nested under `logfilter`). */
function section(raw: unknown): Record<string, unknown> {
  let o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  if (o.logfilter && typeof o.logfilter === 'object') o = o.logfilter as Record<string, unknown>;
  return o;
}

/** Reads `{dataset, maxOperators, maxBytes, defaultPhase}` from whatever a client sent (possibly nested under `logfilter`). */
export function readSettings(raw: unknown): Settings {
  const o = section(raw);
  const positive = (v: unknown, d: number) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : d);
  const phase = typeof o.defaultPhase === 'string' ? o.defaultPhase.trim() : '';
  return {
    dataset: typeof o.dataset === 'string' && o.dataset.trim() !== '' ? o.dataset.trim() : DEFAULT_SETTINGS.dataset,
    maxOperators: positive(o.maxOperators, DEFAULT_SETTINGS.maxOperators),
    maxBytes: positive(o.maxBytes, DEFAULT_SETTINGS.maxBytes),
    ...(PHASES.includes(phase) ? { defaultPhase: phase } : {}),
  };
}

/** What the server tells the user about settings it cannot use (today: an unknown phase, with the closest names). */
export function settingsProblems(raw: unknown): string[] {
  const o = section(raw);
  const phase = typeof o.defaultPhase === 'string' ? o.defaultPhase.trim() : o.defaultPhase;
  if (phase === undefined || phase === null || phase === '' || (typeof phase === 'string' && PHASES.includes(phase))) return [];
  const near = typeof phase === 'string' ? closest(phase, PHASES) : [];
  return [`logfilter.defaultPhase: unknown phase ${JSON.stringify(phase)}${near.length ? `; did you mean ${near.join(', ')}?` : ''} Rules are checked without a phase until it is fixed.`];
}

export function sameSettings(a: Settings, b: Settings): boolean {
  return a.dataset === b.dataset && a.maxOperators === b.maxOperators && a.maxBytes === b.maxBytes && a.defaultPhase === b.defaultPhase;
}
