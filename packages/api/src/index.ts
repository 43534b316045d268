/** @logfilter/api: typed client of the zone API (rulesets, custom log fields, log export jobs, the migration, the previous WAF). */
export { LogfilterClient, REDACTED, parseRetryAfter, redactCause, scopePath } from './client.js';
export type { ClientOptions, CallOptions, PageOptions, CursorOptions, Scope, RetryInfo, RequestDescription } from './client.js';
export { resolveConnection, ENV, DEFAULT_BASE_URL } from './config.js';
export { ALIASES, SPELLINGS, segmentIn, pathIn, fieldsIn, textIn } from './spelling.js';
export type { Alias, Spelling } from './spelling.js';
export type { ConnectionOptions, Credentials } from './config.js';
export * from './errors.js';
export * from './types.js';
export * from './logpull.js';
export * from './custom-fields.js';
export * from './migration.js';
export * from './waf-legacy.js';
export { PageGuardApi, listQuery, normalizePolicy, checkPolicyInput } from './page-guard.js';
export type { PageGuardOptions, ScriptListParams, ConnectionListParams, CookieListParams } from './page-guard.js';
export * from './page-guard/index.js';
export { resultSchemas, explain as explainResult } from './schemas.js';
export type { ResultSchema } from './schemas.js';
export * from './logexport.js';
