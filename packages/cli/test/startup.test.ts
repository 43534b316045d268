/**
 * What the start-up of `compile-filter` and `logfilter eval` leaves out (bench/startup.bench.mjs measures it):
 * checked on the bundles `npm run build` writes, since that is what users start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../../test/support/paths.js';

const bundle = (name: string) => fs.readFileSync(path.join(REPO, 'packages/cli/dist', name), 'utf8');
/** A constant of the `yaml` library's own code (its core schema's tag prefix). */
const YAML_LIBRARY = 'tag:yaml.org,2002:';

describe('start-up bundles', () => {
  it('leave the YAML library out of compile-filter and eval (only -o yaml and YAML inputs of the API commands use it)', () => {
    expect(bundle('compile-filter.cjs')).not.toContain(YAML_LIBRARY);
    expect(bundle('logfilter-eval.cjs')).not.toContain(YAML_LIBRARY);
    // the full CLI has it, so the marker does tell
    expect(bundle('logfilter.cjs')).toContain(YAML_LIBRARY);
  });
});
