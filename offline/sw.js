// The lab's offline copy (README, "Teaching offline"): a service worker that keeps every
// file of one build, so after one visit the lab, the walkthrough in both languages and
// every chunk open with no network. scripts/offline.mjs (a Trunk post_build hook) writes
// it into a release build with that build's version and file list in place of the
// placeholders below.
//
// - One cache per build ("idempotency-lab-<version>"), filled whole at install; a page is
//   served from its build's cache only, so a new release never mixes with an old one.
// - A new version installs in the background and waits (no skipWaiting): the page says
//   an update is ready and takes it on the next load, never mid-lesson.
// - Only this folder's files are answered (the page itself under any query); anything
//   else goes to the network as if there were no worker.
const VERSION = '__LAB_VERSION__';
const FILES = __LAB_FILES__;
const CACHE = `idempotency-lab-${VERSION}`;
const KNOWN = new Set(FILES);

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)));
});

// The page lets a waiting build in when the person asks (offline.js).
self.addEventListener('message', (event) => {
  if (event.data === 'take-over') self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  // The older builds' copies go once no page uses them.
  event.waitUntil(
    caches.keys().then((keys) =>
      Promise.all(keys.filter((key) => key.startsWith('idempotency-lab-') && key !== CACHE).map((key) => caches.delete(key)))),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  let path = url.pathname.slice(scope.pathname.length);
  if (path === '') path = 'index.html';
  if (!KNOWN.has(path)) return;
  event.respondWith(
    caches.open(CACHE).then((cache) => cache.match(path)).then((kept) => kept ?? fetch(request)),
  );
});
