/** `logfilter rules eval`: an expression against sample requests, offline. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-rules-eval-'));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

const requests = file(
  'requests.ndjson',
  [
    JSON.stringify({ 'http.host': 'shop.example', 'ip.src': '192.0.2.10', 'http.request.uri.path': '/checkout', 'http.request.headers': { 'user-agent': ['curl/8'] } }),
    JSON.stringify({ 'http.host': 'shop.example', 'ip.src': '198.51.100.7', 'http.request.uri.path': '/' }),
  ].join('\n') + '\n',
);

describe('logfilter rules eval', () => {
  it('prints match or no match per request; exit 0', async () => {
    const r = await runCli('logfilter', ['rules', 'eval', 'http.request.uri.path eq "/checkout" and ip.src in {192.0.2.0/24}', '--request', requests]);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'request 1: match\nrequest 2: no match\n', '']);
  });

  it('--json: one object a line with "matched"; --explain adds the sub-expressions', async () => {
    const r = await runCli('logfilter', ['rules', 'eval', 'any(http.request.headers["user-agent"][*] contains "curl")', '--request', requests, '--json', '--explain']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.request, l.matched])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(lines[0].explain.at(-1)).toEqual({ text: 'any(http.request.headers["user-agent"][*] contains "curl")', value: 'true' });
    // request 2 has no user-agent header: [*] over the absent key is missing, not an empty array
    expect(lines[1].explain[0]).toEqual({ text: 'http.request.headers["user-agent"][*]', value: '(missing)' });
  });

  it('reads the expression from a .rule file, requests from a JSON array or one object, named lists from --lists', async () => {
    const rule = file('office.rule', 'ip.src in $office\n');
    const lists = file('lists.json', JSON.stringify({ office: ['192.0.2.0/24'] }));
    const arr = file('requests.json', JSON.stringify([{ 'ip.src': '192.0.2.1' }, { 'ip.src': '10.0.0.1' }]));
    const r = await runCli('logfilter', ['rules', 'eval', rule, '--request', arr, '--lists', lists]);
    expect([r.code, r.stdout]).toEqual([0, 'request 1: match\nrequest 2: no match\n']);
    const one = await runCli('logfilter', ['rules', 'eval', 'ssl', '--request', '-'], { stdin: '{"ssl": true}' });
    expect([one.code, one.stdout]).toEqual([0, 'request 1: match\n']);
  });

  it('a value expression prints its value', async () => {
    const r = await runCli('logfilter', ['rules', 'eval', '--kind', 'value', 'regex_replace(http.request.uri.path, "^/foo/([^/]*)/(.*)$", "/bar/${2}/${1}")', '--request', '-'], { stdin: '{"http.request.uri.path": "/foo/a/path"}' });
    expect([r.code, r.stdout]).toEqual([0, 'request 1: "/bar/path/a"\n']);
  });

  it('exit 1 with the diagnostics when the expression does not check or cannot be evaluated', async () => {
    const bad = await runCli('logfilter', ['rules', 'eval', 'http.hots eq "a"', '--request', requests]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('expression:1:1: error rule-unknown-identifier');
    const list = await runCli('logfilter', ['rules', 'eval', 'ip.src in $nope', '--request', requests, '--diagnostics', 'json']);
    expect(list.code).toBe(1);
    expect(JSON.parse(list.stderr)[0].code).toBe('rule-eval');
  });

  it('exit 2 for an unusable request, naming the line and the field', async () => {
    const unknown = await runCli('logfilter', ['rules', 'eval', 'ssl', '--request', '-'], { stdin: '{"ssl": true}\n{"http.hots": "a"}\n' });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('<stdin>:2: unknown field "http.hots"');
    const type = await runCli('logfilter', ['rules', 'eval', 'ssl', '--request', '-'], { stdin: '{"ip.src": 5}' });
    expect(type.code).toBe(2);
    expect(type.stderr).toContain('field ip.src');
    const broken = await runCli('logfilter', ['rules', 'eval', 'ssl', '--request', '-'], { stdin: '{"ssl": tr\n' });
    expect(broken.code).toBe(2);
  });
});

describe('the example of docs/rules-language.md', () => {
  it('runs as written and prints what the page says', async () => {
    const doc = readFileSync(new URL('../../../docs/rules-language.md', import.meta.url), 'utf8');
    const block = /## Testing a rule[\s\S]*?```sh\n([\s\S]*?)```/.exec(doc)![1]!;
    const m = /^echo '(.*)' \|\n\s+logfilter (.*)$/m.exec(block.trim())!;
    const args = [...m[2]!.matchAll(/'([^']*)'|(\S+)/g)].map((x) => x[1] ?? x[2]!);
    const r = await runCli('logfilter', args, { stdin: m[1]! });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('request 1: match');
    expect(r.stdout).toContain('http.request.headers["user-agent"][*]  =>  ["curl/8.5"]');
  });
});

describe('the rules eval line of the README', () => {
  it('prints what the README shows', async () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const m = /^\$ echo '(.*)' \| logfilter (rules eval .*)\n(.*)$/m.exec(readme)!;
    const args = [...m[2]!.matchAll(/'([^']*)'|(\S+)/g)].map((x) => x[1] ?? x[2]!);
    const r = await runCli('logfilter', args, { stdin: m[1]! });
    expect([r.code, r.stdout]).toEqual([0, `${m[3]}\n`]);
  });
});
