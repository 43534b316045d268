/**
 * Every handler runs inside a guard: an internal error is logged and answered as an LSP error, and the
 * server keeps going. Cancelled requests are answered as cancelled without doing the work.
 */
import { ErrorCodes, LSPErrorCodes, ResponseError, type CancellationToken, type Connection } from 'vscode-languageserver/node.js';

export function guard<P, R>(
  connection: Connection,
  name: string,
  handler: (params: P, token: CancellationToken) => R | Promise<R>,
): (params: P, token: CancellationToken) => Promise<R | ResponseError<void>> {
  return async (params, token) => {
    if (token?.isCancellationRequested) return new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
    try {
      const result = await handler(params, token);
      if (token?.isCancellationRequested) return new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
      return result;
    } catch (e) {
      if (e instanceof ResponseError) return e;
      const message = e instanceof Error ? e.message : String(e);
      connection.console.error(`${name} failed: ${e instanceof Error ? e.stack ?? message : message}`);
      return new ResponseError(ErrorCodes.InternalError, `${name} failed: ${message}`);
    }
  };
}

/** For notifications: log and carry on. */
export function guardNotification<P>(connection: Connection, name: string, handler: (params: P) => unknown): (params: P) => void {
  return (params) => {
    try {
      const r = handler(params);
      if (r instanceof Promise) r.catch((e: unknown) => connection.console.error(`${name} failed: ${String(e instanceof Error ? e.stack : e)}`));
    } catch (e) {
      connection.console.error(`${name} failed: ${String(e instanceof Error ? e.stack : e)}`);
    }
  };
}
