/** The pure parts of page monitoring: tables, CSP parsing and matching, the malicious rule, suggest and check. */
export * from './tables.js';
export * from './types.js';
export * from './malicious.js';
export * from './csp.js';
export * from './csp-match.js';
export * from './origin.js';
export * from './policy-check.js';
export * from './suggest.js';
