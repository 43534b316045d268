/**
 * One compilation per document version and settings, shared by diagnostics, code actions, the budget
 * lens and `logfilter/compile`, so a burst of requests after an edit compiles once.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Analysis } from './tasks.js';
import type { TaskRunner } from './runner.js';
import type { Settings } from './settings.js';

interface Entry {
  version: number;
  settings: Settings;
  result: Promise<Analysis>;
  /** Set once the promise settles, for synchronous readers. */
  done?: Analysis;
}

/** Operators and bytes for the budget; `stale` when they are an earlier version's. */
export interface Budget {
  operators: number;
  bytes: number;
  stale: boolean;
}

export class Analyses {
  private readonly entries = new Map<string, Entry>();
  /**
   * Per document, the figures of the latest version that parsed: while a condition is being typed (a
   * syntax error at nearly every keystroke) the budget shows these, marked stale, instead of dropping to 0.
   */
  private readonly lastParsed = new Map<string, { version: number; operators: number; bytes: number }>();

  constructor(
    private readonly runner: TaskRunner,
    private readonly settings: () => Settings,
  ) {}

  get(doc: TextDocument): Promise<Analysis> {
    const settings = this.settings();
    const e = this.entries.get(doc.uri);
    if (e && e.version === doc.version && e.settings === settings) return e.result;
    const entry: Entry = { version: doc.version, settings, result: this.runner.run({ kind: 'compile', text: doc.getText(), settings }, doc) };
    entry.result.then(
      (a) => {
        entry.done = a;
        const last = this.lastParsed.get(doc.uri);
        if (a.parsed && (!last || last.version <= doc.version)) this.lastParsed.set(doc.uri, { version: doc.version, operators: a.stats.operators, bytes: a.stats.bytes });
      },
      () => this.entries.get(doc.uri) === entry && this.entries.delete(doc.uri),
    );
    this.entries.set(doc.uri, entry);
    return entry.result;
  }

  /** The analysis of exactly this version, if it is finished. */
  peek(doc: TextDocument): Analysis | undefined {
    const e = this.entries.get(doc.uri);
    return e && e.version === doc.version && e.settings === this.settings() ? e.done : undefined;
  }

  /** The budget to show for `a`, this document's analysis: its own figures, or the last parsed version's. */
  budget(uri: string, a: Analysis): Budget {
    if (a.parsed) return { operators: a.stats.operators, bytes: a.stats.bytes, stale: false };
    const last = this.lastParsed.get(uri);
    return { operators: last?.operators ?? 0, bytes: last?.bytes ?? 0, stale: true };
  }

  forget(uri: string): void {
    this.entries.delete(uri);
    this.lastParsed.delete(uri);
  }
}
