/** A `--data` file the emulator cannot use (unreadable, malformed, locked by another emulator): it does not start. */
export class StateFileError extends Error {}
