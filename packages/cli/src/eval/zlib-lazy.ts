/**
 * Node's zlib at first use (`process.getBuiltinModule`, synchronous) rather than at start-up: an eval of plain
 * input never inflates, and every module loaded at start is part of every evaluation's time.
 */
import type * as Zlib from 'node:zlib';

export function zlib(): typeof Zlib {
  return process.getBuiltinModule('node:zlib');
}
