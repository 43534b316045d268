/** fmt keeps a commented list one item per line, each comment with its item. */
import { describe, expect, it } from 'vitest';
import { compile, format } from '../src/index.js';

describe('comments inside a list', () => {
  it('stay with their items, one item per line', () => {
    const src = 'ClientCountry in [\n  "us", # United States\n  "ca" # Canada\n]\n';
    const r = format(src);
    expect(r.ok).toBe(true);
    expect(r.text.split('\n')).toEqual(['ClientCountry in [', '  "us",  # United States', '  "ca"  # Canada', ']', '']);
    expect(format(r.text).text).toBe(r.text);
    expect(compile(r.text).json).toBe(compile(src).json);
  });

  it('a comment on its own line goes before the next item; a list without comments stays on one line', () => {
    const src = 'EdgeResponseStatus in [500, # a\n# lead\n502] and ClientCountry in ["us", "ca"]\n';
    const lines = format(src).text.split('\n');
    expect(lines).toContain('  500,  # a');
    expect(lines.indexOf('  # lead')).toBe(lines.indexOf('  502') - 1);
    expect(lines).toContain('and ClientCountry in ["us", "ca"]');
    expect(compile(format(src).text).json).toBe(compile(src).json);
  });
});
