//! Accounts: a name and a password, and sessions that keep a client logged in.
//!
//! - [`names`]: which names and passwords are allowed, and how names are compared.
//! - [`passwords`]: Argon2id hashes, a few at a time, off the server's tasks.
//! - [`throttle`]: how often a name may be guessed at and an address may try.
//!
//! A session is 128 random bits the client keeps; the store keeps only its hash, so a copy
//! of the database logs nobody in. A password is hashed at once and never kept, logged or
//! sent back.

pub mod names;
pub mod passwords;
pub mod throttle;

use crate::codes::new_token;
use crate::room::{Player, now_ms};
use crate::store::{AccountId, AccountOp, Reply, Store, StoreError, StoredAccount};
use blake2::{Blake2s256, Digest};
use names::{check_name, check_password, name_key};
use passwords::Hasher;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use tabula_protocol::ServerMsg;
use throttle::Throttle;

/// A session lasts this long after its last use.
pub const SESSION_DAYS: u64 = 30;
const SESSION_MS: u64 = SESSION_DAYS * 24 * 3600 * 1000;

/// The account a connection is logged in as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedIn {
    pub id: AccountId,
    pub name: String,
    session_hash: String,
    /// The account's generation when it logged in (see [`Accounts::is_current`]).
    generation: u64,
}

impl SignedIn {
    /// The account as a seat shows it.
    pub fn player(&self) -> Player<'_> {
        Player {
            id: self.id,
            name: &self.name,
        }
    }
}

#[derive(Default)]
pub struct Accounts {
    hasher: Hasher,
    pub throttle: Throttle,
    /// Bumped for an account when its sessions end (everywhere, a new password, deleted),
    /// so a seat taken through the account on a connection of this process is let go.
    generations: Mutex<HashMap<AccountId, u64>>,
}

/// What a session (or another secret given by link: an e-mail confirmation) is kept as.
pub(crate) fn session_hash(session: &str) -> String {
    Blake2s256::digest(session.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn store_error(e: StoreError) -> String {
    e.to_string()
}

impl Accounts {
    /// Accounts each address may try `attempts_per_minute` times a minute (0: any number,
    /// behind a proxy).
    pub fn new(attempts_per_minute: u32) -> Accounts {
        Accounts {
            throttle: Throttle::new(attempts_per_minute),
            ..Accounts::default()
        }
    }

    fn generation(&self, account: AccountId) -> u64 {
        self.generations
            .lock()
            .expect("generations lock")
            .get(&account)
            .copied()
            .unwrap_or(0)
    }

    /// Whether no session of the account ended here since `signed_in` logged in: checked
    /// in memory for each move of a seat taken through the account. (Another server
    /// process's ending is seen at the next account request instead.)
    pub fn is_current(&self, signed_in: &SignedIn) -> bool {
        self.generation(signed_in.id) == signed_in.generation
    }

    /// Whether `signed_in`'s session still holds: looked up in the store only if its
    /// account changed here since (another session ended), and then brought up to date.
    pub async fn still_holds(
        &self,
        store: &Store,
        signed_in: &mut SignedIn,
    ) -> Result<bool, String> {
        if self.is_current(signed_in) {
            return Ok(true);
        }
        let holds = self.still_valid(store, signed_in).await?;
        if holds {
            self.renew(signed_in);
        }
        Ok(holds)
    }

    /// Brings `signed_in` up to its account's generation: the connection that ended the
    /// others' sessions (a new password) keeps its own.
    pub fn renew(&self, signed_in: &mut SignedIn) {
        signed_in.generation = self.generation(signed_in.id);
    }

    /// Does `change` (which ends sessions of `account`), marking the account changed before
    /// and after it: a connection that logged in while it was under way is not taken as
    /// current, and one that finds its mark stale asks the store (so a change that failed
    /// costs a lookup, not a seat).
    async fn revoking(
        &self,
        account: AccountId,
        change: impl std::future::Future<Output = Result<Reply, StoreError>>,
    ) -> Result<(), String> {
        self.revoke(account);
        let done = change.await;
        self.revoke(account);
        done.map(drop).map_err(store_error)
    }

    fn revoke(&self, account: AccountId) {
        *self
            .generations
            .lock()
            .expect("generations lock")
            .entry(account)
            .or_insert(0) += 1;
    }

    /// A new account named `name`, logged in: its session for this client alone.
    pub async fn register(
        &self,
        store: &Store,
        name: &str,
        password: String,
        peer: IpAddr,
    ) -> Result<(SignedIn, ServerMsg), String> {
        check_name(name)?;
        check_password(&password, name)?;
        let key = name_key(name);
        self.throttle.attempt_from(peer)?;
        let hash = self.hasher.hash(password).await?;
        let registered = store
            .account(AccountOp::Register {
                name: name.to_string(),
                name_key: key,
                password: hash,
                now_ms: now_ms(),
            })
            .await
            .map_err(store_error)?;
        let Reply::Registered(id) = registered else {
            return Err(ANSWERED_ELSE.into());
        };
        self.new_session(store, id, name).await
    }

    /// Logs in as `name` with `password`.
    pub async fn log_in(
        &self,
        store: &Store,
        name: &str,
        password: String,
        peer: IpAddr,
    ) -> Result<(SignedIn, ServerMsg), String> {
        let wrong = || "no account has that name and password".to_string();
        // No such account can exist: nothing to count or hash.
        check_name(name).map_err(|_| wrong())?;
        let key = name_key(name);
        self.throttle.attempt(&key, peer)?;
        let account = self.find(store, &key).await?;
        let matches = self
            .hasher
            .verify(password, account.as_ref().map(|a| a.password.clone()))
            .await?;
        match account {
            Some(account) if matches => {
                self.throttle.succeeded(&key);
                self.new_session(store, account.id, &account.name).await
            }
            _ => Err(wrong()),
        }
    }

    /// Logs in with a session an earlier login gave this client; `None` if it is not (or
    /// no longer) valid.
    pub async fn authenticate(
        &self,
        store: &Store,
        session: &str,
    ) -> Result<Option<(SignedIn, ServerMsg)>, String> {
        let hash = session_hash(session);
        let Some(account) = self.session(store, &hash).await? else {
            return Ok(None);
        };
        let signed_in = SignedIn {
            id: account.id,
            name: account.name.clone(),
            session_hash: hash,
            generation: self.generation(account.id),
        };
        let logged_in = ServerMsg::LoggedIn {
            name: account.name,
            session: session.to_string(),
            expires_ms: now_ms().saturating_add(SESSION_MS),
        };
        Ok(Some((signed_in, logged_in)))
    }

    /// Whether the session `signed_in` holds is still good (not ended elsewhere, nor its
    /// account deleted); each use moves its expiry on.
    pub async fn still_valid(&self, store: &Store, signed_in: &SignedIn) -> Result<bool, String> {
        Ok(self
            .session(store, &signed_in.session_hash)
            .await?
            .is_some_and(|account| account.id == signed_in.id))
    }

    pub async fn log_out(&self, store: &Store, signed_in: &SignedIn) -> Result<(), String> {
        let ended = store
            .account(AccountOp::EndSession {
                token_hash: signed_in.session_hash.clone(),
            })
            .await;
        // Another connection may hold a seat through this very session.
        self.revoke(signed_in.id);
        ended.map(drop).map_err(store_error)
    }

    pub async fn log_out_everywhere(
        &self,
        store: &Store,
        signed_in: &SignedIn,
    ) -> Result<(), String> {
        self.revoking(signed_in.id, async {
            store
                .account(AccountOp::EndSessions {
                    account: signed_in.id,
                })
                .await
        })
        .await
    }

    /// A new password, after the old one; every other session ends.
    pub async fn change_password(
        &self,
        store: &Store,
        signed_in: &SignedIn,
        old: String,
        new: String,
        peer: IpAddr,
    ) -> Result<(), String> {
        check_password(&new, &signed_in.name)?;
        self.check_own_password(store, signed_in, old, peer).await?;
        let password = self.hasher.hash(new).await?;
        self.revoking(signed_in.id, async {
            store
                .account(AccountOp::SetPassword {
                    account: signed_in.id,
                    password,
                    keep: signed_in.session_hash.clone(),
                })
                .await
        })
        .await
    }

    /// Deletes the account, after its password.
    pub async fn delete(
        &self,
        store: &Store,
        signed_in: &SignedIn,
        password: String,
        peer: IpAddr,
    ) -> Result<(), String> {
        self.check_own_password(store, signed_in, password, peer)
            .await?;
        self.revoking(signed_in.id, async {
            store
                .account(AccountOp::Delete {
                    account: signed_in.id,
                    now_ms: now_ms(),
                })
                .await
        })
        .await
    }

    async fn check_own_password(
        &self,
        store: &Store,
        signed_in: &SignedIn,
        password: String,
        peer: IpAddr,
    ) -> Result<(), String> {
        let key = name_key(&signed_in.name);
        // Counted apart from logins, so a stranger's wrong guesses at the name do not stop
        // its owner from changing the password or deleting the account.
        let throttled = format!("{key} #signed-in");
        self.throttle.attempt(&throttled, peer)?;
        let account = self
            .find(store, &key)
            .await?
            .filter(|account| account.id == signed_in.id)
            .ok_or("this account is gone")?;
        if self.hasher.verify(password, Some(account.password)).await? {
            self.throttle.succeeded(&throttled);
            Ok(())
        } else {
            Err("that is not this account's password".into())
        }
    }

    async fn new_session(
        &self,
        store: &Store,
        id: AccountId,
        name: &str,
    ) -> Result<(SignedIn, ServerMsg), String> {
        let session = new_token();
        let now = now_ms();
        let expires_ms = now.saturating_add(SESSION_MS);
        let hash = session_hash(&session);
        store
            .account(AccountOp::AddSession {
                account: id,
                token_hash: hash.clone(),
                now_ms: now,
                expires_ms,
            })
            .await
            .map_err(store_error)?;
        let signed_in = SignedIn {
            id,
            name: name.to_string(),
            session_hash: hash,
            generation: self.generation(id),
        };
        let logged_in = ServerMsg::LoggedIn {
            name: name.to_string(),
            session,
            expires_ms,
        };
        Ok((signed_in, logged_in))
    }

    async fn find(&self, store: &Store, key: &str) -> Result<Option<StoredAccount>, String> {
        let op = AccountOp::Find {
            name_key: key.to_string(),
        };
        account_reply(store.account(op).await)
    }

    async fn session(&self, store: &Store, hash: &str) -> Result<Option<StoredAccount>, String> {
        let now = now_ms();
        let op = AccountOp::Session {
            token_hash: hash.to_string(),
            now_ms: now,
            expires_ms: now.saturating_add(SESSION_MS),
        };
        account_reply(store.account(op).await)
    }

    /// The seats of `account` as (code, seat), the newest games first, at most `limit`.
    pub async fn seats(
        &self,
        store: &Store,
        account: AccountId,
        limit: usize,
    ) -> Result<Vec<(String, usize)>, String> {
        seats_reply(store.account(AccountOp::Seats { account, limit }).await)
    }

    /// The seats of `account` in game `code`.
    pub async fn seats_in(
        &self,
        store: &Store,
        account: AccountId,
        code: &str,
    ) -> Result<Vec<usize>, String> {
        let op = AccountOp::SeatsIn {
            account,
            code: code.to_string(),
        };
        Ok(seats_reply(store.account(op).await)?
            .into_iter()
            .map(|(_, seat)| seat)
            .collect())
    }

    /// Gives the seat `token` holds in game `code` (seat `seat`) to `account`.
    pub async fn adopt(
        &self,
        store: &Store,
        account: AccountId,
        code: &str,
        seat: usize,
        token: &str,
    ) -> Result<(), String> {
        store
            .account(AccountOp::Adopt {
                code: code.to_string(),
                seat,
                token: token.to_string(),
                account,
            })
            .await
            .map(drop)
            .map_err(store_error)
    }
}

/// What the store says when it answers an account request with the wrong kind of reply.
const ANSWERED_ELSE: &str = "the account store answered something else";

fn account_reply(reply: Result<Reply, StoreError>) -> Result<Option<StoredAccount>, String> {
    match reply.map_err(store_error)? {
        Reply::Account(account) => Ok(account),
        _ => Err(ANSWERED_ELSE.into()),
    }
}

fn seats_reply(reply: Result<Reply, StoreError>) -> Result<Vec<(String, usize)>, String> {
    match reply.map_err(store_error)? {
        Reply::Seats(seats) => Ok(seats),
        _ => Err(ANSWERED_ELSE.into()),
    }
}
