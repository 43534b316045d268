/** Types of readme.mjs (a build script, plain JavaScript), for the tests that import it. */
export function inlineImages(markdown: string, dir: string): string;
