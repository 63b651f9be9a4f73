//! The schema, as numbered steps. A database records the steps it has had in
//! `schema_migrations`; opening it runs the ones it lacks, in order, each in a transaction.
//! A step once released is never edited: a change is a new step.

/// SQLite's steps.
pub const SQLITE: &[&str] = &[
    // 1: games, their seats and their moves.
    "CREATE TABLE games (
        code TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        settings TEXT NOT NULL,
        pace TEXT NOT NULL,
        move_seconds INTEGER,
        ending TEXT,
        created_ms INTEGER NOT NULL
    );
    CREATE TABLE seats (
        code TEXT NOT NULL REFERENCES games(code),
        seat INTEGER NOT NULL,
        token TEXT,
        PRIMARY KEY (code, seat)
    );
    CREATE TABLE moves (
        code TEXT NOT NULL REFERENCES games(code),
        ply INTEGER NOT NULL,
        text TEXT NOT NULL,
        seat INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        PRIMARY KEY (code, ply)
    );",
    // 2: when the move clock of the player to move started (the last seat taken, a move,
    // a take-back), so a restart does not count from the last move alone.
    "ALTER TABLE games ADD COLUMN clock_ms INTEGER;",
    // 3: a version counted up by every change, so a change decided on an old version is
    // refused; and the open draw offers and take-back request, so they outlive a restart.
    "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
     ALTER TABLE games ADD COLUMN offers TEXT;",
    // 4: accounts, their sessions, and the seats that are an account's. A deleted account
    // keeps its row (its seats name it) and its folded name (nobody takes the name over),
    // without its name or password.
    "CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        name TEXT,
        name_key TEXT NOT NULL UNIQUE,
        password TEXT,
        created_ms INTEGER NOT NULL,
        deleted_ms INTEGER
    );
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        account INTEGER NOT NULL REFERENCES accounts(id),
        created_ms INTEGER NOT NULL,
        expires_ms INTEGER NOT NULL
    );
    CREATE INDEX sessions_by_account ON sessions(account);
    ALTER TABLE seats ADD COLUMN account INTEGER REFERENCES accounts(id);
    CREATE INDEX seats_by_account ON seats(account);",
    // 5: rated games, each account's Glicko-2 rating in each pool, and each rating after
    // each rated game (a player's history, in the order written: its rowid).
    "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE ratings (
        account INTEGER NOT NULL REFERENCES accounts(id),
        pool TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        updated_ms INTEGER NOT NULL,
        PRIMARY KEY (account, pool)
    );
    CREATE INDEX ratings_by_pool ON ratings(pool, rating);
    CREATE TABLE rating_history (
        account INTEGER NOT NULL REFERENCES accounts(id),
        code TEXT NOT NULL REFERENCES games(code),
        pool TEXT NOT NULL,
        at_ms INTEGER NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        PRIMARY KEY (account, code)
    );
    CREATE INDEX rating_history_by_account ON rating_history(account, pool);",
    // 6: the lobby's open challenges (their terms as JSON, the same in every database).
    "CREATE TABLE challenges (
        id TEXT PRIMARY KEY,
        account INTEGER NOT NULL REFERENCES accounts(id),
        to_account INTEGER REFERENCES accounts(id),
        terms TEXT NOT NULL,
        posted_ms INTEGER NOT NULL
    );",
    // 7: the seat each game waits for: its player to move, while the game goes on and
    // every seat is taken (NULL: nobody). -1: not known yet, for games stored before this
    // step; the server works it out once from their moves.
    "ALTER TABLE games ADD COLUMN waiting_seat INTEGER DEFAULT -1;
    CREATE INDEX games_turn_unknown ON games(code) WHERE waiting_seat = -1;",
    // 8: each account's e-mail address for "your move" in correspondence games, confirmed
    // by a link (the link's secret kept hashed, as sessions are), and when each game was
    // last mailed about to each account.
    "CREATE TABLE emails (
        account INTEGER PRIMARY KEY REFERENCES accounts(id),
        address TEXT NOT NULL,
        token_hash TEXT UNIQUE,
        asked_ms INTEGER NOT NULL,
        confirmed_ms INTEGER
    );
    CREATE TABLE mailed (
        account INTEGER NOT NULL REFERENCES accounts(id),
        code TEXT NOT NULL REFERENCES games(code),
        at_ms INTEGER NOT NULL,
        PRIMARY KEY (account, code)
    );",
];

/// PostgreSQL's steps (run under an advisory lock, so two servers starting together do
/// not both run them).
pub const POSTGRES: &[&str] = &[
    // 1: games, their seats and their moves, as SQLite has them after its step 3.
    "CREATE TABLE games (
        code TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        settings TEXT NOT NULL,
        pace TEXT NOT NULL,
        move_seconds INTEGER,
        ending TEXT,
        created_ms BIGINT NOT NULL,
        clock_ms BIGINT,
        version BIGINT NOT NULL DEFAULT 0,
        offers TEXT
    );
    CREATE TABLE seats (
        code TEXT NOT NULL REFERENCES games(code),
        seat INTEGER NOT NULL,
        token TEXT,
        PRIMARY KEY (code, seat)
    );
    CREATE TABLE moves (
        code TEXT NOT NULL REFERENCES games(code),
        ply INTEGER NOT NULL,
        text TEXT NOT NULL,
        seat INTEGER NOT NULL,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (code, ply)
    );",
    // 2: accounts, their sessions, and the seats that are an account's (SQLite's step 4).
    "CREATE TABLE accounts (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        name TEXT,
        name_key TEXT NOT NULL UNIQUE,
        password TEXT,
        created_ms BIGINT NOT NULL,
        deleted_ms BIGINT
    );
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        account BIGINT NOT NULL REFERENCES accounts(id),
        created_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL
    );
    CREATE INDEX sessions_by_account ON sessions(account);
    ALTER TABLE seats ADD COLUMN account BIGINT REFERENCES accounts(id);
    CREATE INDEX seats_by_account ON seats(account);",
    // 3: rated games and ratings (SQLite's step 5; the history's order is its id).
    "ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
    CREATE TABLE ratings (
        account BIGINT NOT NULL REFERENCES accounts(id),
        pool TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        updated_ms BIGINT NOT NULL,
        PRIMARY KEY (account, pool)
    );
    CREATE INDEX ratings_by_pool ON ratings(pool, rating);
    CREATE TABLE rating_history (
        id BIGINT GENERATED ALWAYS AS IDENTITY,
        account BIGINT NOT NULL REFERENCES accounts(id),
        code TEXT NOT NULL REFERENCES games(code),
        pool TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (account, code)
    );
    CREATE INDEX rating_history_by_account ON rating_history(account, pool, id);",
    // 4: the lobby's open challenges (SQLite's step 6).
    "CREATE TABLE challenges (
        id TEXT PRIMARY KEY,
        account BIGINT NOT NULL REFERENCES accounts(id),
        to_account BIGINT REFERENCES accounts(id),
        terms TEXT NOT NULL,
        posted_ms BIGINT NOT NULL
    );",
    // 5: the seat each game waits for (SQLite's step 7).
    "ALTER TABLE games ADD COLUMN waiting_seat INTEGER DEFAULT -1;
    CREATE INDEX games_turn_unknown ON games(code) WHERE waiting_seat = -1;",
    // 6: e-mail addresses and the mails sent (SQLite's step 8).
    "CREATE TABLE emails (
        account BIGINT PRIMARY KEY REFERENCES accounts(id),
        address TEXT NOT NULL,
        token_hash TEXT UNIQUE,
        asked_ms BIGINT NOT NULL,
        confirmed_ms BIGINT
    );
    CREATE TABLE mailed (
        account BIGINT NOT NULL REFERENCES accounts(id),
        code TEXT NOT NULL REFERENCES games(code),
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (account, code)
    );",
];
