/**
 * The `eval` progress bar on a terminal's stderr. cli-progress hides the cursor while it draws; the cursor is
 * shown again on every way out — the end of the run, an error, Ctrl-C (SIGINT), SIGTERM, or process exit —
 * so an interrupted evaluation never leaves the terminal without a cursor.
 */
import cliProgress from 'cli-progress';

const SHOW_CURSOR = '\u001b[?25h';
/** Inputs at least this large get a progress bar on a terminal. */
export const PROGRESS_MIN_BYTES = 16 << 20;

export interface ProgressBar {
  /** Bytes read so far of the total. */
  update(read: number, total: number | undefined): void;
  /** Removes the bar and shows the cursor; safe to call more than once. */
  stop(): void;
}

export interface ProgressHost {
  /** process.once/off for signals (injected in tests). */
  once(event: 'SIGINT' | 'SIGTERM' | 'exit', listener: () => void): unknown;
  off(event: 'SIGINT' | 'SIGTERM' | 'exit', listener: () => void): unknown;
  /** Ends the process after a signal (with 128 + signal number, as a shell reports it). */
  exit(code: number): void;
}

export function createProgressBar(stream: NodeJS.WritableStream, host: ProgressHost = process as unknown as ProgressHost): ProgressBar {
  let bar: cliProgress.SingleBar | undefined;
  let stopped = false;
  const restore = () => {
    if (stopped) return;
    stopped = true;
    host.off('SIGINT', onInt);
    host.off('SIGTERM', onTerm);
    host.off('exit', restore);
    if (bar) {
      bar.stop();
      // bar.stop() shows the cursor only when the bar is still active; write it ourselves to be sure.
      stream.write(SHOW_CURSOR);
    }
  };
  const onInt = () => {
    restore();
    host.exit(130);
  };
  const onTerm = () => {
    restore();
    host.exit(143);
  };
  return {
    update(read, total) {
      if (stopped || total === undefined || total < PROGRESS_MIN_BYTES) return;
      if (!bar) {
        host.once('SIGINT', onInt);
        host.once('SIGTERM', onTerm);
        host.once('exit', restore);
        bar = new cliProgress.SingleBar(
          { stream, format: 'eval [{bar}] {percentage}% | {value}/{total} MB | {eta}s', clearOnComplete: true, hideCursor: true },
          cliProgress.Presets.shades_classic,
        );
        bar.start(Math.ceil(total / 1048576), 0);
      }
      bar.update(Math.floor(read / 1048576));
    },
    stop: restore,
  };
}
