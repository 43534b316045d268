/** @logfilter/emulator: a local server of the zone API (rulesets, custom log fields, log export jobs). */
export { startEmulator, BASE_PATH, ADMIN_PATH } from './server.js';
export type { EmulatorOptions, RunningEmulator, Fault } from './server.js';
export { ERROR_CODES, EmulatorError } from './errors.js';
export type { ErrorCodeName } from './errors.js';
export { MAX_CUSTOM_FIELDS } from './rules-validate.js';
export { StateFileError } from './state.js';
export type { EmulatorState, Job, Rule, RulesetVersion, StoredRuleset } from './state.js';
export { applyFixture, readFixtureFile, FixtureError } from './fixture.js';
export type { FixtureDocument } from './fixture.js';
export { FIXTURE_TIME } from './page-guard-fixture.js';
export type { PageGuardZone, PageGuardSettingsState } from './page-guard.js';
