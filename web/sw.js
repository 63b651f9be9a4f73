// Tabula's service worker: keeps this build's page and files, so that a second visit
// starts without the network, and lets a new build replace them when the player says.
// web/build.sh writes BUILD (a hash of the page, its script, the module and the manifest)
// and FILES (this build's files).
const BUILD = "BUILD";
const FILES = [];
const KEPT = `tabula-${BUILD}`;

self.addEventListener("install", (event) => {
  // From the browser's HTTP cache where it can: the page has just downloaded the module,
  // whose name carries its hash and which the server lets it keep.
  event.waitUntil(
    caches.open(KEPT).then((cache) =>
      cache.addAll(FILES.map((file) => new Request(file, { cache: "force-cache" })))),
  );
});

self.addEventListener("activate", (event) => {
  // Earlier builds' files go once this build takes over.
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names
        .filter((name) => name.startsWith("tabula-") && name !== KEPT)
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

// The page asks for the waiting build to take over when the player chooses to update.
self.addEventListener("message", (event) => {
  if (event.data === "take over") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // The page whatever its query (?lesson=…, ?join=…) is this build's page; the build's
  // files are kept ones; anything else (the server's /health) goes to the network.
  const navigation = request.mode === "navigate" && /\/(index\.html)?$/.test(url.pathname);
  const kept = navigation || FILES.includes(`.${url.pathname.slice(url.pathname.lastIndexOf("/"))}`);
  if (!kept) return;
  event.respondWith(
    caches.open(KEPT)
      .then((cache) => cache.match(navigation ? "./" : request, { ignoreSearch: true }))
      .then((found) => found ?? fetch(request)),
  );
});

// A "your move" notice this worker showed for the page (where the page may not show one
// itself: Chrome on Android), clicked: the page comes forward and opens the game; with no
// page open, a new one starts (the game waits in its list).
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const code = typeof event.notification.data === "string" ? event.notification.data : null;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((pages) => {
      if (pages.length === 0) return self.clients.openWindow("./");
      // Every page hears it (a page not following its player's turns passes it over); the
      // one in sight, or else the first, comes forward.
      if (code) for (const page of pages) page.postMessage({ tabulaOpen: code });
      const page = pages.find((p) => p.visibilityState === "visible") ?? pages[0];
      return page.focus();
    }),
  );
});
