// Status bar item with the active filter's budget: operators and bytes used of the configured limits.
import * as vscode from 'vscode';
import { LANGUAGE_ID, type FilterService } from './client.js';
import { budgetText, errorsOf } from './messages.js';

const REFRESH_DELAY_MS = 300;

export class BudgetStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('logfilter.budget', vscode.StatusBarAlignment.Right, 100);
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Requests answer out of order when typing fast; only the latest one may paint. */
  private generation = 0;

  constructor(private readonly service: FilterService) {
    this.item.name = 'Logfilter Budget';
    this.item.command = 'logfilter.showCompiledJson';
    this.disposables.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => this.schedule(0)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === vscode.window.activeTextEditor?.document) this.schedule(REFRESH_DELAY_MS);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('logfilter') && this.schedule(REFRESH_DELAY_MS)),
    );
    this.schedule(0);
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), delay);
  }

  private async refresh(): Promise<void> {
    const generation = ++this.generation;
    const doc = vscode.window.activeTextEditor?.document;
    if (doc?.languageId !== LANGUAGE_ID) {
      this.item.hide();
      return;
    }
    try {
      const r = await this.service.compile(doc.uri);
      if (generation !== this.generation) return;
      const over = r.operators > r.maxOperators || r.bytes > r.maxBytes;
      const errors = errorsOf(r.diagnostics).length;
      this.item.text = budgetText(r);
      this.item.tooltip = new vscode.MarkdownString(
        [
          `**Logfilter budget** of ${doc.uri.path.split('/').pop()}`,
          '',
          `- operators: ${r.operators} of ${r.maxOperators}`,
          `- bytes of compact JSON: ${r.bytes} of ${r.maxBytes}`,
          ...(r.stale ? ['- *stale*: the figures of the last version without a syntax error'] : []),
          errors ? `- ${errors} error(s): see the Problems panel` : '- compiles: click to show the JSON',
          '',
          'Limits: settings `logfilter.maxOperators` and `logfilter.maxBytes`.',
        ].join('\n'),
      );
      this.item.backgroundColor = over ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
      this.item.show();
    } catch (e) {
      // Ordinary editing must not raise notifications: a failed refresh is logged and retried on the next edit.
      this.service.output.appendLine(`budget: ${String(e)}`);
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
