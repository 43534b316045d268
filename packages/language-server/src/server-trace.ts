/**
 * The server's side of the start-up timeline (startup-trace.ts): process start, bundle loaded, `initialize`
 * received, and for each document its first `didOpen` received and its first diagnostics sent (what lies
 * between those two is the server's own part of an open). It wraps the connection before the server
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
  const opened = new Set<string>();
  connection.onDidOpenTextDocument = (handler) =>
    onDidOpen((params) => {
      if (!opened.has(params.textDocument.uri)) {
        opened.add(params.textDocument.uri);
        traceStartup('server-did-open');
      }
      return handler(params);
    });
  const sendDiagnostics = connection.sendDiagnostics.bind(connection);
  const published = new Set<string>();
  connection.sendDiagnostics = (params) => {
    if (!published.has(params.uri)) {
      published.add(params.uri);
      traceStartup('server-first-diagnostics');
    }
    return sendDiagnostics(params);
  };
  return connection;
}
