//! What stands on the board, and the board-level rules every part of a turn uses: moving,
//! fighting, growing and starving. A `Pieces` is `Copy` so generation can try a move on a
//! copy and read the growth options that follow from it.

use super::board::{Board, MAX_CELLS, cells};
use super::moves::{Colour, Growth};
use crate::hash::feature_key;

/// Bodies, legs and pincers per player (adaptoid.md §2).
pub const SUPPLY: u8 = 12;
/// The most legs and pincers one adaptoid can carry.
pub const MAX_PARTS: u8 = 6;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pieces {
    /// The cells of each colour's adaptoids.
    pub occupied: [u64; 2],
    pub legs: [u8; MAX_CELLS],
    pub pincers: [u8; MAX_CELLS],
    /// Legs and pincers on the board, per colour.
    pub legs_used: [u8; 2],
    pub pincers_used: [u8; 2],
    /// The board part of the position hash, kept as cells change.
    pub hash: u64,
}

/// How a fight ended (adaptoid.md §3, step 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum FightResult {
    /// More pincers: the defender is removed and the attacker stands on its cell.
    AttackerWins,
    /// Fewer pincers: the attacker is removed.
    DefenderWins,
    /// Equal pincers: both are removed.
    BothRemoved,
}

pub fn fight_result(attacker_pincers: u8, defender_pincers: u8) -> FightResult {
    match attacker_pincers.cmp(&defender_pincers) {
        std::cmp::Ordering::Greater => FightResult::AttackerWins,
        std::cmp::Ordering::Less => FightResult::DefenderWins,
        std::cmp::Ordering::Equal => FightResult::BothRemoved,
    }
}

fn cell_key(cell: u8, colour: usize, legs: u8, pincers: u8) -> u64 {
    feature_key(
        10,
        cell as u64,
        (colour * 64 + legs as usize * 8 + pincers as usize) as u64,
    )
}

impl Pieces {
    pub fn empty() -> Pieces {
        Pieces {
            occupied: [0; 2],
            legs: [0; MAX_CELLS],
            pincers: [0; MAX_CELLS],
            legs_used: [0; 2],
            pincers_used: [0; 2],
            hash: 0,
        }
    }

    #[inline]
    pub fn empty_cells(&self, board: &Board) -> u64 {
        board.all() & !(self.occupied[0] | self.occupied[1])
    }

    pub fn colour_at(&self, cell: u8) -> Option<Colour> {
        let bit = 1u64 << cell;
        if self.occupied[0] & bit != 0 {
            Some(Colour::White)
        } else if self.occupied[1] & bit != 0 {
            Some(Colour::Black)
        } else {
            None
        }
    }

    #[inline]
    pub fn parts(&self, cell: u8) -> u8 {
        self.legs[cell as usize] + self.pincers[cell as usize]
    }

    pub fn bodies(&self, colour: Colour) -> u8 {
        self.occupied[colour.index()].count_ones() as u8
    }

    /// What `colour` has left to grow with: bodies, legs, pincers.
    pub fn supply(&self, colour: Colour) -> [u8; 3] {
        let c = colour.index();
        [
            SUPPLY.saturating_sub(self.bodies(colour)),
            SUPPLY.saturating_sub(self.legs_used[c]),
            SUPPLY.saturating_sub(self.pincers_used[c]),
        ]
    }

    /// Puts an adaptoid on an empty cell.
    pub fn put(&mut self, cell: u8, colour: Colour, legs: u8, pincers: u8) {
        let c = colour.index();
        self.occupied[c] |= 1 << cell;
        self.legs[cell as usize] = legs;
        self.pincers[cell as usize] = pincers;
        self.legs_used[c] += legs;
        self.pincers_used[c] += pincers;
        self.hash ^= cell_key(cell, c, legs, pincers);
    }

    /// Takes the adaptoid off `cell`; its body and parts return to its owner's supply.
    pub fn remove(&mut self, cell: u8) -> (Colour, u8, u8) {
        let colour = self.colour_at(cell).expect("an adaptoid to remove");
        let c = colour.index();
        let (legs, pincers) = (self.legs[cell as usize], self.pincers[cell as usize]);
        self.occupied[c] &= !(1 << cell);
        self.legs[cell as usize] = 0;
        self.pincers[cell as usize] = 0;
        self.legs_used[c] -= legs;
        self.pincers_used[c] -= pincers;
        self.hash ^= cell_key(cell, c, legs, pincers);
        (colour, legs, pincers)
    }

    /// Step 1: the adaptoid on `from` goes to `to`, fighting if an enemy stands there.
    /// Returns the fight's result, if there was one. The move must be legal (`to` is
    /// empty or an enemy's).
    pub fn step(&mut self, from: u8, to: u8) -> Option<FightResult> {
        let (colour, legs, pincers) = self.remove(from);
        if self.colour_at(to).is_none() {
            self.put(to, colour, legs, pincers);
            return None;
        }
        let result = fight_result(pincers, self.pincers[to as usize]);
        match result {
            FightResult::AttackerWins => {
                self.remove(to);
                self.put(to, colour, legs, pincers);
            }
            FightResult::DefenderWins => {}
            FightResult::BothRemoved => {
                self.remove(to);
            }
        }
        Some(result)
    }

    /// Step 2 for `colour`: calls `visit` with each legal growth, creations first.
    pub fn for_each_growth(&self, board: &Board, colour: Colour, visit: &mut impl FnMut(Growth)) {
        let [bodies, legs, pincers] = self.supply(colour);
        let own = self.occupied[colour.index()];
        if bodies > 0 {
            for cell in cells(board.around(own) & self.empty_cells(board)) {
                visit(Growth::Create(cell));
            }
        }
        let growable = self.growable(colour);
        if legs > 0 {
            cells(growable).for_each(|c| visit(Growth::Leg(c)));
        }
        if pincers > 0 {
            cells(growable).for_each(|c| visit(Growth::Pincer(c)));
        }
    }

    /// The `index`th growth `for_each_growth` would visit, found without visiting.
    pub fn growth_at(&self, board: &Board, colour: Colour, mut index: usize) -> Option<Growth> {
        let [bodies, legs, pincers] = self.supply(colour);
        let nth = |set: u64, n: usize| cells(set).nth(n);
        if bodies > 0 {
            let open = board.around(self.occupied[colour.index()]) & self.empty_cells(board);
            let n = open.count_ones() as usize;
            if index < n {
                return nth(open, index).map(Growth::Create);
            }
            index -= n;
        }
        let growable = self.growable(colour);
        let n = growable.count_ones() as usize;
        if legs > 0 {
            if index < n {
                return nth(growable, index).map(Growth::Leg);
            }
            index -= n;
        }
        if pincers > 0 && index < n {
            return nth(growable, index).map(Growth::Pincer);
        }
        None
    }

    /// The number of growths `for_each_growth` visits.
    pub fn growth_count(&self, board: &Board, colour: Colour) -> usize {
        let [bodies, legs, pincers] = self.supply(colour);
        let own = self.occupied[colour.index()];
        let mut count = 0;
        if bodies > 0 {
            count += (board.around(own) & self.empty_cells(board)).count_ones() as usize;
        }
        if legs > 0 || pincers > 0 {
            let growable = self.growable(colour).count_ones() as usize;
            count += growable * ((legs > 0) as usize + (pincers > 0) as usize);
        }
        count
    }

    /// `colour`'s adaptoids with room for another part.
    pub fn growable(&self, colour: Colour) -> u64 {
        cells(self.occupied[colour.index()])
            .filter(|&c| self.parts(c) < MAX_PARTS)
            .fold(0, |set, c| set | 1 << c)
    }

    pub fn grow(&mut self, colour: Colour, growth: Growth) {
        match growth {
            Growth::Create(cell) => self.put(cell, colour, 0, 0),
            Growth::Leg(cell) => {
                let (_, legs, pincers) = self.remove(cell);
                self.put(cell, colour, legs + 1, pincers);
            }
            Growth::Pincer(cell) => {
                let (_, legs, pincers) = self.remove(cell);
                self.put(cell, colour, legs, pincers + 1);
            }
        }
    }

    /// Step 3: `colour`'s adaptoids with more parts than empty neighbours (liberties).
    pub fn starving(&self, board: &Board, colour: Colour) -> u64 {
        let empty = self.empty_cells(board);
        cells(self.occupied[colour.index()])
            .filter(|&c| self.parts(c) as u32 > (board.neighbours(c) & empty).count_ones())
            .fold(0, |set, c| set | 1 << c)
    }

    /// A shortest walk from `from` to `to` through empty cells, `to` last (which may be
    /// the enemy an attack ends on); `None` when there is none.
    pub fn walk(&self, board: &Board, from: u8, to: u8) -> Option<Vec<u8>> {
        if usize::from(from.max(to)) >= board.len() || from == to {
            return None;
        }
        let empty = self.empty_cells(board);
        let mut came_from = [u8::MAX; MAX_CELLS];
        let mut frontier = 1u64 << from;
        let mut reached = frontier;
        while frontier != 0 && reached & 1 << to == 0 {
            let mut next = 0u64;
            for cell in cells(frontier) {
                // Only empty cells are walked through; `to` may be the attacked enemy.
                let open = (empty | 1 << to) & board.neighbours(cell) & !reached & !next;
                for step in cells(open) {
                    came_from[step as usize] = cell;
                }
                next |= open;
            }
            reached |= next;
            frontier = next & empty;
        }
        if reached & 1 << to == 0 {
            return None;
        }
        let mut path = vec![to];
        while let Some(&last) = path.last()
            && came_from[last as usize] != from
        {
            path.push(came_from[last as usize]);
        }
        path.reverse();
        Some(path)
    }

    /// The adaptoid on `cell` can move (or attack) to these cells: empty cells within
    /// `legs` steps through empty cells, and, with a pincer, enemies one step beyond a cell
    /// reached in fewer than `legs` steps (adaptoid.md §3, D2, D3).
    pub fn destinations(&self, board: &Board, cell: u8, forbid_losing_attacks: bool) -> u64 {
        let legs = self.legs[cell as usize];
        if legs == 0 {
            return 0;
        }
        let Some(colour) = self.colour_at(cell) else {
            return 0;
        };
        let empty = self.empty_cells(board);
        let enemies = self.occupied[colour.other().index()];
        let pincers = self.pincers[cell as usize];
        if legs == 1 {
            // The common one-legged case needs no search.
            let near = board.neighbours(cell);
            let attackable = if pincers > 0 { near & enemies } else { 0 };
            return (near & empty) | self.winnable(attackable, pincers, forbid_losing_attacks);
        }
        let start = 1u64 << cell;
        let mut reached = start;
        let mut frontier = start;
        // Cells reached in at most legs - 1 steps: an attack's last step starts there. An
        // early stop leaves it right, as nothing more is reached after it.
        let mut before_last = start;
        for _ in 0..legs {
            before_last = reached;
            frontier = board.around(frontier) & empty & !reached;
            if frontier == 0 {
                break;
            }
            reached |= frontier;
        }
        let mut targets = reached & !start;
        if pincers > 0 {
            let attackable = board.around(before_last) & enemies;
            targets |= self.winnable(attackable, pincers, forbid_losing_attacks);
        }
        targets
    }

    /// The enemies in `attackable` that an attacker with `pincers` may attack: all of
    /// them, or under `forbid_losing_attacks` those with no more pincers.
    fn winnable(&self, attackable: u64, pincers: u8, forbid_losing_attacks: bool) -> u64 {
        if !forbid_losing_attacks {
            return attackable;
        }
        cells(attackable)
            .filter(|&e| self.pincers[e as usize] <= pincers)
            .fold(0, |set, e| set | 1 << e)
    }
}
