//! The store's one interface, the same on SQLite and on PostgreSQL: games kept whole,
//! a change decided on an old version of a game refused, however many arrive at once, a
//! rated game's end kept with its ratings or not at all, whose turn each game is at, and
//! e-mail addresses with the mails sent.

mod common;

use common::{TestDatabase, sqlite_url};
use tabula_online::protocol::{Ending, Pace, UndoRequest};
use tabula_server::ratings::RatedEnd;
use tabula_server::store::{
    AccountOp, ChallengeOp, Change, MailOp, News, Offers, Op, RatingOp, Reply, Step, Store,
    StoreError, StoredChallenge, StoredGame, StoredMove, TurnOp,
};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn game(code: &str) -> StoredGame {
    StoredGame {
        code: code.into(),
        game: "adaptoid".into(),
        settings: vec![("size".into(), "5".into())],
        pace: Pace::Correspondence,
        move_seconds: Some(86_400),
        rated: false,
        tokens: vec![Some("a".repeat(32)), None],
        accounts: vec![None, None],
        players: vec![None, None],
        moves: Vec::new(),
        ending: None,
        created_ms: 1_700_000_000_000,
        clock_ms: None,
        version: 0,
        offers: Offers::default(),
        waiting_seat: None,
    }
}

fn change(code: &str, version: u64, step: Step) -> Op {
    Op::Change(Box::new(Change {
        code: code.into(),
        version,
        step,
        offers: Offers::default(),
        clock_ms: None,
        rated_end: None,
        waiting_seat: None,
    }))
}

fn add_move(code: &str, version: u64, ply: usize, text: &str) -> Op {
    change(
        code,
        version,
        Step::AddMove {
            ply,
            mv: StoredMove {
                text: text.into(),
                seat: ply % 2,
                at_ms: 1_700_000_000_000 + ply as u64,
            },
        },
    )
}

fn conflict<T>(result: Result<T, StoreError>) -> bool {
    matches!(result, Err(StoreError::Conflict(_)))
}

async fn load(store: &Store, code: &str) -> StoredGame {
    *store.load(code).await.unwrap().expect("the game is there")
}

/// The same story on any store.
async fn keeps_games_and_refuses_old_versions(store: Store) {
    let code = "TEST23";
    assert!(matches!(
        store.run(Op::Create(Box::new(game(code)))).await,
        Ok(Reply::Done)
    ));
    assert!(conflict(store.run(Op::Create(Box::new(game(code)))).await));
    assert_eq!(load(&store, code).await, game(code));
    assert!(store.load("NOSUCH").await.unwrap().is_none());

    let claim = |version| {
        change(
            code,
            version,
            Step::Claim {
                seat: 1,
                token: "b".repeat(32),
                account: None,
            },
        )
    };
    store.run(claim(0)).await.unwrap();
    assert!(conflict(store.run(claim(0)).await), "an old version");
    assert!(conflict(store.run(claim(1)).await), "a taken seat");
    assert_eq!(load(&store, code).await.tokens[1], Some("b".repeat(32)));

    store.run(add_move(code, 1, 0, "a1")).await.unwrap();
    assert!(conflict(store.run(add_move(code, 1, 1, "b1")).await));
    assert!(
        conflict(store.run(add_move(code, 2, 0, "b1")).await),
        "a move over a move"
    );
    // Many changes on one version at once: exactly one is made.
    let racing: Vec<_> = (0..24)
        .map(|i| store.run(add_move(code, 2, 1, &format!("m{i}"))))
        .collect();
    let made = futures_util::future::join_all(racing)
        .await
        .into_iter()
        .filter(|r| {
            assert!(
                r.is_ok() || matches!(r, Err(StoreError::Conflict(_))),
                "{r:?}"
            );
            r.is_ok()
        })
        .count();
    assert_eq!(made, 1);

    let offers = Offers {
        draw: vec![1],
        undo: Some(UndoRequest {
            by: 1,
            to_ply: 1,
            accepted: vec![1],
        }),
    };
    store
        .run(Op::Change(Box::new(Change {
            code: code.into(),
            version: 3,
            step: Step::Offers,
            offers: offers.clone(),
            clock_ms: Some(42),
            rated_end: None,
            waiting_seat: None,
        })))
        .await
        .unwrap();
    let kept = load(&store, code).await;
    assert_eq!(kept.version, 4);
    assert_eq!(kept.offers, offers);
    assert_eq!(kept.clock_ms, Some(42));
    assert_eq!(kept.moves.len(), 2);
    assert_eq!(kept.moves[0].text, "a1");
    assert_eq!(kept.moves[1].seat, 1);

    store
        .run(change(code, 4, Step::TakeBack { ply: 1 }))
        .await
        .unwrap();
    let kept = load(&store, code).await;
    assert_eq!(kept.moves.len(), 1);
    assert_eq!(kept.offers, Offers::default());
    assert_eq!(kept.clock_ms, Some(42), "no new clock start given: kept");

    let ending = Ending::Resigned { seat: 1 };
    store.run(change(code, 5, Step::End(ending))).await.unwrap();
    assert!(
        conflict(store.run(change(code, 6, Step::Offers)).await),
        "an ended game"
    );
    let kept = load(&store, code).await;
    assert_eq!(kept.ending, Some(ending));
    assert_eq!(kept.version, 6);
}

/// A rated game between `accounts`, created: its code.
async fn rated_game(store: &Store, code: &str, accounts: [i64; 2]) {
    let mut rated = game(code);
    rated.game = "adomoc".into();
    rated.settings = vec![];
    rated.rated = true;
    rated.tokens = vec![Some("a".repeat(32)), Some("b".repeat(32))];
    rated.accounts = accounts.map(Some).to_vec();
    store.run(Op::Create(Box::new(rated))).await.unwrap();
}

/// Seat 1 resigns game `code` (at version 0), rating `accounts`.
fn rated_resignation(code: &str, accounts: [i64; 2]) -> Op {
    rated_resignation_at(code, accounts, 1_700_000_000_000)
}

fn rated_resignation_at(code: &str, accounts: [i64; 2], at_ms: u64) -> Op {
    Op::Change(Box::new(Change {
        code: code.into(),
        version: 0,
        step: Step::End(Ending::Resigned { seat: 1 }),
        offers: Offers::default(),
        clock_ms: None,
        rated_end: Some(RatedEnd {
            pool: "adomoc".into(),
            accounts: accounts.to_vec(),
            points: vec![1.0, 0.0],
            at_ms,
        }),
        waiting_seat: None,
    }))
}

async fn ratings_of(store: &Store, accounts: [i64; 2]) -> Vec<(i64, i32, u32)> {
    let op = RatingOp::Of {
        pool: "adomoc".into(),
        accounts: accounts.to_vec(),
    };
    match store.ratings(op).await.unwrap() {
        Reply::Ratings(found) => found
            .into_iter()
            .map(|(account, r)| (account, r.shown().rating, r.games))
            .collect(),
        other => panic!("ratings, not {other:?}"),
    }
}

/// An end whose ratings cannot be written is not kept either; one whose ratings can is kept
/// with them: the two accounts it returns are rated once.
async fn a_rated_end_is_kept_whole_or_not_at_all(store: &Store) -> [i64; 2] {
    let [ada, bea] = register(store, &["Ada", "Bea"]).await[..] else {
        unreachable!()
    };
    let accounts = [ada, bea];
    rated_game(store, "RATE23", accounts).await;
    // No such account: its rating cannot be written, so the end is not kept.
    let refused = store
        .run(rated_resignation("RATE23", [accounts[0], 987_654]))
        .await;
    assert!(matches!(refused, Err(StoreError::Failed(_))), "{refused:?}");
    let kept = load(store, "RATE23").await;
    assert_eq!((kept.ending, kept.version), (None, 0));
    assert!(ratings_of(store, accounts).await.is_empty());
    store
        .run(rated_resignation("RATE23", accounts))
        .await
        .unwrap();
    assert_eq!(
        load(store, "RATE23").await.ending,
        Some(Ending::Resigned { seat: 1 })
    );
    let rated = ratings_of(store, accounts).await;
    assert_eq!(
        rated,
        [(accounts[0], 1662, 1), (accounts[1], 1338, 1)],
        "{rated:?}"
    );
    accounts
}

/// Two pairs play twice, one a day apart and one two years apart: the second game moves
/// the absent pair's ratings from deviations grown while they were away (the store reads
/// when each last played).
async fn an_absence_grows_a_deviation(store: &Store) {
    const DAY: u64 = 86_400_000;
    let ids = register(store, &["Eve", "Fay", "Gil", "Hal"]).await;
    let (near, far) = ([ids[0], ids[1]], [ids[2], ids[3]]);
    let start = 1_700_000_000_000;
    for (n, (pair, gap)) in [(near, DAY), (far, 730 * DAY)].into_iter().enumerate() {
        for (game, at_ms) in [(0, start), (1, start + gap)] {
            let code = format!("ABS{n}{game}X");
            rated_game(store, &code, pair).await;
            store
                .run(rated_resignation_at(&code, pair, at_ms))
                .await
                .unwrap();
        }
    }
    let deviations = |pair: [i64; 2]| async move {
        let op = RatingOp::Of {
            pool: "adomoc".into(),
            accounts: pair.to_vec(),
        };
        match store.ratings(op).await.unwrap() {
            Reply::Ratings(found) => found
                .into_iter()
                .map(|(_, r)| (r.games, r.shown().deviation))
                .collect::<Vec<_>>(),
            other => panic!("ratings, not {other:?}"),
        }
    };
    let (near, far) = (deviations(near).await, deviations(far).await);
    assert!(near.iter().chain(&far).all(|&(games, _)| games == 2));
    for (a_day, two_years) in near.iter().zip(&far) {
        assert!(two_years.1 > a_day.1 + 20, "{near:?} {far:?}");
    }
}

/// After Bea's rating row was damaged: her next game still ends, rated from a newcomer's.
async fn a_damaged_rating_does_not_stop_a_game_ending(store: &Store, accounts: [i64; 2]) {
    rated_game(store, "RATE34", [accounts[1], accounts[0]]).await;
    store
        .run(rated_resignation("RATE34", [accounts[1], accounts[0]]))
        .await
        .unwrap();
    let rated = ratings_of(store, accounts).await;
    let bea = rated.iter().find(|r| r.0 == accounts[1]).unwrap();
    let ada = rated.iter().find(|r| r.0 == accounts[0]).unwrap();
    assert!(bea.1 > 1500 && bea.1 < 2000, "from 1500, a win: {rated:?}");
    assert_eq!(bea.2, 1, "a newcomer's count, too");
    assert!(ada.1 < 1662 && ada.2 == 2, "{rated:?}");
}

const DAMAGE: &str = "UPDATE ratings SET rating = 1e300 WHERE games = 1 AND rating < 1500";

#[test]
fn sqlite_keeps_a_rated_end_whole_and_survives_a_damaged_rating() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rated.sqlite3");
    let runtime = runtime();
    let store = runtime.block_on(Store::open(&sqlite_url(&path))).unwrap();
    let accounts = runtime.block_on(a_rated_end_is_kept_whole_or_not_at_all(&store));
    runtime.block_on(an_absence_grows_a_deviation(&store));
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch(DAMAGE)
        .unwrap();
    runtime.block_on(a_damaged_rating_does_not_stop_a_game_ending(
        &store, accounts,
    ));
}

#[test]
fn postgres_keeps_a_rated_end_whole_and_survives_a_damaged_rating() {
    let Some(database) = TestDatabase::new("rated") else {
        return;
    };
    let runtime = runtime();
    let store = runtime.block_on(Store::open(&database.url)).unwrap();
    let accounts = runtime.block_on(a_rated_end_is_kept_whole_or_not_at_all(&store));
    runtime.block_on(an_absence_grows_a_deviation(&store));
    database.sql(DAMAGE);
    runtime.block_on(a_damaged_rating_does_not_stop_a_game_ending(
        &store, accounts,
    ));
}

/// Many accepts of one challenge at once (through `stores`, one or two processes'): one
/// game is made, the challenge is gone, and a game's code already taken leaves the
/// challenge open.
async fn one_challenge_makes_one_game(stores: &[Store]) {
    let store = &stores[0];
    let Reply::Registered(ada) = store
        .account(AccountOp::Register {
            name: "Cy".into(),
            name_key: "cy".into(),
            password: "hash".into(),
            now_ms: 1,
        })
        .await
        .unwrap()
    else {
        panic!("registered")
    };
    let challenge = StoredChallenge {
        id: "0123456789ab".into(),
        account: ada,
        terms: tabula_online::protocol::ChallengeTerms {
            game: "adaptoid".into(),
            settings: vec![("size".into(), "5".into())],
            pace: Pace::Correspondence,
            move_seconds: Some(86_400),
            rated: false,
            seat: Some(0),
        },
        to: None,
        posted_ms: 1,
        by: "Cy".into(),
        to_name: None,
    };
    store
        .challenge(ChallengeOp::Post(Box::new(challenge.clone())))
        .await
        .unwrap();
    let accept = |code: &str| ChallengeOp::Accept {
        id: challenge.id.clone(),
        game: Box::new(game(code)),
        poster_seat: 0,
    };
    // A code taken: refused, and the challenge stays.
    store
        .run(Op::Create(Box::new(game("TAKEN2"))))
        .await
        .unwrap();
    let refused = store.challenge(accept("TAKEN2")).await;
    assert!(conflict(refused), "a code taken");
    let racing: Vec<_> = (0..16)
        .map(|i| stores[i % stores.len()].challenge(accept(&format!("RACE{i:02}"))))
        .collect();
    let results = futures_util::future::join_all(racing).await;
    let made: Vec<usize> = (0..results.len()).filter(|&i| results[i].is_ok()).collect();
    assert_eq!(made.len(), 1, "{results:?}");
    for result in &results {
        assert!(
            matches!(result, Ok(_) | Err(StoreError::Conflict(_))),
            "{result:?}"
        );
    }
    let mut games = 0;
    for i in 0..16 {
        games += usize::from(store.load(&format!("RACE{i:02}")).await.unwrap().is_some());
    }
    assert_eq!(games, 1);
    match store.challenge(ChallengeOp::All).await.unwrap() {
        Reply::Challenges(open) => assert!(open.is_empty(), "{open:?}"),
        other => panic!("challenges, not {other:?}"),
    }
    // A challenge whose poster deleted their account (told to another process a moment
    // too late) makes no game.
    let orphan = StoredChallenge {
        id: "0123456789ab".into(),
        ..challenge.clone()
    };
    store
        .challenge(ChallengeOp::Post(Box::new(orphan.clone())))
        .await
        .unwrap();
    store
        .account(AccountOp::Delete {
            account: ada,
            now_ms: 2,
        })
        .await
        .unwrap();
    let refused = stores[stores.len() - 1]
        .challenge(ChallengeOp::Accept {
            id: orphan.id.clone(),
            game: Box::new(game("ORPHAN")),
            poster_seat: 0,
        })
        .await;
    assert!(conflict(refused), "a deleted poster's challenge");
    assert!(store.load("ORPHAN").await.unwrap().is_none());
}

#[test]
fn sqlite_makes_one_game_of_one_challenge() {
    let dir = tempfile::tempdir().unwrap();
    let url = sqlite_url(&dir.path().join("challenge.sqlite3"));
    let runtime = runtime();
    runtime.block_on(async {
        one_challenge_makes_one_game(&[Store::open(&url).await.unwrap()]).await
    });
}

#[test]
fn two_postgres_stores_make_one_game_of_one_challenge() {
    let Some(database) = TestDatabase::new("challenge") else {
        return;
    };
    let runtime = runtime();
    runtime.block_on(async {
        let one = Store::open(&database.url).await.unwrap();
        let two = Store::open(&database.url).await.unwrap();
        one_challenge_makes_one_game(&[one, two]).await
    });
}

#[test]
fn sqlite_keeps_games_and_refuses_old_versions() {
    let dir = tempfile::tempdir().unwrap();
    let url = sqlite_url(&dir.path().join("store.sqlite3"));
    let runtime = runtime();
    runtime.block_on(async {
        keeps_games_and_refuses_old_versions(Store::open(&url).await.unwrap()).await
    });
}

#[test]
fn postgres_keeps_games_and_refuses_old_versions() {
    let Some(database) = TestDatabase::new("store") else {
        return;
    };
    let runtime = runtime();
    runtime.block_on(async {
        // Two servers starting at once bring the schema up to date once between them.
        let (one, two) = tokio::join!(Store::open(&database.url), Store::open(&database.url));
        let (one, _two) = (one.unwrap(), two.unwrap());
        keeps_games_and_refuses_old_versions(one).await
    });
}

#[test]
fn two_postgres_stores_racing_make_one_change_and_announce_only_it() {
    let Some(database) = TestDatabase::new("race") else {
        return;
    };
    let runtime = runtime();
    runtime.block_on(async {
        let one = Store::open(&database.url).await.unwrap();
        let two = Store::open(&database.url).await.unwrap();
        let watcher = Store::open(&database.url).await.unwrap();
        let mut news = watcher.news().unwrap();
        // Listening before anything happens: the first news says so.
        assert_eq!(news.recv().await, Some(News::Missed));
        let code = "RACE23";
        one.run(Op::Create(Box::new(game(code)))).await.unwrap();
        let racing: Vec<_> = (0..16)
            .map(|i| {
                let store = if i % 2 == 0 { &one } else { &two };
                store.run(add_move(code, 0, 0, &format!("m{i}")))
            })
            .collect();
        let results = futures_util::future::join_all(racing).await;
        for result in &results {
            assert!(
                result.is_ok() || matches!(result, Err(StoreError::Conflict(_))),
                "{result:?}"
            );
        }
        let made: Vec<usize> = (0..results.len()).filter(|&i| results[i].is_ok()).collect();
        assert_eq!(made.len(), 1, "{results:?}");
        // Exactly the stored move is announced, once; the refused ones are not.
        let first = tokio::time::timeout(std::time::Duration::from_secs(10), news.recv())
            .await
            .expect("news of the move");
        match first {
            Some(News::Moved {
                code: c,
                version,
                ply,
                mv,
            }) => {
                assert_eq!((c.as_str(), version, ply), (code, 1, 0));
                assert_eq!(mv.text, format!("m{}", made[0]));
            }
            other => panic!("{other:?}"),
        }
        let more = tokio::time::timeout(std::time::Duration::from_secs(1), news.recv()).await;
        assert!(more.is_err(), "no more news: {more:?}");
        assert_eq!(load(&one, code).await.moves.len(), 1);
    });
}

#[test]
fn a_bad_database_address_is_a_clear_error() {
    let runtime = runtime();
    let error = runtime
        .block_on(Store::open("postgres://nobody:secret@127.0.0.1:1/none"))
        .err()
        .expect("nothing listens on port 1");
    assert!(error.contains("cannot open the database"), "{error}");
    assert!(
        !error.contains("secret"),
        "the password is not shown: {error}"
    );
    let error = runtime.block_on(Store::open("sqlite://")).err().unwrap();
    assert!(error.contains("needs a file path"), "{error}");
}

/// Registers accounts by these names.
async fn register(store: &Store, names: &[&str]) -> Vec<i64> {
    let mut ids = Vec::new();
    for name in names {
        let op = AccountOp::Register {
            name: name.to_string(),
            name_key: name.to_ascii_lowercase(),
            password: "hash".into(),
            now_ms: 1,
        };
        match store.account(op).await.unwrap() {
            Reply::Registered(id) => ids.push(id),
            other => panic!("registered, not {other:?}"),
        }
    }
    ids
}

async fn waiting(store: &Store, account: i64) -> Vec<(String, usize)> {
    match store.turns(TurnOp::Waiting { account, limit: 10 }).await {
        Ok(Reply::Seats(seats)) => seats,
        other => panic!("seats, not {other:?}"),
    }
}

async fn unknown(store: &Store) -> Vec<String> {
    match store
        .turns(TurnOp::Unknown {
            after: String::new(),
            limit: 10,
        })
        .await
    {
        Ok(Reply::Codes(codes)) => codes,
        other => panic!("codes, not {other:?}"),
    }
}

/// `forget` makes a game's turn not known, as a game stored before the store kept turns.
async fn each_account_finds_the_games_waiting_for_it(store: &Store, forget: impl Fn(&str)) {
    let [ada, bea] = register(store, &["Tia", "Uma"]).await[..] else {
        unreachable!()
    };
    let mut both = game("TURN23");
    both.tokens = vec![Some("a".repeat(32)), Some("b".repeat(32))];
    both.accounts = vec![Some(ada), Some(bea)];
    both.waiting_seat = Some(0);
    store.run(Op::Create(Box::new(both))).await.unwrap();
    assert_eq!(load(store, "TURN23").await.waiting_seat, Some(0));
    assert_eq!(waiting(store, ada).await, [("TURN23".to_string(), 0)]);
    assert_eq!(waiting(store, bea).await, []);
    let mut moved = add_move("TURN23", 0, 0, "a1");
    if let Op::Change(change) = &mut moved {
        change.waiting_seat = Some(1);
    }
    store.run(moved).await.unwrap();
    assert_eq!(waiting(store, ada).await, []);
    assert_eq!(waiting(store, bea).await, [("TURN23".to_string(), 1)]);
    let players = store
        .turns(TurnOp::Players {
            code: "TURN23".into(),
        })
        .await;
    assert!(
        matches!(&players, Ok(Reply::Accounts(found)) if found == &[ada, bea]),
        "{players:?}"
    );
    // Not known: both seats may be waited for, until it is learnt.
    forget("TURN23");
    assert_eq!(unknown(store).await, ["TURN23"]);
    assert_eq!(waiting(store, ada).await, [("TURN23".to_string(), 0)]);
    assert_eq!(load(store, "TURN23").await.waiting_seat, None);
    let learn = |seat| TurnOp::Learn {
        code: "TURN23".into(),
        waiting_seat: Some(seat),
    };
    store.turns(learn(1)).await.unwrap();
    assert_eq!(unknown(store).await, Vec::<String>::new());
    assert_eq!(waiting(store, ada).await, []);
    // Learnt once: a later guess does not overwrite what a change wrote.
    store.turns(learn(0)).await.unwrap();
    assert_eq!(load(store, "TURN23").await.waiting_seat, Some(1));
    // The game over: nobody's turn.
    let ended = change("TURN23", 1, Step::End(Ending::DrawAgreed));
    store.run(ended).await.unwrap();
    assert_eq!(waiting(store, bea).await, []);
}

const FORGET_TURN: &str = "UPDATE games SET waiting_seat = -1 WHERE code = ";

#[test]
fn sqlite_keeps_whose_turn_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("turns.sqlite3");
    let runtime = runtime();
    let store = runtime.block_on(Store::open(&sqlite_url(&path))).unwrap();
    let forget = |code: &str| {
        rusqlite::Connection::open(&path)
            .unwrap()
            .execute_batch(&format!("{FORGET_TURN}'{code}'"))
            .unwrap();
    };
    runtime.block_on(each_account_finds_the_games_waiting_for_it(&store, forget));
}

#[test]
fn postgres_keeps_whose_turn_it_is() {
    let Some(database) = TestDatabase::new("turns") else {
        return;
    };
    let runtime = runtime();
    let store = runtime.block_on(Store::open(&database.url)).unwrap();
    // On a thread of its own: the admin connection has its own runtime.
    let forget = |code: &str| {
        let sql = format!("{FORGET_TURN}'{code}'");
        std::thread::scope(|scope| {
            scope.spawn(|| database.sql(&sql));
        });
    };
    runtime.block_on(each_account_finds_the_games_waiting_for_it(&store, forget));
}

async fn address(store: &Store, account: i64) -> Option<(String, bool)> {
    match store.mail(MailOp::Address { account }).await {
        Ok(Reply::Address(found)) => found.map(|a| (a.address, a.confirmed)),
        other => panic!("an address, not {other:?}"),
    }
}

async fn claim(store: &Store, account: i64, code: &str, now_ms: u64) -> Option<String> {
    let op = MailOp::Claim {
        account,
        code: code.into(),
        now_ms,
        since_ms: now_ms - 1000,
    };
    match store.mail(op).await {
        Ok(Reply::Address(found)) => found.map(|a| a.address),
        other => panic!("an address or none, not {other:?}"),
    }
}

/// An address kept, confirmed by its link once, a link too soon refused (for the account,
/// and for the address whoever asks), one mail a game in a while, and the address gone.
async fn addresses_are_kept_and_one_mail_goes_a_game(store: &Store) {
    let [ada, bea] = register(store, &["Vic", "Wes"]).await[..] else {
        unreachable!()
    };
    let mut game = game("MAIL23");
    game.accounts = vec![Some(ada), None];
    store.run(Op::Create(Box::new(game))).await.unwrap();
    let set = |account, address: &str, token: &str, now_ms: u64| MailOp::SetAddress {
        account,
        address: address.into(),
        token_hash: token.into(),
        now_ms,
        account_since_ms: now_ms - 100,
        address_since_ms: now_ms - 1000,
    };
    store
        .mail(set(ada, "vic@example.org", "hash-a", 10_000))
        .await
        .unwrap();
    assert_eq!(
        address(store, ada).await,
        Some(("vic@example.org".into(), false))
    );
    // Not confirmed: no mail.
    assert_eq!(claim(store, ada, "MAIL23", 10_050).await, None);
    // Too soon, for the account; and for the address, whoever asks.
    let again = store
        .mail(set(ada, "vic@example.org", "hash-b", 10_050))
        .await;
    assert!(conflict(again));
    let stranger = store
        .mail(set(bea, "vic@example.org", "hash-c", 10_500))
        .await;
    assert!(conflict(stranger));
    let confirm = |token: &str, since_ms| MailOp::Confirm {
        token_hash: token.into(),
        since_ms,
        now_ms: 10_600,
    };
    // An old link confirms nothing; the right one once.
    assert!(conflict(store.mail(confirm("hash-a", 10_000)).await));
    store.mail(confirm("hash-a", 9_000)).await.unwrap();
    assert!(conflict(store.mail(confirm("hash-a", 9_000)).await));
    assert_eq!(
        address(store, ada).await,
        Some(("vic@example.org".into(), true))
    );
    // One mail a game in a while (here a second).
    assert_eq!(
        claim(store, ada, "MAIL23", 20_000).await.as_deref(),
        Some("vic@example.org")
    );
    assert_eq!(claim(store, ada, "MAIL23", 20_500).await, None);
    assert_eq!(
        claim(store, ada, "MAIL23", 21_100).await.as_deref(),
        Some("vic@example.org")
    );
    store.mail(MailOp::Remove { account: ada }).await.unwrap();
    assert_eq!(address(store, ada).await, None);
    assert_eq!(claim(store, ada, "MAIL23", 40_000).await, None);
}

#[test]
fn sqlite_keeps_addresses_and_mails_once() {
    let dir = tempfile::tempdir().unwrap();
    let runtime = runtime();
    let url = sqlite_url(&dir.path().join("mail.sqlite3"));
    let store = runtime.block_on(Store::open(&url)).unwrap();
    runtime.block_on(addresses_are_kept_and_one_mail_goes_a_game(&store));
}

#[test]
fn postgres_keeps_addresses_and_mails_once() {
    let Some(database) = TestDatabase::new("mail") else {
        return;
    };
    let runtime = runtime();
    let store = runtime.block_on(Store::open(&database.url)).unwrap();
    runtime.block_on(addresses_are_kept_and_one_mail_goes_a_game(&store));
}
