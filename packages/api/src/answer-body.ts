/**
 * Reads an answer's body with a bound on its size. Response.text() reads whatever comes: a server (or a proxy)
 * sending an endless or huge body held it all in memory until the timeout (2 GB of body, 2 GB of RSS). No real
 * answer of the API comes near DEFAULT_MAX_ANSWER_BYTES (the largest, a page of 1000 rules or a page monitoring
 * CSV export, are a few MB), so past it the answer is not one: a Content-Length over the limit is refused before
 * the body is read, and a body that grows past it is cut off as it streams (ApiAnswerTooLargeError).
 */
import { ApiAnswerTooLargeError } from './errors.js';

/** 64 MiB: the default of the client's `maxAnswerBytes`. */
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** The largest `maxAnswerBytes`: a body past 256 MiB would come near what one JavaScript string can hold. */
export const MAX_ANSWER_BYTES_LIMIT = 256 * 1024 * 1024;

/** The body as text (UTF-8, as Response.text() decodes it), or ApiAnswerTooLargeError once it passes `limit` bytes. */
export async function readAnswer(res: Response, limit: number, method: string, path: string): Promise<string> {
  const declared = res.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) {
    cancel(res.body?.cancel());
    throw new ApiAnswerTooLargeError(method, path, res.status, limit, Number(declared));
  }
  if (res.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      cancel(reader.cancel());
      throw new ApiAnswerTooLargeError(method, path, res.status, limit);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks, size));
}

/**
 * A cancel, not waited for: the body of a response a fetch wrapper has cloned (a logger reading its copy) is one
 * branch of a tee, whose cancel settles only when the other branch is done too, which may be never.
 */
function cancel(p: Promise<void> | undefined): void {
  p?.catch(() => undefined);
}
