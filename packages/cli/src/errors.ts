/**
 * Exit codes of every command, the same in every group (the table is in packages/cli/README.md#exit-codes):
 * 0 done; 1 the API or a check refused (or could not be reached); 2 usage, set-up or input error (nothing sent);
 * 3 a write refused because its target changed meanwhile.
 */
export const EXIT_OK = 0;
/** The filter has errors, a check found problems, the API refused or failed, or a confirmation was declined. */
export const EXIT_FAILURE = 1;
/** Usage error (bad flags or arguments), set-up error (no base URL or credentials) or input error (unreadable or invalid file). */
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
    /** What `--json` output adds to the failure object (the API's code and status). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'CliError';
  }
  /** The command already printed its own JSON failure object on stdout (custom-fields: whether the change is in). */
  printedJson = false;
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT_USAGE);
    this.name = 'UsageError';
  }
}
