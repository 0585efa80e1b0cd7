// The page's side of the offline copy (README, "Teaching offline"), added by the lab
// once it is ready and idle (src/ui/page_env.rs, keep_offline_copy), so it never delays
// the first load: registers sw.js for this folder; says on `window` when a newer build is
// kept and waits ("idempotency-lab:update-ready"); lets it in, and reloads on it, when
// the page asks ("idempotency-lab:take-update"); and marks <body data-offline="ready">
// once this build's files are all kept.
(() => {
  const workers = navigator.serviceWorker;
  if (!workers) return;
  const ready = () => dispatchEvent(new Event('idempotency-lab:update-ready'));
  workers
    .register('sw.js', { scope: './' })
    .then((registration) => {
      // A newer build installed while an older one runs this page: it waits.
      const watch = (worker) =>
        worker?.addEventListener('statechange', () => {
          if (worker.state === 'installed' && workers.controller) ready();
        });
      if (registration.waiting && workers.controller) ready();
      watch(registration.installing);
      registration.addEventListener('updatefound', () => watch(registration.installing));
      addEventListener('idempotency-lab:take-update', () => {
        if (!registration.waiting) return location.reload();
        workers.addEventListener('controllerchange', () => location.reload(), { once: true });
        registration.waiting.postMessage('take-over');
      });
      return workers.ready;
    })
    .then(
      () => {
        document.body.dataset.offline = 'ready';
      },
      () => {},
    );
})();
