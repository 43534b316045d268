/**
 * Entry of `logfilter-language-server`. vscode-languageserver picks the transport from argv (`--stdio`,
 * `--node-ipc`, `--socket=N`). The same bundle runs in two kinds of worker thread: the VS Code extension
 * starts it as a thread of the extension host, speaking LSP over the MessagePort it passes in `workerData`
 * (no process to start: the first squiggle comes sooner); and the server itself starts it to compile large
 * documents off its main thread, so that it stays responsive.
 */
import { isMainThread, workerData, type MessagePort } from 'node:worker_threads';
import { createConnection, PortMessageReader, PortMessageWriter, ProposedFeatures } from 'vscode-languageserver/node.js';
import { SERVER_PORT_KEY } from './protocol.js';
import { lifecycleStrategy } from './lifecycle.js';
import { startServer } from './server.js';
import { watchStdioFraming } from './stdio-framing.js';
import { traceServer } from './server-trace.js';
import { warmUp } from './warm-up.js';
import { runWorker } from './worker.js';

const port = (workerData as Record<string, MessagePort> | null)?.[SERVER_PORT_KEY];
if (isMainThread) {
  if (process.argv.includes('--stdio')) {
    watchStdioFraming(process.stdin, (problem) => {
      process.stderr.write(`logfilter-language-server: ${problem} on standard input: the LSP stream cannot be read past it; stopping\n`);
      process.exit(1);
    });
  }
  startServer(traceServer(createConnection(ProposedFeatures.all, { messageStrategy: lifecycleStrategy() })));
} else if (port) {
  startServer(traceServer(createConnection(ProposedFeatures.all, new PortMessageReader(port), new PortMessageWriter(port), { messageStrategy: lifecycleStrategy() })));
  // the extension starts this thread before it is activated: the wait for its client is free time
  setImmediate(warmUp);
} else {
  runWorker();
}
