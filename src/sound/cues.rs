//! Which sound goes with what happens: one for each kind of rules event as its animation
//! starts, and "your turn" or "game over" once the board has settled after a move.

use super::{Sound, SoundCue};
use crate::current_game::CurrentGame;
use crate::phase::{BoardShows, TurnPhase, phase_now};
use crate::table::Anim;
use crate::turn::{PlayerInput, Travel};
use bevy::prelude::*;

/// The sound of one rules event, if it has one.
pub fn sound_for(anim: &Anim) -> Option<Sound> {
    match anim {
        Anim::Glide { .. } => Some(Sound::Move),
        Anim::Split { .. } => Some(Sound::Split),
        Anim::Merge { .. } => Some(Sound::Merge),
        Anim::LiftAway { .. } | Anim::Consume { .. } | Anim::ClearCells { .. } => {
            Some(Sound::Capture)
        }
        Anim::Absorb { .. } => Some(Sound::Absorb),
        // An Adomoc origination: a new piece flies out.
        Anim::Fly { .. } | Anim::Appear { .. } => Some(Sound::Create),
        Anim::Fade { .. } => Some(Sound::Starve),
        Anim::Note => None,
    }
}

/// The sound of each rules event of one move, in order: glides that leave one cell for
/// several are a split, glides from several cells into one a merge; the rest as
/// [`sound_for`] says.
pub fn sounds_for_move(anims: &[&Anim]) -> Vec<Option<Sound>> {
    let glides: Vec<(usize, usize)> = anims
        .iter()
        .filter_map(|anim| match anim {
            Anim::Glide { from, to, .. } => Some((*from, *to)),
            _ => None,
        })
        .collect();
    let shared = |pick: fn(&(usize, usize)) -> usize, cell: usize| {
        glides.iter().filter(|g| pick(g) == cell).count() > 1
    };
    anims
        .iter()
        .map(|anim| match anim {
            Anim::Glide { from, .. } if shared(|g| g.0, *from) => Some(Sound::Split),
            Anim::Glide { to, .. } if shared(|g| g.1, *to) => Some(Sound::Merge),
            _ => sound_for(anim),
        })
        .collect()
}

/// The sounds for the board settling in `now` after it last settled in `before`, with the
/// number of moves played each time (the caller leaves out undo, redo and jumps). The game
/// ending is heard also when no move ended it (a resignation, a clock). "Your turn" only
/// follows a move by a bot or a remote player, so people sharing a screen hear only the
/// moves.
pub fn turn_sounds(
    before: TurnPhase,
    moves_before: usize,
    now: TurnPhase,
    moves_now: usize,
) -> Option<Sound> {
    match (before, now) {
        (_, TurnPhase::Over) if before != TurnPhase::Over => Some(Sound::GameOver),
        (TurnPhase::BotToMove | TurnPhase::RemoteToMove, TurnPhase::PersonToMove)
            if moves_now > moves_before =>
        {
            Some(Sound::YourTurn)
        }
        _ => None,
    }
}

/// The board's last settled state: which game, its phase, and how many moves it had.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Settled {
    game: u64,
    phase: TurnPhase,
    moves: usize,
}

pub(super) fn turn_cues(
    game: Option<Res<CurrentGame>>,
    board: Res<BoardShows>,
    mut last: Local<Option<Settled>>,
    // The board last changed by travelling the line (undo, redo, a jump), not by a move
    // played: a redo against a bot goes on over several frames with no new message.
    mut travelled: Local<bool>,
    mut travels: MessageReader<Travel>,
    mut inputs: MessageReader<PlayerInput>,
    mut cues: MessageWriter<SoundCue>,
) {
    if inputs.read().count() > 0 {
        *travelled = false;
    }
    if travels.read().count() > 0 {
        *travelled = true;
    }
    let Some(game) = game else {
        *last = None;
        return;
    };
    let phase = phase_now(&game, &board);
    if phase == TurnPhase::Animating {
        return;
    }
    let now = Settled {
        game: game.id,
        phase,
        moves: game.table.as_match().record().len(),
    };
    if let Some(before) = *last
        && before.game == now.game
        && !game.is_analysing()
        && !*travelled
        && let Some(sound) = turn_sounds(before.phase, before.moves, now.phase, now.moves)
    {
        cues.write(SoundCue(sound));
    }
    *last = Some(now);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glide(from: usize, to: usize) -> Anim {
        Anim::Glide {
            from,
            to,
            count: Some(1),
            via: Vec::new(),
        }
    }

    #[test]
    fn a_split_and_a_merge_are_told_from_a_move() {
        let split = [glide(1, 2), glide(1, 3)];
        let merge = [glide(1, 3), glide(2, 3)];
        let capture = [glide(1, 2), Anim::LiftAway { cell: 2, colour: 1 }];
        let refs = |anims: &[Anim]| sounds_for_move(&anims.iter().collect::<Vec<_>>());
        assert_eq!(refs(&split), vec![Some(Sound::Split); 2]);
        assert_eq!(refs(&merge), vec![Some(Sound::Merge); 2]);
        assert_eq!(
            refs(&capture),
            vec![Some(Sound::Move), Some(Sound::Capture)]
        );
        assert_eq!(refs(&[Anim::Note]), vec![None]);
    }

    #[test]
    fn your_turn_follows_only_a_move_from_elsewhere() {
        use TurnPhase::*;
        assert_eq!(
            turn_sounds(BotToMove, 3, PersonToMove, 4),
            Some(Sound::YourTurn)
        );
        assert_eq!(
            turn_sounds(RemoteToMove, 3, PersonToMove, 4),
            Some(Sound::YourTurn)
        );
        // Undo while the bot thinks, or a person's own move in a shared game.
        assert_eq!(turn_sounds(BotToMove, 3, PersonToMove, 2), None);
        assert_eq!(turn_sounds(BotToMove, 3, PersonToMove, 3), None);
        assert_eq!(turn_sounds(PersonToMove, 3, PersonToMove, 4), None);
        assert_eq!(turn_sounds(PersonToMove, 3, BotToMove, 4), None);
        assert_eq!(turn_sounds(PersonToMove, 3, Over, 4), Some(Sound::GameOver));
        assert_eq!(turn_sounds(Over, 4, Over, 4), None);
        // A resignation or a clock ends the game with no move.
        assert_eq!(turn_sounds(RemoteToMove, 4, Over, 4), Some(Sound::GameOver));
    }
}
