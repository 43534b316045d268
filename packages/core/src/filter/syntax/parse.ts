/**
 * parse(): text → AST + syntax diagnostics. Never throws; deep nesting is refused before the recursive
 * parser could overflow the stack.
 */
import { createTokenInstance, EOF, type ILexingError, type IRecognitionException, type IToken, tokenMatcher, type TokenType } from 'chevrotain';
import type { Comment, Condition, Expr, FileNode } from '../ast.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { expectedTokenName, finishSyntaxDiagnostics, lexerErrorSpans, tooDeepToken, TooManyErrors } from '../../lang/chevrotain.js';
import { FILTER_PARSER_SETTINGS, MAX_DEPTH } from '../limits.js';
import { OPERATOR_BY_NAME, OPERATOR_MISSPELLINGS, OPERATORS } from '../operators.js';
import { closest } from '../../lang/closest.js';
import { datasetNameOf, decodeString, getParser, type ParsedFile, RECOVERY_TOKEN_LIMIT } from './parser.js';
import { isIdentifier, needsBackquotes } from './field-names.js';
import * as T from './tokens.js';

export interface ParseResult {
  file: FileNode;
  diagnostics: Diagnostic[];
  /** Every condition that parsed, also those in parts of the text that recovery dropped from the tree. */
  conditions: Condition[];
}

/** Limits of the parse: nesting before the recursive parser is run at all, caps on errors (limits.ts). */
const SETTINGS = FILTER_PARSER_SETTINGS;
const PARSE_DEPTH_CAP = SETTINGS.maxParseDepth;
const MAX_SYNTAX_DIAGNOSTICS = SETTINGS.maxSyntaxDiagnostics;
const NESTING = { open: T.LParen, close: T.RParen, not: T.Not, notsThroughOpen: true };

export function parse(text: string): ParseResult {
  const diagnostics: Diagnostic[] = [];
  const lexed = T.getLexer().tokenize(text);
  // braces around a list are read as brackets (and reported once); the characters left are the lexer's errors
  const lexErrors = braceLists(text, lexed.tokens, lexed.errors, diagnostics);
  let namedUpTo = -1;
  for (const e of lexerErrorSpans(text, lexErrors, SETTINGS)) {
    if (e.start < namedUpTo) continue;
    const name = unquotedFieldName(text, e.start, lexed.tokens);
    if (name) {
      namedUpTo = name.end;
      diagnostics.push(
        diag('syntax', `a field name outside [A-Za-z_][A-Za-z0-9_]* is written in backquotes: ${name.fixed}`, name.start, name.end, {
          fixes: [{ title: `Change to ${name.fixed}`, edits: [{ start: name.start, end: name.end, newText: name.fixed }], preferred: true }],
        }),
      );
      continue;
    }
    diagnostics.push(diag('syntax', `unexpected character ${e.shown}`, e.start, e.end));
  }
  const comments: Comment[] = (lexed.groups.comments ?? []).map((t: IToken) => ({
    text: t.image,
    start: t.startOffset,
    end: t.startOffset + t.image.length,
  }));
  const tokens = lexed.tokens;
  lexicalChecks(tokens, diagnostics);
  datasetNameChecks(tokens, diagnostics);
  leadingConnective(tokens, text, diagnostics);

  const file: FileNode = { kind: 'file', comments, start: 0, end: text.length };
  const tooDeep = nestingGuard(tokens);
  if (tooDeep) {
    diagnostics.push(tooDeep);
    return { file, diagnostics: finishSyntaxDiagnostics(diagnostics, MAX_SYNTAX_DIAGNOSTICS), conditions: [] };
  }

  const parser = getParser(tokens.length);
  parser.conditions = [];
  parser.datasetDecl = undefined;
  parser.singleQuoted = [];
  const errors: IRecognitionException[] = [];
  let parsed: ReturnType<typeof parser.file> | undefined;
  // The file is read in rounds: when a round stops early (text the grammar cannot continue with, or the
  // first error of the parser without recovery), the next round starts at the next `and`/`or` or line
  // start after it, so the conditions further down are still parsed and checked.
  let from = 0;
  let datasetDecl: ParsedFile['dataset'];
  for (let round = 0; from < tokens.length && errors.length < parser.maxErrors; round++) {
    parser.input = from === 0 ? tokens : tokens.slice(from);
    let stopped = false;
    try {
      // the same top rule each round, so each stops in the same way; only the first one's tree is kept
      const result = parser.file();
      if (round === 0) parsed = result;
    } catch (e) {
      if (!(e instanceof TooManyErrors)) throw e;
      stopped = true;
    }
    const roundErrors = parser.errors;
    errors.push(...roundErrors);
    if (round === 0) datasetDecl = parser.datasetDecl;
    if (stopped) break;
    const resume = resumeAfter(tokens, text, roundErrors, tokens.length <= RECOVERY_TOKEN_LIMIT);
    if (resume === undefined || resume <= from) break;
    from = resume;
  }
  const conditions = parser.conditions;
  parser.conditions = [];
  parser.datasetDecl = undefined;
  for (const t of parser.singleQuoted) diagnostics.push(singleQuotedValue(t));
  parser.singleQuoted = [];
  // an error caused by missing input points just after the last token, not at the end of the text
  const lastTokenEnd = tokens.length ? tokens[tokens.length - 1].startOffset + tokens[tokens.length - 1].image.length : 0;
  for (const e of errors) {
    const d = toDiagnostic(e, lastTokenEnd, tokens, text);
    // a character the lexer dropped already has its diagnostic; the parser's complaint about what follows
    // it is the same problem seen again, and so is missing input marked just before it (`BotScore == -`: the
    // value the parser found missing is the dropped `-`)
    const found = e.token.tokenType === EOF || Number.isNaN(e.token.startOffset) ? text.length : e.token.startOffset;
    const echo = lexErrors.some((le) => {
      const after = le.offset + Math.max(1, le.length);
      if (after <= d.start) return text.slice(after, d.start).trim() === '';
      return le.offset >= d.start && le.offset < found && text.slice(d.start, le.offset).trim() === '';
    });
    if (!echo) diagnostics.push(d);
  }
  parser.input = [];

  if (datasetDecl) file.dataset = datasetDecl;
  if (parsed?.expr) file.expr = parsed.expr as Expr;
  return { file, diagnostics: finishSyntaxDiagnostics(diagnostics, MAX_SYNTAX_DIAGNOSTICS), conditions };
}


/** Problems inside single tokens: string escapes, unterminated strings and backquoted names, unknown `!x`. */
function lexicalChecks(tokens: IToken[], out: Diagnostic[]): void {
  for (const t of tokens) {
    if (out.length >= MAX_SYNTAX_DIAGNOSTICS) return;
    if (t.tokenType === T.StringLiteral) {
      for (const p of decodeString(t.image).problems) {
        if (p.kind === 'unterminated') {
          out.push(diag('syntax', 'unterminated string: add the closing "', t.startOffset, t.startOffset + t.image.length));
        } else {
          const s = t.startOffset + p.offset;
          out.push(diag('syntax', `invalid escape ${JSON.stringify(t.image.slice(p.offset, p.offset + p.length))}: use \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX`, s, s + p.length));
        }
      }
    } else if (t.tokenType === T.QuotedIdentifier) {
      const end = t.startOffset + t.image.length;
      if (t.image.length < 2 || !t.image.endsWith('`')) out.push(diag('syntax', 'unterminated field name: add the closing `', t.startOffset, end));
      else if (t.image === '``') out.push(diag('syntax', 'empty field name', t.startOffset, end));
    }
  }
}

/**
 * A single-quoted string read as a value (`== 'us'`, each item of `in ['us', 'ca']`): one syntax error over it,
 * whose fix writes it in double quotes. The parser reads it as the string it quotes (parser.ts), so each one is
 * reported and the rest of the filter is still parsed and checked.
 */
function singleQuotedValue(t: IToken): Diagnostic {
  const closed = t.image.length > 1 && t.image.endsWith("'");
  const meant = JSON.stringify(t.image.slice(1, closed ? -1 : undefined));
  const end = t.startOffset + t.image.length;
  return diag('syntax', `strings are written in double quotes, not single quotes: ${meant}`, t.startOffset, end, {
    fixes: [{ title: `Change to '${meant}'`, edits: [{ start: t.startOffset, end, newText: meant }], preferred: true }],
  });
}

/** Tokens that may stand between the braces of a list written in braces: its items and commas. */
const BRACE_LIST_ITEMS: readonly TokenType[] = [T.StringLiteral, T.SingleQuoted, T.IntLiteral, T.FloatLiteral, T.True, T.False, T.Comma];
/** A list shown in full in the message up to this length. */
const MAX_SHOWN_LIST = 40;

/**
 * `ClientCountry in {"us", "ca"}`: a list written in braces, as other languages write sets. The lexer knows no
 * braces, so each one was an unexpected character, and the value between them a scalar with `in`. A `{` where a
 * value goes (after an operator), then only list items and commas, then a `}`, is one syntax error over the
 * braces-list, whose fix writes it in square brackets; the braces are given to the parser as brackets (tokens
 * whose images are still `{` and `}`), so the condition is read and checked as the bracket form is, and what
 * follows it parses as before. Any other brace stays an unexpected character. Returns the lexer errors left.
 */
function braceLists(text: string, tokens: IToken[], errors: ILexingError[], out: Diagnostic[]): ILexingError[] {
  if (errors.length === 0) return errors;
  const image = (e: ILexingError) => text.slice(e.offset, e.offset + Math.max(1, e.length));
  const used = new Set<ILexingError>();
  let at = 0;
  for (let k = 0; k < errors.length; k++) {
    const open = errors[k];
    const seen = image(open);
    if (seen !== '{' && seen !== '{}') continue;
    while (at < tokens.length && tokens[at].startOffset < open.offset) at++;
    const prev = tokens[at - 1];
    if (!prev || !(tokenMatcher(prev, T.OperatorToken) || prev.tokenType === T.BadOperator)) continue;
    // `{}` is one lexer error (the lexer joins adjacent characters it does not know)
    const close = seen === '{}' ? undefined : errors[k + 1];
    if (seen === '{' && (!close || image(close) !== '}')) continue;
    const closeAt = close ? close.offset : open.offset + 1;
    let after = at;
    while (after < tokens.length && tokens[after].startOffset < closeAt && BRACE_LIST_ITEMS.includes(tokens[after].tokenType)) after++;
    if (after < tokens.length && tokens[after].startOffset < closeAt) continue;
    used.add(open);
    if (close) used.add(close);
    tokens.splice(after, 0, createTokenInstance(T.RBracket, '}', closeAt, closeAt, NaN, NaN, NaN, NaN));
    tokens.splice(at, 0, createTokenInstance(T.LBracket, '{', open.offset, open.offset, NaN, NaN, NaN, NaN));
    const end = closeAt + 1;
    const fixed = `[${text.slice(open.offset + 1, closeAt)}]`;
    const shown = fixed.length <= MAX_SHOWN_LIST && !/[\r\n]/.test(fixed) ? fixed : '[…]';
    out.push(
      diag('syntax', `lists are written in square brackets, not braces: ${shown}`, open.offset, end, {
        fixes: [
          {
            title: 'Write the list in square brackets',
            edits: [
              { start: open.offset, end: open.offset + 1, newText: '[' },
              { start: closeAt, end, newText: ']' },
            ],
            preferred: true,
          },
        ],
      }),
    );
    if (close) k++;
  }
  return used.size ? errors.filter((e) => !used.has(e)) : errors;
}

/**
 * `dataset "http_requests"`, `` dataset `x` ``, `dataset 5`: a dataset name is a bare word. One syntax error on
 * the name (the parser consumes it, so nothing else is reported for it); a quoted word gets a fix that unquotes
 * it, and is still read as the dataset's name.
 */
function datasetNameChecks(tokens: IToken[], out: Diagnostic[]): void {
  const t = tokens[0]?.tokenType === T.Dataset ? tokens[1] : undefined;
  if (!t || t.tokenType === T.Identifier) return;
  const quoted = t.tokenType === T.StringLiteral || t.tokenType === T.QuotedIdentifier;
  if (!quoted && t.tokenType !== T.IntLiteral && t.tokenType !== T.FloatLiteral) return;
  const name = datasetNameOf(t);
  // an unterminated string or name already has its diagnostic (lexicalChecks)
  if (quoted && name === undefined) return;
  const end = t.startOffset + t.image.length;
  const fixable = name !== undefined && isIdentifier(name);
  out.push(
    diag('syntax', quoted ? 'a dataset name is written without quotes' : `expected a dataset name, found '${t.image}'`, t.startOffset, end, {
      ...(fixable ? { fixes: [{ title: `Change to '${name}'`, edits: [{ start: t.startOffset, end, newText: name }], preferred: true }] } : {}),
    }),
  );
}

/** Characters that end a would-be field name: white space, punctuation of the grammar, operator symbols. */
const NAME_END = /[\s()[\],"`#'=<>!]/;
const MAX_NAME = 256;
const OPERATOR_AFTER = new RegExp(`^[ \\t]*(?:==|!=|<|>|(?:not[ \\t]+)?(?:${[...new Set(OPERATORS.flatMap((o) => o.words))].filter((w) => !w.startsWith('!')).join('|')})(?![A-Za-z0-9_]))`);

/**
 * `my-field == 1`, `size.bytes > 5`: a field name with a character identifiers cannot hold, where a condition
 * starts and before an operator. Reported once over the whole name with a fix that backquotes it, instead of an
 * unexpected character in the middle of it.
 */
function unquotedFieldName(text: string, at: number, tokens: IToken[]): { start: number; end: number; fixed: string } | undefined {
  // a name is short; the scan is bounded so that a long run of odd characters costs nothing per error
  let start = at;
  while (start > 0 && at - start < MAX_NAME && !NAME_END.test(text[start - 1])) start--;
  let end = at;
  while (end < text.length && end - at < MAX_NAME && !NAME_END.test(text[end])) end++;
  if ((start > 0 && !NAME_END.test(text[start - 1])) || (end < text.length && !NAME_END.test(text[end]))) return undefined;
  const name = text.slice(start, end);
  if (end === start || /^[0-9-]/.test(name) || !OPERATOR_AFTER.test(text.slice(end))) return undefined;
  // where a condition starts: the text's start, or after `(`, `and`, `or`, `not`, or the dataset line
  let prevIndex = -1;
  while (prevIndex + 1 < tokens.length && tokens[prevIndex + 1].startOffset + tokens[prevIndex + 1].image.length <= start) prevIndex++;
  const prev = tokens[prevIndex];
  const startsCondition =
    !prev || [T.LParen, T.And, T.Or, T.Not].includes(prev.tokenType) || (prevIndex === 1 && tokens[0].tokenType === T.Dataset);
  return startsCondition ? { start, end, fixed: `\`${name}\`` } : undefined;
}

function nestingGuard(tokens: IToken[]): Diagnostic | undefined {
  const deep = tooDeepToken(tokens, NESTING, SETTINGS);
  if (!deep) return undefined;
  if (deep.byNot) return tooDeepAt(deep.token, 'not');
  // Point at the first token past the allowed depth of groups, as the checker does.
  let d = 0;
  for (const u of tokens) {
    if (u.tokenType === T.LParen && ++d > MAX_DEPTH) return tooDeepAt(u, 'groups');
    if (u.tokenType === T.RParen) d = Math.max(0, d - 1);
  }
  return tooDeepAt(deep.token, 'groups');
}

function tooDeepAt(u: IToken, what: 'groups' | 'not'): Diagnostic {
  return diag(
    'too-deep',
    what === 'groups' ? `nesting deeper than ${MAX_DEPTH} groups` : `more than ${PARSE_DEPTH_CAP} levels of nesting and chained 'not'`,
    u.startOffset,
    u.startOffset + u.image.length,
  );
}

const TOKEN_DESCRIPTIONS: Partial<Record<string, string>> = {
  Identifier: 'a field name',
  QuotedIdentifier: 'a field name',
  StringLiteral: 'a string',
  IntLiteral: 'a number',
  FloatLiteral: 'a number',
  LParen: "'('",
  RParen: "')'",
  LBracket: "'['",
  RBracket: "']'",
  Comma: "','",
  Operator: 'an operator',
  NotableOperator: 'startsWith, endsWith, contains or in',
  EOF: 'the end of the filter',
};

const RULE_EXPECTATIONS: Partial<Record<string, string>> = {
  // the file rule's only choice is the dataset line's name
  file: 'a dataset name',
  unary: "a condition, 'not' or '('",
  condition: 'a field name',
  operator: `an operator (${OPERATORS.map((o) => o.canonical).filter((s) => !s.startsWith('not ')).join(' ')}, not …)`,
  value: 'a value (a string, a number, true, false or a [list])',
  scalar: 'a string, a number, true or false',
  orExpr: "a condition, 'not' or '('",
  andExpr: "a condition, 'not' or '('",
};

function describeToken(t: IToken): string {
  if (t.tokenType === EOF || Number.isNaN(t.startOffset)) return 'the end of the filter';
  const image = t.image.length > 40 ? `${t.image.slice(0, 37)}...` : t.image;
  return `'${image}'`;
}

/** Tokens a value starts with, and tokens a condition starts with. */
const VALUE_STARTS = [T.StringLiteral, T.IntLiteral, T.FloatLiteral, T.True, T.False, T.LBracket];
const CONDITION_STARTS = [T.LParen, T.Identifier, T.QuotedIdentifier, T.Not, T.BadOperator];

/** What the message adds about the token found, and the word meant, which a quick fix writes instead. */
function hint(t: IToken, next: IToken | undefined, prev?: IToken): { text: string; meant?: string } {
  if (t.tokenType === T.SingleQuoted) {
    const closed = t.image.length > 1 && t.image.endsWith("'");
    const inner = t.image.slice(1, closed ? -1 : undefined);
    // before an operator it is a field name, which other names than identifiers write in backquotes
    if (next && tokenMatcher(next, T.OperatorToken) && !/[`\r\n]/.test(inner) && inner !== '') {
      const field = needsBackquotes(inner) ? `\`${inner}\`` : inner;
      return { text: `; a field name is written bare or in backquotes: ${field}`, meant: field };
    }
    const meant = JSON.stringify(inner);
    return { text: `; strings are written in double quotes: ${meant}`, meant };
  }
  if (t.tokenType === T.Identifier) {
    const lower = t.image.toLowerCase();
    if (T.KEYWORDS.includes(lower) || OPERATORS.some((o) => o.words.includes(lower))) return { text: `; keywords are lower-case: '${lower}'`, meant: lower };
    // the camel-case operator words (startsWith, endsWith) typed in another case
    const word = OPERATORS.flatMap((o) => o.words).find((w) => w.toLowerCase() === lower && !w.startsWith('!'));
    if (word) return { text: `; operator words are case-sensitive: '${word}'`, meant: word };
    if (lower === '&&') return { text: "; write 'and'", meant: 'and' };
    // another tool's operator name (`neq`, `gte`, `equals`) between a field and its value
    const named = OPERATOR_MISSPELLINGS.get(lower);
    if (named && next && VALUE_STARTS.some((v) => tokenMatcher(next, v))) {
      const meant = OPERATOR_BY_NAME.get(named)!.canonical;
      return { text: `; '${t.image}' is not an operator, did you mean '${meant}'?`, meant };
    }
    // `== null`: the language has no null; quoting it would compare with the text "null"
    if (lower === 'null' && prev && (tokenMatcher(prev, T.OperatorToken) || tokenMatcher(prev, T.LBracket) || tokenMatcher(prev, T.Comma))) {
      return { text: '; there is no null: on a line where the field is absent or null, == (and every positive operator) is false and != is true' };
    }
    // a bare word after an operator: a string written without its quotes
    if (prev && tokenMatcher(prev, T.OperatorToken)) {
      const meant = JSON.stringify(t.image);
      return { text: `; strings are written in double quotes: ${meant}`, meant };
    }
  }
  // a keyword or operator word where a field name goes (`in == 1`): docs/language.md says to backquote it
  if (t.tokenType !== T.Identifier && /^[A-Za-z_][A-Za-z0-9_]*$/.test(t.image) && next && tokenMatcher(next, T.OperatorToken)) {
    return { text: `; '${t.image}' is a keyword: write \`${t.image}\` to use it as a field name`, meant: `\`${t.image}\`` };
  }
  // `!field op value`: a negated condition, written with `not`
  if (t.tokenType === T.BadOperator && t.image.length > 1 && t.image.startsWith('!') && next && tokenMatcher(next, T.OperatorToken)) {
    const meant = `not ${t.image.slice(1)}`;
    return { text: `; '!' does not negate a condition, did you mean '${meant}'?`, meant };
  }
  if (t.tokenType === T.BadOperator) {
    // a `!` where a condition starts (before a group, a field or another `not`) negates it, as `not` does;
    // between a field and a value it is the start of `!=`
    const negates = next !== undefined && CONDITION_STARTS.some((c) => tokenMatcher(next, c));
    const fixed: Record<string, string> = { '=': '==', '!': negates ? 'not' : '!=', '&&': 'and', '||': 'or', '<>': '!=' };
    const words = OPERATORS.flatMap((o) => o.words.filter((w) => w.startsWith('!')));
    const near = fixed[t.image] ? [fixed[t.image]] : closest(t.image, words, 1);
    return { text: `; '${t.image}' is not an operator${near.length ? `, did you mean '${near[0]}'?` : ''}`, ...(near.length ? { meant: near[0] } : {}) };
  }
  return { text: '' };
}

/**
 * Where the next round of parsing starts after a round that stopped early: the token after the next `and`
 * or `or`, or the first token of a later line, after the error's token. Undefined when nothing is left.
 */
function resumeAfter(tokens: IToken[], text: string, errors: readonly IRecognitionException[], recovering: boolean): number | undefined {
  // a round stops early at text it cannot continue with (recovery on), or at its first error (recovery off)
  const stop = errors.find((e) => e.name === 'NotAllInputParsedException') ?? (errors.length && !recovering ? errors[0] : undefined);
  if (!stop || stop.token.tokenType === EOF || Number.isNaN(stop.token.startOffset)) return undefined;
  let i = indexAt(tokens, stop.token.startOffset);
  if (i < 0) return undefined;
  for (i++; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.tokenType === T.And || t.tokenType === T.Or) return i + 1;
    const prev = tokens[i - 1];
    if (/[\r\n]/.test(text.slice(prev.startOffset + prev.image.length, t.startOffset))) return i;
  }
  return undefined;
}

/** Index of the token starting at `offset` (tokens are in offset order). */
function indexAt(tokens: IToken[], offset: number): number {
  let lo = 0;
  let hi = tokens.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = tokens[mid].startOffset;
    if (s === offset) return mid;
    if (s < offset) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function toDiagnostic(e: IRecognitionException, lastTokenEnd: number, tokens: IToken[], text: string): Diagnostic {
  const tok = e.token;
  const atEnd = tok.tokenType === EOF || Number.isNaN(tok.startOffset);
  const misCased = atEnd ? undefined : miscasedNot(tokens, indexAt(tokens, tok.startOffset), text);
  if (misCased) {
    // `Not x == 1` reads `Not` as the field and stops at `x`: the error is the keyword's case
    const end = misCased.startOffset + misCased.image.length;
    return diag('syntax', `expected an operator after the field '${misCased.image}', found ${describeToken(tok)}; keywords are lower-case: 'not'`, misCased.startOffset, end, {
      fixes: [{ title: "Change to 'not'", edits: [{ start: misCased.startOffset, end, newText: 'not' }], preferred: true }],
    });
  }
  // Missing input (a value, an operator) followed by a line break is marked where it is missing, just
  // after the line's last token, as at the end of the file, not on the next line's `and`. Text that
  // cannot continue a complete condition (NotAllInputParsed) is marked where it is.
  const before = atEnd ? -1 : indexAt(tokens, tok.startOffset) - 1;
  const prevEnd = before >= 0 ? tokens[before].startOffset + tokens[before].image.length : -1;
  const missing = e.name !== 'NotAllInputParsedException' && prevEnd >= 0 && /[\r\n]/.test(text.slice(prevEnd, tok.startOffset));
  const start = atEnd ? lastTokenEnd : missing ? prevEnd : tok.startOffset;
  const end = atEnd ? lastTokenEnd : missing ? prevEnd : tok.startOffset + tok.image.length;
  const rule = e.context?.ruleStack?.[e.context.ruleStack.length - 1];
  let expected: string | undefined;
  if (e.name === 'MismatchedTokenException') {
    const name = expectedTokenName(e);
    expected = name === undefined ? undefined : TOKEN_DESCRIPTIONS[name] ?? `'${keywordOf(name)}'`;
  } else if (e.name === 'NotAllInputParsedException') {
    expected = "'and', 'or' or the end of the filter";
  }
  expected ??= (rule && RULE_EXPECTATIONS[rule]) || 'something else';
  const at = atEnd ? -1 : indexAt(tokens, tok.startOffset);
  const h = atEnd ? { text: '' } : hint(tok, at >= 0 ? tokens[at + 1] : undefined, at > 0 ? tokens[at - 1] : undefined);
  const tokEnd = atEnd ? end : tok.startOffset + tok.image.length;
  return diag('syntax', `expected ${expected}, found ${describeToken(tok)}${h.text}`, start, end, {
    ...(h.meant ? { fixes: [{ title: `Change to '${h.meant}'`, edits: [{ start: tok.startOffset, end: tokEnd, newText: h.meant }], preferred: true }] } : {}),
  });
}

/**
 * The word before the token at `at` when it is `not` in another case (`Not`, `NOT`) where a condition starts (the
 * filter's first token, or after and/or/(/not or a line break) and the token at `at` could start a condition.
 */
function miscasedNot(tokens: IToken[], at: number, text: string): IToken | undefined {
  const word = at > 0 ? tokens[at - 1] : undefined;
  const tok = tokens[at];
  if (!word || !tok || word.tokenType !== T.Identifier || word.image.toLowerCase() !== 'not' || word.image === 'not') return undefined;
  if (tok.tokenType !== T.Identifier && tok.tokenType !== T.QuotedIdentifier && tok.tokenType !== T.LParen) return undefined;
  const before = at > 1 ? tokens[at - 2] : undefined;
  const starts =
    !before ||
    [T.And, T.Or, T.LParen, T.Not].some((t) => tokenMatcher(before, t)) ||
    /[\r\n]/.test(text.slice(before.startOffset + before.image.length, word.startOffset));
  return starts ? word : undefined;
}

/**
 * A filter that starts with `and`/`or` (after its dataset line): the word is reported with a fix that
 * removes it, and left out of the parse, so the first condition is still read and its field checked.
 */
function leadingConnective(tokens: IToken[], text: string, out: Diagnostic[]): void {
  const at = tokens[0]?.tokenType === T.Dataset ? 2 : 0;
  const t = tokens[at];
  if (!t || (t.tokenType !== T.And && t.tokenType !== T.Or) || (at === 2 && tokens[1]?.tokenType !== T.Identifier)) return;
  const next = tokens[at + 1];
  const end = next && !/[\r\n]/.test(text.slice(t.startOffset + t.image.length, next.startOffset)) ? next.startOffset : t.startOffset + t.image.length;
  out.push(
    diag('syntax', `a filter cannot start with '${t.image}': it joins two conditions`, t.startOffset, t.startOffset + t.image.length, {
      fixes: [{ title: `Remove '${t.image}'`, edits: [{ start: t.startOffset, end, newText: '' }], preferred: true }],
    }),
  );
  tokens.splice(at, 1);
}

function keywordOf(tokenName: string): string {
  return tokenName.startsWith('Kw_') ? tokenName.slice(3) : tokenName;
}

export type { TokenType };

/** A token's span, and whether it is a joining word (`and`/`or`): what a fix that removes a condition needs. */
export interface JoinLexed {
  tokens: { start: number; end: number; join: boolean }[];
  /** Start offsets of the comments. */
  comments: number[];
}

/** The text's tokens as the lexer reads them (a comment saying "and" is no joining word). */
export function lexJoins(text: string): JoinLexed {
  const lexed = T.getLexer().tokenize(text);
  return {
    tokens: lexed.tokens.map((t) => ({ start: t.startOffset, end: t.startOffset + t.image.length, join: tokenMatcher(t, T.And) || tokenMatcher(t, T.Or) })),
    comments: ((lexed.groups.comments ?? []) as IToken[]).map((c) => c.startOffset),
  };
}
