// Reads test/conformance/fixtures/*.txt (format: test/conformance/README.md) for the browser test, which runs
// them through the page. Same reading as conformance.test.ts's readFixtures.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export function readConformance(dir) {
  const cases = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.txt')).sort()) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    for (const chunk of text.split(/^=== /m).slice(1)) {
      const lines = chunk.split('\n');
      const c = { file, name: lines.shift().trim(), options: {} };
      let section = 'source';
      const body = { source: [] };
      for (const line of lines) {
        const m = /^--- (\w+)(?: (.*))?$/.exec(line);
        if (m) {
          if (m[1] === 'options') c.options = JSON.parse(m[2]);
          else body[(section = m[1])] = [];
          continue;
        }
        body[section].push(line);
      }
      const trimEnd = (ls) => {
        while (ls.length && ls[ls.length - 1] === '') ls.pop();
        return ls;
      };
      c.source = trimEnd(body.source).join('\n');
      if (body.json) c.json = trimEnd(body.json).join('\n');
      if (body.diagnostics) c.diagnostics = trimEnd(body.diagnostics);
      if (body.format) c.format = `${trimEnd(body.format).join('\n')}\n`;
      cases.push(c);
    }
  }
  return cases;
}

/** `code line:col-line:col` (1-based, end exclusive), as the fixtures write ranges. */
export function describeRange(text, code, start, end) {
  const at = (offset) => {
    const before = text.slice(0, offset).split('\n');
    return `${before.length}:${before[before.length - 1].length + 1}`;
  };
  return `${code} ${at(start)}-${at(end)}`;
}
