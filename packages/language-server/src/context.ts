/** What every feature of the server shares: the connection, the open documents, settings and analyses. */
import type { Connection, TextDocuments } from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Analyses } from './analyses.js';
import type { TaskRunner } from './runner.js';
import type { Settings } from './settings.js';

export interface ServerContext {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  runner: TaskRunner;
  analyses: Analyses;
  settings(): Settings;
  /** Client capabilities that change what the server sends. */
  client: { codeLensRefresh: boolean; semanticTokensRefresh: boolean; configuration: boolean };
}
