#!/usr/bin/env node
// compile-filter: the bundled command (built by `npm run build`), loaded through V8's code cache by the loader
// below, which `logfilter` also requires from here for `eval`. The loader lives in this file rather than a module
// of its own because compile-filter's whole start is held to 1.3x `node -e 0`: requiring a second file costs Node
// a lookup of the package's package.json, path checks and a compile without any cache (callgrind: 1.8 M of
// compile-filter's ~114 M instructions, against `node -e 0`'s ~93 M).
//
// Loads a CommonJS bundle with V8's code cache (Node 20 has no module.enableCompileCache): the bytecode V8
// compiled on the previous run, functions compiled lazily during that run included, is reused instead of
// compiling again; only a run that did its command's work writes it (didWork). The cache lives in the user's
// own cache directory (~/.cache/logfilter, mode 0700; never a shared temporary directory, whose files another
// user could plant). LOGFILTER_NO_CODE_CACHE=1 turns it off; any failure just compiles normally.
//
// V8 checks a cache only against the source's length, so the key must tell builds apart by itself: each install
// (the bundle's real path, hashed) has its own caches, keyed by Node version and the file's size, inode, mtime
// and ctime (npm gives every installed file the same mtime; a reinstall changes the inode and the ctime). So
// several installs used in turn never evict or, worse, run each other's code. When an install writes a new
// cache, its older ones go, and so do other installs' caches written more than PRUNE_DAYS ago (npx leaves
// installs behind; a cache still in use is only written again on its next run).
//
// Every step here is on the path of every start, so it does the least Node allows (measured with
// `valgrind --tool=callgrind`, instructions of a whole `compile-filter` run, NODE_EXTRA_CA_CERTS unset): the
// install is told apart by the bundle's path as given, not fs.realpathSync's (the bins pass a path under their
// own __dirname, which Node has already resolved to the real one: realpathSync is a JavaScript walk with an
// lstat per directory); and the bundle's module gets a plain require instead of Module.createRequire's
// (module paths, resolve functions: only require() is used by esbuild's bundles).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
// The CommonJS loader's Module, as this module's own constructor: require('node:module') would load the public
// module API and with it the ESM loader and source-map support (-1.6 M instructions, ~0.6 ms)
const Module = module.constructor;

const PRUNE_DAYS = 30;

/**
 * The cache file for this build of `filename` (`st`: its stat), and the prefix every cache of this install
 * starts with.
 */
function cacheFile(filename, st) {
  if (process.env.LOGFILTER_NO_CODE_CACHE) return undefined;
  // HOME first: node:os is one more module to load at every start
  const base = process.env.XDG_CACHE_HOME || path.join(process.env.HOME || require('node:os').homedir(), '.cache');
  const install = installPrefix(filename, filename);
  const build = `${process.version}-${process.arch}-${st.size}-${st.ino}-${Math.floor(st.mtimeMs)}-${Math.floor(st.ctimeMs)}`;
  return { file: path.join(base, 'logfilter', `${install}${build}.v8`), install };
}

/**
 * The bundle's stat and text: by path both times, since readFileSync(path, 'utf8') is one call into C++ while
 * reading from a descriptor goes through fs's JavaScript (+0.3 M instructions).
 */
function readBundle(filename) {
  return { st: fs.statSync(filename), source: fs.readFileSync(filename, 'utf8') };
}

/**
 * `<bundle>-<hash of its real path>-`: FNV-1a, 64 bits, in hex (loading node:crypto would cost more start-up
 * than the whole cache lookup; the hash only tells installs apart, it protects nothing).
 */
function installPrefix(filename, real) {
  let h = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(real)) h = ((h ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return `${path.basename(filename)}-${h.toString(16).padStart(16, '0')}-`;
}
exports.installPrefix = installPrefix;

function prune(dir, bundle, install, current) {
  const now = Date.now();
  for (const f of fs.readdirSync(dir)) {
    const file = path.join(dir, f);
    if (!f.startsWith(`${bundle}-`) || !f.endsWith('.v8') || file === current) continue;
    try {
      // an older build of this install, or a cache (of any install or of the old naming) unused for long
      if (f.startsWith(install) || now - fs.statSync(file).mtimeMs > PRUNE_DAYS * 86_400_000) fs.rmSync(file, { force: true });
    } catch {
      // gone meanwhile
    }
  }
}

/** Flags that print and exit before a command's work: a run with one of them compiles little of the bundle. */
const INFO_FLAGS = new Set(['-h', '--help', '-V', '--version']);

/**
 * Whether a run of `args` that exited with `code` did the command's work (0 or 1: done, or done and found
 * errors; 2 is a usage or I/O error), so that its cache holds what the next runs need. V8's cache holds the
 * functions compiled by the run that wrote it, and a good cache is not written again: written by a first
 * `--help`, it left every later compile to compile most of the bundle again (measured: +20 ms CPU per run).
 */
function didWork(args, code, bundle = {}) {
  if (args.some((a) => INFO_FLAGS.has(a))) return false;
  // A bundle whose exit 1 stops before its work says so: `eval` of a filter with errors never runs the
  // evaluator, and a cache written then made every later eval of that build compile it (+12 M instructions).
  return typeof bundle.codeCacheWorthy === 'function' ? bundle.codeCacheWorthy(code) === true : code <= 1;
}
exports.didWork = didWork;

function load(filename) {
  const { st, source } = readBundle(filename);
  let key;
  try {
    key = cacheFile(filename, st);
  } catch {
    key = undefined;
  }
  const cache = key?.file;
  let cachedData;
  if (cache) {
    try {
      cachedData = fs.readFileSync(cache);
    } catch {
      cachedData = undefined;
    }
  }
  const script = new vm.Script(Module.wrap(source), { filename, cachedData });
  const mod = new Module(filename, module);
  mod.filename = filename;
  // what a bundle's require() needs: Node's built-in modules, and its own files beside it (resolved from `mod`)
  const req = (id) => mod.require(id);
  if (cache && (!cachedData || script.cachedDataRejected)) {
    // Written at exit, so that the functions compiled during the run are in it.
    process.once('exit', (code) => {
      if (!didWork(process.argv.slice(2), code, mod.exports)) return;
      try {
        // the bundle's other paths that later runs may take (src/warm-code-cache.ts), compiled into the cache
        mod.exports.warmCodeCache?.();
      } catch {
        // the cache then holds what this run compiled
      }
      try {
        const dir = path.dirname(cache);
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const tmp = `${cache}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(tmp, cache);
        prune(dir, path.basename(filename), key.install, cache);
      } catch {
        // no cache this time
      }
    });
  }
  script.runInThisContext().call(mod.exports, mod.exports, req, mod, filename, path.dirname(filename));
}
exports.load = load;

if (require.main === module) load(path.join(__dirname, '../dist/compile-filter.cjs'));
