//! [`GameTable`]: a match of one game from `tabula-session`, with how it looks, behind
//! [`Table`]. The line, the move builder and the rules events all come from the match;
//! this adds the board's layout, the offered choices in words and cells, and the
//! animations of each event.

use super::{
    Anim, BoardLayout, Choice, Ghost, Look, Mark, PieceLook, PlayedEvent, Table, ghosts_between,
};
use tabula_session::{AnyMatch, Match};

pub struct GameTable<G: Look> {
    game: Match<G>,
    layout: BoardLayout,
    /// The match's legal next steps, as offered to the player.
    choices: Vec<Choice>,
    last_move_cells: Vec<usize>,
}

impl<G: Look> GameTable<G> {
    pub fn new(game: Match<G>) -> Self {
        let mut table = GameTable {
            layout: game.game().layout(),
            game,
            choices: Vec::new(),
            last_move_cells: Vec::new(),
        };
        table.recompute_last_move_cells();
        table.refresh_choices();
        table
    }

    fn refresh_choices(&mut self) {
        let position = self.game.game();
        self.choices = self
            .game
            .next_steps()
            .iter()
            .map(|step| position.choice(step))
            .collect();
    }

    /// The last move's events in words and animations, and the cells it touched.
    fn played(
        &mut self,
        events: Result<Vec<G::Event>, String>,
    ) -> Result<Vec<PlayedEvent>, String> {
        let events = events?;
        let before = self
            .game
            .before_last_move()
            .expect("a move was just played");
        let played = played_events(before, &events);
        self.last_move_cells = moved_cells(&played);
        self.refresh_choices();
        Ok(played)
    }

    /// The cells of the last move played, worked out again after a jump.
    fn recompute_last_move_cells(&mut self) {
        let last = self.game.ply().checked_sub(1);
        self.last_move_cells = match (last, self.game.before_last_move()) {
            (Some(last), Some(before)) => {
                cells_of_move(before, &self.game.line()[last]).unwrap_or_default()
            }
            _ => Vec::new(),
        };
    }
}

/// The cells a move in notation travels from or to in `before`.
fn cells_of_move<G: Look>(before: &G, text: &str) -> Result<Vec<usize>, String> {
    let mv = before.parse_move(text).map_err(|e| e.to_string())?;
    let mut after = before.clone();
    let events = after.apply(&mv).map_err(|e| e.to_string())?;
    Ok(moved_cells(&played_events(before, &events)))
}

/// A move's rules events in words and animations, named from the position before it.
fn played_events<G: Look>(before: &G, events: &[G::Event]) -> Vec<PlayedEvent> {
    events
        .iter()
        .map(|event| PlayedEvent {
            text: before.describe_event(event),
            anim: before.anim(event),
        })
        .collect()
}

/// The cells a move's events name as travelled from or to.
fn moved_cells(events: &[PlayedEvent]) -> Vec<usize> {
    let mut cells = Vec::new();
    for event in events {
        match &event.anim {
            Anim::Glide { from, to, .. } | Anim::Fly { from, to, .. } => cells.extend([*from, *to]),
            Anim::Split { from, parts } => {
                cells.push(*from);
                cells.extend(parts.iter().map(|p| p.0));
            }
            Anim::Merge { into, from } => {
                cells.push(*into);
                cells.extend(from);
            }
            Anim::Appear { cell } => cells.push(*cell),
            _ => {}
        }
    }
    cells.sort_unstable();
    cells.dedup();
    cells
}

impl<G: Look> Table for GameTable<G> {
    fn as_match(&self) -> &dyn AnyMatch {
        &self.game
    }

    fn layout(&self) -> &BoardLayout {
        &self.layout
    }

    fn colour_of_seat(&self, seat: usize) -> usize {
        self.game.game().colour_of_seat(seat)
    }

    fn score_lines(&self) -> Vec<String> {
        self.game.game().score_lines()
    }

    fn redo(&mut self) -> Result<Vec<PlayedEvent>, String> {
        let events = self.game.redo();
        self.played(events)
    }

    fn go_to(&mut self, ply: usize) -> Result<(), String> {
        let result = self.game.go_to(ply);
        self.recompute_last_move_cells();
        self.refresh_choices();
        result
    }

    fn discard_later_moves(&mut self) {
        self.game.discard_later_moves();
        self.refresh_choices();
    }

    fn change_match(
        &mut self,
        change: &mut dyn FnMut(&mut dyn AnyMatch) -> Result<(), String>,
    ) -> Result<(), String> {
        let result = change(&mut self.game);
        self.recompute_last_move_cells();
        self.refresh_choices();
        result
    }

    fn undo(&mut self, seats: &[tabula_session::Seat]) -> Result<(), String> {
        let result = self.game.undo(seats);
        self.recompute_last_move_cells();
        self.refresh_choices();
        result
    }

    fn pieces(&self) -> Vec<(usize, PieceLook)> {
        self.game.game().pieces()
    }

    fn marks(&self) -> Vec<(usize, Mark)> {
        self.game.game().marks()
    }

    fn last_move_cells(&self) -> &[usize] {
        &self.last_move_cells
    }

    fn cell_hint(&self, cell: usize) -> Option<String> {
        self.game.game().cell_hint(cell)
    }

    fn choices(&self) -> &[Choice] {
        &self.choices
    }

    fn chosen(&self) -> Vec<String> {
        let position = self.game.game();
        self.game
            .steps()
            .iter()
            .map(|step| position.choice(step).text)
            .collect()
    }

    fn draft_text(&self) -> Option<String> {
        self.game.game().draft_text(self.game.builder())
    }

    fn selected_cells(&self) -> Vec<usize> {
        self.game.steps().iter().flat_map(G::step_cells).collect()
    }

    fn part_count(&self, cell: usize) -> Option<u16> {
        self.game.game().part_count(self.game.builder(), cell)
    }

    fn choose(&mut self, index: usize) -> Result<(), String> {
        self.game.choose(index)?;
        self.refresh_choices();
        Ok(())
    }

    fn take_back_choice(&mut self) -> bool {
        let taken = self.game.take_back_step();
        self.refresh_choices();
        taken
    }

    fn clear_choices(&mut self) {
        self.game.clear_steps();
        self.refresh_choices();
    }

    fn complete_move(&self) -> Option<String> {
        let mv = self.game.complete_move()?;
        Some(self.game.game().format_move(&mv))
    }

    fn move_preview(&self) -> Option<Vec<Ghost>> {
        let Some(mv) = self.game.complete_move() else {
            let partial = self.game.game().partial_ghosts(self.game.steps());
            return (!partial.is_empty()).then_some(partial);
        };
        let mut after = self.game.game().clone();
        // The rules play it on a copy: nothing here works out what a move does.
        after.apply(&mv).ok()?;
        Some(ghosts_between(&self.pieces(), &after.pieces()))
    }

    fn commit(&mut self) -> Result<Vec<PlayedEvent>, String> {
        let events = self.game.commit();
        self.played(events)
    }

    fn play_notation(&mut self, text: &str) -> Result<Vec<PlayedEvent>, String> {
        let events = self.game.play_notation(text);
        self.played(events)
    }

    fn move_cells(&self, text: &str) -> Result<Vec<usize>, String> {
        cells_of_move(self.game.game(), text)
    }
}
