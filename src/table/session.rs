//! [`Session`]: any rules game with its move builder and record, behind [`Table`].

use super::{
    Anim, BoardLayout, Choice, GameKind, Look, Mark, PieceLook, PlayedEvent, StepOf, Table,
};
use serde::Serialize;
use tabula_rules::{MoveBuilder, Player, Status};

pub struct Session<G: Look> {
    game: G,
    layout: BoardLayout,
    builder: G::Builder,
    steps: Vec<StepOf<G>>,
    next_steps: Vec<StepOf<G>>,
    choices: Vec<Choice>,
    /// Every move of the line, including those taken back and not yet replayed.
    line: Vec<String>,
    /// The position before each move played: `before[i]` is the position after `i` moves.
    before: Vec<G>,
    /// Whether the game started from a position string rather than the options' start.
    set_up: bool,
    revision: u64,
    last_move_cells: Vec<usize>,
}

impl<G: Look> Session<G> {
    /// A new game with `key=value` settings over the default options.
    pub fn start(settings: &[(String, String)]) -> Result<Self, String> {
        let mut options = G::Options::default();
        for (key, value) in settings {
            G::set_option(&mut options, key, value).map_err(|e| e.to_string())?;
        }
        Ok(Self::from_game(G::new(options).map_err(|e| e.to_string())?))
    }

    /// A game set up from a position string, with `key=value` settings over the defaults.
    pub fn set_up(settings: &[(String, String)], position: &str) -> Result<Self, String> {
        let mut options = G::Options::default();
        for (key, value) in settings {
            G::set_option(&mut options, key, value).map_err(|e| e.to_string())?;
        }
        let game = G::from_position(options, position).map_err(|e| e.to_string())?;
        let mut session = Self::from_game(game);
        session.set_up = true;
        Ok(session)
    }

    pub fn from_game(game: G) -> Self {
        let layout = game.layout();
        let mut session = Session {
            builder: game.builder(),
            game,
            layout,
            steps: Vec::new(),
            next_steps: Vec::new(),
            choices: Vec::new(),
            line: Vec::new(),
            before: Vec::new(),
            set_up: false,
            revision: 0,
            last_move_cells: Vec::new(),
        };
        session.refresh_choices();
        session
    }

    pub fn game(&self) -> &G {
        &self.game
    }

    fn refresh_choices(&mut self) {
        self.next_steps = if self.game.status().is_over() {
            Vec::new()
        } else {
            self.builder.legal_steps(&self.game)
        };
        self.choices = self
            .next_steps
            .iter()
            .map(|s| self.game.choice(s))
            .collect();
    }

    fn restart_builder(&mut self) {
        self.builder = self.game.builder();
        self.steps.clear();
        self.refresh_choices();
    }

    fn play(&mut self, mv: G::Move) -> Result<Vec<PlayedEvent>, String> {
        let text = self.game.format_move(&mv);
        let before = self.game.clone();
        let events = self.game.apply(&mv).map_err(|e| e.to_string())?;
        let ply = self.before.len();
        // Replaying the next move of the line keeps the moves after it; any other move
        // starts a new line from here.
        if self.line.get(ply) != Some(&text) {
            self.line.truncate(ply);
            self.line.push(text);
        }
        let played = played_events(&before, &events);
        self.before.push(before);
        self.last_move_cells = moved_cells(&played);
        self.changed();
        Ok(played)
    }

    fn changed(&mut self) {
        self.revision += 1;
        self.restart_builder();
    }

    /// The cells of the last move played, worked out again after a jump.
    fn recompute_last_move_cells(&mut self) {
        let ply = self.before.len();
        self.last_move_cells = match (ply.checked_sub(1), self.before.last()) {
            (Some(last), Some(before)) => {
                cells_of_move(before, &self.line[last]).unwrap_or_default()
            }
            _ => Vec::new(),
        };
    }

    /// Takes back the last move played, keeping it in the line to replay.
    fn step_back(&mut self) -> bool {
        match self.before.pop() {
            Some(before) => {
                self.game = before;
                true
            }
            None => false,
        }
    }

    /// The next move of the line, read in this position.
    fn next_move(&self) -> Result<G::Move, String> {
        let text = self
            .line
            .get(self.before.len())
            .ok_or("there is no move to replay")?;
        self.game.parse_move(text).map_err(|e| e.to_string())
    }

    /// Plays the next move of the line with its events.
    fn step_forward(&mut self) -> Result<Vec<PlayedEvent>, String> {
        let mv = self.next_move()?;
        self.play(mv)
    }

    /// Plays the next move of the line for a jump: checked, but with no events and no
    /// move builder, which the jump's end sets up once.
    fn step_forward_quietly(&mut self) -> Result<(), String> {
        let mv = self.next_move()?;
        let before = self.game.clone();
        self.game.apply(&mv).map_err(|e| e.to_string())?;
        self.before.push(before);
        Ok(())
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

impl<G: Look> Table for Session<G>
where
    G::Builder: Send + Sync,
    StepOf<G>: Send + Sync,
{
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn layout(&self) -> &BoardLayout {
        &self.layout
    }

    fn num_players(&self) -> usize {
        self.game.num_players()
    }

    fn player_name(&self, seat: usize) -> String {
        self.game.player_name(Player(seat as u8))
    }

    fn colour_of_seat(&self, seat: usize) -> usize {
        self.game.colour_of_seat(seat)
    }

    fn to_move(&self) -> usize {
        self.game.to_move().index()
    }

    fn status(&self) -> Status {
        self.game.status()
    }

    fn status_text(&self) -> String {
        self.game.describe_status(self.game.status())
    }

    fn score_lines(&self) -> Vec<String> {
        self.game.score_lines()
    }

    fn record(&self) -> &[String] {
        &self.line[..self.before.len()]
    }

    fn line(&self) -> &[String] {
        &self.line
    }

    fn revision(&self) -> u64 {
        self.revision
    }

    fn to_move_after(&self, ply: usize) -> Option<usize> {
        match ply.cmp(&self.before.len()) {
            std::cmp::Ordering::Less => Some(self.before[ply].to_move().index()),
            std::cmp::Ordering::Equal => Some(self.game.to_move().index()),
            std::cmp::Ordering::Greater => None,
        }
    }

    fn redo(&mut self) -> Result<Vec<PlayedEvent>, String> {
        self.step_forward()
    }

    fn go_to(&mut self, ply: usize) -> Result<(), String> {
        if ply == self.before.len() {
            return Ok(());
        }
        if ply > self.line.len() {
            return Err(format!(
                "there is no move {ply}: the game has {} moves",
                self.line.len()
            ));
        }
        while self.before.len() > ply {
            self.step_back();
        }
        let mut replayed = Ok(());
        while self.before.len() < ply && replayed.is_ok() {
            replayed = self.step_forward_quietly();
        }
        // Even a replay stopped by a bad move leaves a consistent position behind.
        self.recompute_last_move_cells();
        self.changed();
        replayed
    }

    fn discard_later_moves(&mut self) {
        if self.line.len() > self.before.len() {
            self.line.truncate(self.before.len());
            self.changed();
        }
    }

    fn settings(&self) -> Vec<(String, String)> {
        let defaults = settings_of(&G::Options::default());
        settings_of(self.game.options())
            .into_iter()
            .filter(|pair| !defaults.contains(pair))
            .collect()
    }

    fn start_position(&self) -> Option<String> {
        self.set_up.then(|| match self.before.first() {
            Some(start) => start.position_string(),
            None => self.game.position_string(),
        })
    }

    fn split_moves(&self, text: &str) -> Vec<String> {
        G::split_moves(text)
    }

    fn position_string(&self) -> String {
        self.game.position_string()
    }

    fn pieces(&self) -> Vec<(usize, PieceLook)> {
        self.game.pieces()
    }

    fn marks(&self) -> Vec<(usize, Mark)> {
        self.game.marks()
    }

    fn last_move_cells(&self) -> &[usize] {
        &self.last_move_cells
    }

    fn cell_hint(&self, cell: usize) -> Option<String> {
        self.game.cell_hint(cell)
    }

    fn choices(&self) -> &[Choice] {
        &self.choices
    }

    fn chosen(&self) -> Vec<String> {
        self.steps
            .iter()
            .map(|s| self.game.choice(s).text)
            .collect()
    }

    fn draft_text(&self) -> Option<String> {
        self.game.draft_text(&self.builder)
    }

    fn selected_cells(&self) -> Vec<usize> {
        self.steps.iter().flat_map(G::step_cells).collect()
    }

    fn choose(&mut self, index: usize) -> Result<(), String> {
        let step = self
            .next_steps
            .get(index)
            .cloned()
            .ok_or_else(|| format!("there is no choice {index}"))?;
        self.builder
            .push(&self.game, step.clone())
            .map_err(|e| e.to_string())?;
        self.steps.push(step);
        self.refresh_choices();
        Ok(())
    }

    fn take_back_choice(&mut self) -> bool {
        let taken = self.builder.pop();
        if taken {
            self.steps.pop();
            self.refresh_choices();
        }
        taken
    }

    fn clear_choices(&mut self) {
        self.restart_builder();
    }

    fn complete_move(&self) -> Option<String> {
        self.builder
            .complete_move(&self.game)
            .map(|mv| self.game.format_move(&mv))
    }

    fn commit(&mut self) -> Result<Vec<PlayedEvent>, String> {
        let mv = self
            .builder
            .complete_move(&self.game)
            .ok_or("the move is not complete yet")?;
        self.play(mv)
    }

    fn thinker_from(
        &self,
        spec: &tabula_bot::BotSpec,
        seed: u64,
        kept: Option<Box<dyn super::Thinker>>,
    ) -> Box<dyn super::Thinker> {
        super::thinker::thinker_for(&self.game, spec, seed, kept)
    }

    fn move_cells(&self, text: &str) -> Result<Vec<usize>, String> {
        cells_of_move(&self.game, text)
    }

    fn play_notation(&mut self, text: &str) -> Result<Vec<PlayedEvent>, String> {
        let mv = self.game.parse_move(text).map_err(|e| e.to_string())?;
        self.play(mv)
    }
}

/// The fields of an options value as `(key, value)` text, in declaration order. Values are
/// written as `set_option` reads them; an unset optional value is empty.
pub fn settings_of<O: Serialize>(options: &O) -> Vec<(String, String)> {
    let pretty = ron::ser::PrettyConfig::new().struct_names(false);
    let text = ron::ser::to_string_pretty(options, pretty).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let line = line.trim().trim_end_matches(',');
            let (key, value) = line.split_once(": ")?;
            let value = match value {
                "None" => String::new(),
                v if v.starts_with("Some(") && v.ends_with(')') => {
                    ron_text(&v["Some(".len()..v.len() - 1])
                }
                v => ron_text(v),
            };
            Some((key.to_string(), value))
        })
        .collect()
}

/// A value as `set_option` reads it: strings unescaped (a Super-Adaptoid board has line
/// breaks and quotes), anything else as written.
fn ron_text(value: &str) -> String {
    if value.starts_with('"') {
        ron::from_str::<String>(value).unwrap_or_else(|_| value.trim_matches('"').to_string())
    } else {
        value.to_string()
    }
}
