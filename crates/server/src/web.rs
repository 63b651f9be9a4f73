//! The web build at `/`: each file sent precompressed where `web/build.sh` wrote a brotli
//! or gzip copy beside it and the browser takes that encoding (with `Content-Encoding` and
//! `Vary: Accept-Encoding`), files whose names carry their content's hash cached for a
//! year, and the rest (the page itself) checked again on every visit, so a new build is
//! picked up at once and the module is downloaded again only when it changed.

use axum::extract::Request;
use axum::http::HeaderValue;
use axum::http::header::CACHE_CONTROL;
use axum::response::IntoResponse;
use axum::routing::MethodRouter;
use std::path::PathBuf;
use tower::ServiceExt;
use tower_http::services::ServeDir;

/// Kept by browsers and caches as long as they like: the name changes with the content.
const HASHED: &str = "public, max-age=31536000, immutable";
/// Asked again each time (a cheap "not modified" when unchanged).
const UNHASHED: &str = "no-cache";

/// The service serving the web build in `dist`.
pub fn web_build(dist: PathBuf) -> MethodRouter {
    let files = ServeDir::new(dist).precompressed_br().precompressed_gzip();
    axum::routing::any(move |request: Request| {
        let files = files.clone();
        async move {
            let hashed = carries_hash(request.uri().path());
            let mut response = match files.oneshot(request).await {
                Ok(response) => response.into_response(),
                Err(never) => match never {},
            };
            if response.status().is_success() || response.status().is_redirection() {
                let policy = if hashed { HASHED } else { UNHASHED };
                response
                    .headers_mut()
                    .insert(CACHE_CONTROL, HeaderValue::from_static(policy));
            }
            response
        }
    })
}

/// Whether a path's file name carries a content hash as `web/build.sh` writes it: a `-`
/// and 16 hexadecimal digits before the extension (`tabula_bg-0123456789abcdef.wasm`).
pub fn carries_hash(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some((stem, _extension)) = name.rsplit_once('.') else {
        return false;
    };
    stem.rsplit_once('-')
        .is_some_and(|(_, hash)| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::{Body, to_bytes};
    use axum::http::header::{ACCEPT_ENCODING, CONTENT_ENCODING, VARY};

    const MODULE: &str = "tabula_bg-0123456789abcdef.wasm";

    fn dist() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        write("index.html", "<p>page</p>");
        write("index.html.gz", "gzip page");
        write(MODULE, "module");
        write(&format!("{MODULE}.br"), "brotli module");
        write(&format!("{MODULE}.gz"), "gzip module");
        dir
    }

    /// The response to GET `path` with `Accept-Encoding: encodings` (none if empty):
    /// status, Content-Encoding, Vary, Cache-Control and body.
    fn get(dist: &std::path::Path, path: &str, encodings: &str) -> [String; 5] {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let mut request = Request::builder().uri(path);
            if !encodings.is_empty() {
                request = request.header(ACCEPT_ENCODING, encodings);
            }
            let request = request.body(Body::empty()).unwrap();
            let router = axum::Router::new().fallback_service(web_build(dist.to_path_buf()));
            let response = router.oneshot(request).await.unwrap();
            let header = |name| {
                response
                    .headers()
                    .get(name)
                    .map_or(String::new(), |v| v.to_str().unwrap().to_string())
            };
            let (encoding, vary, cache) = (
                header(CONTENT_ENCODING),
                header(VARY),
                header(CACHE_CONTROL),
            );
            let status = response.status();
            let body = to_bytes(response.into_body(), 1 << 20).await.unwrap();
            [
                status.as_u16().to_string(),
                encoding,
                vary,
                cache,
                String::from_utf8(body.to_vec()).unwrap(),
            ]
        })
    }

    #[test]
    fn the_module_goes_compressed_as_the_browser_takes_it_and_is_kept_a_year() {
        let dist = dist();
        let module = format!("/{MODULE}");
        let [status, encoding, vary, cache, body] = get(dist.path(), &module, "gzip, deflate, br");
        assert_eq!(status, "200");
        assert_eq!((encoding.as_str(), body.as_str()), ("br", "brotli module"));
        assert!(vary.to_lowercase().contains("accept-encoding"), "{vary}");
        assert_eq!(cache, HASHED);
        // A browser that does not offer brotli (Chromium over plain HTTP to another
        // machine) gets gzip.
        let [_, encoding, _, _, body] = get(dist.path(), &module, "gzip, deflate");
        assert_eq!((encoding.as_str(), body.as_str()), ("gzip", "gzip module"));
        let [_, encoding, _, cache, body] = get(dist.path(), &module, "");
        assert_eq!((encoding.as_str(), body.as_str()), ("", "module"));
        assert_eq!(cache, HASHED);
    }

    #[test]
    fn the_page_is_asked_for_again_each_visit() {
        let dist = dist();
        let [status, encoding, _, cache, body] = get(dist.path(), "/", "gzip");
        assert_eq!(status, "200");
        assert_eq!((encoding.as_str(), body.as_str()), ("gzip", "gzip page"));
        assert_eq!(cache, UNHASHED);
        // No brotli copy of the page: brotli asked for alone gets it as it is.
        let [_, encoding, _, _, body] = get(dist.path(), "/index.html", "br");
        assert_eq!((encoding.as_str(), body.as_str()), ("", "<p>page</p>"));
    }

    #[test]
    fn a_missing_file_is_not_found_and_not_cached() {
        let dist = dist();
        let [status, _, _, cache, _] = get(dist.path(), "/tabula_bg-fedcba9876543210.wasm", "br");
        assert_eq!((status.as_str(), cache.as_str()), ("404", ""));
    }

    #[test]
    fn only_names_with_a_content_hash_count_as_hashed() {
        assert!(carries_hash("/tabula_bg-0123456789abcdef.wasm"));
        assert!(carries_hash("/tabula-0123456789ABCDEF.js"));
        for path in [
            "/",
            "/index.html",
            "/tabula_bg.wasm",
            "/tabula-0123456789abcde.js",
            "/tabula-0123456789abcdeg.js",
            "/0123456789abcdef",
            "/tabula-0123456789abcdef",
        ] {
            assert!(!carries_hash(path), "{path}");
        }
    }
}
