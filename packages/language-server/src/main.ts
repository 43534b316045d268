/**
 * Entry of `logfilter-language-server`. vscode-languageserver picks the transport from argv (`--stdio`,
 * `--node-ipc`, `--socket=N`). The same bundle, started as a worker thread, compiles large documents off the
 * main thread so that the server stays responsive.
 */
import { isMainThread } from 'node:worker_threads';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node.js';
import { startServer } from './server.js';
import { traceServer } from './server-trace.js';
import { runWorker } from './worker.js';

if (isMainThread) {
  startServer(traceServer(createConnection(ProposedFeatures.all)));
} else {
  runWorker();
}
