//! Where games are kept: one interface over the databases the server can use.
//!
//! Every change is one [`Op`], done and made durable before its answer comes back, so a
//! move the server acknowledged survives the process being killed.

mod migrations;
mod sqlite;

use serde::{Deserialize, Serialize};
use tabula_online::protocol::{Ending, Pace};

pub use sqlite::SqliteStore;

/// A game as it is kept.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    pub code: String,
    pub game: String,
    pub settings: Vec<(String, String)>,
    pub pace: Pace,
    pub move_seconds: Option<u32>,
    /// Each seat's token, for the seats someone holds.
    pub tokens: Vec<Option<String>>,
    pub moves: Vec<StoredMove>,
    pub ending: Option<Ending>,
    pub created_ms: u64,
    /// When the move clock of the player to move started.
    pub clock_ms: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMove {
    pub text: String,
    pub seat: usize,
    pub at_ms: u64,
}

/// A change, or a question, for the store.
#[derive(Clone, Debug)]
pub enum Op {
    /// A new game; fails with [`StoreError::Conflict`] if the code is taken.
    Create(Box<StoredGame>),
    Load {
        code: String,
    },
    /// Gives a free seat its token (a conflict if someone holds it) and restarts the clock.
    Claim {
        code: String,
        seat: usize,
        token: String,
        at_ms: u64,
    },
    /// Adds the `ply`-th move; a conflict if the game already has it.
    AddMove {
        code: String,
        ply: usize,
        mv: StoredMove,
    },
    /// Takes back every move from `ply` on, and restarts the clock.
    TakeBack {
        code: String,
        ply: usize,
        at_ms: u64,
    },
    End {
        code: String,
        ending: Ending,
    },
}

#[derive(Debug)]
pub enum Reply {
    Done,
    Game(Option<Box<StoredGame>>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The change contradicts what is stored (a taken code, seat or ply).
    Conflict(String),
    /// The database failed.
    Failed(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Conflict(what) => write!(f, "{what}"),
            StoreError::Failed(why) => write!(f, "the game store failed: {why}"),
        }
    }
}

/// The databases the server runs on.
#[derive(Clone)]
pub enum Store {
    Sqlite(SqliteStore),
}

impl Store {
    /// Opens `url` (`sqlite://PATH`, or a bare path) and brings its schema up to date.
    pub fn open(url: &str) -> Result<Store, String> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Err(format!(
                "{url}: this build of tabula-server keeps games in SQLite only"
            ));
        }
        let path = url.strip_prefix("sqlite://").unwrap_or(url);
        if path.is_empty() {
            return Err("--database sqlite:// needs a file path".into());
        }
        Ok(Store::Sqlite(SqliteStore::open(path)?))
    }

    pub async fn run(&self, op: Op) -> Result<Reply, StoreError> {
        match self {
            Store::Sqlite(store) => store.run(op).await,
        }
    }

    pub async fn load(&self, code: &str) -> Result<Option<Box<StoredGame>>, StoreError> {
        match self.run(Op::Load { code: code.into() }).await? {
            Reply::Game(game) => Ok(game),
            Reply::Done => Err(StoreError::Failed("a load came back empty".into())),
        }
    }
}

/// Settings and endings are kept as JSON text, the same in every database.
pub(crate) fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("plain data serializes")
}

pub(crate) fn from_json<T: for<'de> Deserialize<'de>>(
    text: &str,
    what: &str,
) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Failed(format!("stored {what}: {e}")))
}

pub(crate) fn pace_name(pace: Pace) -> &'static str {
    match pace {
        Pace::Live => "live",
        Pace::Correspondence => "correspondence",
    }
}

pub(crate) fn pace_of(name: &str) -> Result<Pace, StoreError> {
    match name {
        "live" => Ok(Pace::Live),
        "correspondence" => Ok(Pace::Correspondence),
        _ => Err(StoreError::Failed(format!("stored pace {name:?}"))),
    }
}
