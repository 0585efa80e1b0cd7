// Idempotency Lab's host script, for a page that frames the lab: include it from
// the lab's own site (the "Embed on a page" dialog writes the tag),
//   <script src="https://lab.example.org/docs/lab/embed.js" async></script>
// and every lab frame on the page takes the height of what it shows, so nothing
// scrolls inside it, and never gets wider than its column. A file, not inline
// code, so a page whose Content-Security-Policy forbids inline scripts allows it
// by `script-src <lab origin>`. Included any number of times, it listens once
// for each lab origin. It reads only the lab's `resize` messages
// (README, "Embedding"), and from its own origin alone.
(() => {
  const script = document.currentScript;
  if (!script || !script.src) return;
  const origin = new URL(script.src, location.href).origin;
  // One listener for each lab origin, however many tags include this file.
  const listening = (window[Symbol.for('idempotency-lab:embed')] ??= new Set());
  if (listening.has(origin)) return;
  listening.add(origin);

  const labFrames = () =>
    [...document.querySelectorAll('iframe[src]')].filter((frame) => {
      try {
        return new URL(frame.src, location.href).origin === origin;
      } catch {
        return false;
      }
    });
  // A width in pixels never overflows a narrower column (a script may set a
  // style where the page's policy drops a `style` attribute); a `max-width`
  // of the page's own is left alone. Borders and padding count.
  const fitColumn = (frame) => {
    const style = getComputedStyle(frame);
    if (style.maxWidth !== 'none') return;
    const edges = ['borderLeftWidth', 'borderRightWidth', 'paddingLeft', 'paddingRight']
      .reduce((sum, side) => sum + (parseFloat(style[side]) || 0), 0);
    frame.style.maxWidth = style.boxSizing === 'border-box' || edges === 0 ? '100%' : `calc(100% - ${edges}px)`;
  };

  // A frame already on the lab's page: not still the page's own blank one
  // (a lazy frame not yet loaded), nor sandboxed into an origin of its own.
  // Asking any other would only leave a warning in the console.
  const showsTheLab = (frame) => {
    if (!frame.contentWindow) return false;
    if (frame.sandbox.length > 0 && !frame.sandbox.contains('allow-same-origin')) return false;
    try {
      // Readable while the frame is of this page's origin: its blank page, or
      // the lab when it is served from the docs site itself.
      const href = frame.contentWindow.location.href;
      return href !== 'about:blank' && new URL(href).origin === origin;
    } catch {
      // Another origin's page: the lab's.
      return true;
    }
  };

  // Until a frame tells its height, the height measured at the width nearest
  // its own (`data-lab-heights="374:996 720:693"`, written by the dialog), so
  // a phone's narrower, taller column is reserved before the lab arrives.
  const told = new WeakSet();
  const reserve = (frame) => {
    if (told.has(frame) || !frame.dataset.labHeights) return;
    const width = frame.clientWidth;
    let best = null;
    for (const pair of frame.dataset.labHeights.trim().split(/\s+/)) {
      const [w, h] = pair.split(':').map(Number);
      if (!(w > 0 && h > 0)) continue;
      if (!best || Math.abs(w - width) < Math.abs(best[0] - width)) best = [w, h];
    }
    if (best && frame.height !== String(best[1])) frame.height = String(best[1]);
  };

  addEventListener('message', (event) => {
    if (event.origin !== origin || event.data?.type !== 'idempotency-lab:resize') return;
    const height = Number(event.data.height);
    if (!Number.isFinite(height) || height <= 0) return;
    const frame = labFrames().find((f) => f.contentWindow === event.source);
    if (!frame) return;
    fitColumn(frame);
    told.add(frame);
    frame.height = String(Math.ceil(height));
  });

  // This script may run after a frame has told its height: ask each frame
  // already there to tell it again, and keep every lab frame in its column.
  for (const frame of labFrames()) {
    fitColumn(frame);
    reserve(frame);
    if (showsTheLab(frame)) frame.contentWindow.postMessage({ type: 'idempotency-lab:measure' }, origin);
  }
  // Frames the page adds later (a docs site that loads its pages itself).
  new MutationObserver((records) => {
    if (records.some((r) => r.addedNodes.length > 0)) {
      for (const frame of labFrames()) {
        fitColumn(frame);
        reserve(frame);
      }
    }
  }).observe(document.documentElement, {
    childList: true,
    subtree: true,
  });
})();
