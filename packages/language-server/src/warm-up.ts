/**
 * Warms a server up while it waits for its client. The first check of a document pays for building the
 * parsers (chevrotain's grammar analysis), the lexers and the dataset tables, and runs cold code; done once
 * on small samples of both languages, with a misspelt field for the "did you mean" path, that cost is paid
 * before the editor opens its first file. Used where the server starts before its client is ready (the VS
 * Code extension starts its thread while it is still being activated); a stdio server is sent `initialize`
 * at once, and there its first check would only be pushed back by the same cost.
 */
import { DEFAULT_SETTINGS } from './settings.js';
import { runTask } from './tasks.js';

/** Samples that take the paths of a first check: a dataset line, a misspelt field, a number comparison; the rules language's misspelt field. */
export const FILTER_SAMPLE = 'dataset http_requests\nClientRequestHots == "a" and EdgeResponseStatus >= 500\n';
export const RULE_SAMPLE = 'http.hots eq "a" and ssl';

/**
 * One sample at a time, yielding to the event loop in between: a client that is already waiting (its
 * `initialize` or `didOpen` queued) is answered after one step, not after the whole warm-up.
 */
export function warmUp(): void {
  const steps = [
    () => runTask({ kind: 'compile', text: FILTER_SAMPLE, settings: DEFAULT_SETTINGS }),
    () => runTask({ kind: 'highlight', text: FILTER_SAMPLE, dataset: DEFAULT_SETTINGS.dataset }),
    () => runTask({ kind: 'rules-check', text: RULE_SAMPLE, document: 'rule' }),
  ];
  const next = () => {
    const step = steps.shift();
    if (!step) return;
    try {
      step();
    } catch {
      /* a warm-up that fails changes nothing: the document's own check reports what is wrong */
    }
    setImmediate(next);
  };
  next();
}
