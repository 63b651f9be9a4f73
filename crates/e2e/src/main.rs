//! `tabula-server`, built for the end-to-end tests (see Cargo.toml).

fn main() {
    tabula_server::command::main();
}
