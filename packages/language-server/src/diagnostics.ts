/**
 * The one diagnostics scheduler, for both languages: publishes a document's diagnostics (its language
 * service computes them) as the user types. Small documents are checked on the next turn of the event loop
 * (a burst of edits in one read collapses into one check); large ones after a short pause and in the
 * worker. A result for a version that is no longer current is dropped.
 */
import type { Diagnostic as CoreDiagnostic } from '@logfilter/core';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from './context.js';
import type { LanguageService } from './language-service.js';
import { publishedDiagnostics } from './convert.js';
import { INLINE_LIMIT, isSuperseded } from './runner.js';

const LARGE_DOCUMENT_DELAY_MS = 150;

/**
 * What the editor shows of the core's diagnostics. A document with nothing but blank lines and comments
 * (a new file) is not an error while it is being written: `empty-filter` is left out there. The compile
 * request and the CLI still refuse to compile it.
 */
export function editorDiagnostics(text: string, all: readonly CoreDiagnostic[]): readonly CoreDiagnostic[] {
  if (!all.some((d) => d.code === 'empty-filter') || !blank(text)) return all;
  return all.filter((d) => d.code !== 'empty-filter');
}

/** Only whitespace and `#` comment lines. */
function blank(text: string): boolean {
  return text.split(/\r\n|\r|\n/).every((line) => {
    const t = line.trim();
    return t === '' || t.startsWith('#');
  });
}

export class DiagnosticsPublisher {
  private readonly timers = new Map<string, NodeJS.Timeout | NodeJS.Immediate>();

  constructor(
    private readonly ctx: ServerContext,
    /** The language service of an open document. */
    private readonly serviceOf: (uri: string) => LanguageService | undefined,
  ) {}

  schedule(doc: TextDocument): void {
    this.cancel(doc.uri);
    const run = () => {
      this.timers.delete(doc.uri);
      void this.publish(doc.uri, doc.version);
    };
    const large = doc.getText().length >= INLINE_LIMIT;
    this.timers.set(doc.uri, large ? setTimeout(run, LARGE_DOCUMENT_DELAY_MS) : setImmediate(run));
    // a large document's edited region at once, the whole check after the pause (and the worker)
    if (large && this.serviceOf(doc.uri)?.quickDiagnostics) {
      this.cancelQuick(doc.uri);
      this.quick.set(
        doc.uri,
        setImmediate(() => {
          this.quick.delete(doc.uri);
          this.publishQuick(doc.uri, doc.version);
        }),
      );
    }
  }

  private readonly quick = new Map<string, NodeJS.Immediate>();

  private cancelQuick(uri: string): void {
    const q = this.quick.get(uri);
    if (q !== undefined) clearImmediate(q);
    this.quick.delete(uri);
  }

  private publishQuick(uri: string, version: number): void {
    const doc = this.ctx.documents.get(uri);
    if (!doc || doc.version !== version) return;
    try {
      const published = this.serviceOf(uri)?.quickDiagnostics?.(doc);
      if (published) void this.ctx.connection.sendDiagnostics({ uri, version, diagnostics: publishedDiagnostics(doc, published) });
    } catch (e) {
      this.ctx.connection.console.error(`quick diagnostics of ${uri} failed: ${String(e instanceof Error ? e.stack : e)}`);
    }
  }

  scheduleAll(): void {
    for (const doc of this.ctx.documents.all()) this.schedule(doc);
  }

  cancel(uri: string): void {
    const t = this.timers.get(uri);
    if (t === undefined) return;
    clearTimeout(t as NodeJS.Timeout);
    clearImmediate(t as NodeJS.Immediate);
    this.timers.delete(uri);
  }

  clear(uri: string): void {
    this.cancel(uri);
    this.cancelQuick(uri);
    void this.ctx.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  private async publish(uri: string, version: number): Promise<void> {
    const doc = this.ctx.documents.get(uri);
    if (!doc || doc.version !== version) return;
    try {
      const service = this.serviceOf(uri);
      if (!service) return;
      const published = await service.diagnostics(doc);
      const current = this.ctx.documents.get(uri);
      if (!current || current.version !== version) return;
      await this.ctx.connection.sendDiagnostics({ uri, version, diagnostics: publishedDiagnostics(doc, published) });
    } catch (e) {
      // a newer version's check replaced this one before it started: that check publishes
      if (isSuperseded(e)) return;
      this.ctx.connection.console.error(`diagnostics of ${uri} failed: ${String(e instanceof Error ? e.stack : e)}`);
    }
  }
}
