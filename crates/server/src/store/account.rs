//! What the store keeps of accounts: names, password hashes, sessions, and which seats are
//! whose. The server decides what is allowed (names, passwords, throttling: see
//! `crate::accounts`); the store keeps what it decided.

/// An account's number in the database.
pub type AccountId = i64;

/// An account as it is kept (never a deleted one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAccount {
    pub id: AccountId,
    pub name: String,
    /// The password's Argon2id hash, as a PHC string.
    pub password: String,
}

#[derive(Clone, Debug)]
pub enum AccountOp {
    /// A new account: [`super::Reply::Registered`], or a conflict if its folded name is
    /// taken (by a deleted account too).
    Register {
        name: String,
        name_key: String,
        password: String,
        now_ms: u64,
    },
    /// The account of this folded name, unless deleted.
    Find {
        name_key: String,
    },
    /// A new session; the account's expired ones are let go.
    AddSession {
        account: AccountId,
        token_hash: String,
        now_ms: u64,
        expires_ms: u64,
    },
    /// The account of a session that has not expired at `now_ms`, its expiry moved on to
    /// `expires_ms` (once a day at most: a session in use is not written at every use).
    Session {
        token_hash: String,
        now_ms: u64,
        expires_ms: u64,
    },
    EndSession {
        token_hash: String,
    },
    /// Ends every session of `account`.
    EndSessions {
        account: AccountId,
    },
    /// A new password, and every session of the account but `keep` ended, together.
    SetPassword {
        account: AccountId,
        password: String,
        keep: String,
    },
    /// Forgets the account's name, password and sessions; its row and folded name stay.
    Delete {
        account: AccountId,
        now_ms: u64,
    },
    /// Gives seat `seat` of game `code`, held by `token` and no account, to `account`,
    /// which holds no other seat there; a conflict otherwise. The game's version moves on
    /// (taken first, so a join of the same game by another server process waits for it,
    /// or it for the join, and the second sees the first).
    Adopt {
        code: String,
        seat: usize,
        token: String,
        account: AccountId,
    },
    /// The account's seats as (code, seat), the newest games first, at most `limit`.
    Seats {
        account: AccountId,
        limit: usize,
    },
    /// The account's seats in game `code`, as (code, seat).
    SeatsIn {
        account: AccountId,
        code: String,
    },
}

impl AccountOp {
    /// The game the request is about, if any.
    pub fn code(&self) -> Option<&str> {
        match self {
            AccountOp::Adopt { code, .. } | AccountOp::SeatsIn { code, .. } => Some(code),
            _ => None,
        }
    }
}

/// How much later an expiry must move before it is written again.
pub(crate) const EXPIRY_STEP_MS: i64 = 24 * 3600 * 1000;

/// The conflict for a name already taken.
pub(crate) fn name_taken(name: &str) -> super::StoreError {
    super::StoreError::Conflict(format!("the name {name} is taken: choose another"))
}

/// The conflict for a seat that cannot be given to an account.
pub(crate) fn not_adoptable(code: &str, seat: usize) -> super::StoreError {
    super::StoreError::Conflict(format!(
        "seat {} of game {code} is not held by that token, is already an account's, or \
         your account holds another seat there",
        seat + 1
    ))
}
