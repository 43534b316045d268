// The README packaged in the .vsix: its relative image links become data: URIs. VS Code's extension
// details page shows the README in a webview whose content policy loads images only from https: and
// data:, and a locally installed .vsix has no https address for them (vsce rewrites relative links to a
// repository URL, which we turn off with --no-rewrite-relative-links: there is no public one).
import { readFileSync } from 'node:fs';
import path from 'node:path';

const TYPES = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.svg': 'image/svg+xml' };

/** `markdown` with every relative `![alt](file)` image (of a known type, under `dir`) inlined as a data: URI. */
export function inlineImages(markdown, dir) {
  return markdown.replace(/!\[([^\]]*)\]\(([^)\s]+)((?:\s+"[^"]*")?)\)/g, (whole, alt, target, title) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) return whole;
    const type = TYPES[path.extname(target).toLowerCase()];
    if (!type) return whole;
    const data = readFileSync(path.join(dir, target)).toString('base64');
    return `![${alt}](data:${type};base64,${data}${title})`;
  });
}
