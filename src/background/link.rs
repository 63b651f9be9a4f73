//! The page's side of the search worker: jobs posted to it as RON text, and its replies
//! kept by search until the search's frame takes them. In the browser the worker is the
//! page's Web Worker (`web/search-worker.js`, which the page hands to the game as
//! `window.tabulaSearchWorker`); elsewhere a thread with its own [`SearchHost`] stands in
//! for it, so tests run the browser's way with the same messages.

use super::{FromWorker, SearchJob, ToWorker};
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Replies by search, for the searches still waited for.
static INBOX: Mutex<Option<HashMap<u64, Vec<FromWorker>>>> = Mutex::new(None);
static NEXT_ID: AtomicU64 = AtomicU64::new(1);
/// Set once the worker has failed as a whole (it could not start, or a search crashed
/// its instance): new searches run in frames.
static BROKEN: AtomicBool = AtomicBool::new(false);
/// Set once the worker's instance of the module is ready to search.
static READY: AtomicBool = AtomicBool::new(false);

/// Whether there is a worker to post to.
pub fn connected() -> bool {
    platform::connected()
}

/// Whether searches can go to the worker now.
pub fn usable() -> bool {
    connected() && !BROKEN.load(Ordering::Relaxed)
}

pub fn in_search_worker() -> bool {
    platform::in_search_worker()
}

/// Whether the worker failed before it could search at all (its script or its instance of
/// the module did not load): searches posted to it never ran there, and run in frames.
pub fn failed_to_start() -> bool {
    BROKEN.load(Ordering::Relaxed) && !READY.load(Ordering::Relaxed)
}

/// Posts a job; its search's number, for its replies.
pub fn start(job: SearchJob) -> u64 {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    with_inbox(|inbox| inbox.insert(id, Vec::new()));
    post(&ToWorker::Start { id, job });
    id
}

/// Nobody waits for search `id` any more: the worker drops it, and its replies go.
pub fn stop(id: u64) {
    if with_inbox(|inbox| inbox.remove(&id)).flatten().is_some() {
        post(&ToWorker::Stop { id });
    }
}

/// The worker forgets `owner`'s kept trees.
pub fn forget(owner: u64) {
    post(&ToWorker::Forget { owner });
}

/// Search `id`'s replies since the last look; a failure once the worker has broken (a
/// search crashed its instance).
pub fn replies(id: u64) -> Vec<FromWorker> {
    let mut replies = with_inbox(|inbox| inbox.get_mut(&id).map(std::mem::take))
        .flatten()
        .unwrap_or_default();
    let mut finished = replies
        .iter()
        .any(|reply| matches!(reply, FromWorker::Finished { .. }));
    if !finished && BROKEN.load(Ordering::Relaxed) {
        replies.push(FromWorker::Finished {
            id,
            output: Err("the search worker stopped unexpectedly".to_string()),
        });
        finished = true;
    }
    if finished {
        with_inbox(|inbox| inbox.remove(&id));
    }
    replies
}

fn with_inbox<T>(f: impl FnOnce(&mut HashMap<u64, Vec<FromWorker>>) -> T) -> Option<T> {
    let mut inbox = INBOX.lock().ok()?;
    Some(f(inbox.get_or_insert_with(HashMap::new)))
}

fn post(message: &ToWorker) {
    match ron::to_string(message) {
        Ok(text) => platform::post(text),
        Err(e) => broken(&format!("a message to the search worker: {e}")),
    }
}

/// A reply from the worker, kept for its search if anyone still waits for it. A copy
/// replaces the one before it, which nobody has taken (frames stop in a hidden page while
/// the worker goes on).
fn deliver(text: &str) {
    if text == "ready" {
        READY.store(true, Ordering::Relaxed);
        bevy::log::info!("search worker ready");
        return;
    }
    match ron::from_str::<FromWorker>(text) {
        Ok(reply) => {
            with_inbox(|inbox| {
                if let Some(replies) = inbox.get_mut(&reply.id()) {
                    if matches!(reply, FromWorker::Shown { .. }) {
                        replies.retain(|kept| !matches!(kept, FromWorker::Shown { .. }));
                    }
                    replies.push(reply);
                }
            });
        }
        Err(e) => broken(&format!("a reply from the search worker: {e}: {text}")),
    }
}

fn broken(why: &str) {
    bevy::log::error!("search worker: {why}");
    BROKEN.store(true, Ordering::Relaxed);
}

#[cfg(target_arch = "wasm32")]
mod platform {
    use std::cell::RefCell;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::Closure;

    thread_local! {
        /// The page's worker, connected on the first look (None: there is none).
        static WORKER: RefCell<Option<Option<web_sys::Worker>>> = const { RefCell::new(None) };
    }

    pub fn in_search_worker() -> bool {
        web_sys::window().is_none()
    }

    pub fn connected() -> bool {
        WORKER.with(|worker| worker.borrow_mut().get_or_insert_with(connect).is_some())
    }

    pub fn post(text: String) {
        WORKER.with(|worker| {
            if let Some(Some(worker)) = &*worker.borrow()
                && worker
                    .post_message(&wasm_bindgen::JsValue::from_str(&text))
                    .is_err()
            {
                super::broken("the page could not post to it");
            }
        });
    }

    /// The worker the page started, its replies delivered to the inbox. `?search=frames`
    /// leaves it out (searches run in frames, as before the worker, to compare the two).
    fn connect() -> Option<web_sys::Worker> {
        if crate::web_page::param("search").as_deref() == Some("frames") {
            return None;
        }
        let window = web_sys::window()?;
        let flag = |name: &str| {
            js_sys::Reflect::get(&window, &name.into()).is_ok_and(|value| value.is_truthy())
        };
        // What the page heard from the worker before the game listened.
        if flag("tabulaSearchWorkerFailed") {
            bevy::log::warn!("search worker: it failed to start; searches run between frames");
            return None;
        }
        if flag("tabulaSearchWorkerReady") {
            super::READY.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        let worker: web_sys::Worker = js_sys::Reflect::get(&window, &"tabulaSearchWorker".into())
            .ok()?
            .dyn_into()
            .ok()?;
        let on_message =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|event: web_sys::MessageEvent| {
                match event.data().as_string() {
                    // The worker's own script says when the module's instance failed.
                    Some(text) if text.starts_with("broken: ") => super::broken(&text[8..]),
                    Some(text) => super::deliver(&text),
                    None => super::broken("a reply that is not text"),
                }
            });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(|_event: web_sys::Event| {
            super::broken("it failed to start or to run");
        });
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        on_error.forget();
        bevy::log::info!("search worker: searches run off the page's thread");
        Some(worker)
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod platform {
    use super::super::SearchHost;
    use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
    use std::sync::{Mutex, OnceLock};
    use web_time::Duration;

    /// How long the thread searches between looks at its messages, as the browser's worker does.
    const SLICE: Duration = Duration::from_millis(20);

    static SENDER: OnceLock<Mutex<Sender<String>>> = OnceLock::new();

    pub fn in_search_worker() -> bool {
        false
    }

    pub fn connected() -> bool {
        true
    }

    pub fn post(text: String) {
        let sender = SENDER.get_or_init(|| {
            let (sender, receiver) = channel();
            let spawned = std::thread::Builder::new()
                .name("search worker".to_string())
                .spawn(move || serve(receiver));
            match spawned {
                Ok(_) => super::READY.store(true, std::sync::atomic::Ordering::Relaxed),
                // Its receiver is gone with it, so every send below fails too.
                Err(e) => super::broken(&format!("no thread for it: {e}")),
            }
            Mutex::new(sender)
        });
        if let Ok(sender) = sender.lock()
            && sender.send(text).is_err()
        {
            super::broken("its thread has ended");
        }
    }

    fn serve(messages: Receiver<String>) {
        let mut host = SearchHost::default();
        loop {
            // Idle, it sleeps until a message comes; busy, it takes all that came during
            // a slice (a search stopped is not searched any more).
            let mut waiting = Vec::new();
            if !host.is_busy() {
                match messages.recv() {
                    Ok(message) => waiting.push(message),
                    Err(_) => return,
                }
            }
            loop {
                match messages.try_recv() {
                    Ok(message) => waiting.push(message),
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => return,
                }
            }
            for message in waiting {
                if let Err(e) = host.message(&message) {
                    super::broken(&e);
                }
            }
            for reply in host.work(SLICE) {
                match ron::to_string(&reply) {
                    Ok(text) => super::deliver(&text),
                    Err(e) => super::broken(&format!("a reply: {e}")),
                }
            }
        }
    }
}
