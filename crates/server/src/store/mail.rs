//! What the store keeps for e-mail: each account's address, confirmed or waiting for its
//! link, and when each game was last mailed about, so that one game sends one mail in a
//! while however many processes see it.

use super::AccountId;

/// An account's address as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAddress {
    pub address: String,
    pub confirmed: bool,
}

#[derive(Clone, Debug)]
pub enum MailOp {
    /// A new address for `account`, not confirmed until its link (`token_hash`) is
    /// followed; it replaces any other (and forgets what was mailed). A conflict, and
    /// nothing changes, if the account was given a link since `account_since_ms`, or the
    /// address (waiting for its link) since `address_since_ms`: links to a stranger are
    /// few, whoever asks.
    SetAddress {
        account: AccountId,
        address: String,
        token_hash: String,
        now_ms: u64,
        account_since_ms: u64,
        address_since_ms: u64,
    },
    /// Forgets the account's address and what was mailed to it.
    Remove { account: AccountId },
    /// The account's address: [`super::Reply::Address`].
    Address { account: AccountId },
    /// Confirms the address whose link holds `token_hash`, asked after `since_ms`; a
    /// conflict if there is none (used, replaced, too old, or never given).
    Confirm {
        token_hash: String,
        since_ms: u64,
        now_ms: u64,
    },
    /// May a mail about game `code` go to `account` now? Only to a confirmed address, and
    /// only if none about that game went since `since_ms`; if so, it is counted as sent
    /// now (so of two asking at once, one sends): [`super::Reply::Address`] with the
    /// address, or none.
    Claim {
        account: AccountId,
        code: String,
        now_ms: u64,
        since_ms: u64,
    },
}

impl MailOp {
    /// The game the request is about, if any.
    pub fn code(&self) -> Option<&str> {
        match self {
            MailOp::Claim { code, .. } => Some(code),
            _ => None,
        }
    }
}

/// The conflict for a link asked for too soon after another.
pub(crate) fn link_too_soon() -> super::StoreError {
    super::StoreError::Conflict(
        "a link was mailed for this account, or to that address, a short while ago: use it, \
         or try again later"
            .into(),
    )
}

/// The conflict for a confirmation link that confirms nothing.
pub(crate) fn link_not_valid() -> super::StoreError {
    super::StoreError::Conflict(
        "that link confirms no address: it was used already, replaced by another address, \
         or is more than two days old"
            .into(),
    )
}
