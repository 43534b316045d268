/** The `logfilter` settings section: default dataset and limits, validated so a bad value falls back to the default. */
import { DEFAULT_DATASET, DEFAULT_MAX_BYTES, DEFAULT_MAX_OPERATORS } from '@logfilter/core';

export interface Settings {
  dataset: string;
  maxOperators: number;
  maxBytes: number;
}

export const DEFAULT_SETTINGS: Settings = { dataset: DEFAULT_DATASET, maxOperators: DEFAULT_MAX_OPERATORS, maxBytes: DEFAULT_MAX_BYTES };

/** Reads `{dataset, maxOperators, maxBytes}` from whatever a client sent (possibly nested under `logfilter`). */
export function readSettings(raw: unknown): Settings {
  let o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  if (o.logfilter && typeof o.logfilter === 'object') o = o.logfilter as Record<string, unknown>;
  const positive = (v: unknown, d: number) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : d);
  return {
    dataset: typeof o.dataset === 'string' && o.dataset.trim() !== '' ? o.dataset.trim() : DEFAULT_SETTINGS.dataset,
    maxOperators: positive(o.maxOperators, DEFAULT_SETTINGS.maxOperators),
    maxBytes: positive(o.maxBytes, DEFAULT_SETTINGS.maxBytes),
  };
}

export function sameSettings(a: Settings, b: Settings): boolean {
  return a.dataset === b.dataset && a.maxOperators === b.maxOperators && a.maxBytes === b.maxBytes;
}
