/**
 * The header of a `.rule` file: comment lines (`# …`) before the expression, which the language itself does
 * not have. A `# phase: http_request_firewall_custom` line sets the phase the file's expression is checked,
 * completed and evaluated in (editors, `rules check`, `rules eval`). The header is blanked with spaces (line
 * breaks kept), so offsets in the returned text are those of the file.
 */
import { closest } from '../lang/closest.js';
import { rdiag, type RuleDiagnostic } from './parse.js';
import { PHASES } from './phases.js';

export interface RuleFileHeader {
  /** The file with its header blanked: the expression at its own offsets. */
  text: string;
  phase?: string;
  diagnostics: RuleDiagnostic[];
  /** Length of the header (the comment lines and their line breaks). */
  headerLength: number;
}

const COMMENT = /^[ \t]*#.*$/;
const PHASE = /^([ \t]*#[ \t]*phase[ \t]*:[ \t]*)(\S*)[ \t]*$/;

export function readRuleFileHeader(text: string): RuleFileHeader {
  const diagnostics: RuleDiagnostic[] = [];
  let phase: string | undefined;
  let out = '';
  let offset = 0;
  for (const line of text.split('\n')) {
    const body = line.replace(/\r$/, '');
    if (!COMMENT.test(body) && body.trim() !== '') break;
    const m = PHASE.exec(body);
    if (m) {
      const start = offset + m[1]!.length;
      const name = m[2]!;
      if (PHASES.includes(name)) phase = name;
      else {
        const suggestions = closest(name, PHASES);
        diagnostics.push(rdiag('rule-unknown-phase', `unknown phase ${JSON.stringify(name)}${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''}`, start, start + Math.max(1, name.length), undefined, { suggestions }));
      }
    }
    out += `${' '.repeat(line.length)}\n`;
    offset += line.length + 1;
  }
  const rest = text.slice(Math.min(offset, text.length));
  const headerLength = Math.min(offset, text.length);
  return { text: (out + rest).slice(0, text.length), ...(phase ? { phase } : {}), diagnostics, headerLength };
}
