/** Library entry: start the server on a connection of your choosing (the bin uses main.ts). */
export { startServer, SERVER_NAME, SERVER_VERSION } from './server.js';
export { CompileRequest, DecompileRequest } from './custom-requests.js';
export type { CompileParams, CompileResponse, DecompileParams, DecompileResponse } from './protocol.js';
export { COMPILE_METHOD, DECOMPILE_METHOD } from './protocol.js';
export { readSettings, DEFAULT_SETTINGS, type Settings } from './settings.js';
