//! tabula-cli: the Tabula games in a terminal, plus perft, random self-play and benchmarks.

mod account;
mod bots;
mod inspect;
mod learn;
mod lobby;
mod next;
mod online;
mod play;
mod progress;
mod puzzles;
mod random;
mod review;
mod tactics;
mod train;

use tabula_bot::Knowledge;
use tabula_cli::args::{self, Args};
use tabula_cli::setup;
use tabula_session::{GameKind, with_game};

const USAGE: &str =
    "usage: tabula-cli VERB GAME [--option key=value]... [--record \"MOVES\"] [--position STR]

verbs:
  show GAME                  the board, whose turn it is, threatened stacks
  options GAME               each option: its key, values, default, origin, meaning
  moves GAME [--count]       every legal move, then 'N moves' (--count: only that line)
  perft GAME --depth D       'DEPTH COUNT' for each depth 1..D (1-64), ending early at 0
  apply GAME MOVE...         plays the moves, printing events, then the position string
  play GAME [--seats human,level:3] [--seed S]
                             a whole game in the terminal; a seat is human or a bot
  match GAME --bots A,B [--games N] [--seed S] [--jobs J] [--max-plies P]
        [--from-game K]      bots against each other, seats rotating: wins, draws,
                             losses and the Elo difference (games over P plies draw);
                             --from-game plays games K to N only, the same games as
                             in the whole match, to finish one stopped early
  hint GAME [--bot SPEC] [--record \"MOVES\"]
                             the bot's move and evaluation (default the game's
                             top level)
  review GAME --record \"MOVES\" [--bot SPEC] [--position STR] [--jobs J] [--looks L]
                             every move judged by the bot's search (default
                             config/review.ron: level:16), each position first for
                             1/L of the bot's time (default config/review.ron's
                             looks) on one thread, a move in doubt for more, each
                             move played studied on J threads (default every
                             core): ply, player, move, the
                             player's winning chance before it (with the bot's own
                             move) and after it, the mark (inaccuracy, mistake,
                             blunder) and the bot's move when better; then each
                             player's marks and average loss
  random GAME [--games N] [--plies N] [--seed S] [--max-plies P]
                             random games (100, or until N plies), checking every
                             invariant after every move; then plies checked a second
  train GAME [--games N] [--seed S] [--jobs J] [--bot SPEC] [--playout P]
        [--lambda L,...] [--curve N,...] [--check M] [--out FILE]
                             the learned evaluation's weights from N self-play
                             games (2000) by SPEC (mcts:iters=400,moves=100):
                             fitted on 4 games in 5 (a position's target: L
                             of its game's result, the rest its search's
                             value; L 1 by default; games stopped at
                             --max-plies, 600, have no result), judged on the
                             5th, with a calibration table; --curve fits on
                             the first N games too, for each L, and --check M
                             plays M games of each against the hand-written
                             evaluation; --playout is the playout plies the
                             weights are for; the file names the command and
                             commit (without --out it is printed)
  bench [GAME] [--seconds S] [--max-plies P]
                             random playouts and legal moves generated per second
                             (S seconds for each, 3 by default)
  learn GAME [--step N] [--course FILE]
                             the game's course: each step a position, a few
                             sentences and a task checked by the rules
  learn check [--explain] FILE...
                             what is wrong with each course file, or 'sound'
                             (--explain: a turn missing each task, and why)
  puzzle GAME [--id ID] [--seed S]
                             a puzzle to solve: win by force in 1 to 3 turns,
                             the solver answering
  puzzles generate GAME --out FILE [--count N] [--seconds S] [--seed S]
                             bot games searched for puzzles, each proved by
                             the exact solver, added to FILE
  puzzles select FILE --out FILE [--count N]
                             the puzzles to ship (400): half deeper ones, half
                             wins in one, each spread over their ratings
  puzzles prove FILE...      every puzzle of each file proved again
  puzzles tactics GAME [--bots A,B,...] [--count N] [--jobs J] [--seed S]
                             each bot (every level by default) plays the
                             mover's side of the shipped puzzles (N of them,
                             spread over the set) against the solver's
                             defence: the share solved by turns and theme
  online host GAME [--option k=v]... [--server URL] [--seat human|BOT] [--take N]
         [--pace live|correspondence] [--move-seconds S] [--rated]
                             a game on a tabula-server: prints 'code: CODE' first,
                             then plays seat N (default 1) here; --rated (logged
                             in) lets only accounts join, and its end moves ratings
  online join CODE [--server URL] [--seat human|BOT]
                             takes the free seat of game CODE and plays it
  online resume CODE TOKEN [--server URL] [--seat human|BOT]
                             comes back to a seat; online watch CODE follows a game
  online register|login NAME [--server URL]
                             an account on the server (the password on standard
                             input); host, join and resume then play as it, and
                             online resume CODE needs no token for its seats
  online logout [--everywhere] | password | delete-account | games | account
         | claim CODE TOKEN [--server URL]
                             end the session (or all of them), change the
                             password, delete the account, list its games, say
                             who is logged in, make an anonymous seat the account's
  online lobby [--server URL]  the open challenges (logged in: those for you too)
  online challenge GAME [--option k=v]... [--take N] [--pace P] [--move-seconds S]
         [--rated] [--to NAME] [--seat human|BOT] [--server URL]
                             posts a challenge (logged in), waits for someone to
                             accept it, then plays the game
  online play-now GAME [--pace P] [--rated] [--seat human|BOT] [--server URL]
                             takes the open challenge that fits best (the
                             poster's rating nearest yours), or posts one
  online accept ID [--seat human|BOT] | cancel ID [--server URL]
                             takes a challenge and plays it; takes yours down
  online email [ADDRESS | --remove] [--server URL]
                             the address the server mails when a correspondence
                             game waits for your move (a link confirms it)
  online next [--seat human|BOT] [--server URL]
                             lists the games waiting for your move and plays the
                             one waiting longest
  online leaderboard POOL | player NAME [--server URL]
                             the best players of a game (POOL: a game, or
                             adamas-3), or a player's ratings and recent games

games: adamas, absorption, adaptoid, adomoc
bots: random, level:N (1 to each game's top, 1 the weakest), uct:iters=N or uct:ms=N (plain UCT), mcts:KEY=V,...
(keys iters, ms, threads, c, playout, knowledge, solver, moves, eval, temp)
Option keys are listed in docs/notation.md; --option key=@FILE reads the value from a file
(a Super-Adaptoid board: --option board=@my-board.txt).";

fn main() {
    // Output piped into `head` or `less` ends quietly when the reader stops, as other
    // command-line tools do, rather than panicking in println!.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of one signal, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let words = match utf8_arguments(std::env::args_os().skip(1)) {
        Ok(words) => words,
        Err(message) => {
            eprintln!("error: {message}");
            std::process::exit(2);
        }
    };
    std::process::exit(run(&words));
}

/// The arguments as text, or which one is not valid UTF-8 (shown with the bad bytes
/// replaced, as the program could not read it).
fn utf8_arguments(
    arguments: impl Iterator<Item = std::ffi::OsString>,
) -> Result<Vec<String>, String> {
    arguments
        .enumerate()
        .map(|(i, argument)| {
            argument.into_string().map_err(|raw| {
                format!(
                    "argument {} is not valid UTF-8 text: {}",
                    i + 1,
                    tabula_rules::text::quoted(&raw.to_string_lossy())
                )
            })
        })
        .collect()
}

fn run(words: &[String]) -> i32 {
    let Some(verb) = words.first() else {
        eprintln!("{USAGE}");
        return 2;
    };
    if matches!(verb.as_str(), "help" | "--help" | "-h") {
        println!("{USAGE}");
        return 0;
    }
    if verb == "puzzles" {
        return finish(puzzles::puzzles(&words[1..]));
    }
    if verb == "puzzle" {
        return finish(puzzles::puzzle(&words[1..]));
    }
    if verb == "learn" {
        return finish(learn::learn(&words[1..]));
    }
    if verb == "online" {
        return finish(online::online(&words[1..]));
    }
    if verb == "bench" {
        let game = words.get(1).filter(|w| !w.starts_with("--"));
        let rest = &words[1 + game.is_some() as usize..];
        return finish(Args::parse(rest).map_err(|e| e.0).and_then(|args| {
            // Adamas first, as the benchmark tables list it.
            let all = [
                GameKind::Adamas,
                GameKind::Absorption,
                GameKind::Adaptoid,
                GameKind::Adomoc,
            ];
            let kinds = match game {
                Some(key) => vec![GameKind::parse(key)?],
                None => all.to_vec(),
            };
            kinds.into_iter().try_for_each(|kind| bench(kind, &args))
        }));
    }
    let Some(game) = words.get(1) else {
        eprintln!(
            "{} needs a game name\n\n{USAGE}",
            tabula_rules::text::quoted(verb)
        );
        return 2;
    };
    let args = match Args::parse(&words[2..]) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("error: {}", one_line(&e.0));
            return 2;
        }
    };
    match GameKind::parse(game) {
        Ok(kind) => with_game!(kind, G => run_verb::<G>(verb, &args, words)),
        Err(error) => finish(Err(error)),
    }
}

fn run_verb<G: Knowledge>(verb: &str, args: &Args, words: &[String]) -> i32 {
    match verb {
        "show" => finish(inspect::show::<G>(args)),
        "options" => finish(inspect::options::<G>()),
        "moves" => finish(inspect::moves::<G>(args)),
        "perft" => finish(inspect::perft::<G>(args)),
        "apply" => finish(inspect::apply::<G>(args)),
        "play" => finish(play::play::<G>(args)),
        "match" => finish(bots::match_games::<G>(args)),
        "hint" => finish(bots::hint::<G>(args)),
        "review" => finish(review::review::<G>(args)),
        "train" => finish(train::train::<G>(args, words)),
        "random" => match random::random::<G>(args) {
            Ok(code) => code,
            Err(e) => finish(Err(e)),
        },
        _ => {
            eprintln!(
                "unknown verb {}\n\n{USAGE}",
                tabula_rules::text::quoted(verb)
            );
            2
        }
    }
}

/// Random playouts and move generation for each benchmarked set of options of a game.
fn bench(kind: GameKind, args: &Args) -> Result<(), String> {
    match kind {
        GameKind::Adamas => random::bench::<tabula_session::rules::adamas::Adamas>(
            args,
            &[
                ("default: size 3, 2 players", &[]),
                ("size 4, 3 players", &[("size", "4"), ("players", "3")]),
            ],
        ),
        _ => with_game!(kind, G => random::bench::<G>(args, &[("default", &[])])),
    }
}

/// Errors (bad input, illegal moves) exit with status 2 after naming the problem.
fn finish(result: Result<(), String>) -> i32 {
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {}", one_line(&e));
            2
        }
    }
}

/// A message as one line with no control characters: a last guard, so that no input
/// quoted raw on its way here can forge a line of output or drive the terminal.
fn one_line(message: &str) -> String {
    message
        .chars()
        .map(|c| match c {
            '\n' => " / ".to_string(),
            c if c.is_control() => c.escape_default().to_string(),
            c => c.to_string(),
        })
        .collect()
}
