/** @logfilter/cli as a library: run a command line in-process (used by tests and embedders). */
export { run, type CommandName } from './main.js';
export { type CliContext, processContext } from './context.js';
export { EXIT_OK, EXIT_FAILURE, EXIT_USAGE, CliError, UsageError } from './errors.js';
export { refuseInvalidExpressions, checkBodyExpressions, type ExpressionSource } from './rules-check.js';
