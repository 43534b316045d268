// Runs the bundled language server (dist/server.js) as a worker thread of the extension host, speaking LSP
// over a MessagePort, instead of as a node process: a thread starts without a second node boot (measured:
// first diagnostics in about half the time of a spawned process on a loaded machine), and its CPU work still
// runs off the extension host's own thread. Large documents are compiled in the server's own worker, as before.
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { SERVER_PORT_KEY } from '@logfilter/language-server/protocol';
import { traceStartup } from '@logfilter/language-server/startup-trace';

export interface ServerThread {
  readonly worker: Worker;
  /** The extension's end of the LSP channel; closed when the thread exits, so the client sees the server stop. */
  readonly port: MessagePort;
  /** Why the thread stopped, if it failed (to load, or later): logged by the client. */
  failure?: Error;
}

export function startServerThread(module: string): ServerThread {
  traceStartup('server-process-start');
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(module, { workerData: { [SERVER_PORT_KEY]: port2 }, transferList: [port2] });
  const thread: ServerThread = { worker, port: port1 };
  // An 'error' without a listener would throw in the extension host: keep it for the log instead.
  worker.on('error', (e) => {
    thread.failure = e;
  });
  worker.on('exit', () => port1.close());
  return thread;
}
