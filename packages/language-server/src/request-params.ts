/**
 * The params each request the server answers must have, checked before any handler runs. JSON-RPC answers bad
 * params with -32602 (InvalidParams); without this check a request whose `params` is null, a string or an
 * object missing `textDocument` or `position` reached vscode-languageserver's own wrappers (which read
 * `params.workDoneToken` or `params.processId`) or the handlers, and was answered -32603 with a TypeError's
 * text. The answer names the first bad member as a path (`params.position.line`), in its message and its data.
 *
 * The shapes are LSP 3.17's required members (and the optional ones the server reads, when present); members the
 * server never reads are not checked. A few hand-written shapes rather than a JSON Schema validator: the
 * server's bundle carries no schema compiler, and its start-up time is measured (startup-trace.ts).
 *
 * The check runs as the connection's message strategy (`checkedParams`): a request that fails it is handed on as
 * INVALID_PARAMS_METHOD, whose one handler answers the error under the request's own id; a document
 * notification that fails it (NOTIFICATION_PARAMS) is handed on as DROPPED_NOTIFICATION_METHOD, which is logged.
 */
import type { Message, MessageStrategy, NotificationMessage, RequestMessage } from 'vscode-languageserver/node.js';
import { COMPILE_METHOD, DECOMPILE_METHOD } from './protocol.js';

type Shape =
  | 'string'
  | 'uinteger'
  | 'integer'
  | 'boolean'
  | 'array'
  | 'object'
  | { nullable: Shape }
  | { items: Shape }
  | { members: Record<string, Shape>; optional?: Record<string, Shape> };

const uri: Shape = { members: { uri: 'string' } };
const position: Shape = { members: { line: 'uinteger', character: 'uinteger' } };
const range: Shape = { members: { start: position, end: position } };
const formattingOptions: Shape = { members: { tabSize: 'uinteger', insertSpaces: 'boolean' } };

/** Method → the shape of its params. Requests not listed (shutdown, unknown methods) are not checked here. */
export const REQUEST_PARAMS: Readonly<Record<string, Shape>> = {
  initialize: { members: {}, optional: { processId: { nullable: 'integer' }, capabilities: 'object', rootUri: { nullable: 'string' } } },
  'textDocument/completion': {
    members: { textDocument: uri, position },
    optional: { context: { members: { triggerKind: 'integer' }, optional: { triggerCharacter: 'string' } } },
  },
  'textDocument/hover': { members: { textDocument: uri, position } },
  'textDocument/formatting': { members: { textDocument: uri, options: formattingOptions } },
  'textDocument/rangeFormatting': { members: { textDocument: uri, range, options: formattingOptions } },
  'textDocument/foldingRange': { members: { textDocument: uri } },
  'textDocument/semanticTokens/full': { members: { textDocument: uri } },
  'textDocument/codeAction': {
    members: { textDocument: uri, range, context: { members: { diagnostics: 'array' }, optional: { only: 'array' } } },
  },
  'textDocument/codeLens': { members: { textDocument: uri } },
  [COMPILE_METHOD]: { members: { textDocument: uri } },
  [DECOMPILE_METHOD]: { members: { text: 'string' }, optional: { dataset: { nullable: 'string' } } },
};

/**
 * The document notifications, checked the same way: one that does not fit is dropped whole (and logged), so a
 * document is never opened with text that is not a string, nor left half-changed by a change list that fails
 * part-way (vscode-languageserver-textdocument applies the changes one by one, in place).
 */
export const NOTIFICATION_PARAMS: Readonly<Record<string, Shape>> = {
  'textDocument/didOpen': { members: { textDocument: { members: { uri: 'string', languageId: 'string', version: 'integer', text: 'string' } } } },
  'textDocument/didChange': {
    members: { textDocument: { members: { uri: 'string', version: 'integer' } }, contentChanges: { items: { members: { text: 'string' }, optional: { range } } } },
  },
  'textDocument/didClose': { members: { textDocument: uri } },
};

const EXPECTED: Record<string, string> = {
  string: 'a string',
  uinteger: 'a non-negative integer',
  integer: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first member of `value` that does not fit `shape`, and what was wrong with it. */
function fits(shape: Shape, value: unknown, member: string): BadMember | undefined {
  if (typeof shape === 'object' && 'nullable' in shape) return value === null ? undefined : fits(shape.nullable, value, member);
  if (typeof shape === 'object' && 'items' in shape) {
    if (!Array.isArray(value)) return { member, problem: `expected an array, got ${kindOf(value)}` };
    for (const [i, item] of value.entries()) {
      const bad = fits(shape.items, item, `${member}[${i}]`);
      if (bad) return bad;
    }
    return undefined;
  }
  if (typeof shape === 'object') {
    if (!isObject(value)) return { member, problem: `expected an object, got ${kindOf(value)}` };
    for (const [name, inner] of Object.entries(shape.members)) {
      if (value[name] === undefined) return { member: `${member}.${name}`, problem: 'missing' };
      const bad = fits(inner, value[name], `${member}.${name}`);
      if (bad) return bad;
    }
    for (const [name, inner] of Object.entries(shape.optional ?? {})) {
      if (value[name] === undefined) continue;
      const bad = fits(inner, value[name], `${member}.${name}`);
      if (bad) return bad;
    }
    return undefined;
  }
  const ok =
    shape === 'string' ? typeof value === 'string'
    : shape === 'boolean' ? typeof value === 'boolean'
    : shape === 'array' ? Array.isArray(value)
    : shape === 'object' ? isObject(value)
    : shape === 'integer' ? Number.isInteger(value)
    : Number.isInteger(value) && (value as number) >= 0;
  return ok ? undefined : { member, problem: `expected ${EXPECTED[shape]}, got ${kindOf(value)}` };
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'number' ? `the number ${v}` : `a ${typeof v}`;
}

/** A member that does not fit, as a path from `params` (`params.position.line`), and what is wrong with it. */
export interface BadMember {
  member: string;
  problem: string;
}

/** The first bad member of a request's or notification's params; undefined when they fit (or the method is not listed). */
export function badParams(method: string, params: unknown): BadMember | undefined {
  const shape = REQUEST_PARAMS[method] ?? NOTIFICATION_PARAMS[method];
  return shape === undefined ? undefined : fits(shape, params, 'params');
}

/**
 * The request a failed check is handed on as, answered by server.ts with -32602, the message
 * `<method>: <member>: <problem>` and the data `{ member }` (for clients that act on it).
 */
export const INVALID_PARAMS_METHOD = '$/logfilter/invalidParams';
export interface InvalidParams extends BadMember {
  method: string;
}

/** The notification a dropped one is handed on as, logged by server.ts. */
export const DROPPED_NOTIFICATION_METHOD = '$/logfilter/droppedNotification';

export const isRequest = (m: Message): m is RequestMessage => typeof (m as RequestMessage).method === 'string' && (m as RequestMessage).id !== undefined;
export const isNotification = (m: Message): m is NotificationMessage => typeof (m as NotificationMessage).method === 'string' && (m as RequestMessage).id === undefined;

/** The params check of every request and notification before it is dispatched, run by the connection's message strategy (lifecycle.ts). */
export const checkedParams: MessageStrategy = {
  handleMessage(message, next) {
    if (isRequest(message)) {
      const bad = badParams(message.method, message.params);
      if (bad !== undefined) {
        const invalid: InvalidParams = { method: message.method, ...bad };
        return next({ ...message, method: INVALID_PARAMS_METHOD, params: invalid } as RequestMessage);
      }
    } else if (isNotification(message)) {
      const bad = badParams(message.method, message.params);
      if (bad !== undefined) {
        const dropped: InvalidParams = { method: message.method, ...bad };
        return next({ jsonrpc: message.jsonrpc, method: DROPPED_NOTIFICATION_METHOD, params: dropped } as NotificationMessage);
      }
    }
    next(message);
  },
};
