/**
 * The emulator's state: plain JSON data so it can be written to `--data FILE` as is. Every mutation goes
 * through Store.commit(), which persists before the HTTP answer is sent, so an acknowledged change survives a kill.
 */
import { readFileSync } from 'node:fs';
import type { PageGuardZone } from './page-guard-state.js';
import { stateProblem } from './state-schema.js';
import { writeAtomically } from './atomic-write.js';
import { lockDataFile, throughLinks, type DataFileLock } from './data-file.js';
import { StateFileError } from './state-errors.js';
import type { Plan } from './plans.js';
import { Journal, Written, applyEntry, entryFor, readJournal, removeStaleTemporaries } from './journal.js';
import { defaultWafState, type WafState } from './waf-state.js';
import { initialMigration, type MigrationState } from './migration-state.js';

export interface Rule {
  id: string;
  version: string;
  action: string;
  expression: string;
  description: string;
  action_parameters?: Record<string, unknown>;
  enabled: boolean;
  ref: string;
  /** Only on rules whose action is skip. */
  logging?: { enabled: boolean };
  /** Tags of managed rules (read-only): what `versions/<v>/by_tag/<tag>` selects on. */
  categories?: string[];
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
  /**
   * Its place in the scope's list, never reused: a list cursor names it, so the next page is found even after
   * the ruleset it names is deleted. Absent on rulesets of older data files (they come first, in list order).
   */
  seq?: number;
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

/** Where rulesets live: a zone or an account (README, "Paths": `{scope}` = zones/<id> or accounts/<id>). */
export interface RulesetScope {
  rulesets: StoredRuleset[];
  /** The `seq` the next ruleset created here gets. */
  nextRulesetSeq?: number;
}

export { PLANS, type Plan } from './plans.js';

/** One zone: one field per API area (rulesets, jobs, the previous WAF, the migration). */
export interface ZoneState extends RulesetScope {
  /** The account the zone belongs to (from the fixture); null when not given. */
  account: string | null;
  /** The zone's domain name (fixture `name`), which `GET zones?name=` finds; absent: listed under its id. */
  name?: string;
  plan: Plan;
  jobs: Job[];
  waf: WafState;
  migration: MigrationState;
  /** Page monitoring (area A); created on first use or by the fixture. */
  page_guard?: PageGuardZone;
}

/** Where log export jobs live: a zone, or an account (README, "Paths": `{scope}/logexport/jobs`). */
export interface JobScope {
  jobs: Job[];
}

/** An account: its rulesets, and its log export jobs once it has had one (files from before have none). */
export type AccountState = RulesetScope & { jobs?: Job[] };

export interface EmulatorState {
  format: 1;
  nextJobId: number;
  zones: Record<string, ZoneState>;
  accounts: Record<string, AccountState>;
}

export function emptyState(): EmulatorState {
  return { format: 1, nextJobId: 1, zones: userKeyed(), accounts: userKeyed() };
}

/**
 * A map of keys chosen by users (zone and account ids): no prototype, so `__proto__`, `constructor` or
 * `toString` are ordinary keys and never reach Object.prototype.
 */
export function userKeyed<T>(from: Record<string, T> = {}): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const [k, v] of Object.entries(from)) out[k] = v;
  return out;
}

/** A zone not named by a fixture: created on first use, on the Enterprise plan, with the default previous WAF. */
export function newZone(): ZoneState {
  return { account: null, plan: 'enterprise', rulesets: [], jobs: [], waf: defaultWafState(), migration: initialMigration() };
}

export function newAccount(): AccountState {
  return { rulesets: [] };
}

/**
 * Sets `record[key]` as an own property whatever the key: a zone or account id such as `__proto__` must not change
 * the record's prototype (plain assignment would, and the entry would then be lost).
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

export { StateFileError } from './state-errors.js';

/** What a change touched, as it was before: put back when the change fails (undefined: it did not exist). */
interface Touched {
  zones: Map<string, ZoneState | undefined>;
  accounts: Map<string, AccountState | undefined>;
  nextJobId: number;
}

export class Store {
  state!: EmulatorState;
  /** The file written: `dataFile` itself, or the file its symlinks lead to (a write never replaces a link). */
  readonly target?: string;
  #lock?: DataFileLock;
  #journal?: Journal;
  #written = new Written();
  /** The snapshot's generation (the journal follows it) and size (compaction is relative to it). */
  #generation = 0;
  #snapshotBytes = 0;
  /** The change running now, if any. */
  #touched?: Touched;
  /** Set while a read runs: unknown zones and accounts are then answered as new ones but not created. */
  reading = false;

  /**
   * `seed` builds the starting state (empty, or a fixture's). With a data file, the seed is used only when the file
   * does not exist yet (or is empty): an existing data file wins, so a restart keeps what was changed.
   */
  constructor(
    readonly dataFile?: string,
    private readonly seed: () => EmulatorState = emptyState,
  ) {
    if (!dataFile) {
      this.state = seed();
      return;
    }
    this.target = throughLinks(dataFile);
    // Locked before it is read: a second emulator on the same file would drop what the first acknowledged.
    this.#lock = lockDataFile(this.target, dataFile);
    try {
      removeStaleTemporaries(this.target);
      const loaded = loadState(this.target, dataFile);
      this.state = loaded?.state ?? seed();
      this.#generation = loaded?.generation ?? 0;
      // Compact once at start: the journal is folded in, and an unwritable place is reported now, not as a 500
      // on the first change.
      try {
        this.#compact();
      } catch (e) {
        throw new StateFileError(`cannot write data file ${dataFile}: ${(e as Error).message}`);
      }
    } catch (e) {
      this.close();
      throw e;
    }
  }

  /**
   * Lets the data file go: the journal is folded into the snapshot (after a clean stop it holds everything), then
   * the lock. After a failed flush memory may hold changes answered 500 that the disk does not: the disk is left as
   * it is, so the next start has exactly what was acknowledged.
   */
  close(): void {
    if (this.#journal && !this.#failed) {
      try {
        this.#compact();
      } catch {
        // The journal still holds every change; the next start folds it in.
      }
      this.#journal = undefined;
    }
    this.#lock?.release();
    this.#lock = undefined;
  }

  zone(zoneId: string): ZoneState {
    let zone = Object.hasOwn(this.state.zones, zoneId) ? this.state.zones[zoneId] : undefined;
    if (this.#touched && !this.#touched.zones.has(zoneId)) this.#touched.zones.set(zoneId, zone && backup(zone));
    if (!zone) {
      zone = newZone();
      if (!this.reading) setOwn(this.state.zones, zoneId, zone);
    }
    return zone;
  }

  account(accountId: string): AccountState {
    let account = Object.hasOwn(this.state.accounts, accountId) ? this.state.accounts[accountId] : undefined;
    if (this.#touched && !this.#touched.accounts.has(accountId)) this.#touched.accounts.set(accountId, account && backup(account));
    if (!account) {
      account = newAccount();
      if (!this.reading) setOwn(this.state.accounts, accountId, account);
    }
    return account;
  }

  /**
   * Runs a read: a GET of an unknown zone or account answers as for a new one but creates nothing (20,000 GETs
   * once made a 42 MB file). Defaults a read fills in on the way (a zone's page monitoring) are not kept either.
   */
  read<T>(fn: () => T): T {
    this.reading = true;
    try {
      return fn();
    } finally {
      this.reading = false;
    }
  }

  /**
   * Runs a change: `fn` mutates the state, the change is appended to the journal (when `fn` says it mutated),
   * and only then is it kept. If `fn` throws half-way or the write fails, what it touched is put back exactly as
   * it was, so an answer other than success never leaves a change behind (in memory or on disk). Every mutation
   * reaches the state through zone() and account(), which is how a change knows what it touched.
   */
  transact<T extends { mutates?: boolean }>(fn: () => T): T {
    const touched: Touched = { zones: new Map(), accounts: new Map(), nextJobId: this.state.nextJobId };
    this.#touched = touched;
    try {
      const out = fn();
      if (out.mutates) this.#persist(touched);
      return out;
    } catch (e) {
      this.#putBack(touched);
      throw e;
    } finally {
      this.#touched = undefined;
    }
  }

  /** Back to the starting state: empty, or the fixture's (a new snapshot, an empty journal). */
  reset(): void {
    this.#refuseAfterFailure();
    this.state = this.seed();
    if (this.target) this.#compact();
  }

  /** Set when a flush to disk failed: memory may then hold changes the disk does not, so no more are taken. */
  #failed?: Error;

  /**
   * Resolves when every change made so far is on disk: the answer to a change waits for it. A failed flush fails
   * the changes waiting for it and every later one (500): restart the emulator from what the disk holds.
   */
  async durable(): Promise<void> {
    if (!this.#journal) return;
    try {
      await this.#journal.durable();
    } catch (e) {
      this.#failed ??= e as Error;
      throw e;
    }
  }

  #persist(touched: Touched): void {
    if (!this.target) return;
    this.#refuseAfterFailure();
    if (!this.#journal) throw new Error(`the journal of data file ${this.dataFile} is not open`);
    const commits: (() => void)[] = [];
    this.#journal.append(entryFor(this.state, touched.zones.keys(), touched.accounts.keys(), this.#written, commits));
    for (const commit of commits) commit();
    // Folding the journal in costs the state's size, once per (at least) its size in changes: amortized flat.
    if (this.#journal.wantsCompaction(this.#snapshotBytes)) this.#compact();
  }

  /** After a failed flush no change is taken (memory and disk may differ) until a restart reads the disk again. */
  #refuseAfterFailure(): void {
    if (this.#failed) throw new Error(`a write to data file ${this.dataFile} failed (${this.#failed.message}); restart the emulator`);
  }

  #putBack(touched: Touched): void {
    this.state.nextJobId = touched.nextJobId;
    for (const [id, was] of touched.zones) {
      if (was) setOwn(this.state.zones, id, was);
      else delete this.state.zones[id];
    }
    for (const [id, was] of touched.accounts) {
      if (was) setOwn(this.state.accounts, id, was);
      else delete this.state.accounts[id];
    }
  }

  /** A new snapshot (next generation), then an empty journal following it: see journal.ts for the crash order. */
  #compact(): void {
    const target = this.target!;
    const generation = this.#generation + 1;
    const text = JSON.stringify({ ...this.state, generation });
    writeAtomically(target, text);
    this.#generation = generation;
    this.#snapshotBytes = Buffer.byteLength(text);
    this.#journal = undefined;
    this.#journal = new Journal(target, generation);
    this.#written.reset(this.state);
  }
}

/**
 * A copy of a zone or account to put back if a change fails. Ruleset versions are never changed once written
 * (a change adds a version; a delete filters the list), so they are shared, not copied: the copy costs the
 * scope's current data, not its history.
 */
function backup<S extends { rulesets: StoredRuleset[] }>(scope: S): S {
  const { rulesets, ...rest } = scope;
  return { ...structuredClone(rest), rulesets: rulesets.map((rs) => ({ ...rs, versions: [...rs.versions] })) } as unknown as S;
}

/** The state as read back from JSON text, with user-keyed maps made prototype-free again. */
export function reviveState(s: EmulatorState): EmulatorState {
  return { ...s, zones: userKeyed(s.zones ?? {}), accounts: userKeyed(s.accounts ?? {}) };
}

/** What a `--data` file holds (its snapshot with its journal applied), read without taking it: for tests and tools. */
export function readDataFile(file: string): EmulatorState | undefined {
  return loadState(throughLinks(file), file)?.state;
}

/**
 * The state in `path` (named `file` to the user) with its journal applied, or undefined when there is none yet
 * (missing or empty file). The snapshot and the result are both checked whole.
 */
function loadState(path: string, file: string): { state: EmulatorState; generation: number } | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`cannot read data file ${file}: ${(e as Error).message}`);
  }
  if (text.trim() === '') return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new StateFileError(`data file ${file} is not JSON; move it away or pass another --data file`);
  }
  const s = data as Partial<EmulatorState>;
  if (!s || typeof s !== 'object' || Array.isArray(s) || s.format !== 1) {
    throw new StateFileError(`data file ${file} is not an emulator state file (format 1)`);
  }
  // The whole file, before anything runs on it: a shape the code cannot read would answer 500 on use.
  const problem = stateProblem(s);
  if (problem) throw new StateFileError(`data file ${file}: ${problem}; fix it, move it away or pass another --data file`);
  const generation = typeof (s as { generation?: unknown }).generation === 'number' ? (s as { generation: number }).generation : 0;
  delete (s as { generation?: unknown }).generation;
  // Files written before accounts, plans, the previous WAF and the migration existed get their defaults.
  const state = reviveState(s as EmulatorState);
  const entries = readJournal(file, path, generation);
  entries.forEach((entry, i) => {
    try {
      applyEntry(state, entry);
    } catch (e) {
      throw new StateFileError(`journal ${file}.journal: line ${i + 2}: ${(e as Error).message}; move the journal away to start from the snapshot alone`);
    }
  });
  if (entries.length > 0) {
    const after = stateProblem(state);
    if (after) throw new StateFileError(`journal ${file}.journal: leaves ${after}; move the journal away to start from the snapshot alone`);
  }
  for (const zone of Object.values(state.zones)) {
    const old = zone as Partial<ZoneState> & RulesetScope;
    const fresh = newZone();
    old.account ??= fresh.account;
    old.plan ??= fresh.plan;
    old.jobs ??= [];
    old.waf ??= fresh.waf;
    old.migration ??= fresh.migration;
  }
  return { state, generation };
}

export { writeAtomically };
