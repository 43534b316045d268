/**
 * Typed errors of the client. Every failure of a call is one of these, so callers branch on `kind`, `status` and
 * `code` and never parse messages. Messages never contain credentials.
 */
export interface EnvelopeError {
  code: number;
  message: string;
  /** The errors that caused this one, as the provider nests them (6003 "Invalid request headers" ← 6111 …). */
  error_chain?: EnvelopeError[];
}

/** An envelope error's message followed by its causes' (one level): the first alone often says too little ("Invalid request headers"). */
function withCauses(error: EnvelopeError): string {
  const causes = Array.isArray(error.error_chain) ? error.error_chain.filter((c) => typeof c?.message === 'string' && c.message !== '') : [];
  return causes.length === 0 ? error.message : `${error.message}: ${causes.map((c) => c.message).join('; ')}`;
}

export type ApiErrorKind = 'api' | 'timeout' | 'aborted' | 'network' | 'invalid-response' | 'config';

export class ApiError extends Error {
  /**
   * True when a change (POST, PATCH) failed after the request may have reached the server: it may have been
   * applied. The message then says so and that the state should be checked before trying again.
   */
  mayHaveApplied = false;
  /** HTTP status of the answer, when there was one. */
  readonly status?: number;
  /** The first envelope error's code, when the API answered with one. */
  readonly code?: number;
  /** All envelope errors of the answer. */
  readonly errors: EnvelopeError[];
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    extra: { status?: number; code?: number; errors?: EnvelopeError[]; cause?: unknown } = {},
  ) {
    super(message, extra.cause !== undefined ? { cause: extra.cause } : undefined);
    this.name = 'ApiError';
    this.status = extra.status;
    this.code = extra.code;
    this.errors = extra.errors ?? [];
  }

  /** This error, marked (and worded) as a change whose outcome is unknown. */
  withUnknownOutcome(): this {
    if (!this.mayHaveApplied) {
      this.mayHaveApplied = true;
      this.message += `; ${UNKNOWN_OUTCOME}`;
    }
    return this;
  }
}

export const UNKNOWN_OUTCOME = 'the change may have been applied all the same: check the current state before trying again';

/** The API answered with success false: `code` and `message` are the API's own. */
export class ApiResponseError extends ApiError {
  constructor(
    readonly method: string,
    readonly path: string,
    status: number,
    errors: EnvelopeError[],
  ) {
    const first = errors[0] ?? { code: 0, message: `HTTP ${status}` };
    super('api', withCauses(first), { status, code: first.code, errors });
    this.name = 'ApiResponseError';
  }
}

/** No answer within the timeout. */
export class ApiTimeoutError extends ApiError {
  constructor(
    readonly timeoutMs: number,
    method: string,
    path: string,
    unknownOutcome = false,
  ) {
    super('timeout', `${method} ${path}: no answer within ${timeoutMs} ms`);
    this.name = 'ApiTimeoutError';
    if (unknownOutcome) this.withUnknownOutcome();
  }
}

/** The caller cancelled the call (AbortSignal). */
export class ApiAbortError extends ApiError {
  constructor(method: string, path: string, unknownOutcome = false) {
    super('aborted', `${method} ${path}: cancelled`);
    this.name = 'ApiAbortError';
    if (unknownOutcome) this.withUnknownOutcome();
  }
}

/**
 * The service could not be reached (connection refused, reset, DNS), or the connection broke after the answer's
 * status arrived and before its body ended: then `status` is that answer's.
 */
export class ApiNetworkError extends ApiError {
  /** `cause` must already be redacted (see redactCause): it is kept for inspection. */
  constructor(method: string, path: string, cause: unknown, unknownOutcome = false, status?: number) {
    const code = (cause as { cause?: { code?: string } })?.cause?.code;
    const what = status === undefined ? 'cannot reach the API' : `the answer (HTTP ${status}) was cut off before its end`;
    super('network', `${method} ${path}: ${what}${code ? ` (${code})` : ''}`, { cause, status });
    this.name = 'ApiNetworkError';
    if (unknownOutcome) this.withUnknownOutcome();
  }
}

/** The answer is not JSON, not the envelope, or its result does not have the documented shape. */
export class ApiInvalidResponseError extends ApiError {
  constructor(method: string, path: string, status: number, why: string) {
    super('invalid-response', `${method} ${path}: invalid answer (HTTP ${status}): ${why}`, { status });
    this.name = 'ApiInvalidResponseError';
  }
}

/**
 * The answer is larger than the client's `maxAnswerBytes` (default 64 MiB, far above any real answer): refused by
 * its Content-Length (`declaredBytes`) before the body was read, or cut off once the body passed the limit.
 */
export class ApiAnswerTooLargeError extends ApiInvalidResponseError {
  constructor(
    method: string,
    path: string,
    status: number,
    readonly limitBytes: number,
    readonly declaredBytes?: number,
  ) {
    super(
      method,
      path,
      status,
      declaredBytes === undefined
        ? `the answer is larger than ${limitBytes} bytes (maxAnswerBytes); reading stopped there`
        : `the answer declares ${declaredBytes} bytes (Content-Length), more than ${limitBytes} (maxAnswerBytes); it was not read`,
    );
    this.name = 'ApiAnswerTooLargeError';
  }
}

/** The client is missing a base URL or credentials, or they are malformed. */
export class ApiConfigError extends ApiError {
  constructor(message: string) {
    super('config', message);
    this.name = 'ApiConfigError';
  }
}

/** The custom fields asked for break a rule of the API (case, names, the limit of 40): nothing was sent. */
export class CustomFieldsError extends ApiError {
  constructor(
    readonly reason: 'header-case' | 'invalid-name' | 'too-many' | 'duplicate' | 'empty',
    message: string,
  ) {
    super('config', message);
    this.name = 'CustomFieldsError';
  }
}

/** The API's code for a second entry point (kind zone or root) of a phase (emulator README, "Error codes"). */
export const ENTRYPOINT_EXISTS = 20217;

/** A page monitoring list parameter, settings or policy field the API would refuse: nothing was sent. */
export class PageGuardInputError extends ApiError {
  constructor(
    /** The list parameter or body field at fault (`per_page`, `action`, `value`, ...). */
    readonly field: string,
    message: string,
  ) {
    super('config', message);
    this.name = 'PageGuardInputError';
  }
}

/** A policy `value` that is not an allowed script-src directive: the diagnostics point into the value. */
export class PolicyValueError extends PageGuardInputError {
  constructor(
    readonly diagnostics: { code: string; severity: string; message: string; start: number; end: number }[],
  ) {
    const first = diagnostics.find((d) => d.severity === 'error') ?? diagnostics[0];
    super('value', `value: ${first ? `${first.code} at ${first.start}-${first.end}: ${first.message}` : 'invalid'}`);
    this.name = 'PolicyValueError';
  }
}
