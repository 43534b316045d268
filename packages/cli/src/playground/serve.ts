/** The playground's static files over HTTP on 127.0.0.1 (serve-static: paths under the site's folder only). */
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import serveStatic from 'serve-static';
import { UsageError } from '../errors.js';

/**
 * Where the site's files are: beside the CLI's bundle (dist/playground-site, copied there by the playground's
 * build), or, run from the sources or tsc's output, in the playground package's dist/.
 */
export function findSite(): string | undefined {
  const candidates = [new URL('./playground-site/', import.meta.url), new URL('../../../playground/dist/', import.meta.url)];
  return candidates.map((u) => fileURLToPath(u)).find((d) => existsSync(`${d}index.html`));
}

export interface SiteServer {
  url: string;
  close(): Promise<void>;
}

export function serveSite(dir: string, port: number): Promise<SiteServer> {
  const files = serveStatic(dir, { dotfiles: 'ignore', index: ['index.html'], fallthrough: true });
  const server = createServer((req, res) => {
    // the page talks to nothing (its CSP says so too); these headers keep it that way when served
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    files(req, res, () => {
      if (res.headersSent) return;
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('not found\n');
    });
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
