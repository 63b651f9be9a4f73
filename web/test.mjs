// The browser test (run by web/test.sh): opens the built page in headless Chromium, checks
// from the console that the game starts and that each game's scripted demo against a bot
// is played to its end, that the game autosaves into local storage and offers to resume
// it after a reload, and writes screenshots. Prints load timings for docs/benchmarks.md.
// With TABULA_ONLINE_SERVER (a tabula-server that serves dist/) and TABULA_CLI, it also
// plays one online game: a level-1 bot hosts it from the terminal, and the page joins it
// through the invite link and plays the other seat to the end; the page registers an
// account, posts a rated challenge that a player registered in the terminal accepts, and
// plays it to the end, after which both are on the leaderboard. Then it solves a lesson step
// and a puzzle. Before the online game it checks the page's manifest and that the page,
// kept by its service worker, starts again with the network off, its search worker too. Last, a phone plays a
// game against level 1 by taps, turns and pinches the board and opens the menu.
//
// Usage: node web/test.mjs BASE_URL OUT_DIR [GAME:MOVES:SEED ...]
import { mkdirSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

// web/test.sh installs playwright-core outside the clone and says where.
const { chromium } = await import(process.env.PLAYWRIGHT_CORE ?? "playwright-core");

const [base, out, ...requested] = process.argv.slice(2);
// Adomoc's moves are the slowest to draw: 8 of them (12 took 122 s of CI's hour).
const demos = requested.length
  ? requested
  : ["absorption:8:3", "adamas:10:3", "adaptoid:10:3", "adomoc:8:3"];
// Level 4: the budget of the former level 2, which the demos' timings were first measured
// against (docs/benchmarks.md).
const seats = process.env.TABULA_TEST_SEATS ?? "human,4";
const demoTimeout = Number(process.env.TABULA_TEST_TIMEOUT_MS ?? 300_000);
// TABULA_TEST_REVIEW=LEVEL: after each demo, review the game at that level and open the
// analysis board; the review's time goes in the summary.
const reviewLevel = process.env.TABULA_TEST_REVIEW;
const reviewTimeout = Number(process.env.TABULA_TEST_REVIEW_TIMEOUT_MS ?? 3_600_000);
// TABULA_TEST_REVIEW_SLICE_MS=MS: the part of each frame the review takes (12 ms in the
// game). Software rendering's frames take most of a second, so timing a top-level review
// needs long slices; the log then says how long the review spent searching.
const reviewSlice = process.env.TABULA_TEST_REVIEW_SLICE_MS;
const reviews = [];
// TABULA_TEST_VIEWPORT=WxH: the demos' page size (1280x800). Software rendering costs by the
// pixel, so a small page draws faster and leaves a sliced review more of the wall time.
const [viewWidth, viewHeight] = (process.env.TABULA_TEST_VIEWPORT ?? "1280x800").split("x").map(Number);
// TABULA_TEST_SEARCH=frames: the demos' searches run between the page's frames, as before
// the search worker, to compare the frames with and without it.
const searchInFrames = process.env.TABULA_TEST_SEARCH === "frames";
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  // Software WebGL2 (SwiftShader): the machines here have no GPU.
  args: ["--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--ignore-gpu-blocklist"],
});

const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

// One page with its console collected; `waitFor` resolves on the first line containing a text.
async function openPage(context, url) {
  const page = await context.newPage();
  const lines = [];
  const waiters = [];
  const errors = [];
  const record = (text) => {
    lines.push(text);
    for (const waiter of waiters) if (!waiter.done && text.includes(waiter.needle)) waiter.resolve(text);
  };
  page.on("console", (message) => record(message.text()));
  page.on("crash", () => errors.push("the page crashed"));
  page.on("pageerror", (error) => {
    // Bevy's event loop (winit) leaves main by throwing this on purpose.
    if (!String(error.message).includes("Using exceptions for control flow")) errors.push(String(error));
  });
  // `from`: look only at lines logged after that many (after a reload, the new page's).
  const waitFor = (needle, ms, from = 0) => {
    const found = lines.slice(from).find((line) => line.includes(needle));
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const waiter = { needle, done: false, resolve: (text) => { waiter.done = true; resolve(text); } };
      waiters.push(waiter);
      setTimeout(() => { if (!waiter.done) { waiter.done = true; resolve(null); } }, ms);
    });
  };
  await page.addInitScript(listenToTheSound);
  await page.goto(url);
  return { page, lines, errors, waitFor };
}

// Runs in the page before the game: whatever the game sends to the speakers also goes to an
// analyser, whose loudest sample so far is window.tabulaAudioPeak (0 to 1).
function listenToTheSound() {
  window.tabulaAudioPeak = 0;
  const connect = AudioNode.prototype.connect;
  AudioNode.prototype.connect = function (target, ...rest) {
    if (target instanceof AudioDestinationNode) {
      const context = target.context;
      if (!context.tabulaAnalyser) {
        const analyser = context.createAnalyser();
        analyser.fftSize = 2048;
        context.tabulaAnalyser = analyser;
        const samples = new Float32Array(analyser.fftSize);
        setInterval(() => {
          analyser.getFloatTimeDomainData(samples);
          for (const v of samples) window.tabulaAudioPeak = Math.max(window.tabulaAudioPeak, Math.abs(v));
        }, 20);
      }
      connect.call(this, context.tabulaAnalyser);
    }
    return connect.call(this, target, ...rest);
  };
}

const number = (line, pattern) => Number(line?.match(pattern)?.[1]);
const panics = (lines) => lines.filter((line) => /panicked at|RuntimeError|unreachable/.test(line));
// How many moves the page's demo has logged (`tabula-demo: move N: …`, one line a move).
const demoMoves = (lines) => lines.filter((line) => line.includes("tabula-demo: move ")).length;

// What the page's trace (`tabula-trace: …` lines) says now: where each tap target is, the
// screen, the moves played, the menu, the camera.
function traceState(lines) {
  const state = { targets: new Map(), screen: null, moves: null, pause: null, camera: null };
  for (const line of lines) {
    // The console adds the log's styles after the text.
    const text = line.match(/tabula-trace: (.*?)(?: color: whitesmoke;.*)?$/)?.[1];
    if (text === undefined) continue;
    let m;
    if ((m = text.match(/^at (.+) (-?\d+) (-?\d+)$/))) state.targets.set(m[1], [Number(m[2]), Number(m[3])]);
    else if ((m = text.match(/^gone (.+)$/))) state.targets.delete(m[1]);
    else if ((m = text.match(/^screen (\w+)$/))) state.screen = m[1];
    else if ((m = text.match(/^moves (\d+)$/))) state.moves = Number(m[1]);
    else if ((m = text.match(/^pause (\w+)$/))) state.pause = m[1];
    else if ((m = text.match(/^camera yaw (\S+) pitch (\S+) distance (\S+)$/))) {
      state.camera = { yaw: Number(m[1]), pitch: Number(m[2]), distance: Number(m[3]) };
    }
  }
  return state;
}

// TABULA_TEST_PARTS=phone,lesson,…: only those parts of the test (demos, offline, online,
// turns, lobby, lesson, puzzle, phone, no-webgl2); all of them by default.
const parts = process.env.TABULA_TEST_PARTS?.split(",");
const wanted = (part) => !parts || parts.includes(part);

// How long each part took, for keeping CI's run inside its hour.
const partTimes = [];
let partStarted = Date.now();
const partDone = (part, ran = wanted(part)) => {
  if (ran) partTimes.push(`${part} ${Math.round((Date.now() - partStarted) / 1000)} s`);
  partStarted = Date.now();
};

const timings = [];
for (const demo of wanted("demos") ? demos : []) {
  const game = demo.split(":")[0];
  const context = await browser.newContext({ viewport: { width: viewWidth, height: viewHeight } });
  const review = reviewLevel ? `&review=${reviewLevel}${reviewSlice ? `&review_slice=${reviewSlice}` : ""}` : "";
  const url = `${base}/?demo=${demo}&seats=${seats}${review}${searchInFrames ? "&search=frames" : ""}`;
  const started = Date.now();
  const { page, lines, errors, waitFor } = await openPage(context, url);

  const opened = number(await waitFor("tabula-page: opened at", 30_000), /opened at (\d+)/);
  const firstFrame = number(await waitFor("tabula: first frame at", 120_000), /first frame at (\d+)/);
  const title = number(await waitFor("tabula: title screen at", 120_000), /title screen at (\d+)/);
  check(firstFrame > 0, `${game}: the game drew its first frame`);
  // A key the game ignores (not a modifier, which browsers do not count): the page's
  // audio may start after it.
  await page.keyboard.press("KeyQ");
  // The longest wait between two of the page's animation frames while the demo plays: a bot
  // that thought in one go would freeze the page for its whole budget.
  await page.evaluate(() => {
    window.tabulaLongestGap = 0;
    window.tabulaFrames = 0;
    window.tabulaSince = performance.now();
    let last = performance.now();
    const tick = (now) => {
      window.tabulaLongestGap = Math.max(window.tabulaLongestGap, now - last);
      window.tabulaFrames += 1;
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    // The page's own thread: its tasks over 50 ms (a frame's work with a slice of search in
    // it, where the search runs between frames), as the browser counts them.
    window.tabulaLongTasks = { count: 0, total: 0, longest: 0 };
    new PerformanceObserver((list) => {
      for (const task of list.getEntries()) {
        window.tabulaLongTasks.count += 1;
        window.tabulaLongTasks.total += task.duration;
        window.tabulaLongTasks.longest = Math.max(window.tabulaLongTasks.longest, task.duration);
      }
    }).observe({ type: "longtask" });
  });
  const finished = await waitFor("tabula-demo: finished", demoTimeout);
  const moves = demoMoves(lines);
  const ending = finished?.match(/finished after \d+ moves \([^)]*\)/)?.[0];
  check(finished !== null, `${game}: the demo (seats ${seats}) played ${moves} moves and ${ending ?? "did not finish in time"}`);
  // The game says when it finds the worker, and when the worker failed (it then searches
  // between frames).
  const inWorker = lines.some((line) => line.includes("search worker: searches run off the page's thread")) &&
    !lines.some((line) => line.includes("search worker: it failed"));
  check(inWorker !== searchInFrames,
    `${game}: the bots search ${inWorker ? "in the search worker" : "between the page's frames"}`);
  const audioPeak = await page.evaluate(() => window.tabulaAudioPeak);
  check(
    lines.some((line) => line.includes("tabula-page: audio running")) && audioPeak > 0.01,
    `${game}: the moves were heard (audio ${lines.some((line) => line.includes("tabula-page: audio running")) ? "running" : "not running"}, loudest sample ${audioPeak.toFixed(3)})`,
  );
  const longestGap = Math.round(await page.evaluate(() => window.tabulaLongestGap));
  const meanGap = Math.round(await page.evaluate(() => (performance.now() - window.tabulaSince) / window.tabulaFrames));
  const longTasks = await page.evaluate(() => window.tabulaLongTasks);
  // The animation of the last move settles before the picture.
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${out}/${game}.png` });
  if (reviewLevel) {
    const reviewed = await waitFor("tabula-demo: reviewed", reviewTimeout);
    // The page's console adds its style arguments after the text: take the text alone.
    const reviewText = reviewed?.match(/reviewed \d+ moves at level \d+ in [\d.]+ s( \(searching [\d.]+ s of it in frame slices\))?/)?.[0];
    check(reviewed !== null, `${game}: ${reviewText ?? "the review did not end in time"}`);
    const analysed = await waitFor("tabula-demo: analysed", 300_000);
    const analysedText = analysed?.match(/analysed the position: chances [\d% ]*\d%/)?.[0];
    check(analysed !== null, `${game}: ${analysedText ?? "the analysis board did not evaluate in time"}`);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `${out}/${game}-analysis.png` });
    reviews.push(`${game}: ${reviewText}`);
  }

  // Saved into the browser's local storage, and offered again after a reload.
  const autosave = await page.evaluate(() => localStorage.getItem("tabula/autosave.ron"));
  check(autosave?.includes(`game: "${game}"`) ?? false, `${game}: the autosave is in local storage (${autosave?.length ?? 0} bytes)`);
  const beforeReload = lines.length;
  await page.goto(`${base}/`);
  const reloadedTitle = await waitFor("tabula: title screen at", 120_000, beforeReload);
  check(reloadedTitle !== null, `${game}: the page reloaded to the title screen`);
  await page.mouse.move(640, 400);
  // Long enough for the title's showcase (bots behind the menu) to play a move or two.
  await page.waitForTimeout(6000);
  await page.screenshot({ path: `${out}/${game}-reloaded-title.png` });
  const afterShowcase = await page.evaluate(() => localStorage.getItem("tabula/autosave.ron"));
  check(afterShowcase === autosave, `${game}: the title's showcase leaves the autosave as it was`);

  writeFileSync(`${out}/${game}.console.log`, lines.join("\n") + "\n");
  check(errors.length === 0 && panics(lines).length === 0,
    `${game}: no panics or page errors${errors.length || panics(lines).length ? `: ${[...errors, ...panics(lines)].join(" | ")}` : ""}`);
  timings.push({ game, firstFrame: firstFrame - opened, title: title - opened, longestGap, meanGap, longTasks, moves, total: Date.now() - started });
  await context.close();
}

// Installable and offline: the page links its manifest; once its service worker has kept
// the page and the module, a reload with the network off starts the game again.
partDone("demos");
if (wanted("offline")) {
  const context = await browser.newContext({ viewport: { width: viewWidth, height: viewHeight } });
  const { page, lines, errors, waitFor } = await openPage(context, `${base}/`);
  const kept = await waitFor("tabula-page: kept for offline play", 180_000);
  check(kept !== null, `offline: the service worker keeps the page and the module (${lines.find((l) => l.includes("offline play")) ?? "no word from it"})`);
  const manifest = await page.evaluate(async () => {
    const link = document.querySelector('link[rel="manifest"]');
    const response = await fetch(link.href);
    const text = await response.json();
    const icons = await Promise.all(text.icons.map(async (icon) =>
      (await fetch(new URL(icon.src, link.href))).ok));
    return { name: text.name, display: text.display, icons: icons.length, fetched: icons.every(Boolean) };
  });
  check(manifest.name === "Tabula" && manifest.display === "standalone" && manifest.icons >= 2 && manifest.fetched,
    `offline: the manifest names the app, standalone, with its icons (${JSON.stringify(manifest)})`);
  await context.setOffline(true);
  const from = lines.length;
  await page.reload();
  const frame = await waitFor("tabula: first frame at", 180_000, from);
  const title = await waitFor("tabula: title screen at", 120_000, from);
  check(frame !== null && title !== null, "offline: with the network off, the page starts again from what its worker kept");
  // The search worker's script and the module's script it imports come from there too.
  const searchReady = await waitFor("search worker ready", 60_000, from);
  check(searchReady !== null && !lines.slice(from).some((line) => line.includes("search worker: it failed")),
    "offline: the search worker starts too");
  await page.screenshot({ path: `${out}/offline.png` });
  await context.setOffline(false);
  check(errors.length === 0 && panics(lines).length === 0,
    `offline: no panics or page errors${errors.length || panics(lines).length ? `: ${[...errors, ...panics(lines)].join(" | ")}` : ""}`);
  await context.close();
}

// One online game: the terminal's bot hosts it, the page joins by the invite link.
const onlineServer = process.env.TABULA_ONLINE_SERVER;
partDone("offline");
if (onlineServer && wanted("online")) {
  const options = (process.env.TABULA_ONLINE_OPTIONS ?? "turn_cap=4").split(",").flatMap((o) => ["--option", o]);
  const game = process.env.TABULA_ONLINE_GAME ?? "absorption";
  const host = spawn(process.env.TABULA_CLI, ["online", "host", game, ...options, "--server", onlineServer, "--seat", "level:1"]);
  const hostLines = [];
  const hostErrors = [];
  const hostEnded = new Promise((resolve) => host.on("close", resolve));
  host.stderr.on("data", (data) => hostErrors.push(String(data)));
  const code = await new Promise((resolve) => {
    createInterface({ input: host.stdout }).on("line", (line) => {
      hostLines.push(line);
      if (hostLines.length === 1) resolve(line.match(/^code: (\w+)$/)?.[1] ?? null);
    });
    setTimeout(() => resolve(null), 30_000);
  });
  check(code !== null, `online: the terminal's bot hosts game ${code} (first line ${hostLines[0]}${hostErrors.length ? `; stderr ${hostErrors.join("")}` : ""})`);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page, lines, errors, waitFor } = await openPage(context, `${onlineServer}/?join=${code}&demo=online:500:5`);
  const finished = await waitFor("tabula-demo: finished", demoTimeout);
  const exit = await Promise.race([hostEnded, new Promise((resolve) => setTimeout(() => resolve("still running"), 60_000))]);
  if (exit === "still running") host.kill();
  const pageMoves = demoMoves(lines);
  const hostMoves = hostLines.filter((line) => / plays /.test(line)).length;
  // The terminal's last two lines: the result, then the final position, as `apply` prints them.
  const [hostResult, hostPosition] = hostLines.filter((line) => line.trim() !== "").slice(-2);
  const pageEnd = finished?.match(/finished after (\d+) moves \((.*)\); position «(.*)»/);
  check(finished !== null && exit === 0, `online: the game ended on both sides (page: ${finished ?? "no end"}; terminal exit ${exit})`);
  check(pageEnd?.[2] === hostResult && pageEnd?.[3] === hostPosition,
    `online: both sides saw the same end: "${hostResult}" at ${hostPosition} (page: "${pageEnd?.[2]}" at ${pageEnd?.[3]})`);
  check(Number(pageEnd?.[1]) === hostMoves && pageMoves === hostMoves, `online: ${hostMoves} moves on the terminal, ${pageMoves} on the page`);
  // tabula-server sends the module compressed (brotli where the browser offers it: Chromium
  // does over HTTPS and to localhost; else gzip) and lets the browser keep it, its name
  // carrying its hash.
  const served = await page.evaluate(async () => {
    const module = [...document.querySelectorAll("script")].map((s) => s.textContent)
      .join("").match(/\.\/(tabula_bg-[0-9a-f]{16}\.wasm)/)?.[1];
    if (!module) return { module };
    const response = await fetch(`./${module}`, { cache: "no-store" });
    const bytes = (await response.arrayBuffer()).byteLength;
    return { module, encoding: response.headers.get("content-encoding"), cache: response.headers.get("cache-control"), bytes };
  });
  check(["br", "gzip"].includes(served.encoding) && /immutable/.test(served.cache ?? ""),
    `online: tabula-server sends ${served.module} compressed and to be kept (encoding ${served.encoding}, cache-control "${served.cache}", ${served.bytes} bytes once decompressed)`);
  const kept = await page.evaluate(() => localStorage.getItem("tabula/online-seats.ron"));
  check(kept?.includes(code) ?? false, `online: the page keeps its seat in local storage (${kept?.length ?? 0} bytes)`);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${out}/online.png` });
  writeFileSync(`${out}/online.console.log`, lines.join("\n") + "\n");
  writeFileSync(`${out}/online.terminal.log`, [...hostLines, ...hostErrors].join("\n") + "\n");
  check(errors.length === 0 && panics(lines).length === 0,
    `online: no panics or page errors${errors.length || panics(lines).length ? `: ${[...errors, ...panics(lines)].join(" | ")}` : ""}`);
  await context.close();
}

partDone("online", onlineServer && wanted("online"));
// "Your move" on the page: logged in (an account registered here, its session put in local
// storage as the page keeps it), the tab's title counts the games waiting for the player's
// move, and a game that comes to wait brings the browser's notice (the Notification API,
// stubbed to record what the page asks of it); the page never asks leave by itself.
if (onlineServer && wanted("turns")) {
  const socketUrl = `${onlineServer.replace(/^http/, "ws")}/ws`;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const helper = await context.newPage();
  await helper.goto(`${onlineServer}/health`);
  // One connection through the helper page: each message sent in turn, its answer awaited.
  const talk = (steps) => helper.evaluate(async ({ url, steps }) => {
    const ws = new WebSocket(url);
    const inbox = [];
    let wake = null;
    ws.onmessage = (e) => { inbox.push(JSON.parse(e.data)); wake?.(); };
    await new Promise((resolve) => { ws.onopen = resolve; });
    const answers = [];
    for (const [msg, type] of steps) {
      ws.send(JSON.stringify(msg));
      for (;;) {
        const i = inbox.findIndex((m) => m.type === type || m.type === "error");
        if (i >= 0) { answers.push(inbox.splice(i, 1)[0]); break; }
        await new Promise((resolve) => { wake = resolve; });
      }
    }
    ws.close();
    return answers;
  }, { url: socketUrl, steps });
  const talked = async (steps) => {
    const answers = await talk(steps);
    const refused = answers.find((m) => m.type === "error");
    if (refused) throw new Error(`turns: the server refused: ${refused.message}`);
    return answers;
  };
  const password = "correct horse";
  const [nia] = await talked([[{ type: "register", name: "Nia", password }, "logged_in"]]);
  await talked([[{ type: "register", name: "Oto", password }, "logged_in"]]);
  // A game of Oto's that Nia joins: she moves first.
  const gameForNia = async () => {
    const [, seated] = await talked([[{ type: "log_in", name: "Oto", password }, "logged_in"],
      [{ type: "create", game: "adomoc", pace: "correspondence", seat: 1 }, "seated"]]);
    await talked([[{ type: "log_in", name: "Nia", password }, "logged_in"],
      [{ type: "join", code: seated.code }, "seated"]]);
    return seated.code;
  };
  const first = await gameForNia();
  await context.addInitScript(({ server, socketUrl, session, expires }) => {
    if (!localStorage.getItem("tabula/online-sessions.ron")) {
      localStorage.setItem("tabula/online-sessions.ron",
        `(sessions: [(server: "${socketUrl}", name: "Nia", session: "${session}", expires_ms: ${expires})])`);
      localStorage.setItem("tabula/online-seats.ron", `(server: Some("${server}"), seats: [])`);
    }
    window.tabulaNotices = [];
    window.tabulaNoticeAsks = 0;
    window.Notification = class {
      constructor(title, options) { window.tabulaNotices.push({ title, body: options?.body ?? "" }); }
      static get permission() { return "granted"; }
      static requestPermission() { window.tabulaNoticeAsks += 1; return Promise.resolve("granted"); }
    };
  }, { server: onlineServer, socketUrl, session: nia.session, expires: nia.expires_ms });
  const { page, lines, errors, waitFor } = await openPage(context, `${onlineServer}/`);
  await waitFor("tabula: title screen at", 120_000);
  const titleBecomes = async (wanted) => {
    for (let i = 0; i < 100 && (await page.title()) !== wanted; i++) await page.waitForTimeout(200);
    return page.title();
  };
  // The page's own title (perhaps counted already).
  const own = (await page.title()).replace(/^\(\d+\) /, "");
  const one = await titleBecomes(`(1) ${own}`);
  check(one === `(1) ${own}`, `turns: the tab's title counts the game waiting for the player's move ("${one}")`);
  const second = await gameForNia();
  const two = await titleBecomes(`(2) ${own}`);
  check(two === `(2) ${own}`, `turns: a game that comes to wait is counted at once ("${two}")`);
  const notices = await page.evaluate(() => window.tabulaNotices);
  check(notices.length === 1 && notices[0].title === "Your move in Adomoc" && notices[0].body.includes(second),
    `turns: the browser's notice for the new game ${second}, none for ${first} that waited already (${JSON.stringify(notices)})`);
  const asks = await page.evaluate(() => window.tabulaNoticeAsks);
  check(asks === 0, `turns: the page never asked leave to notify by itself (${asks} asks)`);
  await page.screenshot({ path: `${out}/turns.png` });
  writeFileSync(`${out}/turns.console.log`, lines.join("\n") + "\n");
  check(errors.length === 0 && panics(lines).length === 0,
    `turns: no panics or page errors${errors.length || panics(lines).length ? `: ${[...errors, ...panics(lines)].join(" | ")}` : ""}`);
  // The helper page talks to the server on: the page is let go.
  await page.close();

  // As on Chrome for Android, where a page may not make a notice itself ("use
  // showNotification() instead"): the service worker shows it, and its word of the notice
  // clicked opens the game.
  const phone = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await phone.grantPermissions(["notifications"], { origin: onlineServer });
  await phone.addInitScript(({ server, socketUrl, session, expires }) => {
    localStorage.setItem("tabula/online-sessions.ron",
      `(sessions: [(server: "${socketUrl}", name: "Nia", session: "${session}", expires_ms: ${expires})])`);
    localStorage.setItem("tabula/online-seats.ron", `(server: Some("${server}"), seats: [])`);
    window.Notification = class {
      constructor() { throw new TypeError("Illegal constructor. Use ServiceWorkerRegistration.showNotification() instead."); }
      static get permission() { return "granted"; }
      static requestPermission() { return Promise.resolve("granted"); }
    };
  }, { server: onlineServer, socketUrl, session: nia.session, expires: nia.expires_ms });
  const android = await openPage(phone, `${onlineServer}/?trace`);
  await android.waitFor("tabula: title screen at", 120_000);
  await android.waitFor("tabula-page: kept for offline play", 60_000);
  for (let i = 0; i < 100 && !/^\(2\) /.test(await android.page.title()); i++) await android.page.waitForTimeout(200);
  const third = await gameForNia();
  const shown = async () => android.page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
  });
  let byWorker = [];
  for (let i = 0; i < 50 && byWorker.length === 0; i++) {
    await android.page.waitForTimeout(200);
    byWorker = await shown();
  }
  check(byWorker.length === 1 && byWorker[0].title === "Your move in Adomoc" && byWorker[0].body.includes(third)
    && byWorker[0].tag === `tabula-${third}` && byWorker[0].data === third,
    `turns: where the page may not make a notice, the service worker shows it (${JSON.stringify(byWorker)})`);
  // What web/sw.js tells the page when the notice is clicked.
  await android.page.evaluate((code) => navigator.serviceWorker.dispatchEvent(
    new MessageEvent("message", { data: { tabulaOpen: code } })), third);
  let opened = traceState(android.lines);
  for (let i = 0; i < 150 && opened.screen !== "Playing"; i++) {
    await android.page.waitForTimeout(200);
    opened = traceState(android.lines);
  }
  check(opened.screen === "Playing" && opened.moves === 0,
    `turns: the worker's word of its notice clicked opens the game (screen ${opened.screen}, moves ${opened.moves})`);
  await android.page.screenshot({ path: `${out}/turns-android.png` });
  writeFileSync(`${out}/turns-android.console.log`, android.lines.join("\n") + "\n");
  check(android.errors.length === 0 && panics(android.lines).length === 0,
    `turns: no panics or page errors on the phone${android.errors.length ? `: ${android.errors.join(" | ")}` : ""}`);
  await phone.close();
  await context.close();
}

partDone("turns", onlineServer && wanted("turns"));
// Two strangers meet in the lobby: the page registers an account through its own form,
// posts a rated Adaptoid challenge, and a player registered in the terminal accepts it with
// its level-1 bot; the page (its demo clicking random steps) plays its seat for a dozen moves
// and resigns, and the leaderboard then holds both players. The page is traced (`?trace`): it is driven by
// where its buttons and fields show, as a person would click them.
if (onlineServer && wanted("lobby")) {
  const password = "correct horse";
  // What the terminal said, for lobby.terminal.log.
  const terminal = [];
  const cli = (args, input) => new Promise((resolve) => {
    const child = spawn(process.env.TABULA_CLI, [...args, "--server", onlineServer], { env: { ...process.env, TABULA_DATA_DIR: `${out}/lobby-terminal` } });
    const said = [];
    child.stdout.on("data", (data) => said.push(String(data)));
    child.stderr.on("data", (data) => said.push(String(data)));
    child.on("close", (code) => {
      terminal.push(`$ tabula-cli ${args.join(" ")}`, ...said);
      resolve({ code, text: said.join("") });
    });
    child.stdin.end(input ?? "");
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page, lines, errors, waitFor } = await openPage(context, `${onlineServer}/?trace&demo=online:500:7`);
  const begun = Date.now();
  const since = () => `${Math.round((Date.now() - begun) / 1000)} s`;
  const traced = () => traceState(lines);
  const until = async (ok, ms) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (ok(traced())) return true;
      await page.waitForTimeout(200);
    }
    return ok(traced());
  };
  // Where `name` shows once it has stayed put for a few seconds: the window grows and moves
  // as what it shows arrives from the server, and software rendering's frames are slow.
  const click = async (name) => {
    if (!(await until((t) => t.targets.has(name), 20_000))) return false;
    for (let tries = 0; tries < 10; tries++) {
      const before = traced().targets.get(name)?.join();
      await page.waitForTimeout(2500);
      if (traced().targets.get(name)?.join() === before) break;
    }
    const at = traced().targets.get(name);
    if (!at) return false;
    const heard = lines.length;
    await page.mouse.click(at[0], at[1]);
    // Keys pressed in the frame that takes the click would go to the field it leaves: on
    // once a frame has taken it, and the next has come.
    const took = () => lines.slice(heard).some((line) => /tabula-trace: input frame \d+ \[[^\]]*click Mouse/.test(line));
    for (let i = 0; i < 100 && !took(); i++) await page.waitForTimeout(100);
    await page.waitForTimeout(1000);
    return true;
  };
  // Replaces what `field` holds with `text`.
  const type = async (field, text) => {
    if (!(await click(field))) return false;
    // Emptied key by key: Control+A typed an "A" into the field in this page.
    await page.keyboard.press("End");
    for (let i = 0; i < 24; i++) await page.keyboard.press("Backspace");
    await page.keyboard.type(text, { delay: 30 });
    await page.waitForTimeout(1500);
    return true;
  };
  await waitFor("tabula: title screen at", 120_000);
  check(await click("Play online") && await until((t) => t.screen === "Online", 20_000),
    `lobby: Play online opens the online screen (screen ${traced().screen})`);
  meeting: {
    // A field clicked as the window moved is typed again.
    let tries = 0;
    let loggedIn = false;
    while (!loggedIn && tries++ < 3) {
      await type("account name", "Ada");
      await type("account password", password);
      await click("Register");
      loggedIn = await until((t) => t.targets.has("Log out"), 20_000);
    }
    check(loggedIn, `lobby: the page registers Ada through its form and is logged in (${tries} tries)`);
    if (!loggedIn) break meeting;
    await click("game Adaptoid");
    await click("Rated");
    await page.waitForTimeout(500);
    await click("Post as a challenge");
    const posted = await until((t) => [...t.targets.keys()].some((name) => name.startsWith("Cancel challenge")), 20_000);
    check(posted, "lobby: Ada's challenge shows in the lobby, hers to cancel");
    await page.screenshot({ path: `${out}/lobby.png` });

    const registered = await cli(["online", "register", "Bea"], `${password}\n`);
    check(registered.code === 0, `lobby: Bea registers in the terminal (${registered.text.trim()})`);
    const listed = await cli(["online", "lobby"]);
    const id = listed.text.split("\n").find((line) => / Ada .*adaptoid rated/.test(line))?.split(/\s+/)[0];
    check(id !== undefined, `lobby: the terminal lists Ada's rated Adaptoid challenge (${listed.text.trim().split("\n").pop()})`);
    if (id === undefined) break meeting;
    const accepting = cli(["online", "accept", id ?? "none", "--seat", "level:1"]);
    check(await until((t) => t.screen === "Playing", 30_000), `lobby: Bea's acceptance takes Ada into the game (screen ${traced().screen}, at ${since()})`);
    // Ada resigns through the game's panel once the game is under way. Played out, the
    // random page against level 1 took 40 to 70 moves, four to six minutes of software
    // rendering, and now and then ran past the part's time (CI, 2026-12-07).
    const underWay = await until(() => demoMoves(lines) >= 12, demoTimeout);
    const resigned = underWay && await click("Resign") && await click("Yes, resign");
    check(resigned, `lobby: Ada resigns through the game's panel after ${demoMoves(lines)} moves (at ${since()})`);
    const finished = await waitFor("tabula-demo: finished", demoTimeout);
    const accepted = await Promise.race([accepting, new Promise((resolve) => setTimeout(() => resolve({ code: "still running", text: "" }), 60_000))]);
    const termLines = accepted.text.split("\n").filter((line) => line.trim() !== "");
    const [termResult, termPosition] = termLines.slice(-2);
    const pageEnd = finished?.match(/finished after (\d+) moves \((.*)\); position «(.*)»/);
    check(finished !== null && accepted.code === 0 && pageEnd?.[2] === termResult && pageEnd?.[3] === termPosition,
      `lobby: the rated game ended alike on both sides after ${pageEnd?.[1]} moves: "${termResult}" at ${termPosition} (page: "${pageEnd?.[2]}" at ${pageEnd?.[3]}; terminal's exit ${accepted.code}; at ${since()})`
      + (pageEnd?.[3] === termPosition ? "" : `; the terminal's last lines: ${termLines.slice(-6).join(" | ")}`));
    check(/^(White|Black) resigned: (White|Black) wins$/.test(pageEnd?.[2] ?? ""), `lobby: the game ended by Ada's resignation ("${pageEnd?.[2]}")`);
    const board = await cli(["online", "leaderboard", "adaptoid"]);
    const rows = board.text.split("\n").filter((line) => /^\s+\d+\. (Ada|Bea) /.test(line));
    check(rows.length === 2 && rows.every((row) => /after 1 game/.test(row)),
      `lobby: the leaderboard rates both after their game (${rows.map((row) => row.trim()).join("; ")})`);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `${out}/lobby-game.png` });
  }
  writeFileSync(`${out}/lobby.console.log`, lines.join("\n") + "\n");
  writeFileSync(`${out}/lobby.terminal.log`, terminal.join("\n"));
  check(errors.length === 0 && panics(lines).length === 0,
    `lobby: no panics or page errors${errors.length || panics(lines).length ? `: ${[...errors, ...panics(lines)].join(" | ")}` : ""}`);
  await context.close();
}

partDone("lobby", onlineServer && wanted("lobby"));
// A lesson: the Adamas course's multiple capture, solved by typed moves as the page's
// lesson demo types them; judged from the rules, and the progress kept in local storage.
if (wanted("lesson")) {
  const lesson = process.env.TABULA_TEST_LESSON ?? "adamas:12:solve";
  const [game, step] = lesson.split(":");
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page, lines, errors, waitFor } = await openPage(context, `${base}/?lesson=${lesson}`);
  const judged = await waitFor(`tabula-demo: lesson ${game} step ${step}`, demoTimeout);
  const verdict = judged?.match(/lesson \w+ step \d+ \([^)]*\): \w+/)?.[0];
  check(/: solved$/.test(verdict ?? ""), `lesson: ${verdict ?? "no verdict in time"}`);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${out}/lesson.png` });
  const settings = await page.evaluate(() => localStorage.getItem("tabula/settings.ron"));
  check(new RegExp(`"${game}": ${step}`).test(settings ?? ""), `lesson: the progress is kept in local storage (${settings?.match(/lessons: \{[^}]*\}/)?.[0] ?? "none"})`);
  writeFileSync(`${out}/lesson.console.log`, lines.join("\n") + "\n");
  check(errors.length === 0 && panics(lines).length === 0,
    `lesson: no panics or page errors${errors.length || panics(lines).length ? `: ${[...errors, ...panics(lines)].join(" | ")}` : ""}`);
  await context.close();
}

// A puzzle: the first Adamas puzzle of two turns, its line played through the page's
// puzzle demo, the solver answering in between; solved, and the rating kept.
partDone("lesson");
if (wanted("puzzle")) {
  const puzzle = process.env.TABULA_TEST_PUZZLE ?? "adamas:solve";
  const [game] = puzzle.split(":");
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page, lines, errors, waitFor } = await openPage(context, `${base}/?puzzle=${puzzle}`);
  const judged = await waitFor(`tabula-demo: puzzle ${game}`, demoTimeout);
  const verdict = judged?.match(/puzzle \w+ [\w-]+ \(depth \d\): \w+; rating \d+/)?.[0];
  check(/: solved; /.test(verdict ?? ""), `puzzle: ${verdict ?? "no verdict in time"}`);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${out}/puzzle.png` });
  const settings = await page.evaluate(() => localStorage.getItem("tabula/settings.ron"));
  check(/solved: 1,/.test(settings ?? ""), `puzzle: the rating and streak are kept in local storage (${settings?.match(/streak: \d+/)?.[0] ?? "none"})`);
  writeFileSync(`${out}/puzzle.console.log`, lines.join("\n") + "\n");
  check(errors.length === 0 && panics(lines).length === 0,
    `puzzle: no panics or page errors${errors.length || panics(lines).length ? `: ${[...errors, ...panics(lines)].join(" | ")}` : ""}`);
  await context.close();
}

// A phone held upright: 390×844 points at three device pixels a point, touch only. The
// page, asked to trace (`?trace`), logs its screen, its moves, its camera and where each
// button and each cell a player may pick shows; the test taps what a person would see.
// Chromium is started at that device scale too: its emulated scale alone leaves the
// canvas at one pixel a point, which no phone does.
partDone("puzzle");
if (wanted("phone")) {
  const phone = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--ignore-gpu-blocklist", "--force-device-scale-factor=3"],
  });
  const context = await phone.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  const { page, lines, errors, waitFor } = await openPage(context, `${base}/?trace`);
  const traced = () => traceState(lines);
  // How long a tap may take to show: software rendering at three pixels a point takes
  // seconds a frame here (a tap's frame came 10 s after it once, with the menu open).
  const SHOWN_WITHIN = 20_000;
  const until = async (ok, ms) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (ok(traced())) return true;
      await page.waitForTimeout(250);
    }
    return ok(traced());
  };
  const tap = async (name) => {
    const at = traced().targets.get(name);
    if (!at) return false;
    // In the page's log too, to read the taps against what the page said.
    await page.evaluate((what) => console.log(`tabula-test: tap ${what}`), `${name} at ${at}`);
    await page.touchscreen.tap(at[0], at[1]);
    return true;
  };
  const named = (prefix) => [...traced().targets.keys()].find((name) => name.startsWith(prefix));
  const cdp = await context.newCDPSession(page);
  // A tap whose lifting comes 150 ms after its touch, as a person's quick tap: here, where a
  // frame renders for seconds, the lifting nearly always reaches the frame after the touch's
  // (as on a slow phone). Says whether it did, from the page's log of its touches.
  const slowTap = async (name) => {
    const at = traced().targets.get(name);
    if (!at) return "no target";
    await page.evaluate((what) => console.log(`tabula-test: slow tap ${what}`), `${name} at ${at}`);
    const heard = lines.length;
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: at[0], y: at[1], id: 0 }] });
    await page.waitForTimeout(150);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await page.waitForTimeout(SHOWN_WITHIN / 4);
    const split = lines.slice(heard).some((line) => /input frame \d+ \[touch \d+ Started/.test(line) && !/\[touch \d+ Started[^\]]*Ended/.test(line));
    return split ? "its lifting in a later frame" : "both in one frame";
  };
  // Fingers moved by the browser's own touch events, `steps` frames from `from` to `to`
  // (each a list of points, one a finger). Few steps: each event waits for the page's next
  // frame, which takes seconds here.
  const fingers = async (from, to, steps = 4) => {
    const at = (i) => from.map(([x, y], f) => ({ x: x + ((to[f][0] - x) * i) / steps, y: y + ((to[f][1] - y) * i) / steps, id: f }));
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at(0) });
    for (let i = 1; i <= steps; i++) {
      await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at(i) });
      await page.waitForTimeout(30);
    }
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await page.waitForTimeout(800);
  };

  const title = await waitFor("tabula: title screen at", 180_000);
  check(title !== null, "phone: the title screen came up");
  const canvas = await page.evaluate(() => {
    const c = document.getElementById("tabula");
    return { pixels: c.width, points: c.clientWidth };
  });
  check(canvas.pixels === 3 * canvas.points, `phone: the board is drawn at the phone's 3 pixels a point (${canvas.pixels} pixels across ${canvas.points} points)`);
  await until((t) => t.targets.has("card Absorption"), 20_000);
  const card = traced().targets.get("card Absorption");
  check(card !== undefined && card[0] < 390, `phone: the Absorption card is on screen (at ${card})`);
  await page.screenshot({ path: `${out}/phone-title.png` });

  // Slow, as the tap the browser test once lost on a quiet machine: egui timed the press
  // from the frame of the touch to that of the lifting, seconds here, and took no click.
  const slow = await slowTap("card Absorption");
  check(await until((t) => t.screen === "NewGame", 20_000), `phone: a tap on the card opens the new-game form (${slow}; screen ${traced().screen})`);
  await page.waitForTimeout(1000);
  await page.screenshot({ path: `${out}/phone-new-game.png` });
  await tap("seat 2");
  await until(() => named("seat 2: Bot level 1") !== undefined, 10_000);
  const levelOne = named("seat 2: Bot level 1");
  check(await tap(levelOne ?? "none"), `phone: the second seat's list offers ${levelOne ?? "no level 1"}`);
  await until(() => named("seat 2: ") === undefined, 10_000);
  await page.waitForTimeout(500);
  await tap("Start");
  check(await until((t) => t.screen === "Playing", 30_000), `phone: Start begins the game (screen ${traced().screen})`);

  // Three moves by taps: two lit cells (not tapped yet this turn, above the panel), the
  // count popup once where it shows (its + if it has one), "Play move" when it is offered, and else the
  // first of the panel's choices, which always lead to a whole move.
  let taps = 0;
  let popups = 0;
  const tapped = [];
  const unseen = [];
  for (let turn = 0; turn < 3; turn++) {
    const cells = () => [...traced().targets.entries()].filter(([name, at]) => name.startsWith("cell ") && at[1] < 844 * 0.5);
    if (!(await until(() => cells().length > 0, 120_000))) break;
    const before = traced().moves;
    const picked = new Set();
    let usedPopup = false;
    for (let i = 0; i < 16 && traced().moves === before; i++) {
      const shown = traced().targets;
      const fresh = cells().filter(([name]) => !picked.has(name));
      let name;
      const popup = shown.has("popup +") ? "popup +" : [...shown.keys()].find((n) => n.startsWith("popup "));
      if (shown.has("Play move")) name = "Play move";
      else if (popup && !usedPopup) {
        usedPopup = true;
        popups += 1;
        name = popup;
      } else if (picked.size < 2 && fresh.length) {
        [name] = fresh[(turn * 7 + i) % fresh.length];
        picked.add(name);
      } else name = "choice 0";
      const heard = lines.length;
      if (!(await tap(name))) break;
      tapped.push(name);
      taps += 1;
      // The frame that takes the tap says what it changed on screen, and then `frame`:
      // software rendering at three pixels a point takes seconds a frame here. Every tap
      // here changes what is on screen (a cell lit, a step chosen), so a tap that nothing
      // shows within 20 s was lost or held back until the next one.
      const changed = () => lines.slice(heard).some((line) => line.includes("tabula-trace: frame"));
      const end = Date.now() + SHOWN_WITHIN;
      while (!changed() && Date.now() < end) await page.waitForTimeout(100);
      if (!changed()) unseen.push(name);
      await page.waitForTimeout(300);
    }
    check(traced().moves > before, `phone: move ${turn + 1} played by taps (moves ${before} → ${traced().moves})`);
    // The frames after the move take its cells away; the next turn's come back, after the
    // bot's answer or at once (Absorption's absorbing is a move of the same side's).
    await page.waitForTimeout(1500);
  }
  console.log(`     (${taps} taps: ${tapped.join(", ")})`);
  check(popups > 0, `phone: the count popup beside a cell was tapped (${popups} times)`);
  check(unseen.length === 0, `phone: each tap shows at once, not at the next tap (${unseen.length ? `nothing after ${unseen.join(", ")}` : `${taps} taps`})`);
  check(tapped.filter((name) => name.startsWith("cell ")).length >= 3, `phone: the moves were built by tapping the board's cells (${tapped.filter((name) => name.startsWith("cell ")).length} cell taps)`);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${out}/phone-game.png` });

  const beforeUndo = traced().moves;
  await tap("Undo");
  check(await until((t) => t.moves < beforeUndo, 20_000), `phone: Undo takes the turn back (moves ${beforeUndo} → ${traced().moves})`);
  await page.waitForTimeout(1500);
  const afterUndo = traced().moves;

  const turnedFrom = traced().camera;
  await fingers([[120, 200]], [[300, 230]]);
  const turned = traced().camera;
  check(turnedFrom && turned && turned.yaw !== turnedFrom.yaw, `phone: a finger's drag turns the board (yaw ${turnedFrom?.yaw} → ${turned?.yaw})`);
  check(traced().moves === afterUndo && !traced().targets.has("Cancel"), `phone: the drag chose nothing and played nothing (moves ${traced().moves})`);
  await fingers([[145, 210], [245, 210]], [[115, 210], [275, 210]]);
  const pinched = traced().camera;
  check(turned && pinched && pinched.distance < turned.distance, `phone: spreading two fingers brings the board nearer (distance ${turned?.distance} → ${pinched?.distance})`);
  await page.screenshot({ path: `${out}/phone-turned.png` });

  writeFileSync(`${out}/phone.console.log`, lines.join("\n") + "\n");
  await tap("Menu");
  check(await until((t) => t.pause === "Paused", SHOWN_WITHIN), `phone: Menu opens the menu (${traced().pause})`);
  // Its fade-in takes a frame or two, and software rendering draws one a second here.
  await page.waitForTimeout(3000);
  await page.screenshot({ path: `${out}/phone-menu.png` });
  await tap("Resume");
  check(await until((t) => t.pause === "Running", SHOWN_WITHIN), `phone: Resume closes it (${traced().pause})`);

  // The panel below the board is a drawer: its handle pulls the move list and the rest up
  // over the board, the turn kept in sight, and lets them down again.
  const handleAt = traced().targets.get("Drawer");
  await tap("Drawer");
  check(await until((t) => t.targets.get("Drawer")?.[1] < 844 * 0.25, SHOWN_WITHIN), `phone: the drawer's handle pulls it up (handle at ${handleAt} → ${traced().targets.get("Drawer")})`);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${out}/phone-drawer.png` });
  await tap("Drawer");
  check(await until((t) => t.targets.get("Drawer")?.[1] === handleAt?.[1], SHOWN_WITHIN), `phone: and lets it down (handle at ${traced().targets.get("Drawer")})`);

  writeFileSync(`${out}/phone.console.log`, lines.join("\n") + "\n");
  check(errors.length === 0 && panics(lines).length === 0,
    `phone: no panics or page errors${errors.length || panics(lines).length ? `: ${[...errors, ...panics(lines)].join(" | ")}` : ""}`);
  await page.close();

  await phone.close();

  // The other screens a phone shows, through the page's demos: the other games' pieces
  // after a few moves, a lesson and a puzzle (screenshots `phone-NAME.png` to look at).
  // The same points at one pixel a point: the layout is the same, and software rendering
  // costs by the pixel (at three pixels a point they took 38 s each of CI's hour).
  const screens = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
  for (const [name, query, done] of [
    // Few moves: each takes tens of seconds of frames at this size.
    ["adamas", "demo=adamas:2:3&seats=human,1", "tabula-demo: finished"],
    ["adaptoid", "demo=adaptoid:4:3&seats=human,1", "tabula-demo: finished"],
    ["adomoc", "demo=adomoc:2:3&seats=human,1", "tabula-demo: finished"],
    ["lesson", "lesson=adamas:12:solve", "tabula-demo: lesson adamas step 12"],
    ["puzzle", "puzzle=adamas:solve", "tabula-demo: puzzle adamas"],
  ]) {
    const shown = await openPage(screens, `${base}/?${query}`);
    const ended = await shown.waitFor(done, demoTimeout);
    await shown.page.waitForTimeout(2000);
    await shown.page.screenshot({ path: `${out}/phone-${name}.png` });
    writeFileSync(`${out}/phone-${name}.console.log`, shown.lines.join("\n") + "\n");
    const broken = [...shown.errors, ...panics(shown.lines)];
    check(ended !== null && broken.length === 0,
      `phone: ${name} (${ended?.match(/tabula-demo: (.*?)(?: color:.*)?$/)?.[1] ?? "no end in time"})${broken.length ? `: ${broken.join(" | ")}` : ""}`);
    await shown.page.close();
  }
  await screens.close();
}

// A browser without WebGL2 gets a message, not a blank page.
partDone("phone");
if (wanted("no-webgl2")) {
  const noGl = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-webgl", "--disable-software-rasterizer"],
  });
  const page = await noGl.newPage();
  await page.goto(`${base}/`);
  await page.waitForTimeout(1000);
  const message = await page.textContent("#status");
  check(/needs WebGL2/.test(message ?? ""), `without WebGL2 the page says: ${message}`);
  await page.screenshot({ path: `${out}/no-webgl2.png` });
  await noGl.close();
}

partDone("no-webgl2");
await browser.close();
console.log(`\ntime a part: ${partTimes.join(", ")}`);
console.log("\npage open to first frame, to title screen; longest and mean gap between frames in the demo (ms):");
for (const t of timings) {
  console.log(`  ${t.game}: ${t.firstFrame}, ${t.title}; ${t.longestGap}, ${t.meanGap} over ${t.moves} moves (whole run ${Math.round(t.total / 1000)} s);` +
    ` the page's thread: ${t.longTasks.count} tasks over 50 ms, the longest ${Math.round(t.longTasks.longest)}, ${Math.round(t.longTasks.total / 1000)} s in all`);
}
if (reviews.length) console.log(`\nreviews in the page:\n  ${reviews.join("\n  ")}`);
console.log(`screenshots in ${out}`);
if (failures.length) console.log(`\n${failures.length} check(s) failed`);
// Exit now rather than wait for the timers of waits that were already answered.
process.exit(failures.length ? 1 : 0);
