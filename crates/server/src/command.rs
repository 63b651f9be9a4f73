//! The server's command line, `tabula-server [--listen ADDR] [--database URL] [--dist DIR]
//! [--games-per-hour N] [--house-bots] …`: here rather than in `main.rs` so the end-to-end tests
//! (`crates/e2e`) build the same program under a name of their own.

use crate::store::Store;
use std::io::Write;
use std::path::PathBuf;

const USAGE: &str =
    "usage: tabula-server [--listen ADDR] [--database URL] [--dist DIR] [--games-per-hour N]
                     [--tls-cert FILE --tls-key FILE] [--login-attempts N]
                     [--house-bots [--house-bot-wait SECONDS] [--house-bot-threads N]
                      [--house-bot-games N]]
                     [--smtp URL --mail-from ADDRESS --public-url URL [--mail-every HOURS]]

  --listen ADDR    where to listen (default 127.0.0.1:8080; 0.0.0.0:8080 for every network)
  --database URL   sqlite://PATH (default: server.sqlite3 in Tabula's data directory)
                   or postgres://USER:PASSWORD@HOST/DATABASE (several servers can share one)
  --dist DIR       the web build to serve at / (default: dist/ if it exists)
  --games-per-hour N
                   games each address may create in an hour (default 60; 0: any number;
                   behind a proxy every client has its address, so limit there and give 0)
  --tls-cert FILE  serve https:// and wss:// with this certificate chain (PEM) and
  --tls-key FILE   its private key (PEM); behind a proxy that speaks TLS, leave them out.
                   Clients send a password only over TLS or to this machine
  --login-attempts N
                   attempts at a password (or a registration) each address may make in a
                   minute (default 20; 0: any number; behind a proxy, give 0: wrong
                   passwords are still held back per name)
  --house-bots     the server's own bots, Novicebot to Masterbot (levels 1 to 5), take a
                   challenge nobody else takes, and any challenge to one of them by name
  --house-bot-wait SECONDS
                   how long a challenge waits for a person first (default 30)
  --house-bot-threads N
                   the threads the bots search on, and no more (default 1)
  --house-bot-games N
                   the games the bots play at once, at most (default 20)
  --smtp URL       mail correspondence players whose move it is (those who gave and
                   confirmed an address): smtps://USER:PASSWORD@HOST[:PORT],
                   smtp://HOST:587?tls=required, or smtp://127.0.0.1:PORT on this machine
  --mail-from ADDRESS
                   who the mail is from, as 'Tabula <games@example.org>'
  --public-url URL the server as players reach it, for the links in the mail
  --mail-every HOURS
                   at most one mail a game in this many hours (default 12)";

struct Options {
    listen: String,
    database: Option<String>,
    dist: Option<PathBuf>,
    games_per_hour: u32,
    tls_cert: Option<PathBuf>,
    tls_key: Option<PathBuf>,
    login_attempts: u32,
    house_bots: bool,
    house: crate::house::HouseSettings,
    smtp: Option<String>,
    mail_from: Option<String>,
    public_url: Option<String>,
    mail_every_hours: u64,
}

/// The longest `--mail-every`: a year.
const MAX_MAIL_EVERY_HOURS: u64 = 366 * 24;

/// `value` as a whole number, or an error that names `flag`.
fn whole<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{flag}: {value:?} is not a whole number"))
}

fn parse(words: &[String]) -> Result<Options, String> {
    let mut house_tuning = false;
    let mut options = Options {
        listen: "127.0.0.1:8080".into(),
        database: None,
        dist: None,
        games_per_hour: crate::limits::GAMES_PER_HOUR,
        tls_cert: None,
        tls_key: None,
        login_attempts: crate::accounts::throttle::ATTEMPTS_PER_MINUTE,
        house_bots: false,
        house: crate::house::HouseSettings::default(),
        smtp: None,
        mail_from: None,
        public_url: None,
        mail_every_hours: 12,
    };
    let mut words = words.iter();
    while let Some(word) = words.next() {
        let (flag, inline) = match word.split_once('=') {
            Some((flag, value)) => (flag, Some(value.to_string())),
            None => (word.as_str(), None),
        };
        if matches!(flag, "-h" | "--help" | "help") {
            return Err(String::new());
        }
        if flag == "--house-bots" && inline.is_none() {
            options.house_bots = true;
            continue;
        }
        let value = match inline.or_else(|| words.next().cloned()) {
            Some(value) => value,
            None => return Err(format!("{flag} needs a value")),
        };
        house_tuning |= flag.starts_with("--house-bot-");
        match flag {
            "--listen" => options.listen = value,
            "--database" => options.database = Some(value),
            "--dist" => options.dist = Some(PathBuf::from(value)),
            "--tls-cert" => options.tls_cert = Some(PathBuf::from(value)),
            "--tls-key" => options.tls_key = Some(PathBuf::from(value)),
            "--login-attempts" => options.login_attempts = whole(flag, &value)?,
            "--smtp" => options.smtp = Some(value),
            "--mail-from" => options.mail_from = Some(value),
            "--public-url" => options.public_url = Some(value),
            "--mail-every" => match whole(flag, &value)? {
                n @ 1..=MAX_MAIL_EVERY_HOURS => options.mail_every_hours = n,
                _ => {
                    return Err(format!("--mail-every: 1 to {MAX_MAIL_EVERY_HOURS} hours"));
                }
            },
            "--games-per-hour" => options.games_per_hour = whole(flag, &value)?,
            "--house-bot-wait" => {
                options.house.wait = std::time::Duration::from_secs(whole(flag, &value)?)
            }
            "--house-bot-threads" => match whole(flag, &value)? {
                0 => return Err("--house-bot-threads: at least 1".into()),
                n => options.house.threads = n,
            },
            "--house-bot-games" => match whole(flag, &value)? {
                0 => return Err("--house-bot-games: at least 1".into()),
                n => options.house.games = n,
            },
            _ => return Err(format!("unknown argument {word:?}")),
        }
    }
    if options.tls_cert.is_some() != options.tls_key.is_some() {
        return Err("--tls-cert and --tls-key go together".into());
    }
    let mail_tuning = options.mail_from.is_some()
        || options.public_url.is_some()
        || options.mail_every_hours != 12;
    // The links must reach the server as players see it: a listening address (0.0.0.0,
    // or a port behind a proxy) would not.
    let whole_mail = options.mail_from.is_some() && options.public_url.is_some();
    if options.smtp.is_some() != whole_mail || (mail_tuning && options.smtp.is_none()) {
        return Err(
            "--smtp, --mail-from and --public-url go together (and --mail-every with them)".into(),
        );
    }
    if house_tuning && !options.house_bots {
        return Err(
            "--house-bot-wait, --house-bot-threads and --house-bot-games go with \
                    --house-bots"
                .into(),
        );
    }
    Ok(options)
}

/// Runs the server as its command line asks, and exits with its status.
pub fn main() {
    let words: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&words) {
        Ok(options) => options,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return;
        }
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(options) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run(options: Options) -> Result<(), String> {
    let database = match options.database {
        Some(url) => url,
        None => crate::default_database()?,
    };
    let dist = options
        .dist
        .or_else(|| Some(PathBuf::from("dist")).filter(|d| d.join("index.html").is_file()));
    let tls = match (&options.tls_cert, &options.tls_key) {
        (Some(cert), Some(key)) => Some(crate::tls::acceptor(cert, key)?),
        _ => None,
    };
    let scheme = if tls.is_some() { "https" } else { "http" };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))?;
    runtime.block_on(async {
        let store = Store::open(&database).await?;
        let listener = tokio::net::TcpListener::bind(&options.listen)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", options.listen))?;
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        // The first line says where to connect (tests and scripts read it). A closed
        // stdout must not stop the server, so nothing here may panic on it.
        let mut out = std::io::stdout();
        let _ = writeln!(out, "listening on {scheme}://{address}");
        let _ = writeln!(
            out,
            "games kept in {}",
            crate::store::without_password(&database)
        );
        let _ = match &dist {
            Some(dist) => writeln!(out, "serving the web build from {}", dist.display()),
            None => writeln!(out, "no web build to serve (build it with web/build.sh)"),
        };
        if options.house_bots {
            let house = &options.house;
            let _ = writeln!(
                out,
                "house bots take challenges left {} s, on {} search thread{}, {} games at once",
                house.wait.as_secs(),
                house.threads,
                if house.threads == 1 { "" } else { "s" },
                house.games
            );
        }
        let _ = out.flush();
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        let settings = crate::Options {
            dist,
            games_per_hour: options.games_per_hour,
            tls,
            login_attempts: options.login_attempts,
            house: options.house_bots.then_some(options.house),
            mail: options.smtp.map(|smtp| crate::mail::MailSettings {
                smtp,
                from: options.mail_from.unwrap_or_default(),
                public_url: options.public_url.unwrap_or_default(),
                every: std::time::Duration::from_secs(options.mail_every_hours * 3600),
            }),
        };
        crate::serve(listener, store, settings, shutdown)
            .await
            .map_err(|e| e.to_string())
    })
}
