/**
 * Paths tests share. The real filters, log lines and dataset reference tables are vendored under
 * `test/fixtures/` (their public origins in `test/fixtures/SOURCES.md`), so the repository needs nothing beside it.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURES = path.join(REPO, 'test', 'fixtures');
export const CORPUS = path.join(FIXTURES, 'corpus');
export const DATASET_REFERENCE = path.join(FIXTURES, 'datasets');
