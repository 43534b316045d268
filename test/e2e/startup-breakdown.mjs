// Breaks each cold open (a click on a file in the Explorer → its first error squiggle) into the steps of the
// start-up timeline: the lines the extension host and the language server append to LOGFILTER_STARTUP_TRACE
// (packages/language-server/src/startup-trace.ts), the UI test's own times around each open, and the
// workbench's performance marks read from the page (`wb:code/...`, VS Code's own start-up marks).
import { existsSync, readFileSync } from 'node:fs';

/**
 * The steps, in order. Each is the time from the event `from` to the event `to` (see below for which of
 * several of a kind). `owner` says whose code runs in that step: `code-server` (the workbench and its
 * extension host, not ours), `extension`, `server`, or `both` (the client and the server talking).
 * `path` says where a step lies: `page` before the click; `critical` steps follow each other from the click
 * to the squiggle (they add up to the total); `client` steps split `to-diagnostics` (the client starts when
 * the bundle has loaded, before VS Code calls activate(), so `context` runs beside the handshake); `server`
 * steps run beside them in the server's thread or process, and delay the squiggle only where the client
 * waits for the server (`handshake`, `first-diagnostics`);
 * `workbench` steps split `activation` with the workbench's own marks (`wb:`);
 * `warm` steps are a warm open's (the extension already running; `only: 'warm'`: computed for a warm open
 * alone, one without a page load); `warm-critical` ones follow each other from the click to the client's
 * diagnostics, then `to-squiggle` ends the open (together they add up to its total). `page-text`,
 * `page-tokens`, `page-squiggle-dom` are the page's own moments of the open (open-probe.mjs).
 * An event is the first of its kind at or after the step's start (`after`: the first at or after that event;
 * by default the page load, or the click of a warm open); `to` is the first at or after `from`.
 */
export const STEPS = [
  { name: 'workbench', path: 'page', from: 'page-load', to: 'page-explorer', owner: 'code-server', what: 'page load to the Explorer listing the workspace' },
  { name: 'exthost-start', path: 'page', from: 'page-load', to: 'extension-host-start', owner: 'code-server', what: 'page load to the extension host process starting' },
  { name: 'extension-points', path: 'page', from: 'page-load', to: 'wb:code/didHandleExtensionPoints', owner: 'code-server', what: "page load to the workbench having registered the extensions' contributions (languages, grammars)" },
  { name: 'activation', path: 'critical', from: 'page-open', to: 'extension-load', owner: 'code-server', what: 'click to the extension host loading the extension (onLanguage activation)' },
  { name: 'editor-open', path: 'workbench', after: 'page-open', from: 'page-open', to: 'wb:code/didResolveTextFileEditorModel', owner: 'code-server', what: "the click to the workbench having read the file (its text model, whose language fires the extension's activation)" },
  { name: 'editor-to-extension', path: 'workbench', after: 'page-open', from: 'wb:code/didResolveTextFileEditorModel', to: 'extension-load', owner: 'code-server', what: 'the file read to the extension host loading the extension (after finishing its own start, if it is still booting, and loading other onLanguage extensions)' },
  { name: 'extension-load', path: 'critical', from: 'extension-load', to: 'extension-evaluated', owner: 'extension', what: 'loading and evaluating the extension bundle' },
  { name: 'to-diagnostics', path: 'critical', from: 'extension-evaluated', to: 'client-first-diagnostics', owner: 'both', what: 'the bundle evaluated to the first diagnostics at the client (the client steps below happen in it)' },
  { name: 'to-squiggle', path: 'critical', from: 'client-first-diagnostics', to: 'page-squiggle', owner: 'code-server', what: 'the extension host to the squiggle painted in the page' },
  { name: 'context', path: 'client', from: 'extension-evaluated', to: 'extension-activate', owner: 'code-server', what: 'VS Code building the extension context (its storage is read from the page) before calling activate()' },
  { name: 'handshake', path: 'client', from: 'client-start', to: 'client-ready', owner: 'both', what: 'the client starting to the server answering initialize (waits for the server to be up)' },
  { name: 'first-diagnostics', path: 'client', from: 'client-ready', to: 'client-first-diagnostics', owner: 'both', what: 'didOpen, the first check and its diagnostics reaching the client' },
  { name: 'open-to-server', path: 'warm', from: 'page-open', to: 'server-did-open', owner: 'code-server', what: "a warm open: the click to the server receiving didOpen (the workbench opening the file, the extension host and the client passing it on)" },
  { name: 'open-to-client', path: 'warm', from: 'page-open', to: 'client-first-diagnostics', owner: 'both', what: 'a warm open: the click to the diagnostics reaching the client (code-server opening the document, didOpen, the check)' },
  // a warm open's steps from the click to the squiggle, in order (they and `to-squiggle` add up to the total)
  { name: 'to-did-open', path: 'warm-critical', only: 'warm', from: 'page-open', to: 'client-did-open', owner: 'code-server', what: 'a warm open: the click to the client sending didOpen (the workbench reading the file into a text model, the extension host receiving the document)' },
  { name: 'to-server', path: 'warm-critical', only: 'warm', from: 'client-did-open', to: 'server-did-open', owner: 'both', what: 'a warm open: didOpen from the client to the server (its thread)' },
  { name: 'server-check', path: 'warm-critical', from: 'server-did-open', to: 'server-first-diagnostics', owner: 'server', what: 'a warm open: didOpen to the first diagnostics sent' },
  { name: 'to-client', path: 'warm-critical', only: 'warm', from: 'server-first-diagnostics', to: 'client-first-diagnostics', owner: 'both', what: 'a warm open: the diagnostics from the server to the client (converted by the client)' },
  // a warm open's page moments (open-probe.mjs), beside the steps above
  { name: 'to-text', path: 'warm', only: 'warm', from: 'page-open', to: 'page-text', owner: 'code-server', what: "a warm open: the click to the editor showing the file's text" },
  { name: 'to-tokens', path: 'warm', only: 'warm', from: 'page-open', to: 'page-tokens', owner: 'code-server', what: 'a warm open: the click to the first token coloured by the grammar' },
  { name: 'editor-input', path: 'warm', only: 'warm', after: 'page-open', from: 'page-open', to: 'wb:code/didSetInputToTextFileEditor', owner: 'code-server', what: 'a warm open: the click to the text editor having its input (the model set in the editor widget)' },
  { name: 'squiggle-frame', path: 'warm', only: 'warm', from: 'page-squiggle-dom', to: 'page-squiggle', owner: 'code-server', what: "a warm open: the squiggle in the editor's DOM to the next animation frame (its frame painted)" },
  { name: 'server-start', path: 'server', from: 'extension-load', to: 'server-process-start', owner: 'extension', what: 'the extension loading to the server process (or thread) starting' },
  { name: 'server-load', path: 'server', from: 'server-process-start', to: 'server-loaded', owner: 'server', what: 'node start-up (a process only) and evaluating the server bundle' },
  { name: 'server-idle', path: 'server', from: 'server-loaded', to: 'server-initialize', owner: 'server', what: 'the server ready, waiting for initialize (warming up meanwhile)' },
  { name: 'first-check', path: 'server', from: 'server-initialize', to: 'server-first-diagnostics', owner: 'both', what: 'initialize to the first diagnostics sent' },
];

export const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] : undefined);

/** The trace file's events, in time order (a line that is not JSON, e.g. a torn last write, is skipped). */
export function readTrace(file) {
  if (!existsSync(file)) return [];
  const events = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    try {
      const e = JSON.parse(line);
      if (typeof e.event === 'string' && typeof e.at === 'number') events.push(e);
    } catch {
      /* skip */
    }
  }
  return events.sort((a, b) => a.at - b.at);
}

/**
 * The steps of one open. `open` is `{ load, explorer, open, squiggle, marks, moments }` (wall-clock ms; `load`
 * and `explorer` are absent for a warm open; `marks`: the page's `[name, ms]` performance marks, if read;
 * `moments`: the page's own moments of the open, open-probe.mjs's, if taken).
 * Events count from the page load (or the click) up to the squiggle.
 * Returns `{ total, steps: { name: ms }, warm }`; a step whose events are missing is left out.
 */
export function breakdownOf(events, open) {
  const fixed = {
    'page-load': open.load,
    'page-explorer': open.explorer,
    'page-open': open.open,
    'page-squiggle': open.squiggle,
  };
  const since = open.load ?? open.open;
  const moments = open.moments ?? {};
  const page = [
    ...(open.marks ?? []).map(([name, at]) => ({ event: `wb:${name}`, at })),
    ...['text', 'tokens'].filter((k) => typeof moments[k] === 'number').map((k) => ({ event: `page-${k}`, at: moments[k] })),
    ...(typeof moments.squiggle === 'number' ? [{ event: 'page-squiggle-dom', at: moments.squiggle }] : []),
  ];
  const all = [...events, ...page].filter((e) => e.at >= since && e.at <= open.squiggle && !(e.event in fixed));
  all.sort((a, b) => a.at - b.at);
  const first = (event, after) => (event in fixed ? fixed[event] : all.find((e) => e.event === event && e.at >= after)?.at);
  const steps = {};
  const warm = open.load === undefined;
  for (const s of STEPS) {
    if (s.only === 'warm' && !warm) continue;
    const after = s.after ? first(s.after, since) : since;
    if (typeof after !== 'number') continue;
    const from = first(s.from, after);
    const to = typeof from === 'number' ? first(s.to, from) : undefined;
    if (typeof from === 'number' && typeof to === 'number') steps[s.name] = Math.round(to - from);
  }
  return { total: open.squiggle - open.open, steps, warm };
}

/**
 * Median of each step over several opens, in STEPS order, as `name ms` pairs, then the sum of those medians
 * per owner over the critical steps (whose code the time from the click to the squiggle is spent in; a warm
 * open's own critical steps count when every open is warm).
 */
export function medianSteps(breakdowns) {
  const out = [];
  const owners = new Map();
  for (const s of STEPS) {
    const xs = breakdowns.map((b) => b.steps[s.name]).filter((x) => typeof x === 'number');
    if (!xs.length) continue;
    out.push(`${s.name} ${median(xs)}`);
    if (s.path === 'critical' || (s.path === 'warm-critical' && breakdowns.every((b) => b.warm))) owners.set(s.owner, (owners.get(s.owner) ?? 0) + median(xs));
  }
  if (!out.length) return '';
  if (!owners.size) return out.join(', ');
  return `${out.join(', ')}; click to squiggle by owner: ${[...owners].map(([o, ms]) => `${o} ${ms}`).join(', ')}`;
}
