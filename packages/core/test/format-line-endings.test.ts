/** fmt keeps a CRLF document CRLF (the editor's and `logfilter fmt`'s formatting both go through format()). */
import { describe, expect, it } from 'vitest';
import { format, formatEdits, formatRange } from '../src/index.js';

const CRLF = 'dataset http_requests\r\n# hosts\r\nClientRequestHost=="a"  and EdgeResponseStatus>=500\r\n';

describe('line endings', () => {
  it('formats a CRLF document with CRLF only', () => {
    const r = format(CRLF);
    expect(r.ok).toBe(true);
    expect(r.text).toContain('\r\n');
    expect(r.text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(r.text.replace(/\r\n/g, '\n')).toBe(format(CRLF.replace(/\r\n/g, '\n')).text);
    // formatted CRLF text is formatted: nothing to change
    expect(format(r.text).changed).toBe(false);
    expect(formatEdits(r.text).edits).toEqual([]);
  });
  it('keeps LF documents LF, and the editor edits of a CRLF one hold no bare LF', () => {
    expect(format(CRLF.replace(/\r\n/g, '\n')).text).not.toContain('\r');
    for (const e of [...formatEdits(CRLF).edits, ...formatRange(CRLF, 0, CRLF.length).edits]) {
      expect(e.newText.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    }
  });
});
