//! What the search worker's script (`web/search-worker.js`) calls in its own instance of
//! the module: the page's messages in, a slice of searching, the replies out.

use super::SearchHost;
use std::cell::RefCell;
use wasm_bindgen::prelude::wasm_bindgen;
use web_time::Duration;

thread_local! {
    static HOST: RefCell<SearchHost> = {
        // A search that panics stops this instance: what it said goes to the console
        // (the page's own hook is the game's, in the other instance).
        std::panic::set_hook(Box::new(|panic| console_error(&format!("tabula-search: {panic}"))));
        RefCell::new(SearchHost::default())
    };
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(text: &str);
}

/// Takes a message from the page; why it was refused, if it was.
#[wasm_bindgen]
pub fn search_message(text: &str) -> Option<String> {
    HOST.with(|host| host.borrow_mut().message(text).err())
}

/// Searches for up to `ms` milliseconds (a second at most); the replies to post to the page.
#[wasm_bindgen]
pub fn search_work(ms: f64) -> Vec<String> {
    let replies = HOST.with(|host| {
        host.borrow_mut()
            .work(Duration::from_millis(ms.clamp(0.0, 1000.0) as u64))
    });
    replies
        .iter()
        // The page's link takes a "broken: " line as the worker's failure.
        .map(|reply| ron::to_string(reply).unwrap_or_else(|e| format!("broken: a reply: {e}")))
        .collect()
}

/// Whether a search is under way (the script then goes on with another slice).
#[wasm_bindgen]
pub fn search_busy() -> bool {
    HOST.with(|host| host.borrow().is_busy())
}
