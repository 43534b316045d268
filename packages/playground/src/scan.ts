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

/** Where a scan's time went, in milliseconds (the browser test prints it, to see what to speed up). */
export interface ScanProfile {
  /** Waiting for the next bytes (reading the file, decompressing). */
  wait: number;
  /** Of which waiting for the first bytes. */
  first: number;
  /** In the core's scanner. */
  scan: number;
  /** Joining the chunks into blocks (copies). */
  join: number;
}

export interface ScanResult extends ScanProgress {
  profile: ScanProfile;
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
 * A blob's bytes as a stream of `size`-byte slices, `ahead` of them being read at once. Each read of a dropped
 * file is a trip to the browser process, and in Chromium one slice at a time reads a file at a fraction of the
 * disk's speed (Blob.stream() too: it hands it out in 64 KiB chunks): measured in the worker on 50 MB,
 * 4 MiB slices one at a time took ~4x as long as 8 MiB slices three at a time.
 */
/** The first slice of a file (see sliceStream). */
const FIRST_SLICE = 1 << 20;

export function sliceStream(blob: Blob, size = 8 << 20, ahead = 3): ReadableStream<Uint8Array> {
  let at = 0;
  const pending: Promise<ArrayBuffer>[] = [];
  const topUp = () => {
    while (pending.length < ahead && at < blob.size) {
      // the first slice is a small one: the scan starts while the large ones are being read
      const end = Math.min(blob.size, at + (at === 0 ? Math.min(size, FIRST_SLICE) : size));
      pending.push(blob.slice(at, end).arrayBuffer());
      at = end;
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      topUp();
      const next = pending.shift();
      if (!next) return c.close();
      const bytes = new Uint8Array(await next);
      // the next read starts before this slice is scanned
      topUp();
      c.enqueue(bytes);
    },
    cancel() {
      pending.length = 0;
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
  const profile: ScanProfile = { wait: 0, first: 0, scan: 0, join: 0 };

  const scanBlock = (hay: Uint8Array, end: number) => {
    const t0 = performance.now();
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
    profile.scan += performance.now() - t0;
  };

  // Chunks are gathered until a block's worth, then copied once into a block: where the core's line kernel
  // runs, into its own memory (scanner.region), where it scans them in place; otherwise the kernel would copy
  // every byte there again. The block's unfinished last line is carried to the front of the next block.
  const reader = stream.getReader();
  let chunks: Uint8Array[] = [];
  let gathered = 0;
  const block = (): Uint8Array => {
    const t0 = performance.now();
    const out = scanner.region(gathered) ?? new Uint8Array(gathered);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    profile.join += performance.now() - t0;
    return out;
  };
  /** Where the gathered bytes' last `\n` is (-1: none yet, the carried line goes on). */
  let lastNewline = -1;
  for (;;) {
    const t0 = performance.now();
    const { done, value } = await reader.read();
    profile.wait += performance.now() - t0;
    if (counts.read === 0) profile.first = profile.wait;
    if (done) break;
    counts.read += value.length;
    const nl = value.lastIndexOf(10);
    if (nl >= 0) lastNewline = gathered + nl;
    chunks.push(value);
    gathered += value.length;
    // a block's worth, holding at least one whole line (a line longer than a block is gathered on)
    if (gathered < BLOCK || lastNewline < 0) continue;
    const hay = block();
    // the unfinished line, copied out: a scan of the region may overwrite the bytes after the block's end
    const rest = hay.slice(lastNewline + 1, gathered);
    scanBlock(hay, lastNewline + 1);
    chunks = [rest];
    gathered = rest.length;
    lastNewline = -1;
    options.onProgress?.({ ...counts, read: options.readBytes?.() ?? counts.read });
  }
  if (gathered) {
    const hay = block();
    scanBlock(hay, gathered);
  }
  const result = { ...counts, read: options.readBytes?.() ?? counts.read, matches, kernel: scanner.checksUtf8, profile };
  options.onProgress?.(result);
  return result;
}
