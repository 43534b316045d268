/**
 * The LOGS arguments of `eval` as a list of inputs: `-` is standard input; a directory stands for every
 * non-hidden file under it (recursively, sorted by path, so log export's `<YYYYMMDD>/<start>_<end>_<hash>.log.gz`
 * names come in time order); an argument that names no file but holds glob characters is expanded (tinyglobby,
 * sorted; quote it so that the shell leaves it to us); anything else is a file. An argument that yields no
 * file becomes an input error: reported, with the other inputs still evaluated.
 */
import { realpathSync, statSync, type Stats } from 'node:fs';
import { join as joinPath, resolve as resolvePath } from 'node:path';

export type LogArg = { kind: 'stdin' } | { kind: 'file'; name: string; path: string } | { kind: 'error'; name: string; message: string };

const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Loaded on first need: most runs name plain files, and start-up is part of every evaluation. */
const globber = () => import('tinyglobby');

/**
 * The files of a directory walk that are regular files, each real file once: links are followed, so a link back
 * to an ancestor would read the same logs twice (counted twice), and a link to a device (`/dev/zero`) would be
 * read without end. A listed file is read as given; only what the walk found is filtered.
 */
function regularOnce(root: string, found: string[]): string[] {
  const seen = new Set<string>();
  return found.filter((f) => {
    try {
      const real = realpathSync(joinPath(root, f));
      if (seen.has(real) || !statSync(real).isFile()) return false;
      seen.add(real);
      return true;
    } catch {
      return true; // gone or unreadable: reported when it is opened
    }
  });
}

export async function expandLogArgs(args: readonly string[], cwd: string): Promise<LogArg[]> {
  const out: LogArg[] = [];
  for (const arg of args) {
    if (arg === '-') {
      out.push({ kind: 'stdin' });
      continue;
    }
    const abs = resolvePath(cwd, arg);
    let stat: Stats | undefined;
    try {
      stat = statSync(abs);
    } catch {
      stat = undefined;
    }
    if (stat?.isDirectory()) {
      const { glob } = await globber();
      const found = regularOnce(abs, (await glob('**/*', { cwd: abs, onlyFiles: true, dot: false, followSymbolicLinks: true })).sort(byPath));
      if (found.length === 0) out.push({ kind: 'error', name: arg, message: `cannot read ${arg}: the directory holds no file` });
      for (const f of found) out.push({ kind: 'file', name: joinPath(arg, f), path: joinPath(abs, f) });
    } else if (!stat && (await globber()).isDynamicPattern(arg)) {
      const { glob } = await globber();
      const found = (await glob(arg, { cwd, onlyFiles: true, dot: false, expandDirectories: false })).sort(byPath);
      if (found.length === 0) out.push({ kind: 'error', name: arg, message: `cannot read ${arg}: no file matches this pattern` });
      for (const f of found) out.push({ kind: 'file', name: f, path: resolvePath(cwd, f) });
    } else {
      // A file, a FIFO, or a missing path (reported when it is opened).
      out.push({ kind: 'file', name: arg, path: abs });
    }
  }
  return out;
}
