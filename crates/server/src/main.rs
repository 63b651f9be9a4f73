fn main() {
    tabula_server::command::main();
}
