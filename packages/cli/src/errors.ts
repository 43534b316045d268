/** Exit codes of every command (docs/language.md#command-line): documented in the README. */
export const EXIT_OK = 0;
/** The filter has errors, or an API call failed. */
export const EXIT_FAILURE = 1;
/** Usage error (bad flags or arguments) or I/O error (unreadable file). */
export const EXIT_USAGE = 2;
/** A write refused before it was sent because what it would replace changed meanwhile (`rulesets update`). */
export const EXIT_CONFLICT = 3;

/** An error a command reports as one clear line and an exit code; never a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
    /** The input the error is about (a file name, `<stdin>`), for `--diagnostics json`. */
    readonly file?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT_USAGE);
    this.name = 'UsageError';
  }
}
