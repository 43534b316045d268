/**
 * Scanning NDJSON bytes with a filter, in the page (the Web Worker of scan-worker.ts runs this): the core's
 * block scanner, the same one `logfilter eval` runs, fed block by block from a stream so that a file of any
 * size is read without holding it whole. Pure apart from the streams API, so vitest runs it too.
 */
import { createBlockScanner, type FilterDocument } from '@logfilter/core';

export interface ScanProgress {
  /** Bytes of the input read so far (compressed bytes for a .gz file: the file's size is what is known). */
  read: number;
  lines: number;
  total: number;
  matched: number;
  malformed: number;
}

export interface ScanResult extends ScanProgress {
  /** The core's WebAssembly line kernel read the candidate lines (false: its JavaScript path did). */
  kernel: boolean;
  /** The first `keep` matching lines, with their line numbers (1-based). */
  matches: { line: number; text: string }[];
}

export interface ScanOptions {
  /** How many matching lines to keep for the list (they are all counted). */
  keep?: number;
  /** Called after each block. */
  onProgress?(p: ScanProgress): void;
  /** Bytes of the input read so far, when the stream is a decompression of it. */
  readBytes?(): number;
}

/** Gzip's two magic bytes: a file is decompressed by its content, whatever its name. */
export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/**
 * A blob's bytes as a stream of `size`-byte slices. Blob.stream() hands a dropped file out in 64 KiB chunks,
 * each a trip to the browser process; reading 4 MiB slices spends less time between scans.
 */
export function sliceStream(blob: Blob, size = 4 << 20): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      if (at >= blob.size) return c.close();
      const end = Math.min(blob.size, at + size);
      const bytes = new Uint8Array(await blob.slice(at, end).arrayBuffer());
      at = end;
      c.enqueue(bytes);
    },
  });
}

/** Blocks of at least this many bytes are scanned at once: the scanner's per-block set-up stays negligible. */
const BLOCK = 1 << 20;

export async function scanStream(filter: FilterDocument, stream: ReadableStream<Uint8Array>, options: ScanOptions = {}): Promise<ScanResult> {
  const keep = options.keep ?? 1000;
  const scanner = createBlockScanner(filter);
  const counts: ScanProgress = { read: 0, lines: 0, total: 0, matched: 0, malformed: 0 };
  const matches: ScanResult['matches'] = [];

  const scanBlock = (hay: Uint8Array, end: number) => {
    // line numbers of matches: the lines before the match in this block, counted only for the ones kept
    const firstLine = counts.lines;
    let counted = 0;
    let countedLines = 0;
    // once enough lines are kept, the scan is asked for counts only: a match callback makes it decode every
    // matching line's text (in Chromium, a TextDecoder call each, most of the scan's time on a 50 MB file)
    const c = scanner.scan(hay, 0, end, matches.length >= keep ? undefined : {
      onMatch(text, start) {
        if (matches.length >= keep) return;
        for (let i = counted; i < start; i++) if (hay[i] === 10) countedLines++;
        counted = start;
        matches.push({ line: firstLine + countedLines + 1, text });
      },
    });
    counts.lines += c.lines;
    counts.total += c.total;
    counts.matched += c.matched;
    counts.malformed += c.malformed;
  };

  // chunks are gathered until a block's worth, then joined once (joining at every chunk would copy the
  // growing block again and again)
  const reader = stream.getReader();
  let chunks: Uint8Array[] = [];
  let gathered = 0;
  const join = (): Uint8Array => {
    if (chunks.length === 1) return chunks[0];
    const joined = new Uint8Array(gathered);
    let at = 0;
    for (const c of chunks) joined.set(c, (at += c.length) - c.length);
    return joined;
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    counts.read += value.length;
    chunks.push(value);
    gathered += value.length;
    if (gathered < BLOCK) continue;
    const block = join();
    const lastNewline = block.lastIndexOf(10);
    if (lastNewline < 0) {
      chunks = [block];
      continue;
    }
    scanBlock(block, lastNewline + 1);
    const rest = block.slice(lastNewline + 1);
    chunks = [rest];
    gathered = rest.length;
    options.onProgress?.({ ...counts, read: options.readBytes?.() ?? counts.read });
  }
  const pending = join();
  if (pending.length) scanBlock(pending, pending.length);
  const result = { ...counts, read: options.readBytes?.() ?? counts.read, matches, kernel: scanner.checksUtf8 };
  options.onProgress?.(result);
  return result;
}
