//! A game's state on the server as the rules and the store have it: the match, its seats
//! and offers, and how it looks to the connections that follow it.

use crate::codes::new_token;
use crate::store::{AccountId, Offers, StoredGame};
use std::time::{SystemTime, UNIX_EPOCH};
use tabula_protocol::{Ending, GameState, GameSummary, Pace, SeatState, ShownRating, UndoRequest};
use tabula_session::rules::text::quoted;
use tabula_session::{AnyMatch, GameKind, new_match};

pub struct RoomState {
    pub(super) game: Box<dyn AnyMatch>,
    pub(super) settings: Vec<(String, String)>,
    pub(super) pace: Pace,
    pub(super) move_seconds: Option<u32>,
    pub(super) rated: bool,
    pub(super) tokens: Vec<Option<String>>,
    /// Each seat's account, for the seats an account holds.
    pub(super) accounts: Vec<Option<AccountId>>,
    /// Each seat's player as shown (see [`StoredGame::players`]).
    pub(super) players: Vec<Option<String>>,
    /// Connections holding each seat now.
    pub(super) online: Vec<u32>,
    /// Each seat's account's rating in the game's pool, as last read (not kept with the
    /// game: see [`super::Room::read_ratings`]).
    pub(super) ratings: Vec<Option<ShownRating>>,
    pub(super) ending: Option<Ending>,
    pub(super) offers: Offers,
    /// The stored game's version this state is.
    pub(super) version: u64,
    /// When the last move (or the game) was made, for the move time limit.
    pub(super) last_move_ms: u64,
}

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A game's seats as the rules name them.
fn seat_names(game: &dyn AnyMatch) -> Vec<String> {
    (0..game.num_players())
        .map(|s| game.player_name(s))
        .collect()
}

impl RoomState {
    /// A game as stored, its moves replayed through the rules.
    pub fn from_stored(stored: &StoredGame) -> Result<RoomState, String> {
        let kind = GameKind::parse(&stored.game)?;
        let mut game = new_match(kind, &stored.settings)?;
        for (ply, mv) in stored.moves.iter().enumerate() {
            game.play_notation(&mv.text).map_err(|e| {
                format!(
                    "stored move {} ({}) of {}: {e}",
                    ply + 1,
                    quoted(&mv.text),
                    stored.code
                )
            })?;
        }
        check_seats(stored, game.num_players())?;
        let mut tokens = stored.tokens.clone();
        tokens.resize(game.num_players(), None);
        let mut accounts = stored.accounts.clone();
        accounts.resize(game.num_players(), None);
        let mut players = stored.players.clone();
        players.resize(game.num_players(), None);
        Ok(RoomState {
            accounts,
            players,
            online: vec![0; tokens.len()],
            ratings: vec![None; tokens.len()],
            tokens,
            settings: stored.settings.clone(),
            pace: stored.pace,
            move_seconds: stored.move_seconds,
            rated: stored.rated,
            ending: stored.ending,
            offers: stored.offers.clone(),
            version: stored.version,
            last_move_ms: stored
                .clock_ms
                .or(stored.moves.last().map(|m| m.at_ms))
                .unwrap_or(stored.created_ms),
            game,
        })
    }

    pub fn is_over(&self) -> bool {
        self.ending.is_some() || self.game.status().is_over()
    }

    /// How many moves the game has.
    pub fn moves(&self) -> usize {
        self.game.record().len()
    }

    pub fn seat_of(&self, token: &str) -> Option<usize> {
        self.tokens.iter().position(|t| t.as_deref() == Some(token))
    }

    /// How many seats the game has.
    pub fn seats(&self) -> usize {
        self.tokens.len()
    }

    /// The seat `account` holds, if it holds one.
    pub fn seat_of_account(&self, account: AccountId) -> Option<usize> {
        self.accounts.iter().position(|a| *a == Some(account))
    }

    fn all_seated(&self) -> bool {
        self.tokens.iter().all(Option::is_some)
    }

    /// Whether a connection holds `seat` now (its player is at the game).
    pub fn is_online(&self, seat: usize) -> bool {
        self.online.get(seat).is_some_and(|&count| count > 0)
    }

    pub fn pace(&self) -> Pace {
        self.pace
    }

    /// The game's name, as players read it.
    pub fn title(&self) -> &'static str {
        self.game.kind().title()
    }

    /// Each seat's account, for the seats an account holds.
    pub fn accounts(&self) -> &[Option<AccountId>] {
        &self.accounts
    }

    /// The seat whose move the game waits for: its player to move, while the game goes on
    /// and every seat is taken.
    pub fn waiting_seat(&self) -> Option<usize> {
        (!self.is_over() && self.all_seated()).then(|| self.game.to_move())
    }

    /// [`RoomState::waiting_seat`] once `seat` is taken too.
    pub(super) fn waiting_once_seated(&self, seat: usize) -> Option<usize> {
        let seated = (0..self.tokens.len()).all(|s| s == seat || self.tokens[s].is_some());
        (!self.is_over() && seated).then(|| self.game.to_move())
    }

    /// [`RoomState::waiting_seat`] once the game is taken back to `ply` moves.
    pub(super) fn waiting_after_take_back(&self, ply: usize) -> Option<usize> {
        self.all_seated()
            .then(|| self.game.to_move_after(ply))
            .flatten()
    }

    /// When the game last changed for its player to move: the last move, the last seat
    /// taken or a take-back.
    pub fn last_change_ms(&self) -> u64 {
        self.last_move_ms
    }

    /// When the player to move runs out of time, if there is a limit and it runs.
    pub fn deadline_ms(&self) -> Option<u64> {
        let limit = self.move_seconds?;
        // Saturating: a clock read back from a damaged store may be anything.
        (!self.is_over() && self.all_seated())
            .then(|| self.last_move_ms.saturating_add(u64::from(limit) * 1000))
    }

    pub fn result(&self) -> Option<String> {
        let name = |seat: usize| self.game.player_name(seat);
        let others = |seat: usize| -> Vec<String> {
            (0..self.tokens.len())
                .filter(|&s| s != seat)
                .map(name)
                .collect()
        };
        match self.ending {
            Some(Ending::Resigned { seat }) => Some(match others(seat).as_slice() {
                [winner] => format!("{} resigned: {winner} wins", name(seat)),
                _ => format!("{} resigned: the game ends", name(seat)),
            }),
            Some(Ending::OutOfTime { seat }) => Some(match others(seat).as_slice() {
                [winner] => format!("{} ran out of time: {winner} wins", name(seat)),
                _ => format!("{} ran out of time: the game ends", name(seat)),
            }),
            Some(Ending::DrawAgreed) => Some("Draw agreed".to_string()),
            None => self
                .game
                .status()
                .is_over()
                .then(|| self.game.status_text()),
        }
    }

    pub fn view(&self, code: &str) -> GameState {
        GameState {
            code: code.to_string(),
            game: self.game.kind().key().to_string(),
            settings: self.settings.clone(),
            pace: self.pace,
            move_seconds: self.move_seconds,
            rated: self.rated,
            seats: seat_names(self.game.as_ref())
                .into_iter()
                .enumerate()
                .map(|(seat, name)| SeatState {
                    name,
                    taken: self.tokens[seat].is_some(),
                    online: self.online[seat] > 0,
                    player: self.players[seat].clone(),
                    rating: self.ratings[seat],
                })
                .collect(),
            moves: self.game.record().to_vec(),
            ending: self.ending,
            result: self.result(),
            draw_offers: self.offers.draw.clone(),
            undo_request: self.offers.undo.clone(),
            deadline_ms: self.deadline_ms(),
            your_seat: None,
        }
    }

    pub fn summary(&self, code: &str, seat: usize) -> GameSummary {
        GameSummary {
            code: code.to_string(),
            game: self.game.kind().key().to_string(),
            your_seat: seat,
            moves: self.game.record().len(),
            to_move: (!self.is_over()).then(|| self.game.to_move()),
            result: self.result(),
            open_seats: self.tokens.iter().filter(|t| t.is_none()).count(),
            account: false,
        }
    }

    /// The seats someone holds.
    pub(super) fn taken(&self) -> Vec<bool> {
        self.tokens.iter().map(Option::is_some).collect()
    }
}

impl Offers {
    /// After a move by `mover`: the others' draw offers are declined, as is any take-back
    /// request.
    pub(super) fn after_move(&self, mover: usize) -> Offers {
        Offers {
            draw: self.draw.iter().copied().filter(|&s| s == mover).collect(),
            undo: None,
        }
    }

    /// These offers with `undo` as the take-back request.
    pub(super) fn with_undo(&self, undo: Option<UndoRequest>) -> Offers {
        Offers {
            draw: self.draw.clone(),
            undo,
        }
    }

    /// These offers with no draw offered.
    pub(super) fn without_draws(&self) -> Offers {
        Offers {
            draw: Vec::new(),
            undo: self.undo.clone(),
        }
    }
}

/// The seats a stored game's ending and offers name are seats it has: a damaged or
/// foreign store is refused by name, not followed into a panic.
fn check_seats(stored: &StoredGame, players: usize) -> Result<(), String> {
    let seats = stored
        .ending
        .and_then(|ending| ending.seat())
        .into_iter()
        .chain(stored.offers.draw.iter().copied())
        .chain(stored.offers.undo.iter().flat_map(UndoRequest::seats));
    if let Some(seat) = seats.into_iter().find(|&seat| seat >= players) {
        return Err(format!(
            "stored game {} names seat {} of {players}",
            stored.code,
            seat.saturating_add(1)
        ));
    }
    match &stored.offers.undo {
        Some(request) if request.to_ply > stored.moves.len() => Err(format!(
            "stored game {} takes back to move {} of {}",
            stored.code,
            request.to_ply,
            stored.moves.len()
        )),
        _ => Ok(()),
    }
}

/// What a new game is and who asks for it.
#[derive(Clone, Debug)]
pub struct NewGame<'a> {
    pub kind: GameKind,
    pub settings: &'a [(String, String)],
    /// The seat the asker takes.
    pub seat: usize,
    pub pace: Pace,
    pub move_seconds: Option<u32>,
    pub rated: bool,
    /// The asker's account, if they are logged in.
    pub account: Option<Player<'a>>,
}

/// An account taking a seat: its number, and its name to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player<'a> {
    pub id: AccountId,
    pub name: &'a str,
}

/// A new game's state and what to store for it.
pub fn new_game(code: &str, new: &NewGame<'_>) -> Result<(StoredGame, String), String> {
    let NewGame {
        kind,
        settings,
        seat,
        pace,
        move_seconds,
        rated,
        account,
    } = *new;
    if rated && account.is_none() {
        return Err("log in to create a rated game".into());
    }
    let game = new_match(kind, settings)?;
    let players = game.num_players();
    if seat >= players {
        return Err(format!(
            "seat {} does not exist: this game has {players} seats",
            seat.saturating_add(1)
        ));
    }
    let token = new_token();
    let mut tokens = vec![None; players];
    tokens[seat] = Some(token.clone());
    let mut accounts = vec![None; players];
    accounts[seat] = account.map(|player| player.id);
    let mut names = vec![None; players];
    names[seat] = account.map(|player| player.name.to_string());
    let stored = StoredGame {
        code: code.to_string(),
        game: kind.key().to_string(),
        settings: game.settings(),
        pace,
        move_seconds,
        rated,
        tokens,
        accounts,
        players: names,
        moves: Vec::new(),
        ending: None,
        created_ms: now_ms(),
        clock_ms: None,
        version: 0,
        offers: Offers::default(),
        // The others' seats are free: nobody's move is waited for yet.
        waiting_seat: None,
    };
    Ok((stored, token))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored_adomoc() -> StoredGame {
        let new = NewGame {
            kind: GameKind::Adomoc,
            settings: &[],
            seat: 0,
            pace: Pace::Live,
            move_seconds: Some(60),
            rated: false,
            account: None,
        };
        let (mut stored, _) = new_game("ABC234", &new).unwrap();
        stored.tokens = vec![Some("a".into()), Some("b".into())];
        stored
    }

    #[test]
    fn a_stored_game_naming_seats_it_lacks_is_refused_by_name() {
        let mut offers = stored_adomoc();
        offers.offers.draw = vec![1, 7];
        let mut ending = stored_adomoc();
        ending.ending = Some(Ending::Resigned { seat: 2 });
        let mut undo = stored_adomoc();
        undo.offers.undo = Some(UndoRequest {
            by: 0,
            to_ply: 3,
            accepted: vec![],
        });
        for (stored, why) in [
            (offers, "names seat 8 of 2"),
            (ending, "names seat 3 of 2"),
            (undo, "takes back to move 3 of 0"),
        ] {
            let err = RoomState::from_stored(&stored).err().unwrap();
            assert!(err.contains(why), "{err}");
        }
    }

    #[test]
    fn a_clock_read_back_as_anything_gives_a_deadline() {
        let mut stored = stored_adomoc();
        stored.clock_ms = Some(u64::MAX - 5);
        let state = RoomState::from_stored(&stored).unwrap();
        assert_eq!(state.deadline_ms(), Some(u64::MAX));
    }
}
