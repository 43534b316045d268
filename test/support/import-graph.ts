/**
 * The one import-graph checker of the repository: reads a package's sources (`src/**∕*.ts`), follows their
 * relative imports — `import … from`, `import type`, `export … from`, side-effect `import '…'` and dynamic
 * `import('…')`, since each of them ties one module to another — and answers two questions: which modules
 * form import cycles, and which imports cross layers they must not cross. Package tests and the repository's
 * import-graph test apply it; they hold the rules, this file only the reading and the graph algorithms.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface ImportGraph {
  /** The source folder the file names are relative to (always with `/`). */
  root: string;
  /** Each source file → the source files it imports (relative to `root`), in the order written. */
  imports: Map<string, string[]>;
  /** Each source file → the packages it imports (bare specifiers: `chevrotain`, `node:fs`, `@logfilter/core`). */
  packages: Map<string, string[]>;
}

/** Every `.ts` file under `dir` (declaration files excluded), recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/**
 * Comments blanked, strings kept: a scan that knows where strings and comments start, so that an import named
 * in prose or JSDoc is not read as one and a `/*` inside a string (a glob) does not hide the code after it.
 * Template literals are kept whole (their `${}` parts are not code that imports).
 */
function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && !(c !== '`' && text[j] === '\n')) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The module specifiers of a source text's static and dynamic imports and re-exports. */
export function specifiers(text: string): string[] {
  const code = withoutComments(text);
  const out: string[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm)) {
    out.push((m[1] ?? m[2] ?? m[3])!);
  }
  return out;
}

/** The source file a relative specifier names: `./x.js` is `x.ts` (or `x/index.ts`); undefined outside `root`'s sources. */
function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Reads the import graph of the `.ts` sources under `srcDir`. */
export function importGraph(srcDir: string): ImportGraph {
  const root = path.resolve(srcDir);
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');
  const imports = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  for (const file of sources(root)) {
    const specs = specifiers(readFileSync(file, 'utf8'));
    const local: string[] = [];
    for (const s of specs.filter((x) => x.startsWith('.'))) {
      const target = resolve(file, s);
      if (target && target.startsWith(root + path.sep)) local.push(rel(target));
    }
    imports.set(rel(file), local);
    packages.set(rel(file), specs.filter((s) => !s.startsWith('.')));
  }
  return { root: root.split(path.sep).join('/'), imports, packages };
}

/**
 * The import cycles: each strongly connected component of more than one file (or a file importing itself),
 * its files sorted; the components in order of their first file (Tarjan's algorithm, iterative so that a long
 * chain of imports cannot overflow the stack).
 */
export function cycles(imports: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  for (const start of imports.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1]!;
      const deps = (imports.get(top.node) ?? []).filter((d) => imports.has(d));
      if (top.edge < deps.length) {
        const d = deps[top.edge++]!;
        if (!index.has(d)) {
          index.set(d, next);
          low.set(d, next++);
          stack.push(d);
          onStack.add(d);
          work.push({ node: d, edge: 0 });
        } else if (onStack.has(d)) low.set(top.node, Math.min(low.get(top.node)!, index.get(d)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== top.node);
        if (component.length > 1 || (imports.get(top.node) ?? []).includes(top.node)) out.push(component.sort());
      }
    }
  }
  return out.sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
}

/**
 * The imports that cross layers they must not: `layerOf` names a file's layer (undefined: a file the rules do
 * not place, itself reported), `allowed` the layers each layer may import besides itself (`*`: any). Each
 * wrong import is `from → to`.
 */
export function forbiddenImports(
  imports: ReadonlyMap<string, readonly string[]>,
  layerOf: (file: string) => string | undefined,
  allowed: Readonly<Record<string, readonly string[]>>,
): string[] {
  const wrong: string[] = [];
  for (const [file, deps] of imports) {
    const from = layerOf(file);
    if (from === undefined || !(from in allowed)) {
      wrong.push(`${file}: in no layer`);
      continue;
    }
    for (const dep of deps) {
      const to = layerOf(dep);
      if (to === from || allowed[from]!.includes('*') || (to !== undefined && allowed[from]!.includes(to))) continue;
      wrong.push(`${file} → ${dep}`);
    }
  }
  return wrong;
}
