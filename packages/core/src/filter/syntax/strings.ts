/**
 * String literals of the language: their JSON escapes decoded, and the problems in them (a bad escape, a
 * missing closing quote) located inside the literal. Shared by both parsers (parser.ts, fast-parse.ts) and
 * the syntax pass, so a literal means the same whichever reads it.
 */

export interface StringProblem {
  /** Offset inside the literal's image. */
  offset: number;
  length: number;
  kind: 'unterminated' | 'escape';
}

/** Decodes a string literal's JSON escapes; reports the first problem (the syntax pass reports them all). */
export function decodeString(image: string): { value: string; error?: StringProblem; problems: StringProblem[] } {
  const problems: StringProblem[] = [];
  const closed = image.length >= 2 && image.endsWith('"') && !endsWithEscapedQuote(image);
  const body = image.slice(1, closed ? -1 : undefined);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[i + 1];
    switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        i++;
        break;
      case 'b':
        out += '\b';
        i++;
        break;
      case 'f':
        out += '\f';
        i++;
        break;
      case 'n':
        out += '\n';
        i++;
        break;
      case 'r':
        out += '\r';
        i++;
        break;
      case 't':
        out += '\t';
        i++;
        break;
      case 'u': {
        const hex = body.slice(i + 2, i + 6);
        if (/^[0-9a-fA-F]{4}$/.test(hex)) {
          out += String.fromCharCode(parseInt(hex, 16));
          i += 5;
        } else {
          problems.push({ offset: i + 1, length: 2 + hex.replace(/[^0-9a-fA-F].*$/, '').length, kind: 'escape' });
          i++;
        }
        break;
      }
      case undefined:
        // a backslash cut off by the line's end: the string is unterminated, which is its one problem
        i++;
        break;
      default:
        problems.push({ offset: i + 1, length: 2, kind: 'escape' });
        i++;
    }
  }
  if (!closed) problems.push({ offset: 0, length: image.length, kind: 'unterminated' });
  return { value: out, error: problems[0], problems };
}

/** `"abc\"` is unterminated: its last quote is escaped (an odd run of backslashes before it). */
function endsWithEscapedQuote(image: string): boolean {
  let n = 0;
  for (let i = image.length - 2; i >= 1 && image[i] === '\\'; i--) n++;
  return n % 2 === 1;
}
