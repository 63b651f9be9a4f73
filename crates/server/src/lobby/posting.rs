//! Posts under way: a post's store write runs without the lobby held, so it is counted
//! against the lobby's caps (five open challenges an account, `MAX_LOBBY` in all) until
//! it is in the lobby or failed.

use crate::store::AccountId;
use std::collections::BTreeMap;
use std::sync::Mutex;
use tabula_protocol::lobby::{MAX_LOBBY, MAX_OPEN_CHALLENGES};

#[derive(Default)]
pub(super) struct PostsUnderWay(Mutex<BTreeMap<AccountId, usize>>);

impl PostsUnderWay {
    /// Counts a post of `account`'s, if the caps leave room: `open` challenges are in the
    /// lobby, `own` of them the account's.
    pub(super) fn begin(
        &self,
        account: AccountId,
        open: usize,
        own: usize,
    ) -> Result<Posting<'_>, String> {
        let mut under_way = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if open + under_way.values().sum::<usize>() >= MAX_LOBBY {
            return Err("the lobby is full: accept a challenge, or try again later".into());
        }
        if own + under_way.get(&account).copied().unwrap_or(0) >= MAX_OPEN_CHALLENGES {
            return Err(format!(
                "you have {MAX_OPEN_CHALLENGES} open challenges: cancel one first"
            ));
        }
        *under_way.entry(account).or_default() += 1;
        Ok(Posting {
            under_way: self,
            account,
        })
    }
}

/// A post under way, counted until it is dropped.
pub(super) struct Posting<'a> {
    under_way: &'a PostsUnderWay,
    account: AccountId,
}

impl Drop for Posting<'_> {
    fn drop(&mut self) {
        let mut under_way = self.under_way.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = under_way.get_mut(&self.account) {
            *n -= 1;
            if *n == 0 {
                under_way.remove(&self.account);
            }
        }
    }
}
