/**
 * The emulator's state: plain JSON data so it can be written to `--data FILE` as is. Every mutation goes
 * through Store.commit(), which persists before the HTTP answer is sent, so an acknowledged change survives a kill.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync, unlinkSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import type { PageGuardZone } from './page-guard.js';

export interface Rule {
  id: string;
  version: string;
  action: string;
  expression: string;
  description: string;
  action_parameters?: Record<string, unknown>;
  enabled: boolean;
  ref: string;
  last_updated: string;
}

/** One version of a ruleset: its properties and rules as they were when that version was written. */
export interface RulesetVersion {
  version: string;
  name: string;
  description: string;
  kind: string;
  phase: string;
  rules: Rule[];
  last_updated: string;
}

export interface StoredRuleset {
  id: string;
  /** Ascending by version; the last one is the current ruleset. Deleted versions are removed. */
  versions: RulesetVersion[];
  /** The number the next version gets: versions only ever increase, even after a version is deleted. */
  nextVersion: number;
}

export interface Job {
  id: number;
  name: string | null;
  dataset: string;
  destination_conf: string;
  logpull_options: string | null;
  filter: string | null;
  enabled: boolean;
  frequency: string;
  created_at: string;
  last_complete: string | null;
  last_error: string | null;
  error_message: string | null;
}

export interface ZoneState {
  rulesets: StoredRuleset[];
  jobs: Job[];
  /** Page monitoring (area A); created on first use or by the fixture. */
  page_guard?: PageGuardZone;
}

export interface EmulatorState {
  format: 1;
  nextJobId: number;
  zones: Record<string, ZoneState>;
}

export function emptyState(): EmulatorState {
  return { format: 1, nextJobId: 1, zones: {} };
}

export class StateFileError extends Error {}

export class Store {
  state: EmulatorState;

  constructor(readonly dataFile?: string) {
    this.state = dataFile ? loadState(dataFile) : emptyState();
    if (dataFile) {
      // Write once at start: an unwritable place is reported now, not as a 500 on the first change.
      try {
        this.commit();
      } catch (e) {
        throw new StateFileError(`cannot write data file ${dataFile}: ${(e as Error).message}`);
      }
    }
  }

  zone(zoneId: string): ZoneState {
    let z = this.state.zones[zoneId];
    if (!z) {
      z = { rulesets: [], jobs: [] };
      this.state.zones[zoneId] = z;
    }
    return z;
  }

  /** Called after every successful mutation and before its answer is written. */
  commit(): void {
    if (this.dataFile) writeAtomically(this.dataFile, JSON.stringify(this.state));
  }

  reset(): void {
    this.state = emptyState();
    this.commit();
  }
}

function loadState(file: string): EmulatorState {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return emptyState();
    throw new StateFileError(`cannot read data file ${file}: ${(e as Error).message}`);
  }
  if (text.trim() === '') return emptyState();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new StateFileError(`data file ${file} is not JSON; move it away or pass another --data file`);
  }
  const s = data as Partial<EmulatorState>;
  if (!s || typeof s !== 'object' || s.format !== 1 || typeof s.nextJobId !== 'number' || typeof s.zones !== 'object' || !s.zones) {
    throw new StateFileError(`data file ${file} is not an emulator state file (format 1)`);
  }
  return s as EmulatorState;
}

/**
 * Write to a temporary file in the same directory, fsync it, rename it over the target and fsync the directory:
 * a reader (or a restart after a kill) sees either the old or the new state, never half of one.
 */
export function writeAtomically(file: string, text: string): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw e;
  }
  try {
    const dfd = openSync(dirname(file), 'r');
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    // Some file systems do not allow fsync on a directory; the rename itself is still atomic.
  }
}
