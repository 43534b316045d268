// Extension-host integration tests: run INSIDE code-server's node extension host (full `vscode` API) against
// the installed logfilter-vscode .vsix. Loaded through the `extensionTestsPath` payload by exthost-driver.mjs.
// code-server does not report a failing run() back to the server, so results go to a file next to the workspace.
const vscode = require('vscode');
const fs = require('fs');
const path = require('path');
const { isDeepStrictEqual } = require('util');

const expected = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'expected.json'), 'utf8'));
const EXTENSION_ID = 'logfilter.logfilter-vscode';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what, fn, ms = 30000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
const check = (cond, what) => {
  if (!cond) throw new Error(what);
};
const codeOf = (d) => (typeof d.code === 'object' && d.code !== null ? d.code.value : d.code);

exports.run = async function run() {
  const ws = vscode.workspace.workspaceFolders[0].uri;
  const file = (name) => vscode.Uri.joinPath(ws, name);
  const resultFile = path.join(path.dirname(ws.fsPath), 'exthost-result.json');
  const cases = [];
  const info = {};
  const test = async (name, fn) => {
    const t0 = Date.now();
    try {
      await fn();
      cases.push({ name, ok: true, ms: Date.now() - t0 });
    } catch (e) {
      cases.push({ name, ok: false, ms: Date.now() - t0, error: String((e && e.stack) || e).split('\n').slice(0, 3).join(' | ') });
    }
  };
  const config = vscode.workspace.getConfiguration('logfilter');
  const goodString = JSON.stringify(JSON.stringify(expected.goodJson));

  await test('the extension is installed and not active before a logfilter file opens', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    check(ext, `${EXTENSION_ID} is not installed`);
    check(!ext.isActive, 'activated without a logfilter file or command');
  });

  await test('opening a .logfilter file activates it with the logfilter language', async () => {
    const t0 = Date.now();
    const doc = await vscode.workspace.openTextDocument(file('broken.logfilter'));
    await vscode.window.showTextDocument(doc);
    check(doc.languageId === 'logfilter', `languageId ${doc.languageId}`);
    await waitFor('activation', () => vscode.extensions.getExtension(EXTENSION_ID).isActive);
    info.activationMs = Date.now() - t0;
  });

  await test('the broken filter gets its diagnostic from the bundled server', async () => {
    const t0 = Date.now();
    const diags = await waitFor('diagnostics', () => {
      const d = vscode.languages.getDiagnostics(file('broken.logfilter'));
      return d.length ? d : null;
    });
    info.firstDiagnosticsMs = Date.now() - t0;
    const d = diags.find((x) => codeOf(x) === expected.brokenCode);
    check(d, `no ${expected.brokenCode}: ${JSON.stringify(diags.map(codeOf))}`);
    check(d.severity === vscode.DiagnosticSeverity.Error, `severity ${d.severity}`);
    check(d.range.start.line === expected.brokenLine - 1 && d.range.start.character === expected.brokenColumn - 1, `range ${JSON.stringify(d.range)}`);
  });

  await test('completion offers the fields of the dataset', async () => {
    const uri = file('good.logfilter');
    await vscode.workspace.openTextDocument(uri);
    const list = await vscode.commands.executeCommand('vscode.executeCompletionItemProvider', uri, new vscode.Position(1, 0));
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    check(['ClientRequestHost', 'ClientCountry', 'EdgeResponseStatus'].every((f) => labels.includes(f)), `labels ${JSON.stringify(labels.slice(0, 20))}`);
  });

  await test('Show Compiled JSON opens the compiled filter read-only beside it', async () => {
    const editor = await vscode.commands.executeCommand('logfilter.showCompiledJson', file('good.logfilter'));
    check(editor && editor.document.uri.scheme === 'logfilter-compiled', 'no compiled view');
    const json = await waitFor('compiled JSON', () => {
      try {
        return JSON.parse(editor.document.getText());
      } catch {
        return null;
      }
    });
    check(isDeepStrictEqual(json, expected.goodJson), `json ${JSON.stringify(json)}`);
  });

  await test('Copy as Job Filter String copies the JSON-encoded filter', async () => {
    const copied = await vscode.commands.executeCommand('logfilter.copyAsJobFilterString', file('good.logfilter'));
    check(copied === goodString, `copied ${copied}`);
    check(JSON.parse(copied) === JSON.stringify(expected.goodJson), 'not the encoded compact JSON');
    const clip = await vscode.env.clipboard.readText();
    info.clipboardMatches = clip === goodString;
  });

  await test('Import Filter from JSON decompiles a job into a logfilter editor that compiles back', async () => {
    const job = { id: 7, dataset: 'http_requests', filter: JSON.stringify(expected.goodJson) };
    const editor = await vscode.commands.executeCommand('logfilter.importFromJson', { text: JSON.stringify(job) });
    check(editor && editor.document.languageId === 'logfilter', 'no logfilter editor');
    const again = await vscode.commands.executeCommand('logfilter.copyAsJobFilterString', editor.document.uri);
    check(again === goodString, `round trip gave ${again}`);
  });

  await test('Import Filter from JSON refuses an invalid filter', async () => {
    const editor = await vscode.commands.executeCommand('logfilter.importFromJson', { text: '{"where":{"key":"ClientIP","operator":"bogus","value":1}}' });
    check(editor === undefined, 'imported an invalid filter');
  });

  await test('Evaluate Against Log File counts matches and explains every condition', async () => {
    const r = await vscode.commands.executeCommand('logfilter.evaluateAgainstLogFile', file('good.logfilter'), file('sample.ndjson'));
    const s = expected.sample;
    check(r, 'no result');
    check(r.total === s.total && r.matched === s.matched && r.malformed === s.malformed, `counts ${JSON.stringify({ total: r.total, matched: r.matched, malformed: r.malformed })}`);
    check(r.report.evaluated === s.evaluated, `evaluated ${r.report.evaluated}`);
    const [host, status] = r.report.root.children;
    check(host.key === 'ClientRequestHost' && host.held === s.hostHeld, `host ${JSON.stringify(host)}`);
    check(status.key === 'EdgeResponseStatus' && status.held === s.statusHeld, `status ${JSON.stringify(status)}`);
  });

  await test('settings: the operator limit and the default dataset reach the server', async () => {
    const uri = file('good.logfilter');
    try {
      await config.update('maxOperators', 1, vscode.ConfigurationTarget.Workspace);
      await waitFor('too-many-operators', () => vscode.languages.getDiagnostics(uri).some((d) => codeOf(d) === 'too-many-operators'));
      await config.update('maxOperators', undefined, vscode.ConfigurationTarget.Workspace);
      await waitFor('limit restored', () => !vscode.languages.getDiagnostics(uri).some((d) => codeOf(d) === 'too-many-operators'));
      await config.update('dataset', 'dns_logs', vscode.ConfigurationTarget.Workspace);
      await waitFor('unknown-field under dns_logs', () => vscode.languages.getDiagnostics(uri).some((d) => codeOf(d) === 'unknown-field'));
    } finally {
      await config.update('maxOperators', undefined, vscode.ConfigurationTarget.Workspace);
      await config.update('dataset', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitFor('clean again', () => !vscode.languages.getDiagnostics(uri).some((d) => d.severity === vscode.DiagnosticSeverity.Error));
  });

  await test('*.filter.json files are validated with the filter document schema', async () => {
    const uri = file('bad.filter.json');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const diags = await waitFor('schema diagnostics', () => {
      const d = vscode.languages.getDiagnostics(uri);
      return d.length ? d : null;
    });
    // The only problem in the file is the operator value "equals" on line 1.
    check(diags.every((d) => d.range.start.line === 0), `diagnostics ${JSON.stringify(diags.map((d) => d.range))}`);
  });

  await test('Import Filter from JSON writes the job\u2019s dataset line, and the imported filter checks clean', async () => {
    const job = { dataset: 'firewall_events', filter: JSON.stringify({ where: { key: 'ClientRefererHost', operator: 'eq', value: 'a.example' } }) };
    const editor = await vscode.commands.executeCommand('logfilter.importFromJson', { text: JSON.stringify(job) });
    check(editor && editor.document.languageId === 'logfilter', 'no logfilter editor');
    check(editor.document.lineAt(0).text === 'dataset firewall_events', `first line ${JSON.stringify(editor.document.lineAt(0).text)}`);
    const compiled = await vscode.commands.executeCommand('logfilter.copyAsJobFilterString', editor.document.uri);
    check(compiled === JSON.stringify(job.filter), `compiled ${compiled}`);
  });

  await test('a new empty filter shows no error; one with a mistake does', async () => {
    const empty = await vscode.workspace.openTextDocument({ language: 'logfilter', content: '' });
    await vscode.window.showTextDocument(empty);
    // the server answers documents in order: once the second one has its diagnostics, the first had its turn
    const wrong = await vscode.workspace.openTextDocument({ language: 'logfilter', content: 'ClientReqestHost == "a"' });
    await waitFor('diagnostics of the second document', () => vscode.languages.getDiagnostics(wrong.uri).length > 0);
    const d = vscode.languages.getDiagnostics(empty.uri);
    check(d.length === 0, `empty file: ${JSON.stringify(d.map(codeOf))}`);
  });

  await test('a misspelt operator in *.filter.json says which one was meant', async () => {
    const uri = file('neq.filter.json');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const diags = await waitFor('schema diagnostics', () => {
      const d = vscode.languages.getDiagnostics(uri);
      return d.length ? d : null;
    });
    check(diags.some((d) => d.message.includes('"!eq"')), `diagnostics ${JSON.stringify(diags.map((d) => d.message))}`);
  });

  await test('latency as the editor sees it: edit to diagnostics, completion', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'logfilter', content: 'ClientCountry == "us"\n' });
    const editor = await vscode.window.showTextDocument(doc);
    const keystroke = [];
    for (let i = 0; i < 10; i++) {
      // one character that breaks the field name, then one that mends it: each must change the squiggles
      const t0 = Date.now();
      await editor.edit((e) => e.insert(new vscode.Position(0, 6), 'x'));
      await waitFor('the error', () => vscode.languages.getDiagnostics(doc.uri).some((d) => codeOf(d) === 'unknown-field'));
      keystroke.push(Date.now() - t0);
      await editor.edit((e) => e.delete(new vscode.Range(0, 6, 0, 7)));
      await waitFor('no error', () => !vscode.languages.getDiagnostics(doc.uri).some((d) => codeOf(d) === 'unknown-field'));
    }
    const completion = [];
    for (let i = 0; i < 10; i++) {
      const t0 = Date.now();
      const list = await vscode.commands.executeCommand('vscode.executeCompletionItemProvider', doc.uri, new vscode.Position(0, 14));
      completion.push(Date.now() - t0);
      check(list.items.some((it) => (typeof it.label === 'string' ? it.label : it.label.label) === '=='), 'no operators');
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    info.keystrokeToDiagnosticsMs = `median ${median(keystroke)} max ${Math.max(...keystroke)}`;
    info.completionMs = `median ${median(completion)} max ${Math.max(...completion)}`;
  });

  fs.writeFileSync(resultFile, JSON.stringify({ cases, info }, null, 2));
};
