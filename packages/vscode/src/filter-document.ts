// Which filter a command works on: an explicit URI argument (menus, tests), else the active logfilter editor.
import * as vscode from 'vscode';
import { LANGUAGE_ID } from './client.js';

export async function filterDocument(arg: unknown, commandTitle: string): Promise<vscode.TextDocument | undefined> {
  if (arg instanceof vscode.Uri) return vscode.workspace.openTextDocument(arg);
  const active = vscode.window.activeTextEditor?.document;
  if (active?.languageId === LANGUAGE_ID) return active;
  // Focus may sit in the compiled JSON or a panel: fall back to the one visible filter, if there is one.
  const visible = vscode.window.visibleTextEditors.filter((e) => e.document.languageId === LANGUAGE_ID);
  if (visible.length === 1) return visible[0]!.document;
  void vscode.window.showWarningMessage(`${commandTitle}: click into a .logfilter file first, then run the command again.`);
  return undefined;
}
