//! Nothing to call: this crate only asks for features (see its `Cargo.toml`), so the app and
//! the whole workspace resolve the crates they share alike and build them once.
