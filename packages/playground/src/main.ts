/**
 * The page: wires the editors (editor.ts), the three faces of the filter (views.ts), the log scan in a worker
 * (scan-worker.ts), one-line explain and the share link (share.ts) to the DOM of index.html.
 */
import { DATASETS, DEFAULT_DATASET, DEFAULT_MAX_BYTES, DEFAULT_MAX_OPERATORS, lineColumn, lineStarts, PHASES, type Diagnostic, type FilterDocument } from '@logfilter/core';
import { createEditor } from './editor.js';
import { filterLanguage, rulesLanguage } from './languages.js';
import { compileView, decompileView, type Compiled } from './views.js';
import { decodeState, encodeState, isLimit, type PageState } from './share.js';
import { explainLine } from './explain-line.js';
import { EMPTY_REQUEST, evaluateRequest, requestOf, type RequestForm } from './rule-request.js';
import type { ScanReply, ScanRequest } from './scan-worker.js';
import workerSource from 'virtual:scan-worker';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

const EXAMPLE = 'dataset http_requests\n\n# traffic worth keeping: bots and server errors\nBotScore < 30 or EdgeResponseStatus >= 500\n';
const EXAMPLE_RULE = 'http.request.uri.path contains "/admin" and not ip.src in {192.0.2.0/24}';
/** A request the example rule matches: an admin path from outside 192.0.2.0/24. */
const EXAMPLE_REQUEST: RequestForm = { ...EMPTY_REQUEST, url: 'https://shop.example/admin/users?id=7', method: 'GET', ip: '198.51.100.7', headers: 'User-Agent: curl/8.5' };
const defaults: PageState = { lang: 'filter', dataset: DEFAULT_DATASET, source: EXAMPLE, rule: EXAMPLE_RULE, phase: 'http_request_firewall_custom', logs: '', request: EXAMPLE_REQUEST, optimize: false, maxOperators: DEFAULT_MAX_OPERATORS, maxBytes: DEFAULT_MAX_BYTES };
/** Matching lines listed (all are counted). */
const KEEP = 500;

const state: PageState = { ...defaults, request: { ...defaults.request } };
let compiled: Compiled;
/** The dropped file, rescanned when the filter changes; pasted text is used when there is none. */
let file: File | undefined;

function debounce(fn: () => void, ms: number): () => void {
  let t: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(t);
    t = setTimeout(fn, ms);
  };
}

function option(select: HTMLSelectElement, value: string, label = value) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = label;
  select.append(o);
}

/** `code line:col message` rows, with the fixes as buttons. */
function showProblems(list: HTMLElement, text: string, diagnostics: readonly Diagnostic[], apply?: (d: Diagnostic, fix: number) => void) {
  list.replaceChildren();
  const starts = lineStarts(text);
  for (const d of diagnostics) {
    const li = document.createElement('li');
    li.className = d.severity;
    const at = lineColumn(starts, d.start);
    li.dataset.code = d.code;
    li.dataset.range = `${d.start}-${d.end}`;
    li.textContent = `${d.severity} ${d.code} at ${at.line}:${at.column}: ${d.message}`;
    (d.fixes ?? []).forEach((f, i) => {
      if (!apply) return;
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = f.title;
      b.className = 'fix';
      b.onclick = () => apply(d, i);
      li.append(b);
    });
    list.append(li);
  }
}

// ---- the filter side

const datasetSelect = $<HTMLSelectElement>('dataset');
for (const name of DATASETS.keys()) option(datasetSelect, name);
option(datasetSelect, 'any', 'any (no field checks)');

/** The compile options of the toolbar, as `logfilter compile --optimize --max-operators N --max-bytes N`. */
const choices = () => ({ optimize: state.optimize, maxOperators: state.maxOperators, maxBytes: state.maxBytes });
const filterLang = filterLanguage(() => state.dataset, choices);
/**
 * What scripts may read and drive on the page (the browser test does): the core's answer times, and the source
 * set as a paste would set it.
 */
const timings = { complete: [] as number[], diagnostics: [] as number[], compile: [] as number[] };
const onTiming = (kind: keyof typeof timings, ms: number) => void timings[kind].push(ms);
(window as unknown as { logfilterPlayground: unknown }).logfilterPlayground = {
  timings,
  setSource: (text: string) => source.setText(text),
  source: () => source.text(),
  rule: () => rule.text(),
  setRule: (text: string) => rule.setText(text),
  format: () => source.format(),
};

const source = createEditor($('source-editor'), filterLang, { doc: state.source, label: 'Filter source', onChange: (t) => ((state.source = t), onSourceChange()), onTiming });
const jsonBox = $<HTMLTextAreaElement>('json');
const escapedBox = $<HTMLTextAreaElement>('escaped');

function applySourceFix(d: Diagnostic, i: number) {
  const f = d.fixes![i];
  source.view.dispatch({ changes: f.edits.map((e) => ({ from: e.start, to: e.end, insert: e.newText })) });
  source.view.focus();
}

function render() {
  const t0 = performance.now();
  compiled = compileView(state.source, state.dataset, choices());
  onTiming('compile', performance.now() - t0);
  showProblems($('problems'), state.source, compiled.diagnostics, applySourceFix);
  const s = compiled.stats;
  const budget = $('budget');
  const before = s.operatorsBeforeOptimize !== undefined && s.operatorsBeforeOptimize !== s.operators ? ` (${s.operatorsBeforeOptimize} before optimizing)` : '';
  budget.textContent = `${s.operators} / ${s.maxOperators} operators${before} · ${s.bytes} / ${s.maxBytes} bytes · dataset ${compiled.dataset}`;
  budget.classList.toggle('over', s.operators > s.maxOperators || s.bytes > s.maxBytes);
  // the box being edited is not rewritten under the cursor; once neither is, a pasted JSON's problems are gone
  if (document.activeElement !== jsonBox) jsonBox.value = compiled.json;
  if (document.activeElement !== escapedBox) escapedBox.value = compiled.escaped;
  if (document.activeElement !== jsonBox && document.activeElement !== escapedBox) $('json-problems').replaceChildren();
  // the chooser shows the dataset the filter is checked against (its dataset line's, when it has one)
  if (compiled.dataset !== datasetSelect.value && [...datasetSelect.options].some((o) => o.value === compiled.dataset)) datasetSelect.value = state.dataset = compiled.dataset;
}

/** What the last scan ran: an edit that leaves the compiled filter as it was (a comment, a space) does not rescan. */
let scanned: { filter: string; input: Blob | string | undefined } | undefined;
const rescan = debounce(() => {
  if (scanned && scanned.filter === compiled.compact && scanned.input === (file ?? state.logs)) return;
  scan();
}, 250);
const saveLater = debounce(() => void saveToHash(), 400);
function onSourceChange() {
  render();
  rescan();
  saveLater();
}

datasetSelect.onchange = () => {
  const chosen = datasetSelect.value;
  state.dataset = chosen;
  // a dataset line in the source wins over the choice: the choice rewrites it
  const line = /^dataset[ \t]+(\S+)/m.exec(source.text());
  if (line && line[1] !== chosen) {
    const at = line.index + line[0].length - line[1].length;
    source.view.dispatch({ changes: { from: at, to: at + line[1].length, insert: chosen } });
  } else onSourceChange();
  source.refresh();
};

const optimizeBox = $<HTMLInputElement>('optimize');
const limitInputs = { maxOperators: $<HTMLInputElement>('max-operators'), maxBytes: $<HTMLInputElement>('max-bytes') };
optimizeBox.onchange = () => {
  state.optimize = optimizeBox.checked;
  onSourceChange();
  source.refresh();
};
for (const [key, input] of Object.entries(limitInputs) as [keyof typeof limitInputs, HTMLInputElement][]) {
  input.addEventListener('input', () => {
    const n = Number(input.value);
    const ok = input.value.trim() !== '' && isLimit(n);
    input.setAttribute('aria-invalid', String(!ok));
    // a value that is no limit is said so, and the last good one stays in force (never a filter checked against nonsense)
    if (!ok) {
      $('status').textContent = `${input.labels?.[0]?.textContent?.trim()}: a whole number from 1 (the API's limit is ${defaults[key]}); ${state[key]} is used meanwhile.`;
      return;
    }
    state[key] = n;
    onSourceChange();
    source.refresh();
  });
}
function showChoices() {
  optimizeBox.checked = state.optimize;
  for (const [key, input] of Object.entries(limitInputs) as [keyof typeof limitInputs, HTMLInputElement][]) {
    input.value = String(state[key]);
    input.setAttribute('aria-invalid', 'false');
  }
}

$('format').onclick = () => {
  if (!source.format()) $('status').textContent = 'The source has syntax errors: it was not formatted.';
};

function fromJson(box: HTMLTextAreaElement) {
  const text = box.value;
  if (text.trim() === '' || text === (box === jsonBox ? compiled.json : compiled.escaped)) return;
  const d = decompileView(text, state.dataset);
  showProblems($('json-problems'), text, d.diagnostics.filter((x) => x.severity === 'error' || !d.ok));
  if (d.ok) source.setText(d.source!);
}
for (const box of [jsonBox, escapedBox]) {
  const later = debounce(() => fromJson(box), 300);
  box.addEventListener('input', later);
  box.addEventListener('blur', () => render());
}

// ---- logs

const logsBox = $<HTMLTextAreaElement>('logs');
let worker: Worker | undefined;

function scan() {
  worker?.terminate();
  worker = undefined;
  const counts = $('counts');
  const input: Blob | string | undefined = file ?? (state.logs.trim() ? state.logs : undefined);
  if (!input) {
    counts.textContent = '';
    $('matches').replaceChildren();
    return;
  }
  if (!compiled.ok || !compiled.compact) {
    counts.textContent = 'Fix the filter to test it against the logs.';
    counts.dataset.state = 'invalid';
    return;
  }
  scanned = { filter: compiled.compact, input: file ?? state.logs };
  const filter = JSON.parse(compiled.compact) as FilterDocument;
  const progress = $<HTMLProgressElement>('progress');
  const w = readyWorker();
  worker = w;
  const started = performance.now();
  const startedAt = performance.timeOrigin + started;
  w.onmessage = (e: MessageEvent<ScanReply>) => {
    const m = e.data;
    if (m.type === 'progress') {
      progress.hidden = false;
      progress.value = m.size ? m.progress.read / m.size : 0;
      counts.textContent = `scanning… ${m.progress.total} lines, ${m.progress.matched} matched`;
      return;
    }
    progress.hidden = true;
    w.terminate();
    if (worker === w) worker = undefined;
    prepareWorker();
    if (m.type === 'error') {
      counts.textContent = m.message;
      counts.dataset.state = 'error';
      return;
    }
    const r = m.result;
    counts.dataset.state = 'done';
    counts.dataset.total = String(r.total);
    counts.dataset.matched = String(r.matched);
    counts.dataset.malformed = String(r.malformed);
    const seconds = (performance.now() - started) / 1000;
    counts.dataset.seconds = String(seconds);
    counts.dataset.kernel = String(r.kernel);
    // where the time went (ms): the worker's start-up, waiting for bytes (the first ones), the scanner, joining blocks
    const p = r.profile;
    counts.dataset.profile = JSON.stringify({ start: Math.round(m.received - startedAt), wait: Math.round(p.wait), first: Math.round(p.first), scan: Math.round(p.scan), join: Math.round(p.join) });
    counts.textContent = `${r.total} lines, ${r.matched} matched${r.malformed ? `, ${r.malformed} malformed` : ''}${file ? ` in ${file.name}${m.gzip ? ' (gzip)' : ''}` : ''} · ${seconds.toFixed(2)} s`;
    // built apart and put in at once: one layout of the list, not one per line
    const list = document.createDocumentFragment();
    for (const { line, text } of r.matches) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = `${line}: ${text}`;
      b.title = 'Explain this line';
      b.onclick = () => explain(text);
      li.append(b);
      list.append(li);
    }
    if (r.matched > r.matches.length) {
      const li = document.createElement('li');
      li.textContent = `… and ${r.matched - r.matches.length} more`;
      list.append(li);
    }
    $('matches').replaceChildren(list);
  };
  const request: ScanRequest = { filter, input, keep: KEEP };
  w.postMessage(request);
}

/**
 * A worker started before it is needed: starting one (reading its code, compiling the core's WebAssembly)
 * takes tens of milliseconds that a scan would otherwise wait for. One is started when the page is ready and
 * after each scan, when the scan no longer needs the CPU.
 */
let spare: Worker | undefined;
function readyWorker(): Worker {
  const w = spare ?? new Worker(workerUrl());
  spare = undefined;
  return w;
}
function prepareWorker() {
  spare ??= new Worker(workerUrl());
}

/** The worker's code travels inside app.js (see build.mjs), so that the page works from file:// too. */
let workerBlobUrl: string | undefined;
function workerUrl(): string {
  return (workerBlobUrl ??= URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' })));
}

function explain(line: string) {
  const out = $('explain');
  out.replaceChildren();
  if (!compiled.ok) return;
  const e = explainLine(JSON.parse(compiled.compact) as FilterDocument, line);
  if (!e.ok) {
    out.textContent = e.error;
    return;
  }
  const head = document.createElement('p');
  head.textContent = e.matched ? 'The filter keeps this line:' : 'The filter drops this line:';
  const ul = document.createElement('ul');
  for (const r of e.rows) {
    const li = document.createElement('li');
    li.className = r.held ? 'held' : 'failed';
    li.dataset.id = r.id;
    li.style.paddingLeft = `${r.depth * 16}px`;
    li.textContent = `${r.held ? '✓' : '✗'} ${r.label}`;
    ul.append(li);
  }
  out.append(head, ul);
  const input = $<HTMLInputElement>('explain-input');
  if (input.value !== line) input.value = line;
}
$<HTMLInputElement>('explain-input').addEventListener('input', debounce(() => explain($<HTMLInputElement>('explain-input').value), 200));

logsBox.addEventListener(
  'input',
  debounce(() => {
    state.logs = logsBox.value;
    file = undefined;
    scan();
    void saveToHash();
  }, 300),
);

function takeFile(f: File | undefined) {
  if (!f) return;
  file = f;
  scan();
}
const drop = $('drop');
const picker = $<HTMLInputElement>('file');
drop.onclick = () => picker.click();
drop.onkeydown = (e) => {
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    picker.click();
  }
};
picker.onchange = () => takeFile(picker.files?.[0]);
drop.ondragover = (e) => {
  e.preventDefault();
  drop.classList.add('over');
};
drop.ondragleave = () => drop.classList.remove('over');
drop.ondrop = (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  takeFile(e.dataTransfer?.files[0]);
};

// ---- the rules side

const phaseSelect = $<HTMLSelectElement>('phase');
option(phaseSelect, '', '(any phase)');
for (const p of PHASES) option(phaseSelect, p);
const rule = createEditor($('rule-editor'), rulesLanguage(() => state.phase), {
  doc: state.rule,
  label: 'Rules expression',
  onTiming,
  onChange: (t) => {
    state.rule = t;
    renderRule();
    saveLater();
  },
});
function renderRule() {
  showProblems($('rule-problems'), state.rule, rulesLanguage(() => state.phase).diagnostics(state.rule), (d, i) => {
    rule.view.dispatch({ changes: d.fixes![i].edits.map((e) => ({ from: e.start, to: e.end, insert: e.newText })) });
  });
  renderRequest();
}

// ---- the rule tested against a request (rule-request.ts): evaluated at each edit, as `rules eval` would

const requestInputs = Object.fromEntries((Object.keys(EMPTY_REQUEST) as (keyof RequestForm)[]).map((k) => [k, $<HTMLInputElement | HTMLTextAreaElement>(`req-${k}`)])) as Record<keyof RequestForm, HTMLInputElement | HTMLTextAreaElement>;
for (const [key, input] of Object.entries(requestInputs) as [keyof RequestForm, HTMLInputElement][]) {
  input.addEventListener('input', () => {
    state.request[key] = input.value;
    renderRequest();
    saveLater();
  });
}

function renderRequest() {
  const result = $('rule-result');
  const steps = $('rule-explain');
  const problems = $('request-problems');
  steps.replaceChildren();
  problems.replaceChildren();
  $<HTMLTextAreaElement>('request-json').value = JSON.stringify(requestOf(state.request).request, null, 2);
  const r = evaluateRequest(state.rule, state.phase, state.request);
  result.dataset.state = r.state;
  delete result.dataset.code;
  delete result.dataset.range;
  const bad = new Set(r.state === 'bad-request' ? r.problems.map((p) => p.input) : []);
  for (const [key, input] of Object.entries(requestInputs)) input.setAttribute('aria-invalid', String(bad.has(key as keyof RequestForm)));
  if ('explain' in r) {
    result.textContent = r.state === 'match' ? 'Match: the rule matches this request.' : 'No match: the rule does not match this request.';
    // as `rules eval --explain` prints them: every sub-expression with its value, innermost first
    for (const s of r.explain) {
      const li = document.createElement('li');
      li.dataset.range = `${s.start}-${s.end}`;
      li.dataset.value = s.value;
      li.textContent = `${s.text.replace(/\s*\n\s*/g, ' ')}  =>  ${s.value}`;
      steps.append(li);
    }
  } else if (r.state === 'invalid') result.textContent = 'Fix the expression to test it (its problems are listed under it).';
  else if (r.state === 'problem') {
    const at = lineColumn(lineStarts(state.rule), r.start);
    result.dataset.code = r.code;
    result.dataset.range = `${r.start}-${r.end}`;
    result.textContent = `error ${r.code} at ${at.line}:${at.column}: ${r.message}`;
  } else {
    result.textContent = 'Fix the request to test it.';
    for (const p of r.problems) {
      const li = document.createElement('li');
      li.className = 'error';
      li.dataset.input = p.input;
      if (p.line !== undefined) li.dataset.line = String(p.line);
      li.textContent = `${requestInputs[p.input].labels?.[0]?.firstChild?.textContent?.trim() ?? p.input}${p.line !== undefined ? `, line ${p.line}` : ''}: ${p.message}`;
      problems.append(li);
    }
  }
}
phaseSelect.onchange = () => {
  state.phase = phaseSelect.value;
  rule.refresh();
  renderRule();
  saveLater();
};
$('rule-format').onclick = () => {
  if (!rule.format()) $('status').textContent = 'The expression has syntax errors: it was not formatted.';
};

// ---- tabs (arrow keys move between them, as in the WAI-ARIA tabs pattern)

const tabs = [$('tab-filter'), $('tab-rules')];
function showTab(lang: PageState['lang'], focus = false) {
  state.lang = lang;
  tabs.forEach((t) => {
    const on = t.id === `tab-${lang}`;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    if (on && focus) t.focus();
  });
  $('filter-panel').hidden = lang !== 'filter';
  $('rules-panel').hidden = lang !== 'rules';
}
tabs.forEach((t) => {
  t.onclick = () => (showTab(t.id === 'tab-rules' ? 'rules' : 'filter'), saveLater());
  t.onkeydown = (e) => {
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      showTab(state.lang === 'filter' ? 'rules' : 'filter', true);
      saveLater();
    }
  };
});

// ---- share

async function saveToHash() {
  // the logs box is read now: a link made within its input's debounce must still carry what was pasted
  state.logs = logsBox.value;
  const fragment = await encodeState(state);
  history.replaceState(null, '', `#${fragment}`);
  return fragment;
}
$('share').onclick = async () => {
  await saveToHash();
  const url = location.href;
  try {
    await navigator.clipboard.writeText(url);
    $('status').textContent = 'Link copied: it holds the whole state.';
  } catch {
    $('status').textContent = `Copy this link: ${url}`;
  }
};

function applyState(s: PageState) {
  Object.assign(state, s);
  datasetSelect.value = s.dataset;
  phaseSelect.value = s.phase;
  logsBox.value = s.logs;
  showChoices();
  state.request = { ...s.request };
  for (const [key, input] of Object.entries(requestInputs)) input.value = s.request[key as keyof RequestForm];
  source.setText(s.source);
  rule.setText(s.rule);
  showTab(s.lang);
}

async function start() {
  if (location.hash.length > 1) {
    const r = await decodeState(location.hash, defaults);
    if ('state' in r) applyState(r.state);
    else $('status').textContent = `The link could not be read (${r.error}); starting from the example.`;
  }
  datasetSelect.value = state.dataset;
  phaseSelect.value = state.phase;
  showChoices();
  for (const [key, input] of Object.entries(requestInputs)) input.value = state.request[key as keyof RequestForm];
  render();
  renderRule();
  scan();
  prepareWorker();
  document.body.dataset.ready = 'true';
}
void start();
