//! E-mail, for correspondence players (`tabula-server --smtp URL`): an account gives an
//! address, which is confirmed by a link mailed to it; then a correspondence game that comes
//! to wait for the account's move sends it a mail, at most one per game in `--mail-every`
//! hours, and none while the player is at the game or follows their turns on this server
//! process. Sent through SMTP by lettre, over TLS unless the mail server is on this machine.
//!
//! - [`confirm`]: the page the link opens.

pub mod confirm;

use crate::accounts::session_hash;
use crate::codes::new_token;
use crate::room::now_ms;
use crate::store::{AccountId, MailOp, Reply, Store, StoreError, StoredAddress};
use lettre::message::{Mailbox, SinglePart};
use lettre::{Address, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use std::sync::Arc;
use std::time::Duration;

/// How long a confirmation link works.
pub const LINK_DAYS: u64 = 2;

/// How often one account may be sent a confirmation link.
const ACCOUNT_LINK_EVERY_MS: u64 = 10 * 60 * 1000;

/// How often one address, not confirmed, may be sent a link (whoever asks).
const ADDRESS_LINK_EVERY_MS: u64 = 24 * 3600 * 1000;

/// The longest address taken (RFC 5321's path limit).
const MAX_ADDRESS_CHARS: usize = 254;

/// How the server sends mail, from its command line.
#[derive(Clone)]
pub struct MailSettings {
    /// `smtps://USER:PASSWORD@HOST[:PORT]`, `smtp://HOST:PORT?tls=required`, or
    /// `smtp://127.0.0.1:PORT` for a mail server on this machine.
    pub smtp: String,
    /// Who the mail is from: `Tabula <games@example.org>`.
    pub from: String,
    /// The server's address as players reach it, for the links: `https://tabula.example`.
    pub public_url: String,
    /// At most one mail per game in this long.
    pub every: Duration,
}

pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    public_url: String,
    every: Duration,
    store: Store,
}

/// An address as given, checked: a mailbox lettre can send to, no longer than a path, at
/// a domain on the internet (not a name of this network, nor a machine's number).
pub fn checked_address(text: &str) -> Result<Address, String> {
    let text = text.trim();
    if text.chars().count() > MAX_ADDRESS_CHARS {
        return Err(format!(
            "an e-mail address is at most {MAX_ADDRESS_CHARS} characters"
        ));
    }
    let not_one = || {
        format!(
            "{} is not an e-mail address",
            tabula_session::rules::text::quoted(text)
        )
    };
    let address = text.parse::<Address>().map_err(|_| not_one())?;
    let domain = address.domain();
    let numbered = domain.starts_with('[') || domain.parse::<std::net::IpAddr>().is_ok();
    if numbered || !domain.contains('.') || domain.ends_with('.') {
        return Err(not_one());
    }
    Ok(address)
}

/// Whether `url` sends mail (and the password in it) encrypted, or to this machine.
fn check_encrypted(url: &str) -> Result<(), String> {
    let parsed = url::Url::parse(url).map_err(|e| format!("--smtp: {e}"))?;
    let tls = parsed
        .query_pairs()
        .any(|(key, value)| key == "tls" && value == "required");
    let plain = parsed.scheme() == "smtp" && !tls;
    let local = match parsed.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        // A URL of a scheme the url crate does not know keeps its host as text.
        Some(url::Host::Domain(name)) => {
            name == "localhost"
                || name
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback())
        }
        None => false,
    };
    if plain && !local {
        return Err(
            "--smtp smtp://HOST sends mail unencrypted: give smtps://HOST, \
             smtp://HOST?tls=required, or a mail server on this machine"
                .into(),
        );
    }
    Ok(())
}

impl Mailer {
    pub fn new(settings: &MailSettings, store: Store) -> Result<Mailer, String> {
        check_encrypted(&settings.smtp)?;
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&settings.smtp)
            .map_err(|e| format!("--smtp: {e}"))?
            .timeout(Some(Duration::from_secs(30)))
            .build();
        let from = settings
            .from
            .parse::<Mailbox>()
            .map_err(|e| format!("--mail-from {:?}: {e}", settings.from))?;
        Ok(Mailer {
            transport,
            from,
            public_url: settings.public_url.trim_end_matches('/').to_string(),
            every: settings.every,
            store,
        })
    }

    async fn send(&self, to: Address, subject: &str, text: String) -> Result<(), String> {
        let mail = Message::builder()
            .from(self.from.clone())
            .to(Mailbox::new(None, to))
            .subject(subject)
            // Lines kept short, so the text goes as it is (7bit); a line of 76 characters or
            // more (a link on a long --public-url) goes quoted-printable, which mail readers
            // decode alike.
            .singlepart(SinglePart::plain(text))
            .map_err(|e| format!("the mail cannot be made: {e}"))?;
        self.transport
            .send(mail)
            .await
            .map(|_| ())
            .map_err(|e| format!("the mail server refused the mail: {e}"))
    }

    /// Keeps `address` for `account` (`name`), unconfirmed, and mails it the link that
    /// confirms it (beside the caller: a slow mail server holds up nobody's game).
    pub async fn ask_to_confirm(
        self: &Arc<Self>,
        account: AccountId,
        name: &str,
        address: &str,
    ) -> Result<StoredAddress, String> {
        let address = checked_address(address)?;
        let token = new_token();
        let now = now_ms();
        let op = MailOp::SetAddress {
            account,
            address: address.to_string(),
            token_hash: session_hash(&token),
            now_ms: now,
            account_since_ms: now.saturating_sub(ACCOUNT_LINK_EVERY_MS),
            address_since_ms: now.saturating_sub(ADDRESS_LINK_EVERY_MS),
        };
        self.store.mail(op).await.map_err(|e| e.to_string())?;
        let link = format!("{}/confirm-email?token={token}", self.public_url);
        let text = format!(
            "Hello {name},\r\n\r\nTo be told by e-mail when a correspondence game on\r\n\
             Tabula waits for your move, confirm this address by opening:\r\n\r\n\
             {link}\r\n\r\nThe link works for {LINK_DAYS} days. If you did not ask for this,\r\n\
             do nothing: no mail will come.\r\n"
        );
        let (mailer, to) = (self.clone(), address.clone());
        tokio::spawn(async move {
            let subject = "Confirm your address for Tabula";
            if let Err(e) = mailer.send(to, subject, text).await {
                eprintln!("tabula-server: the link to confirm an address was not sent: {e}");
            }
        });
        Ok(StoredAddress {
            address: address.to_string(),
            confirmed: false,
        })
    }

    /// Mails `account` that game `code` (`title`, `moves` played) waits for its move, if
    /// its address is confirmed and no mail about the game went in the last while. (Counted
    /// as sent before it is: a mail server that fails now costs this game's mail for the
    /// while, never a second mail.)
    pub async fn your_move(&self, account: AccountId, code: &str, title: &str, moves: usize) {
        let now = now_ms();
        let op = MailOp::Claim {
            account,
            code: code.to_string(),
            now_ms: now,
            since_ms: now.saturating_sub(self.every.as_millis() as u64),
        };
        let address = match self.store.mail(op).await {
            Ok(Reply::Address(Some(stored))) => stored.address,
            Ok(_) => return,
            Err(e) => {
                eprintln!("tabula-server: no mail about game {code}: {e}");
                return;
            }
        };
        let Ok(to) = address.parse::<Address>() else {
            return;
        };
        let text = format!(
            "Your move in {title}, game {code} (move {}).\r\n\r\n\
             Open Tabula, or {}: Next game, on the title screen,\r\ntakes you there.\r\n\r\n\
             At most one mail a game every {} hours. To have none, press\r\n\
             No mail in the online screen's account settings\r\n\
             (or: tabula-cli online email --remove).\r\n",
            moves + 1,
            self.public_url,
            self.every.as_secs() / 3600
        );
        let subject = format!("Your move in {title} ({code})");
        if let Err(e) = self.send(to, &subject, text).await {
            eprintln!("tabula-server: no mail about game {code}: {e}");
        }
    }

    /// Confirms the address whose link held `token`.
    pub async fn confirm(&self, token: &str) -> Result<(), StoreError> {
        let now = now_ms();
        let op = MailOp::Confirm {
            token_hash: session_hash(token),
            since_ms: now.saturating_sub(LINK_DAYS * 24 * 3600 * 1000),
            now_ms: now,
        };
        self.store.mail(op).await.map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_checked_and_mail_goes_encrypted_or_stays_here() {
        assert!(checked_address(" ada@example.org ").is_ok());
        for bad in [
            "ada",
            "ada@",
            "a b@example.org",
            "ada@exa\u{1b}mple.org",
            "",
            "root@localhost",
            "x@[10.0.0.5]",
            "x@10.0.0.5",
        ] {
            assert!(checked_address(bad).is_err(), "{bad:?}");
        }
        let long = format!("{}@example.org", "a".repeat(250));
        assert!(checked_address(&long).unwrap_err().contains("at most"));
        assert!(check_encrypted("smtps://u:p@mail.example.org").is_ok());
        assert!(check_encrypted("smtp://mail.example.org:587?tls=required").is_ok());
        assert!(check_encrypted("smtp://127.0.0.1:2525").is_ok());
        assert!(check_encrypted("smtp://[::1]:2525").is_ok());
        for plain in [
            "smtp://u:p@mail.example.org:25",
            "SMTP://mail.example.org",
            "smtp://127.0.0.1.example.org",
            "smtp://u:tls=required@mail.example.org",
            "smtp://u:p@mail.example.org:25?x=@127.0.0.1",
        ] {
            assert!(check_encrypted(plain).is_err(), "{plain}");
        }
    }
}
