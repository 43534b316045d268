/**
 * How a field name is written in source (docs/language.md#lexical-rules): the identifier form, the words a
 * field must be backquoted to avoid (the keywords and the operator table's words), and backquoting. The lexer,
 * the printer, the JSON reader, the checker's fixes and completion all use this one definition.
 */
import { OPERATORS } from '../operators.js';

/** The identifier form of a field name, as a pattern source (the lexer builds its token from it). */
export const IDENTIFIER_SOURCE = '[A-Za-z_][A-Za-z0-9_]*';
const WHOLE_IDENTIFIER = new RegExp(`^${IDENTIFIER_SOURCE}$`);

/** Keywords of the language; each is one keyword token of the lexer. */
export const KEYWORDS: readonly string[] = ['dataset', 'and', 'or', 'not', 'true', 'false'];

/** Words that lex as keywords or operators, so a field with such a name must be backquoted. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set<string>([...KEYWORDS, ...OPERATORS.flatMap((o) => o.words)]);

/** True when `name` has the identifier form (it may still be reserved). */
export function isIdentifier(name: string): boolean {
  return WHOLE_IDENTIFIER.test(name);
}

/** True when `name` can only be written between backquotes. */
export function needsBackquotes(name: string): boolean {
  return !WHOLE_IDENTIFIER.test(name) || RESERVED_WORDS.has(name);
}

/** The name a field token spells: a backquoted one without its backquotes (the closing one may be missing). */
export function readField(image: string): string {
  return image.startsWith('`') ? image.slice(1, image.length > 1 && image.endsWith('`') ? -1 : undefined) : image;
}

/** The source spelling of a field name: bare when it can be, else backquoted. */
export function writeField(name: string): string {
  return needsBackquotes(name) ? `\`${name}\`` : name;
}

/**
 * A field name the language can write at all: backquoted names cannot hold a backquote or a line break, and no
 * text file can hold a lone surrogate (UTF-8 would turn it into U+FFFD, a different key).
 */
export function isWritableField(name: string): boolean {
  return name.length > 0 && !/[`\r\n]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(name);
}
