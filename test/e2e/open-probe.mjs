// Times an open in the page itself: a click on a file in the Explorer to what the user sees of it, each moment
// recorded by the page's own clock when it happens. Waiting for a selector from the test instead (playwright's
// locator.waitFor) is no clock: it polls after 0, 20, 50, 100, 100 ms, then every 500 ms, so a squiggle
// painted 300 ms after the click was seen at ~770 ms, one at 450 ms at ~940 ms (the warm `.rule` opens
// measured 902 / 1,344 / 306 ms that way, their squiggles all within ~400 ms of the click).
//
// Moments (page clock, wall-clock ms: performance.timeOrigin + the page's time), each the first after the click:
//   click     the pointerdown on the Explorer row (the event's own time stamp: when the input arrived)
//   tab       the file's tab is the active one
//   editor    an editor of the file exists (`.monaco-editor[data-uri$=name]`)
//   text      that editor shows the file's text (a view line that is not empty)
//   tokens    a token of it has a colour of the grammar (a class other than the default `mtk1`)
//   squiggle  the first squiggle of the kind asked for is in that editor's DOM (inserted while the editor
//             renders a frame; the browser paints at the end of that frame)
//   painted   the next animation frame after `squiggle` (by then the frame with the squiggle was painted)
// The observer only reads the DOM on mutations (no polling); a MutationObserver callback is a microtask, so
// what it adds to the page's work is a few querySelector calls per rendered frame.

/**
 * Arms the probe for the next click on `name`; `until`: the moment that ends the open (`painted` or `text`);
 * `mustShow`: a piece of the file's text that `text` waits for (an editor widget reused from the previous
 * file can show that file's lines for a moment after it took the new one's URI).
 */
export async function armOpen(page, name, kind = '.squiggly-error', until = 'painted', mustShow = '') {
  await page.evaluate(
    ({ name, kind, until, mustShow }) => {
      const old = window.__openProbe;
      old?.observer.disconnect();
      const marks = {};
      let resolveDone;
      const probe = { name, marks, done: new Promise((r) => (resolveDone = r)), observer: undefined };
      window.__openProbe = probe;
      const wall = (t) => performance.timeOrigin + t;
      const at = (k, t = performance.now()) => {
        if (!(k in marks)) marks[k] = wall(t);
      };
      addEventListener('pointerdown', (e) => at('click', e.timeStamp), { capture: true, once: true });
      const editorOf = () => [...document.querySelectorAll('.monaco-editor[data-uri]')].find((e) => e.getAttribute('data-uri').endsWith(`/${name}`));
      const look = () => {
        if (!('click' in marks)) return;
        if (!('tab' in marks) && [...document.querySelectorAll('.tabs-container .tab.active')].some((t) => t.textContent.includes(name))) at('tab');
        const editor = editorOf();
        if (!editor) return;
        at('editor');
        const lines = [...editor.querySelectorAll('.view-lines .view-line')].map((l) => l.textContent.replace(/\u00a0/g, ' '));
        if (!('text' in marks) && lines.some((l) => l.trim() !== '') && (!mustShow || lines.some((l) => l.includes(mustShow)))) at('text');
        if (!('text' in marks)) return;
        if (!('tokens' in marks) && editor.querySelector('.view-lines .view-line span span:not(.mtk1)')) at('tokens');
        if (!('squiggle' in marks) && kind && editor.querySelector(kind)) {
          at('squiggle');
          requestAnimationFrame(() => {
            at('painted');
            look();
          });
        }
        if (until in marks) {
          probe.observer.disconnect();
          resolveDone(marks);
        }
      };
      probe.observer = new MutationObserver(look);
      probe.observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    },
    { name, kind, until, mustShow },
  );
}

/** Waits (in the page, no polling) for the armed open to reach its last moment; returns the moments. */
export async function openMoments(page, timeout = 60000) {
  return page.evaluate(
    (timeout) =>
      Promise.race([
        window.__openProbe.done,
        new Promise((_, reject) => setTimeout(() => reject(new Error(`open of ${window.__openProbe.name}: moments so far ${JSON.stringify(window.__openProbe.marks)}`)), timeout)),
      ]),
    timeout,
  );
}
