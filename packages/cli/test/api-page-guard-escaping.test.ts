/**
 * Observed page data is hostile input: CSV cells that a spreadsheet would run as formulas are
 * neutralized as OWASP's CSV-injection guidance says, in `page-guard … --csv` and in the emulator's
 * `export=csv` (one test per prefix: =, +, -, @, tab, CR), and control characters are escaped in the tables
 * and fields printed on a terminal. Real HTTP against the emulator.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { CSV_COLUMNS, csvCell } from '@logfilter/api';
import { logfilter } from './api-harness.js';
import { fixture, hexId } from '../../../test/support/page-guard.js';
import { terminalSafe } from '../src/api/table.js';

const TOKEN = 'cli-escaping-token';
let emu: RunningEmulator;
let env: Record<string, string>;

/** A hostile value per formula prefix (OWASP: =, +, -, @, tab 0x09, carriage return 0x0D). */
const HOSTILE: [string, string][] = [
  ['=', '=HYPERLINK("https://evil.test","x")'],
  ['+', '+cmd|\' /C calc\'!A0'],
  ['-', '-2+3+cmd|\' /C calc\'!A0'],
  ['@', '@SUM(1+1)*cmd|\' /C calc\'!A0'],
  ['tab', '\t=1+1'],
  ['CR', '\r=1+1'],
];
/** Terminal attacks: OSC title, clear screen, OSC 8 link, an embedded line break, a C1 CSI. */
const TERMINAL = ['\x1b]0;pwned\x07', '\x1b[2J\x1b[H', '\x1b]8;;https://evil.test\x1b\\click\x1b]8;;\x1b\\', 'a\nFAKE ROW', '\x9b31m'];

beforeAll(async () => {
  const doc = fixture({
    hostile: {
      cookies: [...HOSTILE, ...TERMINAL.map((t, i) => [`t${i}`, t] as [string, string])].map(([, name], i) => ({ id: hexId(5, i), name, host: 'shop.test', type: 'first_party' })),
      scripts: TERMINAL.map((t, i) => ({ id: hexId(6, i), url: `https://cdn.test/${t}.js`, host: `h${t}`, js_integrity_score: 10 })),
    },
  });
  emu = await startEmulator({ tokens: [TOKEN], fixture: doc });
  env = { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: TOKEN };
});
afterAll(() => emu.close());

/** The `name` cell of each cookie row of a CSV with the cookies' columns (cells may be quoted, holding CR/LF). */
function nameCells(csv: string): string[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const ch = csv[i]!;
    if (quoted) {
      if (ch === '"' && csv[i + 1] === '"') (cell += '"'), i++;
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(cell), (cell = '');
    else if (ch === '\n') row.push(cell), rows.push(row), (row = []), (cell = '');
    else cell += ch;
  }
  const at = CSV_COLUMNS.cookies.indexOf('name');
  return rows.slice(1).map((r) => r[at]!);
}

describe('CSV formula injection (OWASP): a quote before each formula prefix', () => {
  it.each(HOSTILE)('prefix %s: csvCell writes the value as text', (_, value) => {
    expect(csvCell(value)).toBe(`'${value}`);
  });

  it('plain numbers, empty and harmless values are unchanged', () => {
    for (const v of ['-5', '+3.5', '', 'shop', 'a=b', '10']) expect(csvCell(v)).toBe(v);
    expect(csvCell(['=x', 'y'])).toBe("'=x|y");
  });

  it.each(HOSTILE)("prefix %s: page-guard cookies --csv and the emulator's export=csv both neutralize it", async (_, value) => {
    const cli = await logfilter(['page-guard', 'cookies', '--zone', 'hostile', '--csv', '--all'], env);
    expect(cli.code, cli.stderr).toBe(0);
    expect(nameCells(cli.stdout)).toContain(`'${value}`);
    expect(nameCells(cli.stdout)).not.toContain(value);
    const res = await fetch(`${emu.url}/zones/hostile/page_guard/cookies?export=csv`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(nameCells(body)).toContain(`'${value}`);
    expect(nameCells(body)).not.toContain(value);
  });
});

describe('terminal output: control characters from observed data are escaped', () => {
  it('terminalSafe leaves no control character', () => {
    for (const t of TERMINAL) expect(terminalSafe(t)).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    expect(terminalSafe('a\nb\tc\x1b')).toBe('a\\nb\\tc\\x1b');
    expect(terminalSafe('https://shop.test/ä?x=1')).toBe('https://shop.test/ä?x=1');
  });

  it('tables of cookies and scripts, one script shown and policy suggest: no ESC, BEL, C1 or stray line break from the data', async () => {
    for (const args of [['cookies'], ['scripts'], ['script', hexId(6, 0)], ['policy', 'suggest']]) {
      const r = await logfilter(['page-guard', ...args, '--zone', 'hostile'], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
      expect(r.stdout).not.toMatch(/^FAKE ROW/m);
    }
  });
});
