/**
 * The LSP lifecycle (3.17, "Server lifecycle"), kept as the connection's message strategy around the params
 * check (request-params.ts): before `initialize`, a request is answered -32002 (ServerNotInitialized) and a
 * notification is dropped, `exit` excepted; after `shutdown`, a request is answered -32600 (InvalidRequest).
 * vscode-languageserver does neither: the handlers ran before the settings and capabilities were known, and
 * after shutdown on a disposed task runner.
 */
import { ErrorCodes, type MessageStrategy, type RequestMessage } from 'vscode-languageserver/node.js';
import { badParams, checkedParams, isNotification, isRequest } from './request-params.js';

/** The request a refused one is handed on as, answered by server.ts with the error it carries, under its own id. */
export const REFUSED_METHOD = '$/logfilter/refused';
export interface Refused {
  code: number;
  message: string;
}

/** A fresh strategy per connection (each holds the state of its own session). */
export function lifecycleStrategy(): MessageStrategy {
  let state: 'new' | 'running' | 'shut down' = 'new';
  return {
    handleMessage(message, next) {
      // a request with bad params is answered -32602 whatever the state (request-params.ts)
      if (isRequest(message) && badParams(message.method, message.params) === undefined) {
        const refused: Refused | undefined =
          state === 'new' && message.method !== 'initialize' ? { code: ErrorCodes.ServerNotInitialized, message: `${message.method}: the server is not initialized` }
          : state === 'shut down' ? { code: ErrorCodes.InvalidRequest, message: `${message.method}: the server is shut down` }
          : undefined;
        if (refused) return next({ ...message, method: REFUSED_METHOD, params: refused } as RequestMessage);
        if (message.method === 'initialize') state = 'running';
        else if (message.method === 'shutdown') state = 'shut down';
      } else if (isNotification(message) && state === 'new' && message.method !== 'exit') return;
      checkedParams.handleMessage(message, next);
    },
  };
}
