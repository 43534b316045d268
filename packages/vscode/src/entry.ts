// The extension's entry (package.json `main`, dist/extension.js), small so that it runs at once:
// 1. starts the language server's thread (server-thread.ts), which boots on another core while the extension
//    host loads the rest and builds the extension's context, instead of after activate();
// 2. loads the extension's bundle (dist/extension-main.js, built from extension.ts) through V8's code cache
//    (code-cache.ts), so that from the second start on vscode-languageclient is not compiled again;
// 3. starts the language client (extension.ts's startEarly), also before activate().
import path from 'node:path';
import type * as vscode from 'vscode';
import { traceStartup } from '@logfilter/language-server/startup-trace';
import { loadWithCodeCache } from './code-cache.js';
import type * as Extension from './extension.js';
import { startServerThread } from './server-thread.js';

traceStartup('extension-load');
const firstServer = startServerThread(path.join(__dirname, 'server-loader.js'));
const bundle = loadWithCodeCache<typeof Extension>(path.join(__dirname, 'extension-main.js'));
const early = bundle.exports.startEarly(path.dirname(__dirname), firstServer);

/** Long enough after activation for the first check's code to have run, so the cache holds it too. */
const SAVE_CACHE_AFTER_MS = 10_000;

export function activate(context: vscode.ExtensionContext): void {
  bundle.exports.activate(context, early);
  if (!bundle.fromCache) setTimeout(() => bundle.saveCache(), SAVE_CACHE_AFTER_MS).unref();
}

export function deactivate(): Promise<void> | undefined {
  return bundle.exports.deactivate();
}
