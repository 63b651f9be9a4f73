//! An account from the terminal, through a server on 127.0.0.1: register on one machine
//! (a data directory of its own), log in on another, play a game as the account, find it
//! from the other machine, claim a seat played anonymously, end every session; the
//! session kept in a file only its owner reads.

mod typed;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Output, Stdio};
use typed::{run_with_input, text};

const PASSWORD: &str = "correct horse\n";

/// `tabula-cli online ARGS... --server SERVER` on the machine whose data is in `home`,
/// with `input` on its standard input.
fn online(home: &Path, server: &str, args: &[&str], input: &str) -> Output {
    online_trusting(home, server, args, input, None)
}

/// [`online`], trusting the certificates in `ca_file` too.
fn online_trusting(
    home: &Path,
    server: &str,
    args: &[&str],
    input: &str,
    ca_file: Option<&Path>,
) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tabula-cli"));
    if let Some(ca_file) = ca_file {
        command.env("TABULA_CA_FILE", ca_file);
    }
    command
        .arg("online")
        .args(args)
        .args(["--server", server])
        .env("TABULA_DATA_DIR", home);
    run_with_input(command, input)
}

/// `tabula-cli online ARGS... --server SERVER` running in the background on the machine
/// whose data is in `home` (trusting `ca_file`, if given): the process, its output (kept
/// open while it plays) and the first line it printed.
fn start_online(
    home: &Path,
    server: &str,
    args: &[&str],
    ca_file: Option<&Path>,
) -> (Child, BufReader<ChildStdout>, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tabula-cli"));
    if let Some(ca_file) = ca_file {
        command.env("TABULA_CA_FILE", ca_file);
    }
    let mut child = command
        .arg("online")
        .args(args)
        .args(["--server", server])
        .env("TABULA_DATA_DIR", home)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    (child, out, first)
}

/// A level-1 bot hosting Adaptoid from the machine whose data is in `home` (trusting
/// `ca_file`, if given): the running host, its output (kept open while it plays) and the
/// game's code.
fn host_adaptoid(
    home: &Path,
    server: &str,
    seed: &str,
    ca_file: Option<&Path>,
) -> (Child, BufReader<ChildStdout>, String) {
    let args = ["host", "adaptoid", "--seat", "level:1", "--seed", seed];
    let (host, out, first) = start_online(home, server, &args, ca_file);
    let code = first.trim().strip_prefix("code: ").unwrap().to_string();
    (host, out, code)
}

fn says(output: &Output, wanted: &str) {
    let all = format!("{}{}", text(&output.stdout), text(&output.stderr));
    assert!(all.contains(wanted), "wanted {wanted:?} in: {all}");
}

#[test]
fn an_account_from_the_terminal_follows_its_player_to_another_machine() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("server.sqlite3").display());
    let server = tabula_server::Background::start(&database, "127.0.0.1:0").unwrap();
    let server = server.address.clone();
    let (desk, laptop, guest) = (
        dir.path().join("desk"),
        dir.path().join("laptop"),
        dir.path().join("guest"),
    );

    let registered = online(&desk, &server, &["register", "Ada"], PASSWORD);
    assert!(registered.status.success(), "{}", text(&registered.stderr));
    says(&registered, "logged in as Ada");
    let file = desk.join("online-sessions.ron");
    let kept = std::fs::read_to_string(&file).unwrap();
    assert!(
        kept.contains("Ada") && !kept.contains("correct horse"),
        "{kept}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(
            mode & 0o777,
            0o600,
            "the sessions file is its owner's alone"
        );
    }
    let taken = online(&laptop, &server, &["register", "ADA"], PASSWORD);
    assert_eq!(taken.status.code(), Some(2));
    says(&taken, "is taken");
    let wrong = online(&laptop, &server, &["login", "Ada"], "wrong horse\n");
    says(&wrong, "no account has that name and password");
    // A password goes to another machine only encrypted: refused before connecting.
    let plain = online(
        &laptop,
        "http://192.0.2.1:8080",
        &["login", "Ada"],
        PASSWORD,
    );
    assert_eq!(plain.status.code(), Some(2));
    says(
        &plain,
        "not sent: a password or a session goes only over an encrypted connection",
    );
    let none = online(&laptop, &server, &["login", "Ada"], "");
    says(&none, "no password given");
    let logged_in = online(&laptop, &server, &["login", "ada"], PASSWORD);
    assert!(logged_in.status.success(), "{}", text(&logged_in.stderr));
    says(
        &online(&laptop, &server, &["account"], ""),
        "logged in as Ada",
    );

    // Ada hosts a game from her desk; a guest with no account joins it, and bots play it.
    let (mut host, _host_out, code) = host_adaptoid(&desk, &server, "3", None);
    let joined = online(&guest, &server, &["join", &code, "--seat", "random"], "");
    assert!(joined.status.success(), "{}", text(&joined.stderr));
    assert!(host.wait().unwrap().success());
    let guest_token = text(&joined.stdout)
        .lines()
        .find_map(|line| line.split_once(&format!("online resume {code} ")))
        .map(|(_, token)| token.trim().to_string())
        .expect("the guest is told how to come back");

    // From the laptop, the game is Ada's.
    let games = online(&laptop, &server, &["games"], "");
    assert!(games.status.success(), "{}", text(&games.stderr));
    says(&games, &format!("{code} adaptoid seat 1"));

    // The guest registers and claims the seat it played.
    online(&guest, &server, &["register", "Bea"], PASSWORD);
    let claimed = online(&guest, &server, &["claim", &code, &guest_token], "");
    assert!(claimed.status.success(), "{}", text(&claimed.stderr));
    says(
        &claimed,
        &format!("seat 2 of game {code} is your account's"),
    );
    says(
        &online(&guest, &server, &["games"], ""),
        &format!("{code} adaptoid seat 2"),
    );
    // Nor can Ada take Bea's seat with its token: her account holds a seat there.
    let again = online(&laptop, &server, &["claim", &code, &guest_token], "");
    says(&again, "your account holds seat 1");

    // Logging out everywhere from the laptop ends the desk's session too.
    let out = online(&laptop, &server, &["logout", "--everywhere"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    says(&out, "logged out of Ada");
    says(&online(&laptop, &server, &["account"], ""), "not logged in");
    let stale = online(&desk, &server, &["games"], "");
    assert_eq!(stale.status.code(), Some(2));
    says(&stale, "not valid");
    says(&stale, "online login NAME again");
    // The session the server no longer takes is forgotten there.
    says(&online(&desk, &server, &["account"], ""), "not logged in");
}

/// A certificate authority of the test's own (PEM), and a certificate it signed for
/// `localhost` with its key (PEM): what a server with its own certificate holds.
fn test_certificates() -> (String, String, String) {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
    let authority_key = KeyPair::generate().unwrap();
    let mut authority = CertificateParams::new(Vec::<String>::new()).unwrap();
    authority.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    authority
        .distinguished_name
        .push(DnType::CommonName, "Tabula test authority");
    let authority_pem = authority.self_signed(&authority_key).unwrap().pem();
    let issuer = Issuer::from_params(&authority, &authority_key);
    let key = KeyPair::generate().unwrap();
    let server = CertificateParams::new(vec!["localhost".to_string()])
        .unwrap()
        .signed_by(&key, &issuer)
        .unwrap();
    (authority_pem, server.pem(), key.serialize_pem())
}

/// The terminal speaks `wss://` to a server behind TLS with a certificate the test makes:
/// refused until the certificate is trusted, then an account registered and a game hosted
/// as it, joined and played to the end, all over TLS.
#[test]
fn an_account_over_tls_to_a_server_with_its_own_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let (authority, chain, key) = test_certificates();
    let tls = tabula_server::tls::acceptor_from_pem(chain.as_bytes(), key.as_bytes()).unwrap();
    let database = format!("sqlite://{}", dir.path().join("tls.sqlite3").display());
    let options = tabula_server::Options {
        tls: Some(tls),
        ..Default::default()
    };
    let server = tabula_server::Background::start_with(&database, "127.0.0.1:0", options).unwrap();
    assert!(server.address.starts_with("https://"), "{}", server.address);
    let port = server.address.rsplit(':').next().unwrap();
    let address = format!("https://localhost:{port}");
    let ca_file = dir.path().join("ca.pem");
    std::fs::write(&ca_file, &authority).unwrap();
    let (home, guest) = (dir.path().join("home"), dir.path().join("guest"));

    let untrusted = online(&home, &address, &["register", "Ada"], PASSWORD);
    assert_eq!(untrusted.status.code(), Some(2));
    says(&untrusted, "invalid peer certificate");
    let registered = online_trusting(
        &home,
        &address,
        &["register", "Ada"],
        PASSWORD,
        Some(&ca_file),
    );
    assert!(registered.status.success(), "{}", text(&registered.stderr));
    says(&registered, "logged in as Ada");

    let (mut host, _host_out, code) = host_adaptoid(&home, &address, "5", Some(&ca_file));
    let joined = online_trusting(
        &guest,
        &address,
        &["join", &code, "--seat", "random", "--seed", "6"],
        "",
        Some(&ca_file),
    );
    assert!(joined.status.success(), "{}", text(&joined.stderr));
    assert!(host.wait().unwrap().success());
    says(&joined, "wins");
    let games = online_trusting(&home, &address, &["games"], "", Some(&ca_file));
    says(&games, &format!("{code} adaptoid seat 1"));
}

#[test]
fn strangers_meet_in_the_lobby_from_the_terminal_and_the_next_game_is_played() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("lobby.sqlite3").display());
    let server = tabula_server::Background::start(&database, "127.0.0.1:0").unwrap();
    let server = server.address.clone();
    let (desk, laptop) = (dir.path().join("desk"), dir.path().join("laptop"));
    for (home, name) in [(&desk, "Ada"), (&laptop, "Bea")] {
        let registered = online(home, &server, &["register", name], PASSWORD);
        assert!(registered.status.success(), "{}", text(&registered.stderr));
    }

    // Ada challenges Bea to a rated correspondence game, taking the second seat, with a
    // level-1 bot playing for her once it is taken.
    let challenge = [
        "challenge",
        "adaptoid",
        "--take",
        "2",
        "--pace",
        "correspondence",
        "--rated",
        "--to",
        "Bea",
        "--seat",
        "level:1",
        "--seed",
        "4",
    ];
    let (mut poster, mut posted, first) = start_online(&desk, &server, &challenge, None);
    // The rest is read, so the pipe never fills while the game is printed.
    std::thread::spawn(move || std::io::copy(&mut posted, &mut std::io::sink()));
    let id = first
        .strip_prefix("challenge ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("the challenge's id, not {first:?}"))
        .to_string();
    let lobby = online(&laptop, &server, &["lobby"], "");
    says(&lobby, &id);
    says(&lobby, "Ada");

    // Bea takes it at her terminal and leaves at once (nothing typed): it is her move.
    let accepted = online(&laptop, &server, &["accept", &id], "");
    assert!(accepted.status.success(), "{}", text(&accepted.stderr));
    says(&accepted, "You left");
    // Later, `next` finds the game waiting for her and plays it (a bot for her now).
    let next = online(
        &laptop,
        &server,
        &["next", "--seat", "level:1", "--seed", "5"],
        "",
    );
    assert!(next.status.success(), "{}", text(&next.stderr));
    says(&next, "1 game waits for your move");
    says(&next, "adaptoid");
    assert!(poster.wait().unwrap().success());
    says(
        &online(&laptop, &server, &["next"], ""),
        "no game waits for your move",
    );
    let board = online(&desk, &server, &["leaderboard", "adaptoid"], "");
    says(&board, "Ada");
    says(&board, "Bea");
    says(&board, "after 1 game");
}
