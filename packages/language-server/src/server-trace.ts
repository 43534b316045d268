/**
 * The server's side of the start-up timeline (startup-trace.ts): process start, bundle loaded, `initialize`
 * received, and for each open of a document its `didOpen` received and the first diagnostics sent after it
 * (what lies between those two is the server's own part of an open; a document closed and opened again, a
 * warm open, is traced again). It wraps the connection before the server
 * registers its handlers, so the server itself knows nothing of it.
 */
import { isMainThread } from 'node:worker_threads';
import type { Connection } from 'vscode-languageserver/node.js';
import { traceProcessStart, traceStartup, tracing } from './startup-trace.js';

export function traceServer(connection: Connection): Connection {
  if (!tracing()) return connection;
  // a thread shares its process's time origin: the extension traces when it starts the thread instead
  if (isMainThread) traceProcessStart('server-process-start');
  traceStartup('server-loaded');
  const onInitialize = connection.onInitialize.bind(connection);
  connection.onInitialize = (handler) =>
    onInitialize((...args) => {
      traceStartup('server-initialize');
      return handler(...args);
    });
  const onDidOpen = connection.onDidOpenTextDocument.bind(connection);
  /** Documents opened whose first diagnostics since are not sent yet. */
  const opened = new Set<string>();
  connection.onDidOpenTextDocument = (handler) =>
    onDidOpen((params) => {
      opened.add(params.textDocument.uri);
      traceStartup('server-did-open');
      return handler(params);
    });
  const sendDiagnostics = connection.sendDiagnostics.bind(connection);
  connection.sendDiagnostics = (params) => {
    if (opened.delete(params.uri)) traceStartup('server-first-diagnostics');
    return sendDiagnostics(params);
  };
  return connection;
}
