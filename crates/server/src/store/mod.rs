//! Where games are kept: one interface over the databases the server can use.
//!
//! Every change is one [`Op`], done and made durable before its answer comes back, so a
//! move the server acknowledged survives the process being killed. A change names the
//! version of the game it was decided on and is refused if the game moved on since (another
//! server process changed it): several processes can share one database safely.

mod account;
mod challenge;
mod mail;
mod migrations;
mod postgres;
mod queue;
mod rating;
mod sqlite;
mod turns;

use crate::ratings::RatedEnd;
use serde::{Deserialize, Serialize};
use tabula_protocol::{DELETED_PLAYER, Ending, Pace, UndoRequest};
use tokio::sync::mpsc;

pub use account::{AccountId, AccountOp, StoredAccount};
pub(crate) use challenge::challenge_gone;
pub use challenge::{ChallengeOp, LobbyWord, StoredChallenge};
pub use mail::{MailOp, StoredAddress};
pub(crate) use mail::{link_not_valid, link_too_soon};
pub use postgres::PostgresStore;
pub use rating::{PlayerRatings, RankedRow, RatingOp};
pub use sqlite::SqliteStore;
pub use turns::TurnOp;

/// A game as it is kept.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    pub code: String,
    pub game: String,
    pub settings: Vec<(String, String)>,
    pub pace: Pace,
    pub move_seconds: Option<u32>,
    /// Only accounts take its seats, and its end moves their ratings.
    pub rated: bool,
    /// Each seat's token, for the seats someone holds.
    pub tokens: Vec<Option<String>>,
    /// Each seat's account, for the seats an account holds.
    pub accounts: Vec<Option<AccountId>>,
    /// Each seat's player as shown: its account's name, or [`DELETED_PLAYER`] (read from
    /// the accounts; never written with the game).
    pub players: Vec<Option<String>>,
    pub moves: Vec<StoredMove>,
    pub ending: Option<Ending>,
    pub created_ms: u64,
    /// When the move clock of the player to move started.
    pub clock_ms: Option<u64>,
    /// How many changes the game has had since it was created.
    pub version: u64,
    pub offers: Offers,
    /// The seat whose move the game waits for (see [`Change::waiting_seat`]); none if
    /// nobody's, or not known yet for a game stored before the store kept it.
    pub waiting_seat: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMove {
    pub text: String,
    pub seat: usize,
    pub at_ms: u64,
}

/// What the players have offered and nobody has answered yet. Kept with the game, so a
/// restarted server, or another server of the same database, knows it too.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offers {
    /// The seats that offer (or accept) a draw, in order.
    pub draw: Vec<usize>,
    pub undo: Option<UndoRequest>,
}

/// A change, or a question, for the store.
#[derive(Clone, Debug)]
pub enum Op {
    /// A new game; fails with [`StoreError::Conflict`] if the code is taken.
    Create(Box<StoredGame>),
    Load {
        code: String,
    },
    Change(Box<Change>),
    Account(AccountOp),
    Ratings(RatingOp),
    Challenge(ChallengeOp),
    Turns(TurnOp),
    Mail(MailOp),
}

/// One change to a game that has not ended. It is made only if the game is still at
/// `version`, and leaves it at `version + 1` with these `offers`; otherwise it is a
/// [`StoreError::Conflict`] and nothing changes.
#[derive(Clone, Debug)]
pub struct Change {
    pub code: String,
    pub version: u64,
    pub step: Step,
    pub offers: Offers,
    /// The move clock starts again now, if `Some`.
    pub clock_ms: Option<u64>,
    /// The change ends a rated game: its players' ratings move with it, in the same
    /// transaction.
    pub rated_end: Option<RatedEnd>,
    /// The seat whose move the game waits for after the change: its player to move, while
    /// it goes on and every seat is taken. Kept so that an account's games waiting for it
    /// are found without replaying every game.
    pub waiting_seat: Option<usize>,
}

#[derive(Clone, Debug)]
pub enum Step {
    /// Gives a free seat its token (and its account, if the player has one).
    Claim {
        seat: usize,
        token: String,
        account: Option<AccountId>,
    },
    /// Adds the `ply`-th move.
    AddMove {
        ply: usize,
        mv: StoredMove,
    },
    /// Takes back every move from `ply` on.
    TakeBack {
        ply: usize,
    },
    End(Ending),
    /// Only the offers change.
    Offers,
}

#[derive(Debug)]
pub enum Reply {
    Done,
    Game(Option<Box<StoredGame>>),
    Registered(AccountId),
    Account(Option<StoredAccount>),
    /// Seats as (game code, seat).
    Seats(Vec<(String, usize)>),
    Leaderboard(Vec<RankedRow>),
    Player(Option<PlayerRatings>),
    /// Ratings by account.
    Ratings(Vec<(AccountId, crate::ratings::Rating)>),
    Challenges(Vec<StoredChallenge>),
    Codes(Vec<String>),
    Accounts(Vec<AccountId>),
    Address(Option<StoredAddress>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The change contradicts what is stored (a taken code, or a game that changed).
    Conflict(String),
    /// The database failed: the change was not made.
    Failed(String),
    /// The database stopped answering after the change was sent: it may have been made.
    Unknown(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Conflict(what) => write!(f, "{what}"),
            StoreError::Failed(why) => write!(f, "the game store failed: {why}"),
            StoreError::Unknown(why) => {
                write!(f, "the game store did not say whether it kept this: {why}")
            }
        }
    }
}

/// News from the database about games that other server processes changed.
#[derive(Clone, Debug, PartialEq)]
pub enum News {
    /// This game changed to `version`: load it again.
    Changed { code: String, version: u64 },
    /// This move was added, making the game `version`: play it too (or load the game again
    /// if it does not follow from what is here).
    Moved {
        code: String,
        version: u64,
        ply: usize,
        mv: StoredMove,
    },
    /// News may have been missed (the listening connection came back): load every open
    /// game again.
    Missed,
    /// The lobby changed.
    Lobby(LobbyWord),
}

/// The databases the server runs on.
#[derive(Clone)]
pub enum Store {
    Sqlite(SqliteStore),
    Postgres(PostgresStore),
}

impl Store {
    /// Opens `url` (`sqlite://PATH`, a bare path, or `postgres://…`) and brings its schema
    /// up to date. A PostgreSQL store starts tasks on the current tokio runtime.
    pub async fn open(url: &str) -> Result<Store, String> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(Store::Postgres(PostgresStore::open(url).await?));
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
            Store::Postgres(store) => store.run(op).await,
        }
    }

    pub async fn load(&self, code: &str) -> Result<Option<Box<StoredGame>>, StoreError> {
        match self.run(Op::Load { code: code.into() }).await? {
            Reply::Game(game) => Ok(game),
            _ => Err(StoreError::Failed("a load came back without a game".into())),
        }
    }

    /// Runs an account request.
    pub async fn account(&self, op: AccountOp) -> Result<Reply, StoreError> {
        self.run(Op::Account(op)).await
    }

    /// Runs a request about the lobby's challenges.
    pub async fn challenge(&self, op: ChallengeOp) -> Result<Reply, StoreError> {
        self.run(Op::Challenge(op)).await
    }

    /// Asks about ratings.
    pub async fn ratings(&self, op: RatingOp) -> Result<Reply, StoreError> {
        self.run(Op::Ratings(op)).await
    }

    /// Asks about whose turn it is.
    pub async fn turns(&self, op: TurnOp) -> Result<Reply, StoreError> {
        self.run(Op::Turns(op)).await
    }

    /// Asks about e-mail addresses and mails.
    pub async fn mail(&self, op: MailOp) -> Result<Reply, StoreError> {
        self.run(Op::Mail(op)).await
    }

    /// Whether other server processes may change the games too.
    pub fn is_shared(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    /// News of other processes' changes, where the database can tell of them; a SQLite
    /// file has one server, so it has none.
    pub fn news(&self) -> Option<mpsc::UnboundedReceiver<News>> {
        match self {
            Store::Sqlite(_) => None,
            Store::Postgres(store) => Some(store.news()),
        }
    }
}

/// A database URL as it may be printed: without its password.
pub fn without_password(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => match url[scheme + 3..at].split_once(':') {
            Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
            None => url.to_string(),
        },
        _ => url.to_string(),
    }
}

/// A seat's player as shown, from its account's name and whether it was deleted.
pub(crate) fn shown_player(name: Option<String>, deleted: bool) -> Option<String> {
    if deleted {
        Some(DELETED_PLAYER.to_string())
    } else {
        name
    }
}

/// What a request answered with another request's kind of reply says (cannot happen).
pub(crate) const ANSWERED_ELSE: &str = "the game store answered another question";

/// The conflict for a change made on an old version of the game.
pub(crate) fn changed_meanwhile(code: &str) -> StoreError {
    StoreError::Conflict(format!(
        "game {code} changed meanwhile (on another server): look at it again"
    ))
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

/// A waiting seat as kept: NULL for nobody (-1 is "not known yet": see the migrations).
pub(crate) fn waiting_column(seat: Option<usize>) -> Option<i64> {
    seat.map(|seat| seat as i64)
}

/// A waiting seat read back: a number below 0 is "not known yet".
pub(crate) fn waiting_of(column: Option<i64>) -> Option<usize> {
    column.and_then(|seat| usize::try_from(seat).ok())
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
