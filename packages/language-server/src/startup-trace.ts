/**
 * A start-up timeline, written only when LOGFILTER_STARTUP_TRACE names a file (the editor end-to-end suite
 * sets it to break a cold open down into its steps). The extension host, the language server and the test
 * driver each append one JSON line per event: `{"event","at","pid"}`, `at` in wall-clock milliseconds
 * (performance.timeOrigin + now) so that the lines of different processes line up on one time axis.
 */
import { appendFileSync } from 'node:fs';

const file = process.env.LOGFILTER_STARTUP_TRACE;

/** Appends one event; `at` defaults to now. A trace never breaks start-up: a write that fails is dropped. */
export function traceStartup(event: string, at: number = performance.timeOrigin + performance.now()): void {
  if (!file) return;
  try {
    appendFileSync(file, `${JSON.stringify({ event, at: Math.round(at * 10) / 10, pid: process.pid })}\n`);
  } catch {
    /* an unwritable trace file must not stop the server or the extension */
  }
}

/** When this process started (node's time origin): before node itself booted and loaded any code. */
export function traceProcessStart(event: string): void {
  traceStartup(event, performance.timeOrigin);
}

/** Whether a trace is being written (LOGFILTER_STARTUP_TRACE is set). */
export function tracing(): boolean {
  return Boolean(file);
}
