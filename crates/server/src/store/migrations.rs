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
];
