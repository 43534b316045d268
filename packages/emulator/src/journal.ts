/**
 * The `--data` file's journal: `FILE` holds a snapshot of the whole state and `FILE.journal` the
 * changes acknowledged since, one JSON line per change, appended and fdatasync'ed before the answer. A change
 * writes only what it touched: the zones and accounts it reached, and of their rulesets only the versions added
 * or removed (versions never change once written), so its cost does not grow with the history. When the journal
 * outgrows the snapshot it is folded into a new one (compaction), which is also done at every start.
 *
 * Crash safety: the journal's first line names the snapshot generation it follows; compaction writes the new
 * snapshot (generation + 1) atomically first, then a fresh journal, so after a kill at any point the journal
 * either belongs to the snapshot on disk or is ignored. A torn last line was never acknowledged and is dropped.
 */
import { closeSync, constants, ftruncateSync, openSync, readFileSync, readdirSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { close, fdatasync, open } from 'node:fs';
import { StateFileError } from './state-errors.js';
import { writeAtomically } from './atomic-write.js';

/*
 * The shapes the journal needs of state.ts's types, spelled here so the two modules do not import each other:
 * a ruleset is versions that only get appended or removed, and the state is zones and accounts holding rulesets.
 */
interface RulesetVersion {
  version: string;
}
interface StoredRuleset {
  id: string;
  versions: RulesetVersion[];
  nextVersion: number;
  /** Its place in the list (see state.ts); carried like nextVersion. */
  seq?: number;
}
interface Scope {
  rulesets: StoredRuleset[];
}
interface EmulatorState {
  nextJobId: number;
  zones: Record<string, Scope>;
  accounts: Record<string, Scope>;
}

/** A ruleset as a journal line carries it: all versions (first time seen), or only what changed. */
export interface RulesetDelta {
  id: string;
  nextVersion: number;
  seq?: number;
  versions?: RulesetVersion[];
  added?: RulesetVersion[];
  removed?: string[];
}

interface ScopeDelta {
  /** The scope's other fields (a zone's jobs, plan, previous WAF, …), whole: they do not grow with history. */
  fields: Record<string, unknown>;
  rulesets: RulesetDelta[];
}

export interface JournalEntry {
  nextJobId: number;
  zones?: Record<string, ScopeDelta>;
  accounts?: Record<string, ScopeDelta>;
}

/** Compaction once the journal is this many times the snapshot's size (and at least MIN_COMPACT bytes). */
const COMPACT_RATIO = 2;
const MIN_COMPACT = 8 * 1024 * 1024;

export function journalPath(target: string): string {
  return `${target}.journal`;
}

/** What has been written of each ruleset, per scope: the version objects on disk (by identity). */
export class Written {
  #versions = new Map<string, Set<RulesetVersion>>();

  static key(scope: string, rulesetId: string): string {
    return `${scope}\u0000${rulesetId}`;
  }

  /** All of `state` is on disk (after a load or a compaction). */
  reset(state: EmulatorState): void {
    this.#versions.clear();
    for (const [id, zone] of Object.entries(state.zones)) this.#scope(`z:${id}`, zone);
    for (const [id, account] of Object.entries(state.accounts)) this.#scope(`a:${id}`, account);
  }

  #scope(scope: string, s: { rulesets: StoredRuleset[] }): void {
    for (const rs of s.rulesets) this.#versions.set(Written.key(scope, rs.id), new Set(rs.versions));
  }

  /** The line's part for one ruleset; `commit` records it as written once the line is on disk. */
  delta(scope: string, rs: StoredRuleset, commits: (() => void)[]): RulesetDelta {
    const key = Written.key(scope, rs.id);
    const known = this.#versions.get(key);
    const { versions: _all, ...meta } = rs;
    if (!known) {
      commits.push(() => this.#versions.set(key, new Set(rs.versions)));
      return { ...meta, versions: rs.versions };
    }
    // Versions are only appended or removed: same count and a known last one means nothing changed.
    const last = rs.versions[rs.versions.length - 1];
    if (rs.versions.length === known.size && known.has(last)) return meta;
    const current = new Set(rs.versions);
    const removed = [...known].filter((v) => !current.has(v));
    const added = rs.versions.filter((v) => !known.has(v));
    commits.push(() => {
      for (const v of removed) known.delete(v);
      for (const v of added) known.add(v);
    });
    return { ...meta, added, removed: removed.map((v) => v.version) };
  }
}

/** The journal line of one change, for the zones and accounts it touched. */
export function entryFor(state: EmulatorState, zones: Iterable<string>, accounts: Iterable<string>, written: Written, commits: (() => void)[]): JournalEntry {
  const scope = (key: string, s: Scope): ScopeDelta => {
    const { rulesets, ...fields } = s;
    return { fields, rulesets: rulesets.map((rs) => written.delta(key, rs, commits)) };
  };
  const entry: JournalEntry = { nextJobId: state.nextJobId };
  for (const id of zones) if (Object.hasOwn(state.zones, id)) (entry.zones ??= Object.create(null) as Record<string, ScopeDelta>)[id] = scope(`z:${id}`, state.zones[id]);
  for (const id of accounts) if (Object.hasOwn(state.accounts, id)) (entry.accounts ??= Object.create(null) as Record<string, ScopeDelta>)[id] = scope(`a:${id}`, state.accounts[id]);
  return entry;
}

/** Applies one journal line to `state` (in place). Throws a plain Error when the line does not fit the state. */
export function applyEntry(state: EmulatorState, entry: JournalEntry): void {
  if (typeof entry !== 'object' || entry === null || typeof entry.nextJobId !== 'number') throw new Error('not a journal entry');
  state.nextJobId = entry.nextJobId;
  const apply = (old: { rulesets: StoredRuleset[] } | undefined, delta: ScopeDelta) => {
    const before = new Map((old?.rulesets ?? []).map((rs) => [rs.id, rs]));
    const rulesets = delta.rulesets.map((d): StoredRuleset => {
      const { versions: all, added, removed: gone, ...meta } = d;
      if (all) return { ...meta, versions: all };
      const prev = before.get(d.id);
      if (!prev) throw new Error(`ruleset ${d.id} changes but was never written`);
      if (!added && !gone) return { ...meta, versions: prev.versions };
      const removed = new Set(gone ?? []);
      const kept = prev.versions.filter((v) => !removed.has(v.version));
      const have = new Set(kept.map((v) => v.version));
      const versions = [...kept, ...(added ?? []).filter((v) => !have.has(v.version))].sort((a, b) => Number(a.version) - Number(b.version));
      return { ...meta, versions };
    });
    return { ...delta.fields, rulesets };
  };
  for (const [id, delta] of Object.entries(entry.zones ?? {})) {
    Object.defineProperty(state.zones, id, { value: apply(state.zones[id], delta), enumerable: true, writable: true, configurable: true });
  }
  for (const [id, delta] of Object.entries(entry.accounts ?? {})) {
    Object.defineProperty(state.accounts, id, { value: apply(state.accounts[id], delta), enumerable: true, writable: true, configurable: true });
  }
}

/**
 * The lines of the journal that follow snapshot `generation`, parsed. A journal of another generation (a
 * compaction was cut short after its snapshot) is ignored; a torn last line is dropped; any other bad line stops.
 */
export function readJournal(file: string, target: string, generation: number): JournalEntry[] {
  let text: string;
  try {
    text = readFileSync(journalPath(target), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new StateFileError(`cannot read journal ${file}.journal: ${(e as Error).message}`);
  }
  const lines = text.split('\n');
  const complete = text.endsWith('\n');
  if (complete) lines.pop();
  const parsed: JournalEntry[] = [];
  for (let i = 0; i < lines.length; i++) {
    let value: unknown;
    try {
      value = JSON.parse(lines[i]);
    } catch {
      if (i === lines.length - 1 && !complete) break; // torn by a kill while writing: never acknowledged
      throw new StateFileError(`journal ${file}.journal: line ${i + 1} is not JSON; move the journal away to start from the snapshot alone`);
    }
    if (i === 0) {
      const header = value as { journal?: number; generation?: number };
      if (header?.journal !== 1) throw new StateFileError(`journal ${file}.journal: line 1 is not a journal header`);
      if (header.generation !== generation) return [];
      continue;
    }
    parsed.push(value as JournalEntry);
  }
  return parsed;
}

/** The open journal: appends one line per change, on disk before it returns. */
export class Journal {
  #bytes: number;

  constructor(
    private readonly target: string,
    generation: number,
  ) {
    const header = `${JSON.stringify({ journal: 1, generation })}\n`;
    // Made whole under another name, then renamed: a journal on disk always starts with its header.
    writeAtomically(journalPath(target), header);
    this.#bytes = Buffer.byteLength(header);
  }

  /**
   * Writes one line (to the page cache, at once, in order); durable() says when it is on disk. A write that fails
   * throws here, before anything is acknowledged.
   */
  append(entry: JournalEntry): void {
    const line = Buffer.from(`${JSON.stringify(entry)}\n`);
    // Opened per change, never created: a journal removed or replaced behind the emulator's back fails the change
    // (500, nothing kept) instead of writing into a file no restart will read. An open costs microseconds.
    const fd = openSync(journalPath(this.target), constants.O_WRONLY | constants.O_APPEND);
    try {
      for (let done = 0; done < line.length; ) done += writeSync(fd, line, done);
    } catch (e) {
      // A line half written (disk full) would be read as torn in the middle: cut it off, the change is refused.
      try {
        ftruncateSync(fd, this.#bytes);
      } catch {
        /* the next start drops a torn last line anyway */
      }
      throw e;
    } finally {
      closeSync(fd);
    }
    this.#bytes += line.length;
  }

  #waiting: { resolve: () => void; reject: (e: Error) => void }[] = [];
  #syncing = false;

  /**
   * Resolves once every line appended so far is on disk. Group commit: one fdatasync covers all the lines
   * appended while the previous one ran, and it runs off the event loop, so reads are answered meanwhile and 50
   * writers do not queue behind 50 flushes. (fdatasync on any descriptor of the file flushes all its data.)
   */
  durable(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      this.#flush();
    });
  }

  #flush(): void {
    if (this.#syncing || this.#waiting.length === 0) return;
    this.#syncing = true;
    const batch = this.#waiting.splice(0);
    const done = (error: Error | null) => {
      for (const w of batch) if (error) w.reject(error);
      else w.resolve();
      this.#syncing = false;
      this.#flush();
    };
    open(journalPath(this.target), constants.O_WRONLY, (openError, fd) => {
      if (openError) return done(openError);
      fdatasync(fd, (syncError) => close(fd, () => done(syncError)));
    });
  }

  /** Whether the journal has grown enough, next to a snapshot of `snapshotBytes`, to fold it in. */
  wantsCompaction(snapshotBytes: number): boolean {
    return this.#bytes > Math.max(MIN_COMPACT, COMPACT_RATIO * snapshotBytes);
  }

}

/** Temporary files of this data file left by a killed emulator (only the lock holder writes them, so all are stale). */
export function removeStaleTemporaries(target: string): void {
  const prefix = `.${basename(target)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) {
      try {
        unlinkSync(join(dirname(target), name));
      } catch {
        /* gone */
      }
    }
  }
}
