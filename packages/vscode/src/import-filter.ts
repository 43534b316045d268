// "Logfilter: Import Filter from JSON": filter JSON (object, encoded string, job or API response) from the
// selection, the clipboard or a file, decompiled by the server into a new .logfilter editor (starting with
// the job's `dataset` line when the input is a job or an API answer holding one).
import * as vscode from 'vscode';
import { LANGUAGE_ID, type FilterService } from './client.js';
import { importFailure } from './messages.js';

const TITLE = 'Import Filter from JSON';

/** Where the JSON comes from. A URI or a `{text}` argument skips the question (menus, tests). */
async function chooseInput(arg: unknown): Promise<{ text: string; from: string } | undefined> {
  if (arg instanceof vscode.Uri) return { text: await readText(arg), from: arg.path.split('/').pop() ?? 'file' };
  if (typeof arg === 'string') return { text: arg, from: 'argument' };
  if (arg && typeof arg === 'object' && typeof (arg as { text?: unknown }).text === 'string') {
    return { text: (arg as { text: string }).text, from: 'argument' };
  }
  const editor = vscode.window.activeTextEditor;
  if (editor && !editor.selection.isEmpty) return { text: editor.document.getText(editor.selection), from: 'selection' };

  const clipboard = (await vscode.env.clipboard.readText()).trim();
  const picks: Array<vscode.QuickPickItem & { id: 'clipboard' | 'file' }> = [
    ...(clipboard ? [{ id: 'clipboard' as const, label: '$(clippy) From the clipboard', detail: clipboard.slice(0, 120) }] : []),
    { id: 'file' as const, label: '$(file) From a file…', detail: 'A .json file holding a filter, a job or an API response' },
  ];
  const pick = await vscode.window.showQuickPick(picks, {
    title: TITLE,
    placeHolder: 'Where is the filter JSON? (Tip: select JSON in an editor to import the selection directly.)',
  });
  if (!pick) return undefined;
  if (pick.id === 'clipboard') return { text: clipboard, from: 'clipboard' };
  const files = await vscode.window.showOpenDialog({
    title: TITLE,
    canSelectMany: false,
    filters: { JSON: ['json'], 'All files': ['*'] },
  });
  if (!files?.[0]) return undefined;
  return { text: await readText(files[0]), from: files[0].path.split('/').pop() ?? 'file' };
}

async function readText(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

/** Returns the editor with the decompiled source, or undefined when nothing was imported. */
export async function importFilterFromJson(service: FilterService, arg?: unknown): Promise<vscode.TextEditor | undefined> {
  let input: { text: string; from: string } | undefined;
  try {
    input = await chooseInput(arg);
  } catch (e) {
    void vscode.window.showErrorMessage(`${TITLE}: could not read the file: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
  if (!input) return undefined;
  const r = await service.decompile(input.text);
  if (r.source === null) {
    void vscode.window.showErrorMessage(importFailure(TITLE, input.from, r.diagnostics));
    return undefined;
  }
  const doc = await vscode.workspace.openTextDocument({ language: LANGUAGE_ID, content: r.source });
  return vscode.window.showTextDocument(doc, { preview: false });
}
