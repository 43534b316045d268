/** @logfilter/emulator: a local server of the zone API (rulesets, custom log fields, log export jobs, the migration, the previous WAF). */
export { startEmulator, BASE_PATH, ADMIN_PATH } from './server.js';
export type { EmulatorOptions, RunningEmulator, Fault } from './server.js';
export { ERROR_CODES, EmulatorError } from './errors.js';
export type { ErrorCodeName } from './errors.js';
export { MAX_CUSTOM_FIELDS } from './rules-validate.js';
export { StateFileError, PLANS, readDataFile } from './state.js';
export type { EmulatorState, Job, Rule, RulesetVersion, StoredRuleset, ZoneState, AccountState, Plan } from './state.js';
export { FixtureError, stateFromFixture } from './fixture.js';
export type { Area, Route, ZoneFixtureHook } from './routing.js';
export { AREAS } from './areas.js';
export { KINDS, PHASES, ACTIONS } from './rules-table.js';
export { MANAGED_RULESETS, MANAGED_RULESET_ID, CORE_RULESET_ID } from './managed-rulesets.js';
export { MIGRATION_STATES } from './migration-state.js';
export { MAX_FIREWALL_RULES, MAX_EXPRESSION_BYTES } from './migration.js';
export { FIXTURE_TIME } from './page-guard-fixture.js';
export type { PageGuardZone, PageGuardSettingsState } from './page-guard-state.js';
export { DEFAULT_OUTBOX, CHALLENGED_SCHEMES, outboxFile } from './ownership.js';
export { UPLOAD_LIMITS, TIMESTAMP_FORMATS, OUTPUT_TYPES } from './job-fields.js';
