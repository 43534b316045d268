// Types of gen-filter-validator.mjs, for the test that calls it.
export function generate(schema?: { FILTER_DOCUMENT_SCHEMA: unknown; EDITOR_KEYWORDS: readonly object[] }): Promise<string>;
