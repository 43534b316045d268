/**
 * The emulator's error codes. The API description shows no codes (section 7.5), so these are our own; they are
 * stable because clients and tests branch on them. Documented in packages/emulator/README.md.
 */
export const ERROR_CODES = {
  /** 401: no Authorization header and no X-Auth-Email/X-Auth-Key pair. */
  missingCredentials: 10000,
  /** 403: a credential was sent but is not accepted. */
  invalidCredentials: 10001,
  /** 404: no such path under the base URL. */
  noRoute: 7000,
  /** 405: the path exists but not with this method. */
  methodNotAllowed: 7001,
  /** 400: the zone id in the path is not well formed. */
  invalidZone: 7003,
  /** 400: the request body is not JSON. */
  malformedJson: 6007,
  /** 415: a request body sent without Content-Type: application/json. */
  unsupportedMediaType: 6003,
  /** 413: the request body is larger than 1 MiB. */
  bodyTooLarge: 6008,
  /** 400: the body does not have the required shape (missing or mistyped field). */
  validation: 10021,
  /** 400: a paging parameter (page, per_page) is not a positive integer in range. */
  invalidPaging: 10022,
  /** 404: no ruleset with that id in the zone. */
  rulesetNotFound: 10004,
  /** 404: no entry point ruleset for that phase in the zone. */
  entrypointNotFound: 10005,
  /** 404: no rule with that id in the ruleset. */
  ruleNotFound: 10006,
  /** 404: no such version of the ruleset. */
  versionNotFound: 10007,
  /** 409: the zone already has a ruleset for that phase (at most one per phase). */
  phaseConflict: 10008,
  /** 409: the most recent version of a ruleset cannot be deleted on its own. */
  latestVersion: 10009,
  /** 400: a `position` (before, after, index) that names no rule or is out of range. */
  invalidPosition: 10010,
  /** 400: a log_custom_field rule whose expression is not `true`. */
  customFieldExpression: 10030,
  /** 400: a log_custom_field rule without any field. */
  customFieldEmpty: 10031,
  /** 400: a header name that is not lower case, or a field name that is not a valid token. */
  customFieldName: 10032,
  /** 400: more than 40 custom fields in the zone. */
  customFieldLimit: 10033,
  /** 400: the same name twice in one list of a rule. */
  customFieldDuplicate: 10034,
  /** 400: an `execute` rule without action_parameters.id. */
  executeParameters: 10035,
  /** 404: no log export job with that id in the zone. */
  jobNotFound: 1004,
  /** 400: a job field that is missing or invalid (name, destination_conf, dataset, ...). */
  jobInvalid: 1001,
  /** 400: the job's `filter` string is not a JSON document. */
  filterNotJson: 1002,
  /** 400: the filter does not pass the checks (unknown field, wrong operator or value, ...). */
  filterInvalid: 1003,
  /** 400: the filter exceeds the limits of section 8 (operators, bytes). */
  filterTooLarge: 1005,
  /** 400: logpull_options is not a valid query string of known options. */
  logpullOptions: 1006,
  /** 400: the dataset is not known, or a job's dataset cannot be changed. */
  datasetInvalid: 1007,
  /** 400: a page monitoring list parameter is unknown, malformed, repeated, or not allowed with another. */
  pageGuardParameter: 12001,
  /** 404: no script with that id in the zone. */
  scriptNotFound: 12002,
  /** 404: no connection with that id in the zone. */
  connectionNotFound: 12003,
  /** 404: no cookie with that id in the zone. */
  cookieNotFound: 12004,
  /** 404: no content-security policy with that id in the zone. */
  policyNotFound: 12005,
  /** 400: a policy body field that is missing or invalid (action, expression, enabled, description, unknown field). */
  policyInvalid: 12006,
  /** 400: a policy value that is not an allowed script-src directive (the message names the diagnostic and offsets). */
  policyValueInvalid: 12007,
  /** 400: a settings body that is empty, has an unknown field, or a value that is not a boolean. */
  settingsInvalid: 12008,
  /** 429: rate limited (simulated). */
  rateLimited: 971,
  /** 5xx: an injected server error. */
  internal: 10500,
} as const;

export type ErrorCodeName = keyof typeof ERROR_CODES;

/** An error the emulator answers with: HTTP status plus one envelope error. */
export class EmulatorError extends Error {
  /** Where the problem is (api-facts: `source.pointer`): `/field` of the body, or `/name` of a query parameter. */
  source?: { pointer: string; parameter?: string };
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'EmulatorError';
  }
}

export function fail(status: number, name: ErrorCodeName, message: string): EmulatorError {
  return new EmulatorError(status, ERROR_CODES[name], message);
}

export const badRequest = (name: ErrorCodeName, message: string) => fail(400, name, message);
export const notFound = (name: ErrorCodeName, message: string) => fail(404, name, message);
export const conflict = (name: ErrorCodeName, message: string) => fail(409, name, message);

/** An error that points at a body field (`/value`) or a query parameter. */
export function pointed(status: number, name: ErrorCodeName, message: string, source: { pointer: string; parameter?: string }): EmulatorError {
  const e = fail(status, name, message);
  e.source = source;
  return e;
}

/** A fixture file that cannot be loaded; the message names the path of the bad value (`zones.z1.page_guard.scripts[2].id`). */
export class FixtureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FixtureError';
  }
}
