/** The progress bar shows the cursor again on every way out: stop, Ctrl-C, SIGTERM, exit. */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createProgressBar, PROGRESS_MIN_BYTES, type ProgressHost } from '../../src/eval/progress-bar.js';

const HIDE = '\u001b[?25l';
const SHOW = '\u001b[?25h';

function setup() {
  const written: string[] = [];
  const stream = Object.assign(new EventEmitter(), { isTTY: true, columns: 80, write: (s: string) => (written.push(String(s)), true), cursorTo() {}, clearLine() {}, moveCursor() {} });
  const events = new EventEmitter();
  const exits: number[] = [];
  const host: ProgressHost = {
    once: (e, l) => events.once(e, l),
    off: (e, l) => events.off(e, l),
    exit: (code) => void exits.push(code),
  };
  const bar = createProgressBar(stream as unknown as NodeJS.WritableStream, host);
  const text = () => written.join('');
  const cursorShown = () => text().lastIndexOf(SHOW) > text().lastIndexOf(HIDE);
  return { bar, events, exits, text, cursorShown };
}

describe('eval progress bar', () => {
  it('draws nothing for small inputs', () => {
    const s = setup();
    s.bar.update(10, 1000);
    expect(s.text()).toBe('');
    expect(s.events.listenerCount('SIGINT')).toBe(0);
  });

  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`shows the cursor again and exits ${code} on ${signal}`, () => {
      const s = setup();
      s.bar.update(1 << 20, PROGRESS_MIN_BYTES * 2);
      expect(s.text()).toContain(HIDE);
      expect(s.cursorShown()).toBe(false);
      s.events.emit(signal);
      expect(s.cursorShown()).toBe(true);
      expect(s.exits).toEqual([code]);
      expect(s.events.listenerCount('SIGINT') + s.events.listenerCount('SIGTERM') + s.events.listenerCount('exit')).toBe(0);
    });
  }

  it('shows the cursor on stop and on process exit, and unhooks itself', () => {
    const a = setup();
    a.bar.update(1 << 20, PROGRESS_MIN_BYTES * 2);
    a.bar.stop();
    expect(a.cursorShown()).toBe(true);
    expect(a.events.listenerCount('SIGINT')).toBe(0);
    const b = setup();
    b.bar.update(1 << 20, PROGRESS_MIN_BYTES * 2);
    b.events.emit('exit');
    expect(b.cursorShown()).toBe(true);
    expect(b.exits).toEqual([]);
  });
});
