/**
 * The playground's static files over HTTP on 127.0.0.1. The site is a handful of files known when the server
 * starts, so a request is answered only when its path names one of them (nothing else on the disk can be
 * reached, whatever `..` or encoding it carries). A general static server (serve-static) was the first
 * choice, but its MIME database added ~200 KB to the bundle every `logfilter` command loads at start-up.
 */
import { createServer } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.js';

/**
 * Where the site's files are: beside the CLI's bundle (dist/playground-site, copied there by the playground's
 * build), or, run from the sources or tsc's output, in the playground package's dist/.
 */
export function findSite(): string | undefined {
  const candidates = [new URL('./playground-site/', import.meta.url), new URL('../../../playground/dist/', import.meta.url)];
  return candidates.map((u) => fileURLToPath(u)).find((d) => existsSync(`${d}index.html`));
}

/** The types of the files the site is made of; any other file in its folder is not served. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface SiteServer {
  url: string;
  close(): Promise<void>;
}

export function serveSite(dir: string, port: number): Promise<SiteServer> {
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[path.extname(name)];
    if (type) files.set(`/${name}`, { body: readFileSync(path.join(dir, name)), type });
  }
  files.set('/', files.get('/index.html')!);
  const server = createServer((req, res) => {
    const target = parseTarget(req.url ?? '/');
    if (!target) {
      // a request target that is not a URL (`GET http://[`): new URL() threw here and the throw ended the server
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('bad request target\n');
      return;
    }
    const file = files.get(target.pathname);
    // the page talks to nothing (its CSP says so too); these headers keep it that way when served
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (file && req.method !== 'GET' && req.method !== 'HEAD') {
      // a file that is there, asked with a method a static site does not take (HTTP's 405, with what it takes)
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
      return;
    }
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    res.writeHead(200, { 'Content-Type': file.type, 'Content-Length': file.body.length, 'Cache-Control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'EADDRINUSE'
          ? new UsageError(`port ${port} on 127.0.0.1 is in use; choose another with --port, or --port 0 for any free port`)
          : new UsageError(`cannot listen on 127.0.0.1:${port}: ${e.message}`),
      ),
    );
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      resolve({
        url: `http://127.0.0.1:${actual}/`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/** The request's target as a URL, or undefined when it is not one (URL.parse is not in every Node 20). */
function parseTarget(target: string): URL | undefined {
  try {
    return new URL(target, 'http://x');
  } catch {
    return undefined;
  }
}
