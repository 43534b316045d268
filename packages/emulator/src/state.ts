/**
 * The emulator's state: plain JSON data so it can be written to `--data FILE` as is. Every mutation goes
 * through Store.commit(), which persists before the HTTP answer is sent, so an acknowledged change survives a kill.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync, unlinkSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';

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
}

export interface EmulatorState {
  format: 1;
  nextJobId: number;
  zones: Record<string, ZoneState>;
}

export function emptyState(): EmulatorState {
  return { format: 1, nextJobId: 1, zones: userKeyed() };
}

/**
 * A map of keys chosen by users (zone ids): no prototype, so `__proto__`, `constructor` or `toString` are
 * ordinary keys and never reach Object.prototype.
 */
export function userKeyed<T>(from: Record<string, T> = {}): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const [k, v] of Object.entries(from)) out[k] = v;
  return out;
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

  /** The text last written to the data file: the state to go back to when a change fails. */
  #committed: string | undefined;

  /** Called after every successful mutation and before its answer is written. */
  commit(): void {
    if (!this.dataFile) return;
    const text = JSON.stringify(this.state);
    writeAtomically(this.dataFile, text);
    this.#committed = text;
  }

  /**
   * Runs a change: `fn` mutates the state, the result is written (when `fn` says it mutated), and only then is
   * it kept. If `fn` throws half-way or the write fails, the state is put back exactly as it was, so an answer
   * other than success never leaves a change behind (in memory or on disk).
   */
  transact<T extends { mutates?: boolean }>(fn: () => T): T {
    // With a data file, the last text written is the snapshot (read back only on failure); without one, a copy.
    const before = this.#committed === undefined ? structuredClone(this.state) : undefined;
    try {
      const out = fn();
      if (out.mutates) this.commit();
      return out;
    } catch (e) {
      this.state = before ?? reviveState(this.#committed!);
      throw e;
    }
  }

  reset(): void {
    this.state = emptyState();
    this.commit();
  }
}

function reviveState(text: string): EmulatorState {
  const s = JSON.parse(text) as EmulatorState;
  return { ...s, zones: userKeyed(s.zones) };
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
  return { ...(s as EmulatorState), zones: userKeyed(s.zones as Record<string, ZoneState>) };
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
