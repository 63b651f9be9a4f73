//! What the lessons read from each game's rules: what a move did and what holds after it.

use tabula_rules::absorption::{Absorption, AbsorptionEvent, AbsorptionMove};
use tabula_rules::adamas::{Adamas, AdamasEvent, AdamasMove};
use tabula_rules::adaptoid::{Adaptoid, AdaptoidEvent, FightResult, Growth, RemovalCause};
use tabula_rules::adomoc::{Adomoc, AdomocEvent};
use tabula_rules::{Game, Player};

/// Something a move can do, as a task names it (`Does("capture", 2)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Happening {
    pub name: &'static str,
    /// One of them, in words ("capture").
    pub noun: &'static str,
    /// Several ("captures").
    pub plural: &'static str,
}

/// Something that can hold in a position for the player who just moved (`Holds("...")`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fact {
    pub name: &'static str,
    /// The fact in words, as holding ("one of your stacks is threatened").
    pub holds: &'static str,
    /// The same, as not holding.
    pub lacks: &'static str,
}

/// A game as the lessons read it. Everything here comes from the rules: a move's events,
/// the move itself, and the position after it.
pub trait Teach: Game {
    /// Every happening this game's tasks may name.
    const HAPPENINGS: &'static [Happening];
    /// Every fact this game's tasks may name.
    const FACTS: &'static [Fact];

    /// The names of what `mv`, played by `mover`, did: one entry for each time.
    fn happenings(mover: Player, mv: &Self::Move, events: &[Self::Event]) -> Vec<&'static str>;

    /// Whether the fact named `name` holds for `mover` in this position.
    fn holds(&self, mover: Player, name: &str) -> bool;

    /// The cell a notation label names (as the rules index cells), for highlights.
    fn cell(&self, label: &str) -> Option<usize>;
}

const fn happening(name: &'static str, noun: &'static str, plural: &'static str) -> Happening {
    Happening { name, noun, plural }
}

impl Teach for Adamas {
    const HAPPENINGS: &'static [Happening] = &[
        happening("split", "split", "splits"),
        happening("merge", "merge", "merges"),
        happening("part", "group of pieces moving", "groups of pieces moving"),
        happening("capture", "capture", "captures"),
        happening(
            "elimination",
            "player removed from the game",
            "players removed from the game",
        ),
    ];
    const FACTS: &'static [Fact] = &[
        Fact {
            name: "threatened",
            holds: "one of your stacks is threatened",
            lacks: "none of your stacks is threatened",
        },
        Fact {
            name: "threatening",
            holds: "you threaten an enemy stack",
            lacks: "you threaten no enemy stack",
        },
    ];

    fn happenings(mover: Player, mv: &AdamasMove, events: &[AdamasEvent]) -> Vec<&'static str> {
        let mut names = vec![match mv {
            AdamasMove::Split { .. } => "split",
            AdamasMove::Merge { .. } => "merge",
        }];
        for event in events {
            match event {
                AdamasEvent::Moved { .. } => names.push("part"),
                AdamasEvent::Captured { owner, .. } if *owner != mover => names.push("capture"),
                AdamasEvent::Eliminated { player, .. } if *player != mover => {
                    names.push("elimination")
                }
                _ => {}
            }
        }
        names
    }

    fn holds(&self, mover: Player, name: &str) -> bool {
        let mut stacks = (0..self.grid().len()).filter_map(|cell| {
            self.stack(cell)
                .map(|(owner, _)| (owner, self.is_threatened(cell)))
        });
        match name {
            "threatened" => stacks.any(|(owner, threatened)| owner == mover && threatened),
            "threatening" => stacks.any(|(owner, threatened)| owner != mover && threatened),
            _ => false,
        }
    }

    fn cell(&self, label: &str) -> Option<usize> {
        self.grid().parse_label(label)
    }
}

impl Teach for Absorption {
    const HAPPENINGS: &'static [Happening] = &[
        happening("split", "split", "splits"),
        happening("merge", "merge", "merges"),
        happening(
            "small move",
            "move of a Small just split off",
            "moves of Smalls just split off",
        ),
        happening("move", "move of a stack", "moves of stacks"),
        happening("absorption", "absorption", "absorptions"),
    ];
    const FACTS: &'static [Fact] = &[];

    fn happenings(
        mover: Player,
        mv: &AbsorptionMove,
        events: &[AbsorptionEvent],
    ) -> Vec<&'static str> {
        let mut names = Vec::new();
        match mv {
            AbsorptionMove::Split { .. } => names.push("split"),
            AbsorptionMove::Merge { .. } => names.push("merge"),
            AbsorptionMove::FollowUp { .. } => names.push("small move"),
            AbsorptionMove::Move { .. } => names.push("move"),
            AbsorptionMove::Pass | AbsorptionMove::Absorb { .. } => {}
        }
        for event in events {
            if let AbsorptionEvent::Absorbed { absorber, .. } = event
                && *absorber == mover
            {
                names.push("absorption");
            }
        }
        names
    }

    fn holds(&self, _mover: Player, _name: &str) -> bool {
        false
    }

    fn cell(&self, label: &str) -> Option<usize> {
        tabula_rules::absorption::squares::parse_label(label).map(usize::from)
    }
}

impl Teach for Adaptoid {
    const HAPPENINGS: &'static [Happening] = &[
        happening("move", "move", "moves"),
        happening("attack", "attack", "attacks"),
        happening("fight won", "fight won", "fights won"),
        happening(
            "fight lost",
            "adaptoid of yours lost in a fight",
            "adaptoids of yours lost in fights",
        ),
        happening(
            "starvation",
            "enemy adaptoid starved",
            "enemy adaptoids starved",
        ),
        happening("creation", "new adaptoid", "new adaptoids"),
        happening("leg", "leg added", "legs added"),
        happening("pincer", "pincer added", "pincers added"),
    ];
    const FACTS: &'static [Fact] = &[];

    fn happenings(
        mover: Player,
        _mv: &tabula_rules::adaptoid::AdaptoidMove,
        events: &[AdaptoidEvent],
    ) -> Vec<&'static str> {
        let mut names = Vec::new();
        for event in events {
            match event {
                AdaptoidEvent::Moved { .. } => names.push("move"),
                AdaptoidEvent::Attacked { result, .. } => {
                    names.push("attack");
                    if matches!(result, FightResult::AttackerWins) {
                        names.push("fight won");
                    }
                }
                AdaptoidEvent::Removed { owner, cause, .. } => match cause {
                    RemovalCause::Fight if *owner == mover => names.push("fight lost"),
                    RemovalCause::Starved if *owner != mover => names.push("starvation"),
                    _ => {}
                },
                AdaptoidEvent::Grew { growth, .. } => names.push(match growth {
                    Growth::Create(_) => "creation",
                    Growth::Leg(_) => "leg",
                    Growth::Pincer(_) => "pincer",
                }),
                _ => {}
            }
        }
        names
    }

    fn holds(&self, _mover: Player, _name: &str) -> bool {
        false
    }

    fn cell(&self, label: &str) -> Option<usize> {
        self.board().parse_label(label).map(usize::from)
    }
}

impl Teach for Adomoc {
    const HAPPENINGS: &'static [Happening] = &[
        happening("move", "move", "moves"),
        happening("consumption", "piece consumed", "pieces consumed"),
        happening("origination", "origination", "originations"),
    ];
    const FACTS: &'static [Fact] = &[
        Fact {
            name: "state of primes",
            holds: "you are in a state of primes",
            lacks: "you are not in a state of primes",
        },
        Fact {
            name: "attracting",
            holds: "a sun of yours attracts an enemy foot",
            lacks: "no sun of yours attracts an enemy foot",
        },
        Fact {
            name: "attracted",
            holds: "a foot of yours is attracted",
            lacks: "no foot of yours is attracted",
        },
    ];

    fn happenings(
        _mover: Player,
        _mv: &tabula_rules::adomoc::AdomocMove,
        events: &[AdomocEvent],
    ) -> Vec<&'static str> {
        let mut names = Vec::new();
        for event in events {
            match event {
                AdomocEvent::Moved { .. } => names.push("move"),
                AdomocEvent::Consumed { .. } => names.push("consumption"),
                AdomocEvent::Originated { .. } => names.push("origination"),
                _ => {}
            }
        }
        names
    }

    fn holds(&self, mover: Player, name: &str) -> bool {
        let attracted_owned_by = |mine: bool| {
            tabula_rules::adomoc::spaces(self.attracted()).any(|space| {
                self.piece_at(space)
                    .is_some_and(|piece| (piece.owner == mover) == mine)
            })
        };
        match name {
            "state of primes" => self.state_of_primes(mover),
            "attracting" => attracted_owned_by(false),
            "attracted" => attracted_owned_by(true),
            _ => false,
        }
    }

    fn cell(&self, label: &str) -> Option<usize> {
        tabula_rules::adomoc::geometry::parse_label(label).map(usize::from)
    }
}
