// Which filter a command works on: an explicit URI argument (menus, tests), else the active logfilter editor
// (or, for commands that take rules too, the active `.rule` editor).
import * as vscode from 'vscode';
import { LANGUAGE_ID, RULES_LANGUAGE_ID } from './client.js';

export async function filterDocument(arg: unknown, commandTitle: string, rulesToo = false): Promise<vscode.TextDocument | undefined> {
  if (arg instanceof vscode.Uri) return vscode.workspace.openTextDocument(arg);
  const wanted = (d: vscode.TextDocument) => d.languageId === LANGUAGE_ID || (rulesToo && d.languageId === RULES_LANGUAGE_ID);
  const active = vscode.window.activeTextEditor?.document;
  if (active && wanted(active)) return active;
  // Focus may sit in the compiled JSON or a panel: fall back to the one visible filter, if there is one.
  const visible = vscode.window.visibleTextEditors.filter((e) => wanted(e.document));
  if (visible.length === 1) return visible[0]!.document;
  void vscode.window.showWarningMessage(`${commandTitle}: click into a .logfilter${rulesToo ? ' or .rule' : ''} file first, then run the command again.`);
  return undefined;
}
