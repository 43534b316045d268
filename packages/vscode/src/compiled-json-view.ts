// "Logfilter: Show Compiled JSON": a read-only virtual document beside the filter that follows its edits.
import * as vscode from 'vscode';
import { pretty } from '@logfilter/core';
import type { FilterService } from './client.js';
import { filterDocument } from './filter-document.js';
import { describeDiagnostic, errorsOf } from './messages.js';

export const COMPILED_SCHEME = 'logfilter-compiled';
const REFRESH_DELAY_MS = 200;

/** `logfilter-compiled:/name.logfilter.jsonc?<source uri>`: jsonc so the error state can be written as comments. */
export function compiledUri(source: vscode.Uri): vscode.Uri {
  const name = source.path.split('/').pop() || 'filter';
  return vscode.Uri.from({ scheme: COMPILED_SCHEME, path: `/${name}.jsonc`, query: source.toString() });
}

export class CompiledJsonView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly service: FilterService) {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(COMPILED_SCHEME, this),
      vscode.workspace.onDidChangeTextDocument((e) => this.sourceChanged(e.document.uri)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('logfilter')) for (const doc of this.openViews()) this.changed.fire(doc.uri);
      }),
    );
  }

  async show(arg?: unknown): Promise<vscode.TextEditor | undefined> {
    const source = await filterDocument(arg, 'Show Compiled JSON');
    if (!source) return undefined;
    const doc = await vscode.workspace.openTextDocument(compiledUri(source.uri));
    return vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: false });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const source = vscode.Uri.parse(uri.query);
    try {
      const r = await this.service.compile(source);
      if (r.json !== null) return `${pretty(r.json)}\n`;
      const errors = errorsOf(r.diagnostics);
      return [
        `// Not compiled: ${errors.length} error(s) in ${source.path.split('/').pop()}. Fix them (see the Problems panel); this view updates as you type.`,
        ...errors.map((d) => `// ${describeDiagnostic(d)}`),
        '',
      ].join('\n');
    } catch (e) {
      return `// Could not compile ${source.toString(true)}: ${String(e)}\n// Is the file still open? Run "Logfilter: Show Compiled JSON" again from its editor.\n`;
    }
  }

  private openViews(): vscode.TextDocument[] {
    return vscode.workspace.textDocuments.filter((d) => d.uri.scheme === COMPILED_SCHEME);
  }

  private sourceChanged(source: vscode.Uri): void {
    const key = source.toString();
    const view = this.openViews().find((d) => d.uri.query === key);
    if (!view) return;
    // Debounced so that the server has the latest text and fast typing does not queue compiles.
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => this.changed.fire(view.uri), REFRESH_DELAY_MS));
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.changed.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
