// Static checks of the extension manifest and its contributed files: names the issue fixes, activation only
// for logfilter files and commands, settings the server reads, and contributions that point at real files.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ANY_DATASET, DATASETS, DEFAULT_DATASET, PHASES, format, formatRule } from '@logfilter/core';

const PKG = fileURLToPath(new URL('../', import.meta.url));
const REPO = path.resolve(PKG, '../..');
const read = (rel: string) => readFileSync(path.join(PKG, rel), 'utf8');
const manifest = JSON.parse(read('package.json'));
const contributes = manifest.contributes;

describe('extension manifest', () => {
  it('keeps the package identity and engine', () => {
    expect(manifest.name).toBe('logfilter-vscode');
    expect(manifest.publisher).toBeTruthy();
    expect(manifest.engines.vscode).toBe('^1.90.0');
    expect(manifest.main).toBe('./dist/extension.js');
    expect(manifest.scripts.build).toBeTruthy();
    expect(manifest.scripts.package).toMatch(/vsce package/);
  });

  it('contributes the four commands with the titles of the issue', () => {
    const titles = Object.fromEntries(contributes.commands.map((c: { command: string; category?: string; title: string }) => [c.command, `${c.category}: ${c.title}`]));
    expect(titles).toEqual({
      'logfilter.showCompiledJson': 'Logfilter: Show Compiled JSON',
      'logfilter.copyAsJobFilterString': 'Logfilter: Copy as Job Filter String',
      'logfilter.importFromJson': 'Logfilter: Import Filter from JSON',
      'logfilter.evaluateAgainstLogFile': 'Logfilter: Evaluate Against Log File...',
    });
  });

  it('activates on its languages alone (no workspace search at start-up; VS Code >= 1.74 activates on contributed commands by itself)', () => {
    expect([...manifest.activationEvents].sort()).toEqual(['onLanguage:logfilter', 'onLanguage:logfilter-rules']);
    expect(manifest.engines.vscode).toBe('^1.90.0');
  });

  it('contributes the logfilter language with its configuration and grammar (no static snippets: the server offers its templates where a condition starts)', () => {
    expect(contributes.languages).toEqual([
      expect.objectContaining({ id: 'logfilter', extensions: ['.logfilter'], configuration: './language-configuration.json' }),
      expect.objectContaining({ id: 'logfilter-rules', extensions: ['.rule'], configuration: './rules-language-configuration.json' }),
    ]);
    const [grammar, rulesGrammar] = contributes.grammars;
    const rulesSource = JSON.parse(readFileSync(path.join(REPO, 'grammars/logfilter-rules.tmLanguage.json'), 'utf8'));
    expect(rulesGrammar).toEqual({ language: 'logfilter-rules', scopeName: rulesSource.scopeName, path: './dist/logfilter-rules.tmLanguage.json' });
    expect(read('scripts/build.mjs')).toContain("'grammars/logfilter-rules.tmLanguage.json'");
    expect(JSON.parse(read('rules-language-configuration.json')).brackets).toContainEqual(['{', '}']);
    const source = JSON.parse(readFileSync(path.join(REPO, 'grammars/logfilter.tmLanguage.json'), 'utf8'));
    expect(grammar).toEqual({ language: 'logfilter', scopeName: source.scopeName, path: './dist/logfilter.tmLanguage.json' });
    expect(read('scripts/build.mjs')).toContain("'grammars/logfilter.tmLanguage.json'");
    expect(contributes.snippets).toBeUndefined();
  });

  it('turns off word-based suggestions for every language of the extension and indents as the formatter does', () => {
    // only the server's items in completion (no `com`, `example` from the text); Enter after `(` indents 2
    const typing = { 'editor.wordBasedSuggestions': 'off', 'editor.acceptSuggestionOnEnter': 'smart', 'editor.quickSuggestions': { other: 'on', comments: 'off', strings: 'off' } };
    expect(contributes.configurationDefaults['[logfilter]']).toEqual({ ...typing, 'editor.tabSize': 2, 'editor.insertSpaces': true });
    // Enter accepts an item only when it changes the text (an exact match typed makes a new line); no popup in strings
    for (const language of contributes.languages as { id: string }[]) expect(contributes.configurationDefaults[`[${language.id}]`], language.id).toMatchObject(typing);
  });

  it('indents every language with spaces, as many as its formatter does (Enter after `(` matches Format Document)', () => {
    const filter = format('(ClientRequestHost == "a-rather-long-host-name-for-one-line.example.com" and ClientRequestPath contains "/a/rather/long/path/prefix") or EdgeResponseStatus >= 500').text;
    const rules = formatRule('(http.host eq "a-rather-long-host-name-for-one-line.example.com" and http.request.uri.path contains "/a/rather/long/path/prefix") or ssl').text;
    const indent = (text: string) => Math.min(...text.split('\n').filter((l) => /^ +\S/.test(l)).map((l) => /^ */.exec(l)![0].length));
    const formatterIndent: Record<string, number> = { logfilter: indent(filter), 'logfilter-rules': indent(rules) };
    for (const language of contributes.languages as { id: string }[]) {
      expect(formatterIndent[language.id], language.id).toBeGreaterThan(0);
      expect(contributes.configurationDefaults[`[${language.id}]`], language.id).toMatchObject({ 'editor.tabSize': formatterIndent[language.id], 'editor.insertSpaces': true });
    }
  });

  it('contributes the filter document schema for *.filter.json files', () => {
    expect(contributes.jsonValidation).toEqual([{ fileMatch: '*.filter.json', url: './dist/filter.schema.json' }]);
  });

  it('has the settings the language server reads, with the core defaults', () => {
    const props = contributes.configuration.properties;
    expect(Object.keys(props).sort()).toEqual(['logfilter.dataset', 'logfilter.defaultPhase', 'logfilter.maxBytes', 'logfilter.maxOperators', 'logfilter.sampleLogFile', 'logfilter.sampleRequestFile']);
    // the rules' default phase: empty (none) or one of the core's phases, which the server and the evaluate panel read
    expect(props['logfilter.defaultPhase'].default).toBe('');
    expect(props['logfilter.defaultPhase'].enum).toEqual(['', ...PHASES]);
    expect(props['logfilter.sampleRequestFile'].type).toBe('string');
    expect(props['logfilter.dataset'].default).toBe(DEFAULT_DATASET);
    expect([...props['logfilter.dataset'].enum].sort()).toEqual([...DATASETS.keys(), ANY_DATASET].sort());
    expect(props['logfilter.maxOperators'].default).toBe(30);
    expect(props['logfilter.maxBytes'].default).toBe(1000);
    expect(props['logfilter.sampleLogFile'].type).toBe('string');
  });

  it('packages only what runs', () => {
    const lines = read('.vscodeignore').split('\n').filter((l) => l && !l.startsWith('#'));
    expect(lines[0]).toBe('**');
    const included = lines.slice(1).map((l) => l.replace(/^!/, ''));
    expect(included.filter((f) => f.startsWith('src') || f.startsWith('test') || f.includes('node_modules'))).toEqual([]);
    for (const f of ['package.json', 'dist/README.md', 'LICENSE', 'dist/THIRD_PARTY_LICENSES.txt', 'language-configuration.json', 'dist/extension.js', 'dist/extension-main.js', 'dist/server.js', 'dist/server-loader.js', 'images/icon.png']) {
      expect(included).toContain(f);
    }
    expect(included).toContain(manifest.icon);
  });

  it('packages the README with its images inlined, so the details page can show them', () => {
    // the details page's webview loads images only from https: and data:
    expect(manifest.scripts.package).toContain('--readme-path dist/README.md');
    expect(read('scripts/build.mjs')).toContain('inlineImages(');
  });
});

describe('inlineImages (the packaged README)', () => {
  it('turns relative image links into data: URIs of the file, leaving other links alone', async () => {
    const { inlineImages } = await import('../scripts/readme.mjs');
    const png = readFileSync(path.join(PKG, 'images/icon.png')).toString('base64');
    const md = '![icon](images/icon.png)\n![remote](https://example.com/x.png) [link](images/icon.png) ![t](images/icon.png "title")';
    expect(inlineImages(md, PKG)).toBe(
      `![icon](data:image/png;base64,${png})\n![remote](https://example.com/x.png) [link](images/icon.png) ![t](data:image/png;base64,${png} "title")`,
    );
  });

  it('inlines every image the README has', async () => {
    const { inlineImages } = await import('../scripts/readme.mjs');
    const out: string = inlineImages(read('README.md'), PKG);
    expect(out).toMatch(/!\[[^\]]*\]\(data:image\/png;base64,/);
    expect(out).not.toMatch(/!\[[^\]]*\]\((?!data:|https:)/);
  });
});

describe('language configuration', () => {
  const conf = JSON.parse(read('language-configuration.json'));

  it('toggles # comments and pairs brackets and quotes', () => {
    expect(conf.comments).toEqual({ lineComment: '#' });
    expect(conf.brackets).toEqual([['(', ')'], ['[', ']']]);
    const closing = conf.autoClosingPairs.map((p: { open: string; close: string }) => p.open + p.close);
    expect(closing).toEqual(expect.arrayContaining(['()', '[]', '""']));
  });

  it('has a word pattern that takes whole fields and bang operators', () => {
    const word = new RegExp(conf.wordPattern, 'g');
    expect('ClientRequestHost !startsWith "x" and Edge_2 >= -12'.match(word)).toEqual(['ClientRequestHost', '!startsWith', 'x', 'and', 'Edge_2', '-12']);
  });
});

describe('README install section', () => {
  const readme = read('README.md');
  it('names the file the package script writes and installs it with each editor’s flag', () => {
    const vsix = `packages/vscode/${manifest.scripts.package.match(/-o (\S+)/)[1].replace('$npm_package_version', manifest.version)}`;
    expect(readme).toContain('npm run package');
    for (const cli of ['code', 'code-server', 'codium']) expect(readme).toContain(`${cli} --install-extension ${vsix}`);
    // the e2e suite installs what it packages with the same flag
    expect(readFileSync(path.join(REPO, 'test/e2e/run.sh'), 'utf8')).toMatch(/--install-extension "\$VSIX"/);
    expect(readme).toContain(`VS Code ${manifest.engines.vscode.replace(/^\^|\.0$/g, '')}`);
  });
});

describe('the evaluate command', () => {
  it('is offered in the command palette for filters and rules', () => {
    const entry = contributes.menus.commandPalette.find((m: { command: string }) => m.command === 'logfilter.evaluateAgainstLogFile');
    expect(entry.when.split('||').map((w: string) => w.trim()).sort()).toEqual(['editorLangId == logfilter', 'editorLangId == logfilter-rules']);
  });
});
