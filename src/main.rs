//! Tabula, the game. The 3D board arrives with the issue "The 3D game"; until then this
//! binary says where to play.

fn main() {
    println!(
        "Tabula's 3D board is not built yet. Play Adamas in the terminal:\n\n    \
         cargo run --release -p tabula-cli -- play adamas\n\n\
         (`-- play adamas --seats human,random` to play against a random mover; \
         `-- help` lists every verb.)"
    );
}
