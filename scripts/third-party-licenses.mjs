// The licences of the third-party code a bundle holds: every npm package esbuild put into a package's bundles
// (from their metafiles), with its version, its declared licence and the text of its licence files, written to
// that package's dist/THIRD_PARTY_LICENSES.txt. A bundle is a copy of that code, and MIT, ISC, BSD and Apache
// licences all ask that their notice go with copies.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The directory of the npm package an input path of a metafile lies in, or undefined (our own sources). */
function packageDir(base, input) {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const rest = input.slice(at + 'node_modules/'.length).split('/');
  const name = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  return path.resolve(base, input.slice(0, at), 'node_modules', name);
}

/**
 * Writes `outFile` for the npm packages that the metafiles' inputs come from. `base`: the directory esbuild
 * ran in (its `absWorkingDir`, by default the process's), which the inputs' paths are relative to.
 */
export function writeThirdPartyLicenses(base, outFile, metafiles) {
  const dirs = new Set();
  for (const meta of metafiles) for (const input of Object.keys(meta.inputs)) {
    const dir = packageDir(base, input);
    if (dir) dirs.add(dir);
  }
  const entries = [...dirs]
    .map((dir) => {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      const texts = readdirSync(dir)
        .filter((f) => /^(licen[cs]e|copying|notice)/i.test(f))
        .sort()
        .map((f) => readFileSync(path.join(dir, f), 'utf8').trim());
      return { name: pkg.name, version: pkg.version, license: pkg.license ?? 'see its licence text', texts };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  const missing = entries.filter((e) => e.texts.length === 0).map((e) => e.name);
  if (missing.length) throw new Error(`no licence file in: ${missing.join(', ')}`);
  const head = `Third-party code bundled in this package's dist/ files, with its licences.\n\n${entries.map((e) => `- ${e.name} ${e.version} (${e.license})`).join('\n')}\n`;
  const body = entries.map((e) => `\n${'='.repeat(78)}\n${e.name} ${e.version} (${e.license})\n${'='.repeat(78)}\n\n${e.texts.join('\n\n')}\n`).join('');
  if (!existsSync(path.dirname(outFile))) throw new Error(`no ${path.dirname(outFile)}`);
  writeFileSync(outFile, head + body);
  return entries.map((e) => e.name);
}
