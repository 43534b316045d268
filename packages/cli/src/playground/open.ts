/**
 * Opens a URL in the user's browser with the platform's own opener. Not the `open` package: it finds its
 * bundled xdg-open script beside its own module file, which is not there once the CLI is one bundled file.
 */
import { spawn } from 'node:child_process';

export function openInBrowser(url: string, onError: (message: string) => void): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', (e) => onError(e.message));
    child.unref();
  } catch (e) {
    onError(String(e));
  }
}
