/**
 * The emulator's error codes (README, "Error codes"): the provider's where its public answers show them, our own otherwise; they are
 * stable because clients and tests branch on them. Documented in packages/emulator/README.md.
 */
export const ERROR_CODES = {
  /** 401: no Authorization header and no X-Auth-Email/X-Auth-Key pair. */
  missingCredentials: 10000,
  /** 403: a credential was sent but is not accepted. */
  invalidCredentials: 10001,
  /**
   * 403: a zone id the emulator does not have, with the fixture's `unlisted_zones: "refuse"`: the provider's answer to
   * a zone the credential cannot reach ("Authentication error").
   */
  zoneNotAccessible: 10000,
  /** 404: no such path under the base URL. */
  noRoute: 7000,
  /** 405: the path exists but not with this method. */
  methodNotAllowed: 7001,
  /** 400: the zone id in the path is not well formed. */
  invalidZone: 7003,
  /** 400: the account id in the path is not well formed. */
  invalidAccount: 7004,
  /** 400: a path segment with malformed percent-encoding (`%E0%A4%A`). */
  malformedPath: 7005,
  /** 400: the request body is not JSON. */
  malformedJson: 6007,
  /** 415: a request body sent without Content-Type: application/json. */
  unsupportedMediaType: 6003,
  /** 400: request headers the API cannot read (the provider's code); the cause is in `error_chain`. */
  invalidHeaders: 6003,
  /** In the `error_chain` of 6003: an Authorization header that is not `Bearer <token>` (the provider's code). */
  authorizationFormat: 6111,
  /** 413: the request body is larger than 1 MiB. */
  bodyTooLarge: 6008,
  /** 400: the body does not have the required shape (missing or mistyped field). */
  validation: 10021,
  /** 400: a paging parameter (page, per_page) is not a positive integer in range. */
  invalidPaging: 10022,
  /** 404: no ruleset with that id in the zone. */
  rulesetNotFound: 10004,
  /** 404: no entry point ruleset for that phase in the zone or account (the real API's code). */
  entrypointNotFound: 10003,
  /** 404: no rule with that id in the ruleset. */
  ruleNotFound: 10006,
  /** 404: no such version of the ruleset. */
  versionNotFound: 10007,
  /** 400: a second ruleset of kind zone (or root) for a phase; pointer /kind (the real API's code). */
  phaseConflict: 20217,
  /** 400: an action that needs action parameters sent without them (the real API's code). */
  actionParameters: 20113,
  /** 400: `logging` on a rule whose action is not skip (the real API's code). */
  loggingOnlySkip: 20018,
  /** 400: an action that is not one of the known actions. */
  unknownAction: 20021,
  /** 400: a phase that is not one of the known phases. */
  unknownPhase: 20022,
  /** 400: a change of a ruleset's name, kind or phase. */
  immutableProperty: 20023,
  /** 403: a write to a managed ruleset, or an attempt to create one. */
  managedReadOnly: 20024,
  /** 409: deleting a ruleset, or a version, that an execute rule references. */
  referenced: 20025,
  /** 400: a kind that does not belong to the scope (zone at account level, root at zone level). */
  kindScope: 20026,
  /** 400: a cursor that this list never gave. */
  invalidCursor: 20027,
  /** 409: the only version of a ruleset cannot be deleted on its own (delete the ruleset). */
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
  /** 400: a rule or policy expression the rules language refuses ("Filter parsing error (L:C): …"). */
  invalidExpression: 10036,
  /** 404: no log export job with that id in the zone. */
  jobNotFound: 1004,
  /** 400: a job field that is missing or invalid (name, destination_conf, dataset, ...). */
  jobInvalid: 1001,
  /** 400: the job's `filter` string is not a JSON document. */
  filterNotJson: 1002,
  /** 400: the filter does not pass the checks (unknown field, wrong operator or value, ...). */
  filterInvalid: 1003,
  /** 400: the filter exceeds the limits of a job filter (operators, bytes; docs/language.md, "Limits"). */
  filterTooLarge: 1005,
  /** 400: logpull_options is not a valid query string of known options. */
  logpullOptions: 1006,
  /** 400: the dataset is not known, or a job's dataset cannot be changed. */
  datasetInvalid: 1007,
  /** 400: a job to a challenged destination whose ownership_challenge is missing or not the one issued. */
  ownershipChallenge: 1008,
  /**
   * 400: an instant-logs (edge) filter whose value has the wrong type for its field and operator; the provider's
   * code and message (`bad predicate: failed to decode value "…", supported kinds: []uint64`).
   */
  edgeFilterValue: 1004,
  /** 400: the migration is refused: the zone is not compatible (URI-based overrides of the previous WAF). */
  migrationIncompatible: 20400,
  /** 400: the migration failed and needs support: more than 200 firewall rules, or an expression over 4 KB. */
  migrationNeedsSupport: 20401,
  /** 403: validation mode asked for a zone that is not on the Enterprise plan. */
  validationEnterpriseOnly: 20402,
  /** 409: the zone has already migrated; the migration cannot be undone or repeated. */
  alreadyMigrated: 20403,
  /** 400: a migration query parameter (waf_migration, phase_two) with a value outside the contract. */
  migrationParameter: 20404,
  /** 403: a previous-WAF call on a zone that has migrated: those APIs stopped working. */
  wafMigrated: 20410,
  /** 404: no such previous-WAF package, group, rule or override. */
  wafNotFound: 20411,
  /** 400: an invalid previous-WAF body (mode, urls, override fields) or list parameter (waf-list.ts). */
  wafInvalid: 20412,
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
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** JSON pointer into the request body of the part at fault, answered as `source.pointer`. */
    readonly pointer?: string,
    /** The errors that caused this one, answered as the error's `error_chain` (the provider nests causes so). */
    readonly chain?: { code: number; message: string }[],
  ) {
    super(message);
    this.name = 'EmulatorError';
  }
}

export function fail(status: number, name: ErrorCodeName, message: string, pointer?: string): EmulatorError {
  return new EmulatorError(status, ERROR_CODES[name], message, {}, pointer);
}

/**
 * A malformed Authorization header, answered as the provider does: 400, code 6003 "Invalid request headers" with the
 * cause 6111 "Invalid format for Authorization header" in its `error_chain` (the provider's words, which clients
 * and public threads match on).
 */
export const malformedAuthorization = () =>
  new EmulatorError(400, ERROR_CODES.invalidHeaders, 'Invalid request headers', {}, undefined, [
    { code: ERROR_CODES.authorizationFormat, message: 'Invalid format for Authorization header' },
  ]);

export const badRequest = (name: ErrorCodeName, message: string, pointer?: string) => fail(400, name, message, pointer);
export const notFound = (name: ErrorCodeName, message: string) => fail(404, name, message);
export const conflict = (name: ErrorCodeName, message: string) => fail(409, name, message);

/** Long user text is cut in messages: an answer never echoes a megabyte back. */
export function clip(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
