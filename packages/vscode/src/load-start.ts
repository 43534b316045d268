// Imported first by extension.ts, so it runs before the rest of the bundle (vscode-languageclient) loads.
// It starts the language server's thread at once: the server boots on another core while the extension
// host evaluates this bundle and builds the extension's context, instead of after activate().
import path from 'node:path';
import { startServerThread, type ServerThread } from './server-thread.js';

/** When the extension host began loading the extension, for the start-up timeline. */
export const loadStartedAt = performance.timeOrigin + performance.now();

/** The first server thread, taken by the client when it starts (this bundle is dist/extension.js, beside dist/server.js). */
export const firstServerThread: { thread?: ServerThread } = { thread: startServerThread(path.join(__dirname, 'server.js')) };
