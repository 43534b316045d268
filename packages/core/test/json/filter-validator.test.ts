/** The build-time validator of the filter document is the one ajv generates from the current schema. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../../../test/support/paths.js';
import * as schema from '../../src/filter/json/schema.js';
import { validateFilterDocument } from '../../src/filter/json/schema.js';
import { generate } from '../../../../scripts/gen-filter-validator.mjs';

describe('generated filter validator', () => {
  it('matches what the generator makes from the current schema (else run scripts/gen-filter-validator.mjs)', async () => {
    // The generator's own function, given the schema module from the sources (the script reads the built one).
    const committed = fs.readFileSync(path.join(REPO, 'packages/core/src/filter/json/filter-validator.generated.ts'), 'utf8');
    expect(committed).toBe(await generate(schema));
  });

  it('accepts a filter and reports every schema error of a bad one', () => {
    expect(validateFilterDocument({ where: { key: 'a', operator: 'eq', value: 1 } })).toEqual({ valid: true, errors: [] });
    const bad = validateFilterDocument({ where: { and: [{ key: 'a', operator: 'nope', value: 1 }, { or: 3 }] } });
    expect(bad.valid).toBe(false);
    expect(bad.errors.length).toBeGreaterThan(1);
  });
});
