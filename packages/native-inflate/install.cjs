'use strict';
// Builds the addon with node-gyp when ISA-L's headers are on this machine; otherwise, or when the build fails,
// says so in one line and exits 0: the addon is optional (logfilter eval then inflates with Node's zlib), and an
// install must not fail for want of it. LOGFILTER_NATIVE_INFLATE=0 skips the build.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const note = (why) => {
  console.error(`@logfilter/native-inflate: ${why}; logfilter eval inflates gzip with Node's zlib (slower). ` +
    'To build it: install ISA-L (Debian/Ubuntu: apt-get install libisal-dev), then npm rebuild @logfilter/native-inflate');
  process.exit(0);
};

if (/^(0|off|false|no)$/i.test(process.env.LOGFILTER_NATIVE_INFLATE || '')) note('build skipped (LOGFILTER_NATIVE_INFLATE)');
const includeDirs = ['/usr/include', '/usr/local/include', '/opt/homebrew/include', ...(process.env.CPATH || '').split(path.delimiter).filter(Boolean)];
if (!includeDirs.some((d) => fs.existsSync(path.join(d, 'isa-l', 'igzip_lib.h')))) note('not built: ISA-L headers (isa-l/igzip_lib.h) not found');

// npm gives its own node-gyp to install scripts (npm_config_node_gyp); outside npm, the one of the npm beside node.
const candidates = [
  process.env.npm_config_node_gyp,
  process.env.npm_execpath && path.join(path.dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
];
const gyp = candidates.find((c) => c && fs.existsSync(c));
const run = gyp ? spawnSync(process.execPath, [gyp, 'rebuild'], { cwd: __dirname, encoding: 'utf8' }) : spawnSync('node-gyp', ['rebuild'], { cwd: __dirname, encoding: 'utf8', shell: process.platform === 'win32' });
if (run.status !== 0) {
  const tail = `${run.stdout || ''}${run.stderr || ''}${run.error ? run.error.message : ''}`.trim().split('\n').slice(-6).join('\n  ');
  console.error(`@logfilter/native-inflate: node-gyp failed:\n  ${tail}`);
  note('not built');
}
// A build that does not load is no build: remove it so that the loader's reason is the true one.
try {
  require('./build/Release/isal_inflate.node');
} catch (e) {
  fs.rmSync(path.join(__dirname, 'build'), { recursive: true, force: true });
  note(`built but failed to load (${e.message.split('\n')[0]})`);
}
