/** The READMEs stay true to the page monitoring tables: every parameter, CSP code, keyword, action, column and error code is documented. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CSP_DIAGNOSTIC_CODES, CSP_KEYWORDS, CSV_COLUMNS, LIST_PARAMETERS, POLICY_ACTIONS, STATUSES } from '@logfilter/api';
import { ERROR_CODES } from '@logfilter/emulator';

const read = (p: string) => readFileSync(new URL(p, import.meta.url), 'utf8');
const apiReadme = read('../README.md');
const emulatorReadme = read('../../emulator/README.md');
const cliReadme = read('../../cli/README.md');

describe('page monitoring docs', () => {
  it('the client README names every list parameter with the resources that take it, every status and action', () => {
    for (const p of LIST_PARAMETERS) expect(apiReadme).toContain(`\`${p.name}\``);
    for (const s of STATUSES) expect(apiReadme).toContain(`\`${s}\``);
    for (const a of POLICY_ACTIONS) expect(apiReadme).toContain(`\`${a}\``);
  });

  it('the client README names every CSP diagnostic code; the table names every keyword', () => {
    for (const c of CSP_DIAGNOSTIC_CODES) expect(apiReadme).toContain(`\`${c}\``);
    expect(apiReadme).toContain('CSP_KEYWORDS');
    expect(Object.keys(CSP_KEYWORDS)).toEqual(expect.arrayContaining(['self', 'none', 'unsafe-inline', 'unsafe-eval']));
  });

  it('the emulator README lists the CSV columns in order and every page monitoring error code', () => {
    const flat = emulatorReadme.replace(/\s+/g, ' ');
    for (const [resource, columns] of Object.entries(CSV_COLUMNS)) expect(flat).toContain(`${resource}: \`${columns.join(', ')}\``);
    for (const name of ['pageGuardParameter', 'scriptNotFound', 'connectionNotFound', 'cookieNotFound', 'policyNotFound', 'policyInvalid', 'policyValueInvalid', 'settingsInvalid'] as const) {
      expect(emulatorReadme).toContain(`| ${ERROR_CODES[name]} |`);
    }
  });

  it('the CLI README documents every page-guard command', () => {
    for (const c of ['status|enable|disable', 'scripts', 'script ID', 'connections', 'connection ID', 'cookies', 'cookie ID', 'policies create', 'policies update', 'policy suggest', 'policy check']) {
      expect(cliReadme).toContain(`logfilter page-guard ${c}`);
    }
  });
});
