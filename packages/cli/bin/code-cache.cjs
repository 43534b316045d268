// Loads a CommonJS bundle with V8's code cache (Node 20 has no module.enableCompileCache): the bytecode V8
// compiled on the previous run, functions compiled lazily during that run included, is reused instead of
// compiling again. The cache lives in the user's own cache directory (~/.cache/logfilter, mode 0700; never a
// shared temporary directory, whose files another user could plant), keyed by Node version and the bundle's
// size and time; V8 itself rejects a cache that does not fit the source. Any failure just compiles normally.
// Older caches of the same bundle are pruned when a new one is written. LOGFILTER_NO_CODE_CACHE=1 turns it off.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

function cacheFile(filename) {
  if (process.env.LOGFILTER_NO_CODE_CACHE) return undefined;
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const st = fs.statSync(filename);
  return path.join(base, 'logfilter', `${path.basename(filename)}-${process.version}-${process.arch}-${st.size}-${Math.floor(st.mtimeMs)}.v8`);
}

/**
 * Caches of other builds of the bundle (each version, or each rebuild, writes its own file of ~0.5 MB): all but
 * the KEEP newest are removed, so that two installs used in turn still both hit their cache.
 */
const KEEP = 4;
function prune(dir, prefix, current) {
  const stale = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.v8') && path.join(dir, f) !== current)
    .map((f) => ({ file: path.join(dir, f), time: fs.statSync(path.join(dir, f)).mtimeMs }))
    .sort((a, b) => b.time - a.time)
    .slice(KEEP - 1);
  for (const { file } of stale) fs.rmSync(file, { force: true });
}

exports.load = function load(filename) {
  let cache;
  try {
    cache = cacheFile(filename);
  } catch {
    cache = undefined;
  }
  let cachedData;
  if (cache) {
    try {
      cachedData = fs.readFileSync(cache);
    } catch {
      cachedData = undefined;
    }
  }
  const source = fs.readFileSync(filename, 'utf8');
  const script = new vm.Script(Module.wrap(source), { filename, cachedData });
  const mod = new Module(filename, module);
  mod.filename = filename;
  mod.paths = Module._nodeModulePaths(path.dirname(filename));
  const req = Module.createRequire(filename);
  if (cache && (!cachedData || script.cachedDataRejected)) {
    // Written at exit, so that the functions compiled during the run are in it.
    process.once('exit', () => {
      try {
        const dir = path.dirname(cache);
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const tmp = `${cache}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(tmp, cache);
        prune(dir, `${path.basename(filename)}-`, cache);
      } catch {
        // no cache this time
      }
    });
  }
  script.runInThisContext().call(mod.exports, mod.exports, req, mod, filename, path.dirname(filename));
};
