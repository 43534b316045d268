// The server thread's entry (dist/server-loader.js): loads the language server's bundle (dist/server.js)
// through V8's code cache (code-cache.ts), as entry.ts loads the extension's: the e2e trace showed the server
// thread still loading its bundle when the client was ready (0.7-1.5 s after it, on a loaded machine).
// The bundle reads its MessagePort from this thread's workerData, as if it had been started itself.
import path from 'node:path';
import { loadWithCodeCache } from './code-cache.js';

const bundle = loadWithCodeCache(path.join(__dirname, 'server.js'));
/** Long enough for the first checks to have run, so the cache holds their code too. */
const SAVE_CACHE_AFTER_MS = 10_000;
if (!bundle.fromCache) setTimeout(() => bundle.saveCache(), SAVE_CACHE_AFTER_MS).unref();
