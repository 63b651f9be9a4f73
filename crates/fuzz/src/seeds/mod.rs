//! The first corpus: real inputs made through the program's own writers (legal moves,
//! position strings of played games, saved records, option settings, protocol messages),
//! so mutations start from text the parsers accept. `tabula-fuzz seed` writes them.

mod protocol;

use crate::games::{SMALL_BOARD, owned, position_for, setups};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use tabula_session::options::{options_from, settings_of};
use tabula_session::rules::{Game, Status};
use tabula_session::{GameKind, Record, Seat, new_match, with_game};

/// The seed inputs of the target `name`.
pub fn seeds(name: &str) -> Vec<Vec<u8>> {
    let game = |key: &str| GameKind::parse(key).expect("a game's key");
    match name.split_once('_') {
        Some((key, "notation")) => with_game!(game(key), G => notation::<G>()),
        Some((key, "position")) => with_game!(game(key), G => positions::<G>()),
        _ => match name {
            "options" => options(),
            "board" => boards(),
            "record" => records(),
            "pasted" => pasted(),
            "bot_spec" => texts(BOT_SPECS),
            "cli_args" => texts(ARGUMENTS),
            "client_message" => protocol::client_messages(),
            "server_messages" => protocol::server_messages(),
            "sessions_file" => texts(SESSIONS_FILES),
            _ => Vec::new(),
        },
    }
}

/// Selectors for the four option sets, each at the start and some moves in.
const SELECTORS: [u8; 8] = [0, 1, 2, 3, 4 * 3, 4 * 9 + 1, 4 * 20 + 2, 4 * 40 + 3];

fn with_selector(selector: u8, text: &str) -> Vec<u8> {
    let mut input = vec![selector];
    input.extend_from_slice(text.as_bytes());
    input
}

fn notation<G: Game>() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for selector in SELECTORS {
        let (_, game) = position_for::<G>(selector);
        let mut rng = SmallRng::seed_from_u64(u64::from(selector));
        for _ in 0..3 {
            if let Some(mv) = game.random_move(&mut rng) {
                seeds.push(with_selector(selector, &game.format_move(&mv)));
            }
        }
    }
    seeds
}

fn positions<G: Game>() -> Vec<Vec<u8>> {
    SELECTORS
        .iter()
        .map(|&selector| {
            let (_, game) = position_for::<G>(selector);
            with_selector(selector & 3, &game.position_string())
        })
        .collect()
}

fn options() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for (index, kind) in GameKind::ALL.into_iter().enumerate() {
        for setup in setups(kind) {
            let options = with_game!(kind, G => {
                settings_of::<G>(&options_from::<G>(&owned(setup)).expect("a fuzz setup"))
            });
            let lines: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
            seeds.push(with_selector(index as u8, &lines.join("\n")));
        }
    }
    seeds
}

fn boards() -> Vec<Vec<u8>> {
    [
        include_str!("../../../../boards/super-adaptoid-example.txt"),
        SMALL_BOARD,
        "o\n",
        "# a ring\n o o\no   o\n o o\nunlink a1 a2\n",
    ]
    .iter()
    .map(|text| text.as_bytes().to_vec())
    .collect()
}

/// Games of each kind played some random moves in, as a person might have left them.
pub(super) fn played_games() -> Vec<Box<dyn tabula_session::AnyMatch>> {
    let mut games = Vec::new();
    for kind in GameKind::ALL {
        for (setup, plies) in setups(kind).iter().zip([0, 7, 30, 200]) {
            let settings = owned(setup);
            let mut game = new_match(kind, &settings).expect("the fuzz setups make games");
            for seed in 0..plies {
                if game.status() != Status::Ongoing {
                    break;
                }
                let spec = tabula_bot::BotSpec::Random;
                let Some(text) = game.thinker(&spec, seed).best_move() else {
                    break;
                };
                game.play_notation(&text).expect("a bot's move is legal");
            }
            games.push(game);
        }
    }
    games
}

fn records() -> Vec<Vec<u8>> {
    let seats = [
        Seat::Human,
        Seat::Bot(3),
        Seat::Custom("mcts:iters=50,c=0.4".into()),
    ];
    played_games()
        .iter_mut()
        .enumerate()
        .map(|(i, game)| {
            if i % 3 == 1 && !game.line().is_empty() {
                // A record left looking back, with moves to redo.
                game.go_to(game.line().len() / 2)
                    .expect("a ply of the line");
            }
            let seats = &seats[..game.num_players()];
            Record::of(game.as_ref(), seats).to_ron().into_bytes()
        })
        // A record from before the ladder, whose level seats count the five former levels.
        .chain(std::iter::once(
            "(tabula_record: 1, game: \"adaptoid\", seats: [\"human\", \"level:3\"], \
             moves: [\"+c1\", \"+c5\"], at: Some(1))"
                .as_bytes()
                .to_vec(),
        ))
        .collect()
}

fn pasted() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for game in played_games() {
        let index = GameKind::ALL
            .iter()
            .position(|&k| k == game.kind())
            .unwrap() as u8;
        if game.settings().is_empty() {
            seeds.push(with_selector(index, &game.move_list()));
        }
        seeds.push(with_selector(index | 4, &game.position_string()));
    }
    seeds
}

const BOT_SPECS: &[&str] = &[
    "random",
    "level:3",
    "uct:iters=100",
    "mcts:ms=50,playout=20,c=0.3",
    "mcts:iters=200,knowledge=true,solver=false,moves=12,playout=game",
    "mcts:iters=30,temp=0.05,eval=learned",
    "human",
    "remote",
    "human,level:1,mcts:iters=5,c=1",
];

const ARGUMENTS: &[&str] = &[
    "show\0adamas\0--option\0size=4\0--option\0players=3",
    "moves\0absorption\0--count",
    "apply\0adamas\0c1-a1,c2,4xc3,e1",
    "perft\0adaptoid\0--depth\x002",
    "show\0adomoc\0--option=spirals=ccw\0--record\0a1-b2",
    "show\0adamas\0--position\0o1../..../o1o1o4.x8/..../o1.. x ox 1 1",
    "play\0adaptoid\0--seats\0human,level:3\0--seed\x007",
    "match\0adamas\0--bots\0random,level:1\0--games\x004\0--jobs\x002\0--max-plies\x0080",
    "hint\0absorption\0--bot\0mcts:iters=100",
    "bench\0adomoc\0--seconds\x000.5",
    "online\0host\0adamas\0--server\0http://127.0.0.1:1\0--take\x002\0--pace\0live\0--move-seconds\x0030",
];

const SESSIONS_FILES: &[&str] = &[
    "(sessions: [])",
    "(\n    sessions: [\n        (\n            server: \"ws://127.0.0.1:8080/ws\",\n            name: \"Ada\",\n            session: \"0123456789abcdef0123456789abcdef\",\n            expires_ms: 1798546706192,\n        ),\n    ],\n)",
    "(sessions: [(server: \"wss://tabula.example.org/ws\", name: \"Bea_7\", session: \"ff\", expires_ms: 0), (server: \"localhost:9\", name: \"x\", session: \"\", expires_ms: 18446744073709551615)])",
];

fn texts(list: &[&str]) -> Vec<Vec<u8>> {
    list.iter().map(|text| text.as_bytes().to_vec()).collect()
}
