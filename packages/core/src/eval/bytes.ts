/**
 * The byte-level hooks the raw-line evaluator takes from its host (Node passes Buffer's native search and
 * decoder). Their own module so that the scanner and the extractor both use them without importing each other.
 */

/** Finds `needle` in `hay[from, to)`; returns its index or -1. */
export type ByteSearch = (hay: Uint8Array, needle: Uint8Array, from: number, to: number) => number;
/** Decodes `hay[start, end)` as UTF-8; null when the bytes are not valid UTF-8. */
export type ByteDecode = (hay: Uint8Array, start: number, end: number) => string | null;
