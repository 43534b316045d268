/** What parse() returns, whichever of its two parsers read the text (parse.ts). */
import type { Condition, FileNode } from '../ast.js';
import type { Diagnostic } from '../diagnostics.js';

export interface ParseResult {
  file: FileNode;
  diagnostics: Diagnostic[];
  /** Every condition that parsed, also those in parts of the text that recovery dropped from the tree. */
  conditions: Condition[];
}
