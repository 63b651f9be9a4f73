// Tabula's search worker: a second instance of the game's module that runs the bots'
// searches, hints, the analysis board and reviews off the page's thread, so the page's
// frames never wait for them (src/background/). The page posts the compiled module first,
// then jobs as RON text; the replies go back as text. web/build.sh writes the module's
// script name below.
import init, { search_busy, search_message, search_work } from "./tabula.js";

// How long a slice of searching lasts before the page's messages are looked at: a search
// the page stops (a move played, a game left) ends within it.
const SLICE_MS = 20;

let ready = null;
let broken = false;
let scheduled = false;
// Slices follow each other through a message to itself: a timer would wait at least 4 ms
// between them once nested.
const next = new MessageChannel();
next.port1.onmessage = slice;

function fail(error) {
  broken = true;
  self.postMessage(`broken: ${error?.message ?? error}`);
}

function schedule() {
  if (scheduled || broken) return;
  scheduled = true;
  next.port2.postMessage(null);
}

function slice() {
  scheduled = false;
  if (broken) return;
  try {
    for (const reply of search_work(SLICE_MS)) self.postMessage(reply);
    if (search_busy()) schedule();
  } catch (error) {
    // A search that panicked has stopped this instance for good: the page searches
    // between its frames from then on.
    fail(error);
  }
}

self.onmessage = (event) => {
  if (!ready) {
    // The page's first message is the module it compiled; the game is told when this
    // instance of it is ready to search (or why it never will be).
    ready = event.data instanceof WebAssembly.Module
      ? init({ module_or_path: event.data }).then(() => self.postMessage("ready"), fail)
      : Promise.resolve(fail("the first message was not the module"));
    return;
  }
  ready.then(() => {
    if (broken) return;
    try {
      // A message this instance cannot read would leave its search without an answer.
      const refused = search_message(event.data);
      if (refused) {
        fail(refused);
        return;
      }
    } catch (error) {
      fail(error);
      return;
    }
    schedule();
  });
};

self.onmessageerror = () => fail("a message could not be read");
