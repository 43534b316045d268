/**
 * Every package can be published and installed by a stranger (the consumer test, `npm run test:consumer`, checks
 * the packed tarballs; this pins the metadata it relies on, cheaply, in every `npm test`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './support/paths.js';

const root = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
const packages = (root.workspaces as string[]).map((dir) => ({ dir, pkg: JSON.parse(readFileSync(path.join(REPO, dir, 'package.json'), 'utf8')) }));
const published = packages.filter((p) => !p.pkg.private);

describe('packages', () => {
  it('are the workspaces; all but the extension (which ships as a .vsix) and the playground (a static site, which ships inside the CLI) are published to npm', () => {
    expect(packages.filter((p) => p.pkg.private).map((p) => p.pkg.name)).toEqual(['@logfilter/playground', 'logfilter-vscode']);
    expect(published.map((p) => p.pkg.name)).toEqual(expect.arrayContaining(['@logfilter/api', '@logfilter/cli', '@logfilter/core', '@logfilter/emulator', '@logfilter/language-server']));
  });

  it.each(packages.map((p) => [p.pkg.name, p] as const))('%s declares the Node it needs and has a README and a LICENSE', (_, { dir, pkg }) => {
    expect(pkg.engines?.node).toBe(root.engines.node);
    expect(existsSync(path.join(REPO, dir, 'README.md'))).toBe(true);
    expect(existsSync(path.join(REPO, dir, 'LICENSE'))).toBe(true);
  });

  it.each(published.map((p) => [p.pkg.name, p] as const))('%s is public, exports its package.json, ships no build info or bundle maps', (_, { dir, pkg }) => {
    expect(pkg.publishConfig).toEqual({ access: 'public' });
    expect(pkg.exports['./package.json']).toBe('./package.json');
    // A native addon ships its sources and builds at install (its build/ is the machine's own); the others ship dist.
    if (existsSync(path.join(REPO, dir, 'binding.gyp'))) {
      expect(pkg.files).toEqual(expect.arrayContaining(['binding.gyp', 'src', 'README.md', 'LICENSE']));
      expect(pkg.files.some((f: string) => f.startsWith('build'))).toBe(false);
      expect(pkg.scripts.install).toBeDefined();
    } else expect(pkg.files).toEqual(expect.arrayContaining(['dist', '!dist/.tsbuildinfo', '!dist/*.cjs.map', 'src', 'README.md', 'LICENSE']));
  });

  it.each(published.map((p) => [p.pkg.name, p] as const))('%s depends at run time only on what the registry has', (_, { pkg }) => {
    // workspace packages are bundled into the bins; library entries that import them name them as optional peers
    const workspace = Object.keys(pkg.dependencies ?? {}).filter((d) => d.startsWith('@logfilter/'));
    expect(workspace).toEqual([]);
    for (const peer of Object.keys(pkg.peerDependencies ?? {})) expect(pkg.peerDependenciesMeta?.[peer]?.optional, peer).toBe(true);
  });

  it.each(published.filter((p) => p.pkg.bin).map((p) => [p.pkg.name, p] as const))('%s bins load their bundle', (_, { dir, pkg }) => {
    for (const file of Object.values(pkg.bin as Record<string, string>)) {
      const text = readFileSync(path.join(REPO, dir, file), 'utf8');
      expect(text.startsWith('#!/usr/bin/env node')).toBe(true);
      // required, or loaded through the code cache (the loader in bin/compile-filter.cjs), from the package's own
      // dist
      const bundles = [...text.matchAll(/'\.\.\/dist\/([\w-]+\.cjs)'/g)].map((m) => m[1]!);
      expect(bundles.length).toBeGreaterThan(0);
      for (const b of bundles) expect(existsSync(path.join(REPO, dir, 'dist', b)), `${file} → dist/${b}`).toBe(true);
    }
  });

  // A README is read on the registry's page and inside node_modules, where only the package's own files are:
  // a relative link must name a file the package ships (the repository's docs/ and sibling packages are not).
  it.each(published.map((p) => [p.pkg.name, p] as const))('%s README links only to files the package ships', (_, { dir, pkg }) => {
    const readme = readFileSync(path.join(REPO, dir, 'README.md'), 'utf8');
    const shipped = (pkg.files as string[]).filter((f) => !f.startsWith('!')).map((f) => path.join(REPO, dir, f));
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!.split('#')[0]!).filter((l) => l !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(l));
    const outside = links.filter((l) => {
      const target = path.join(REPO, dir, l);
      return !shipped.some((f) => target === f || target.startsWith(f + path.sep)) || !existsSync(target);
    });
    expect(outside).toEqual([]);
  });

  // A bundle is a copy of the third-party code in it; the licences of that code ship beside it (built by
  // scripts/third-party-licenses.mjs from esbuild's metafiles).
  const bundled = ['packages/core', 'packages/cli', 'packages/language-server', 'packages/emulator'];
  it.each(bundled)('%s ships the licences of the third-party code its bundles hold', (dir) => {
    const file = path.join(REPO, dir, 'dist/THIRD_PARTY_LICENSES.txt');
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, 'utf8');
    const listed = new Set([...text.matchAll(/^- (\S+) \S+ \(/gm)].map((m) => m[1]!));
    // every package the bins' source maps (kept locally, not shipped) name, checked apart from the script
    const maps = readdirSync(path.join(REPO, dir, 'dist')).filter((f) => f.endsWith('.cjs.map'));
    for (const map of maps) {
      for (const source of JSON.parse(readFileSync(path.join(REPO, dir, 'dist', map), 'utf8')).sources as string[]) {
        const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source.slice(source.lastIndexOf('node_modules/')));
        if (m) expect(listed.has(m[1]!), `${map}: ${m[1]}`).toBe(true);
      }
    }
    // the parser and its dependencies are in every one of them (each bundles the core), with their licence text
    for (const name of ['chevrotain', 'lodash-es']) expect(listed.has(name), name).toBe(true);
    expect(text).toContain('Apache License');
  });
});

