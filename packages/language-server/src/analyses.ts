/**
 * One compilation per document version and settings, shared by diagnostics, code actions, the budget
 * lens and `logfilter/compile`, so a burst of requests after an edit compiles once.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Analysis } from './jobs.js';
import type { JobRunner } from './runner.js';
import type { Settings } from './settings.js';

interface Entry {
  version: number;
  settings: Settings;
  result: Promise<Analysis>;
  /** Set once the promise settles, for synchronous readers. */
  done?: Analysis;
}

export class Analyses {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly runner: JobRunner,
    private readonly settings: () => Settings,
  ) {}

  get(doc: TextDocument): Promise<Analysis> {
    const settings = this.settings();
    const e = this.entries.get(doc.uri);
    if (e && e.version === doc.version && e.settings === settings) return e.result;
    const entry: Entry = { version: doc.version, settings, result: this.runner.run({ kind: 'compile', text: doc.getText(), settings }, doc) };
    entry.result.then(
      (a) => (entry.done = a),
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

  forget(uri: string): void {
    this.entries.delete(uri);
  }
}
