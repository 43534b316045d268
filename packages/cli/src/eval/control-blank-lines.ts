/**
 * Lines of only white space with a form feed (\f) or a vertical tab (\v) in them: JSON does not allow either as
 * white space, so the built-in evaluator counts such a line malformed, while DuckDB's NDJSON readers skip it as
 * blank. The DuckDB engine counts them here and adds them to its total and malformed counts. Most files have
 * neither byte: a chunk without one costs two byte searches (memchr speed) and a look at its first and last line;
 * only the lines around a hit are read byte by byte.
 */
const FF = 0x0c;
const VT = 0x0b;
const NL = 0x0a;
/** White space a blank line may hold (space, tab, \r); \f and \v are white space too, but not JSON's. */
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0d || b === FF || b === VT;

/** The line in progress so far: white space only, white space with \f or \v, or anything else. */
type LineState = 'blank' | 'control' | 'other';

/** Counts over a stream of chunks; a line may run across chunk edges. */
export class ControlBlankCounter {
  count = 0;
  private state: LineState = 'blank';

  push(chunk: Uint8Array): void {
    // the line in progress (or the chunk's first line) first
    let i = this.scan(chunk, 0);
    while (i >= 0) {
      const f = chunk.indexOf(FF, i);
      const v = chunk.indexOf(VT, i);
      const hit = f < 0 ? v : v < 0 ? f : Math.min(f, v);
      if (hit < 0) {
        // no \f or \v in the rest: no line ending here counts; only the unfinished last line's state is kept
        const tail = Math.max(i, chunk.lastIndexOf(NL) + 1);
        this.state = 'blank';
        for (let k = tail; k < chunk.length; k++) if (!isSpace(chunk[k])) return void (this.state = 'other');
        return;
      }
      // the lines before the hit's line hold neither byte
      this.state = 'blank';
      i = this.scan(chunk, Math.max(i, chunk.lastIndexOf(NL, hit) + 1));
    }
  }

  /** Reads from `from`, inside the line in progress, to the end of that line: the offset after its \n, or -1 when the chunk ends first. */
  private scan(chunk: Uint8Array, from: number): number {
    for (let k = from; k < chunk.length; k++) {
      const b = chunk[k];
      if (b === NL) {
        if (this.state === 'control') this.count++;
        this.state = 'blank';
        return k + 1;
      }
      if (this.state === 'other') {
        const nl = chunk.indexOf(NL, k);
        if (nl < 0) return -1;
        k = nl - 1;
      } else if (b === FF || b === VT) this.state = 'control';
      else if (!isSpace(b)) this.state = 'other';
    }
    return -1;
  }

  /** At the end of the input: a last line without \n counts too. */
  end(): number {
    if (this.state === 'control') this.count++;
    this.state = 'blank';
    return this.count;
  }
}

export function countControlBlankLines(chunks: Iterable<Uint8Array>): number {
  const c = new ControlBlankCounter();
  for (const chunk of chunks) c.push(chunk);
  return c.end();
}
