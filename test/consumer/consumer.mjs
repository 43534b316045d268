// The packages as a stranger gets them: `npm pack` every package, install the tarballs in a temporary
// directory outside the repository, and use them from there: the bins of a tarball installed alone, the core
// from ESM, CommonJS and TypeScript (nodenext), the other libraries from CommonJS, and a job created with
// @logfilter/api against the emulator started from its tarball's bin. Prints one line per check and
// `N passed, N failed`; exit 1 when any failed.
// Needs a build (`npm run build`) and the npm registry (or its cache) for the packages' own dependencies.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGES = ['core', 'api', 'cli', 'language-server', 'emulator', 'native-inflate'];
const ROOT = mkdtempSync(path.join(tmpdir(), 'logfilter-consumer-'));
const TARBALLS = path.join(ROOT, 'tarballs');
const NPM_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

let passed = 0;
let failed = 0;
const children = new Set();

async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`  ok    ${name}`);
  } catch (e) {
    failed++;
    console.log(`  FAIL  ${name}\n        ${String(e?.stderr || e?.message || e).trim().split('\n').join('\n        ')}`);
  }
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

function run(cmd, args, cwd, input) {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
}

/** A directory with its own package.json, the given tarballs installed from their files. */
function project(name, tarballs, extra = []) {
  const dir = path.join(ROOT, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `consumer-${name}`, private: true }));
  run('npm', ['install', ...NPM_FLAGS, ...tarballs.map((t) => path.join(TARBALLS, t)), ...extra], dir);
  return dir;
}

const bin = (dir, name) => path.join(dir, 'node_modules', '.bin', name);

/** Starts a process and resolves with its first stdout line. */
function firstLine(cmd, args, cwd) {
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ child, line: out.slice(0, nl).trim() });
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`${cmd} exited with ${code} before printing: ${err}`)));
  });
}

/** One LSP request over the bin's stdio: initialize, answered with the server's capabilities. */
function lspInitialize(cmd, cwd) {
  const child = spawn(cmd, ['--stdio'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
  child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  return new Promise((resolve, reject) => {
    let out = Buffer.alloc(0);
    child.stdout.on('data', (d) => {
      out = Buffer.concat([out, d]);
      const text = out.toString('utf8');
      const m = /Content-Length: (\d+)\r\n\r\n/.exec(text);
      if (m && out.length >= m.index + m[0].length + Number(m[1])) {
        const msg = JSON.parse(out.subarray(m.index + m[0].length, m.index + m[0].length + Number(m[1])).toString('utf8'));
        child.kill();
        resolve(msg);
      }
    });
    child.on('exit', (code) => reject(new Error(`language server exited with ${code}`)));
  });
}

const FILTER = 'dataset http_requests\nClientRequestHost == "api.example.com" and EdgeResponseStatus >= 500\n';
const JSON_FILTER =
  '{"where":{"and":[{"key":"ClientRequestHost","operator":"eq","value":"api.example.com"},{"key":"EdgeResponseStatus","operator":"geq","value":500}]}}';

try {
  console.log(`consumer test in ${ROOT}`);
  mkdirSync(TARBALLS);
  await check('npm pack every package', () => {
    for (const p of PACKAGES) run('npm', ['pack', '--loglevel=error', '--pack-destination', TARBALLS], path.join(REPO, 'packages', p));
    const files = readdirSync(TARBALLS);
    assert(files.length === PACKAGES.length, `tarballs: ${files.join(', ')}`);
  });
  const tgz = (p) => readdirSync(TARBALLS).find((f) => f.startsWith(`logfilter-${p}-`) && f.endsWith('.tgz'));

  await check('tarballs hold no .tsbuildinfo, no bundle maps, a README and LICENSE each, and the licences of bundled code', () => {
    for (const p of PACKAGES) {
      const list = run('tar', ['-tzf', path.join(TARBALLS, tgz(p))], ROOT).split('\n');
      assert(!list.some((f) => f.endsWith('.tsbuildinfo') || f.endsWith('.cjs.map')), `${p}: ${list.filter((f) => /tsbuildinfo|cjs\.map/.test(f))}`);
      assert(list.includes('package/README.md') && list.includes('package/LICENSE'), `${p}: README.md or LICENSE missing`);
      // a package that bundles third-party code ships its licences
      if (p !== 'api' && p !== 'native-inflate') assert(list.includes('package/dist/THIRD_PARTY_LICENSES.txt'), `${p}: dist/THIRD_PARTY_LICENSES.txt missing`);
    }
  });

  // The CLI tarball alone: its bins are bundles, so nothing unpublished is needed.
  let cliDir;
  await check('npm install ./logfilter-cli-*.tgz alone', () => {
    cliDir = project('cli-alone', [tgz('cli')]);
  });
  await check('compile-filter from the CLI tarball compiles a filter', () => {
    writeFileSync(path.join(cliDir, 'errors.logfilter'), FILTER);
    const out = run(bin(cliDir, 'compile-filter'), ['errors.logfilter'], cliDir);
    assert(out.trim() === JSON_FILTER, `got ${out}`);
  });
  await check('compile-filter --format string from standard input prints the escaped job string', () => {
    const out = run(bin(cliDir, 'compile-filter'), ['-', '--format', 'string'], cliDir, FILTER);
    assert(out.trim() === JSON.stringify(JSON_FILTER), `got ${out}`);
  });
  await check('logfilter eval from the CLI tarball alone reads a gzip file (the optional native inflater not installed)', () => {
    writeFileSync(path.join(cliDir, 'h.logfilter'), 'dataset any\nh == "a"\n');
    writeFileSync(path.join(cliDir, 'x.log.gz'), gzipSync('{"h":"a"}\n{"h":"b"}\n{"h":"a"}\n'));
    const out = JSON.parse(run(bin(cliDir, 'logfilter'), ['eval', 'h.logfilter', 'x.log.gz', '--json'], cliDir));
    assert(out.total === 3 && out.matched === 2, `got ${JSON.stringify(out)}`);
  });
  await check('logfilter --version prints the package version', () => {
    const version = JSON.parse(readFileSync(path.join(REPO, 'packages/cli/package.json'), 'utf8')).version;
    const out = run(bin(cliDir, 'logfilter'), ['--version'], cliDir);
    assert(out.includes(version), `got ${out}`);
  });

  await check('the language server tarball alone answers initialize over stdio', async () => {
    const dir = project('language-server-alone', [tgz('language-server')]);
    const answer = await lspInitialize(bin(dir, 'logfilter-language-server'), dir);
    assert(answer.id === 1 && answer.result?.capabilities, JSON.stringify(answer));
  });

  let emulatorDir;
  await check('the emulator tarball alone starts and prints its base URL', async () => {
    emulatorDir = project('emulator-alone', [tgz('emulator')]);
    const { child, line } = await firstLine(bin(emulatorDir, 'logfilter-emulator'), ['--port', '0', '--token', 't'], emulatorDir);
    child.kill();
    assert(/^http:\/\/127\.0\.0\.1:\d+\/client\/v4$/.test(line), line);
  });

  // Every tarball together, as a library user has them; @types/node for @logfilter/api's fetch types.
  const typesNode = JSON.parse(readFileSync(path.join(REPO, 'node_modules/@types/node/package.json'), 'utf8')).version;
  let all;
  await check('npm install every tarball together', () => {
    all = project('all', PACKAGES.map(tgz), [`@types/node@${typesNode}`]);
  });

  await check('the native inflater built at install from its tarball (CI: ISA-L present), found from the CLI bundle, inflates gzip', () => {
    const script = `
      const { createRequire } = require('node:module');
      const zlib = require('node:zlib');
      // resolved as logfilter's bundles resolve it: from the installed CLI's dist
      const m = createRequire(require.resolve('@logfilter/cli/package.json'))('@logfilter/native-inflate');
      if (!m.binding) { process.stdout.write(JSON.stringify({ reason: m.reason })); process.exit(0); }
      const content = Buffer.from('{"h":"a"}\\n'.repeat(5000));
      const gz = zlib.gzipSync(content);
      const out = Buffer.alloc(content.length + 1);
      const state = new Uint32Array(2);
      const h = m.binding.create();
      const status = m.binding.write(h, true, gz, 0, gz.length, out, 0, out.length, state);
      process.stdout.write(JSON.stringify({ status, same: out.subarray(0, out.length - state[0]).equals(content) }));`;
    const r = JSON.parse(run('node', ['-e', script], all));
    if (process.env.LOGFILTER_REQUIRE_NATIVE_INFLATE === '1') assert(r.status === 1 && r.same === true, `got ${JSON.stringify(r)}`);
    else assert(r.reason !== undefined || (r.status === 1 && r.same === true), `got ${JSON.stringify(r)}`);
  });

  await check('ESM: import @logfilter/core and compile', () => {
    writeFileSync(
      path.join(all, 'esm.mjs'),
      `import { compile, toFilterString } from '@logfilter/core';\nconst r = compile(process.argv[2]);\nprocess.stdout.write(JSON.stringify([r.ok, r.json, toFilterString(r.json)]));\n`,
    );
    const [ok, json, str] = JSON.parse(run('node', ['esm.mjs', FILTER], all));
    assert(ok && json === JSON_FILTER && str === JSON.stringify(JSON_FILTER), `${ok} ${json} ${str}`);
  });

  await check("the core's package entry is one file that imports nothing (its dependencies bundled in)", () => {
    const entry = run('node', ['-p', "require.resolve('@logfilter/core')"], all).trim();
    assert(entry.endsWith(path.join('dist', 'logfilter-core.js')), entry);
    // Block comments are left out: bundled JSDoc names modules in type expressions (`{import('./index.js').RE2JS}`).
    const text = readFileSync(entry, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    // (lodash's `freeModule.require('util')` probe stays: it never runs outside CommonJS)
    assert(!/^\s*import\s[^;]*from\s*['"]/m.test(text) && !/(^|[^.\w])(import|require)\(/m.test(text), `${entry} imports other modules`);
  });

  await check('CommonJS: require("@logfilter/core") and compile', () => {
    writeFileSync(
      path.join(all, 'cjs.cjs'),
      `const { compile, decompile } = require('@logfilter/core');\nconst r = compile(process.argv[2]);\nconst back = decompile(r.json);\nprocess.stdout.write(JSON.stringify([r.ok, r.json, back.ok, require('@logfilter/core/package.json').name]));\n`,
    );
    const [ok, json, backOk, name] = JSON.parse(run('node', ['cjs.cjs', FILTER], all));
    assert(ok && json === JSON_FILTER && backOk && name === '@logfilter/core', `${ok} ${json} ${backOk} ${name}`);
  });

  await check("the core's bundle exports, from ESM and CommonJS, every value its declarations (the per-module build) export", () => {
    writeFileSync(
      path.join(all, 'exports.mjs'),
      `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n` +
        `const declared = Object.keys(await import('./node_modules/@logfilter/core/dist/index.js'));\n` +
        `const esm = Object.keys(await import('@logfilter/core'));\nconst cjs = Object.keys(require('@logfilter/core'));\n` +
        `process.stdout.write(JSON.stringify({ n: declared.length, esm: declared.filter((k) => !esm.includes(k)), cjs: declared.filter((k) => !cjs.includes(k)) }));\n`,
    );
    const r = JSON.parse(run('node', ['exports.mjs'], all));
    assert(r.n > 100 && r.esm.length === 0 && r.cjs.length === 0, JSON.stringify(r));
  });

  await check('a wrong argument from the installed core throws at the call (toFilterString of a failed compile)', () => {
    writeFileSync(
      path.join(all, 'arguments.cjs'),
      `const { compile, toFilterString } = require('@logfilter/core');\nconst r = compile('EdgeResponseStatus >= "x"');\n` +
        `try { toFilterString(r.json); process.stdout.write('no error'); } catch (e) { process.stdout.write(e.constructor.name); }\n`,
    );
    const out = run('node', ['arguments.cjs'], all);
    assert(out === 'TypeError', out);
  });

  await check('CommonJS: require() of @logfilter/api, cli, language-server and emulator gives what import gives', () => {
    writeFileSync(
      path.join(all, 'cjs-all.mjs'),
      `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nconst out = {};\n` +
        `for (const p of ['@logfilter/api', '@logfilter/cli', '@logfilter/language-server', '@logfilter/emulator']) {\n` +
        `  const esm = Object.keys(await import(p)).sort();\n  const cjs = Object.keys(require(p)).filter((k) => k !== 'module.exports').sort();\n` +
        `  out[p] = { n: esm.length, same: JSON.stringify(esm) === JSON.stringify(cjs) };\n}\n` +
        `out.client = typeof require('@logfilter/api').LogfilterClient;\nout.run = typeof require('@logfilter/cli').run;\n` +
        `process.stdout.write(JSON.stringify(out));\n`,
    );
    const r = JSON.parse(run('node', ['cjs-all.mjs'], all));
    const bad = Object.entries(r).filter(([, v]) => typeof v === 'object' && (!v.same || v.n === 0));
    assert(bad.length === 0 && r.client === 'function' && r.run === 'function', JSON.stringify(r));
  });

  await check('TypeScript (moduleResolution nodenext, no DOM, no @types/node) type-checks a use of @logfilter/core', () => {
    mkdirSync(path.join(all, 'ts-core'));
    writeFileSync(
      path.join(all, 'ts-core', 'use.mts'),
      `import { compile, toFilterString, type CompileResult, type Diagnostic } from '@logfilter/core';\n` +
        `const r: CompileResult = compile('EdgeResponseStatus >= 500');\n` +
        `const d: readonly Diagnostic[] = r.diagnostics;\n` +
        `const s: string = r.json !== undefined ? toFilterString(r.json) : '';\n` +
        `export const out = [d.length, s] as const;\n` +
        `// @ts-expect-error compile takes source text\ncompile(42);\n`,
    );
    const tsconfig = { compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], types: [], strict: true, noEmit: true, skipLibCheck: false }, include: ['use.mts'] };
    writeFileSync(path.join(all, 'ts-core', 'tsconfig.json'), JSON.stringify(tsconfig));
    run('node', [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', path.join(all, 'ts-core')], all);
  });

  await check('TypeScript (nodenext, @types/node) type-checks a use of @logfilter/api, cli, language-server and emulator', () => {
    mkdirSync(path.join(all, 'ts-api'));
    writeFileSync(
      path.join(all, 'ts-api', 'use.mts'),
      `import { LogfilterClient } from '@logfilter/api';\nimport { run } from '@logfilter/cli';\n` +
        `import { startServer } from '@logfilter/language-server';\nimport { startEmulator, type RunningEmulator } from '@logfilter/emulator';\n` +
        `export const client = new LogfilterClient({ baseUrl: 'http://127.0.0.1:1/client/v4', token: 't' });\nexport const r = run;\n` +
        `export const s = startServer;\nexport const e: () => Promise<RunningEmulator> = () => startEmulator({ port: 0 });\n`,
    );
    const tsconfig = { compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], types: ['node'], strict: true, noEmit: true, skipLibCheck: false }, include: ['use.mts'] };
    writeFileSync(path.join(all, 'ts-api', 'tsconfig.json'), JSON.stringify(tsconfig));
    run('node', [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', path.join(all, 'ts-api')], all);
  });

  await check('a job created with @logfilter/api against the emulator bin carries the compiled filter', async () => {
    const { child, line: baseUrl } = await firstLine(bin(all, 'logfilter-emulator'), ['--port', '0', '--token', 'consumer-token'], all);
    try {
      writeFileSync(
        path.join(all, 'job.mjs'),
        `import { compile } from '@logfilter/core';\nimport { LogfilterClient } from '@logfilter/api';\n` +
          `const r = compile(process.argv[3]);\nif (!r.ok) throw new Error('compile failed');\n` +
          `const client = new LogfilterClient({ baseUrl: process.argv[2], token: 'consumer-token' });\n` +
          `const job = await client.createJob('consumer-zone', { name: 'errors', destination_conf: 's3://bucket/path?region=us-east-1', filter: r.json });\n` +
          `const again = await client.getJob('consumer-zone', job.id);\n` +
          // the wire form: the raw answer carries the filter as the escaped string
          `const raw = await (await fetch(process.argv[2] + '/zones/consumer-zone/logexport/jobs/' + job.id, { headers: { Authorization: 'Bearer consumer-token' } })).json();\n` +
          `process.stdout.write(JSON.stringify({ id: job.id, filter: again.filter, raw: raw.result.filter }));\n`,
      );
      const out = JSON.parse(run('node', ['job.mjs', baseUrl, FILTER], all));
      assert(typeof out.id === 'number', JSON.stringify(out));
      assert(out.raw === JSON_FILTER, `raw filter ${JSON.stringify(out.raw)}`);
      assert(JSON.stringify(out.filter) === JSON.stringify(JSON_FILTER) || JSON.stringify(out.filter) === JSON_FILTER, `client filter ${JSON.stringify(out.filter)}`);
    } finally {
      child.kill();
    }
  });
} finally {
  for (const c of children) if (c.exitCode === null) c.kill();
  if (failed === 0) rmSync(ROOT, { recursive: true, force: true });
  else console.log(`(kept ${ROOT} for inspection)`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}
