//! The browser's own WebSocket, which reconnects by itself. Its JavaScript objects cannot
//! leave the page's one thread, so they live in a thread-local table and a [`Connection`]
//! is a key into it: a client stays a plain value that a Bevy resource can hold.
//!
//! The browser answers the server's pings itself and does not show them, so unlike the
//! desktop's connection this one cannot tell a silent server; the browser's own closing
//! of a dead connection stands in for it. Like the desktop's, it paces what it sends under
//! the server's rate: a message over the pace waits for a timer.

use super::{Event, Wake, socket_url};
use crate::protocol::bucket::Bucket;
use crate::protocol::{ClientMsg, MAX_SERVER_MESSAGE_BYTES, ServerMsg};
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::rc::{Rc, Weak};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{CloseEvent, MessageEvent, WebSocket};
use web_time::{Duration, Instant};

const FIRST_RETRY_MS: i32 = 100;
const LAST_RETRY_MS: i32 = 5_000;

pub struct Connection {
    id: u64,
}

/// One connection's state, shared with the page's callbacks (which hold it weakly, so
/// dropping the connection ends them).
struct Link {
    url: String,
    /// Whether passwords and sessions may be sent here.
    secrets: Result<(), String>,
    wake: Option<Wake>,
    socket: RefCell<Option<WebSocket>>,
    events: RefCell<VecDeque<Event>>,
    retry_ms: Cell<i32>,
    /// The socket's callbacks, kept alive while it lives.
    handlers: RefCell<Vec<Closure<dyn FnMut(JsValue)>>>,
    /// The timer that connects again, and its callback.
    retry: RefCell<Option<(i32, Closure<dyn FnMut()>)>>,
    /// Messages over the pace, in order, for the socket open now.
    outbox: RefCell<VecDeque<String>>,
    pace: RefCell<Bucket>,
    /// The timer that sends the outbox on, and its one callback, made once so that it is
    /// never dropped while it runs.
    flush_timer: Cell<Option<i32>>,
    flush_callback: RefCell<Option<Closure<dyn FnMut()>>>,
    /// Sees each message as it arrives, before the app takes it: a hidden page runs no
    /// frames, so what must happen at once (a notice) happens here.
    watcher: RefCell<Option<Box<dyn Fn(&ServerMsg)>>>,
    /// Sent by the page's own callback each time the socket opens, before the app hears it
    /// opened (a hidden page runs no frames to send them).
    greeting: RefCell<Vec<String>>,
}

thread_local! {
    static LINKS: RefCell<HashMap<u64, Rc<Link>>> = RefCell::new(HashMap::new());
    static NEXT_ID: Cell<u64> = const { Cell::new(1) };
}

impl Connection {
    /// Starts connecting to `server`; [`Event::Connected`] comes when it is up, and
    /// `wake` (if any) is called after each event is ready to be taken.
    pub fn open(server: &str, wake: Option<Wake>) -> Result<Connection, String> {
        let url = socket_url(server)?;
        let link = Rc::new(Link {
            secrets: super::secrets_allowed(&url),
            url,
            wake,
            socket: RefCell::new(None),
            events: RefCell::new(VecDeque::new()),
            retry_ms: Cell::new(FIRST_RETRY_MS),
            handlers: RefCell::new(Vec::new()),
            retry: RefCell::new(None),
            outbox: RefCell::new(VecDeque::new()),
            pace: RefCell::new(Bucket::client_pace(Instant::now())),
            flush_timer: Cell::new(None),
            flush_callback: RefCell::new(None),
            watcher: RefCell::new(None),
            greeting: RefCell::new(Vec::new()),
        });
        let weak = Rc::downgrade(&link);
        *link.flush_callback.borrow_mut() = Some(Closure::<dyn FnMut()>::new(move || {
            if let Some(link) = weak.upgrade() {
                link.flush_timer.set(None);
                link.flush();
            }
        }));
        connect(&link)?;
        let id = NEXT_ID.with(|next| next.replace(next.get() + 1));
        LINKS.with(|links| links.borrow_mut().insert(id, link));
        Ok(Connection { id })
    }

    fn link(&self) -> Option<Rc<Link>> {
        LINKS.with(|links| links.borrow().get(&self.id).cloned())
    }

    /// Calls `watcher` with each message from the server as it arrives, even while the
    /// page is hidden and the app runs no frames.
    pub fn watch(&self, watcher: impl Fn(&ServerMsg) + 'static) {
        if let Some(link) = self.link() {
            *link.watcher.borrow_mut() = Some(Box::new(watcher));
        }
    }

    /// Sends `msgs` each time the connection opens (again), as soon as it does, even while
    /// the page is hidden; those that may not go to this server are left out.
    pub fn greet_with(&self, msgs: &[ClientMsg]) {
        let Some(link) = self.link() else { return };
        *link.greeting.borrow_mut() = msgs
            .iter()
            .filter(|msg| !msg.carries_secret() || link.secrets.is_ok())
            .map(ClientMsg::to_json)
            .collect();
    }

    /// Sends `msg`; one that carries a password or a session, to a server it may not go
    /// to, is refused here with an error event instead.
    pub fn send(&self, msg: &ClientMsg) {
        if msg.carries_secret()
            && let Some(link) = self.link()
            && let Err(why) = &link.secrets
        {
            link.push(Event::Message(ServerMsg::error(why.clone())));
            return;
        }
        self.send_raw(msg.to_json());
    }

    /// Sends text as it is. Like the desktop's, a message sent while the connection is
    /// down is dropped: [`Event::Connected`] says when to ask again.
    pub fn send_raw(&self, text: String) {
        let Some(link) = self.link() else { return };
        if link.is_open() {
            link.outbox.borrow_mut().push_back(text);
            link.flush();
        }
    }

    pub fn try_next(&self) -> Option<Event> {
        self.link()?.events.borrow_mut().pop_front()
    }

    /// The page's thread cannot wait: this is [`Connection::try_next`].
    pub fn next_timeout(&self, _wait: Duration) -> Option<Event> {
        self.try_next()
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        let link = LINKS.with(|links| links.borrow_mut().remove(&self.id));
        if let Some(link) = link {
            link.close();
        }
    }
}

impl Link {
    fn is_open(&self) -> bool {
        self.socket
            .borrow()
            .as_ref()
            .is_some_and(|socket| socket.ready_state() == WebSocket::OPEN)
    }

    /// Sends what the pace allows now, and sets the timer for the rest.
    fn flush(&self) {
        let socket = self.socket.borrow();
        let Some(socket) = socket.as_ref().filter(|_| self.is_open()) else {
            self.outbox.borrow_mut().clear();
            return;
        };
        let mut outbox = self.outbox.borrow_mut();
        let mut pace = self.pace.borrow_mut();
        while !outbox.is_empty() && pace.take(Instant::now()) {
            if let Some(text) = outbox.pop_front() {
                let _ = socket.send_with_str(&text);
            }
        }
        if outbox.is_empty() || self.flush_timer.get().is_some() {
            return;
        }
        let wait_ms = pace.wait(Instant::now()).as_millis().clamp(1, 1_000) as i32;
        if let (Some(window), Some(flush)) =
            (web_sys::window(), self.flush_callback.borrow().as_ref())
        {
            let timer = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                flush.as_ref().unchecked_ref(),
                wait_ms,
            );
            self.flush_timer.set(timer.ok());
        }
    }

    fn push(&self, event: Event) {
        self.events.borrow_mut().push_back(event);
        if let Some(wake) = &self.wake {
            wake();
        }
    }

    /// Stops the socket and the timer, so no callback runs after the connection is gone.
    fn close(&self) {
        if let Some(socket) = self.socket.borrow_mut().take() {
            socket.set_onopen(None);
            socket.set_onmessage(None);
            socket.set_onclose(None);
            let _ = socket.close();
        }
        if let Some((timer, _)) = self.retry.borrow_mut().take()
            && let Some(window) = web_sys::window()
        {
            window.clear_timeout_with_handle(timer);
        }
        if let Some(timer) = self.flush_timer.take()
            && let Some(window) = web_sys::window()
        {
            window.clear_timeout_with_handle(timer);
        }
        self.outbox.borrow_mut().clear();
    }
}

/// Opens a socket for `link`. Only an address the browser refuses outright fails here,
/// and trying it again would not help.
fn connect(link: &Rc<Link>) -> Result<(), String> {
    let socket =
        WebSocket::new(&link.url).map_err(|e| format!("cannot open {}: {e:?}", link.url))?;
    let weak = Rc::downgrade(link);
    let on_open = Closure::<dyn FnMut(JsValue)>::new(move |_| {
        if let Some(link) = weak.upgrade() {
            link.retry_ms.set(FIRST_RETRY_MS);
            let greeting = link.greeting.borrow().clone();
            link.outbox.borrow_mut().extend(greeting);
            link.flush();
            link.push(Event::Connected);
        }
    });
    let weak = Rc::downgrade(link);
    let on_message = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        let Some(link) = weak.upgrade() else { return };
        let data = event.unchecked_into::<MessageEvent>().data();
        let Some(js_text) = data.dyn_ref::<js_sys::JsString>() else {
            return;
        };
        // Measured before it is copied into the module's memory, which never shrinks: a
        // text has at least as many UTF-8 bytes as UTF-16 units.
        let units = js_text.length() as usize;
        if units > MAX_SERVER_MESSAGE_BYTES {
            link.push(Event::Message(ServerMsg::error(ServerMsg::too_long(units))));
            return;
        }
        let text = String::from(js_text);
        link.push(match ServerMsg::from_json(&text) {
            Ok(msg) => {
                if let Some(watcher) = link.watcher.borrow().as_ref() {
                    watcher(&msg);
                }
                Event::Message(msg)
            }
            Err(e) => Event::Message(ServerMsg::error(e)),
        });
    });
    let weak = Rc::downgrade(link);
    let on_close = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        let Some(link) = weak.upgrade() else { return };
        // What waited for the pace was meant for this connection.
        link.outbox.borrow_mut().clear();
        let reason = event.unchecked_into::<CloseEvent>().reason();
        link.push(Event::Disconnected(if reason.is_empty() {
            "the connection to the server was lost".to_string()
        } else {
            format!("the server closed the connection: {reason}")
        }));
        retry_later(&link);
    });
    // An error is always followed by a close, which reports it.
    socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
    // The old socket's callbacks go with it; none of them is running now (this runs at
    // the start or from the retry timer).
    *link.handlers.borrow_mut() = vec![on_open, on_message, on_close];
    *link.socket.borrow_mut() = Some(socket);
    Ok(())
}

/// Connects again after a pause that doubles up to a few seconds.
fn retry_later(link: &Rc<Link>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let wait = link.retry_ms.get();
    link.retry_ms.set((wait * 2).min(LAST_RETRY_MS));
    let weak: Weak<Link> = Rc::downgrade(link);
    let again = Closure::<dyn FnMut()>::new(move || {
        if let Some(link) = weak.upgrade()
            && let Err(e) = connect(&link)
        {
            link.push(Event::Disconnected(e));
        }
    });
    let timer = window
        .set_timeout_with_callback_and_timeout_and_arguments_0(again.as_ref().unchecked_ref(), wait)
        .unwrap_or_default();
    // The timer this replaces has fired: this runs from a close, which follows a connect.
    *link.retry.borrow_mut() = Some((timer, again));
}
