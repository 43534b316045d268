/** Paths tests share. `shared/` (the contract and the corpus) sits beside the repository, in CI as here. */
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const SHARED = path.resolve(REPO, '../shared');
export const CORPUS = path.join(SHARED, 'corpus');
export const DATASET_REFERENCE = path.join(SHARED, 'reference', 'datasets');
