// Types of bundle-patches.mjs, for the test that checks its patches.
export const CHAR_CODE_TABLE_ORIGINAL: string;
export const CHAR_CODE_TABLE_FILL: string;
export function applyPatches(file: string, source: string): string;
export const startUpPatches: { name: string; setup(b: unknown): void };
