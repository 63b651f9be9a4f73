//! The legal actions of the current phase, produced through a visitor so counting and
//! random choice need no allocation.

use super::moves::{AbsorptionMove, Allotment, SquareList};
use super::squares::{
    ADJACENT, DIRECTIONS, ONE_STEP, ORTHOGONAL, TWO_STEPS, bit, dilate, squares, step,
};
use super::{Absorption, Phase};
use crate::Status;
use rand::Rng;

/// Calls `visit` with each legal action until it returns false; returns false if stopped.
pub fn for_each_move(game: &Absorption, visit: &mut impl FnMut(AbsorptionMove) -> bool) -> bool {
    if game.status != Status::Ongoing {
        return true;
    }
    match game.phase {
        Phase::SplitOrMerge => splits(game, visit) && merges(game, visit),
        Phase::Move {
            involved,
            follow,
            origin,
        } => moves(game, involved, follow, origin, visit) && visit(AbsorptionMove::Pass),
        Phase::Absorb { absorber } => absorptions(game, absorber.0, visit),
    }
}

pub fn count_moves(game: &Absorption) -> usize {
    if game.status != Status::Ongoing {
        return 0;
    }
    match game.phase {
        Phase::SplitOrMerge if !game.options.merge_connected => {
            let (smalls, mediums) = small_and_medium(game, game.mover);
            squares(game.occupied[game.mover as usize])
                .map(|s| split_count(game, s) + star_merge_count_at(smalls, mediums, s))
                .sum()
        }
        Phase::Move {
            involved,
            follow,
            origin,
        } => {
            let follow_ups: usize = squares(follow)
                .map(|from| small_targets(game, from, origin).count_ones() as usize)
                .sum();
            let free: u32 = free_move_sets(game, involved)
                .iter()
                .map(|s| s.count_ones())
                .sum();
            1 + follow_ups + free as usize
        }
        _ => {
            let mut n = 0;
            for_each_move(game, &mut |_| {
                n += 1;
                true
            });
            n
        }
    }
}

/// The `index`-th action that `generate` passes to its visitor.
fn nth_of(
    index: usize,
    generate: impl FnOnce(&mut dyn FnMut(AbsorptionMove) -> bool),
) -> Option<AbsorptionMove> {
    let mut seen = 0;
    let mut found = None;
    generate(&mut |mv| {
        if seen == index {
            found = Some(mv);
            return false;
        }
        seen += 1;
        true
    });
    found
}

/// A uniformly random legal action. Counts come from formulas where they can, so only the
/// chosen stack's actions are generated.
pub fn random_move<R: Rng + ?Sized>(game: &Absorption, rng: &mut R) -> Option<AbsorptionMove> {
    if game.status != Status::Ongoing {
        return None;
    }
    let count = || count_moves(game);
    match game.phase {
        Phase::SplitOrMerge if !game.options.merge_connected => {
            let mut index = rng.random_range(0..count());
            let (smalls, mediums) = small_and_medium(game, game.mover);
            for s in squares(game.occupied[game.mover as usize]) {
                let splits = split_count(game, s);
                if index < splits {
                    return nth_of(index, |v| {
                        splits_of(game, s, &mut |m| v(m));
                    });
                }
                index -= splits;
                let merges = star_merge_count_at(smalls, mediums, s);
                if index < merges {
                    return nth_of(index, |v| {
                        star_merges_at(smalls, mediums, s, &mut |m| v(m));
                    });
                }
                index -= merges;
            }
            unreachable!("the index is below the count")
        }
        Phase::Move {
            involved,
            follow,
            origin,
        } => {
            // Follow-up targets are computed twice (count, then pick): follow-ups are rare
            // and a fixed-size buffer would trust the phase to hold at most three.
            let follow_ups =
                || squares(follow).map(|from| (from, small_targets(game, from, origin)));
            let free = free_move_sets(game, involved);
            let follow_count: usize = follow_ups().map(|f| f.1.count_ones() as usize).sum();
            let free_count: usize = free.iter().map(|s| s.count_ones() as usize).sum();
            let mut index = rng.random_range(0..follow_count + free_count + 1);
            for (from, targets) in follow_ups() {
                let n = targets.count_ones() as usize;
                if index < n {
                    let to = squares(targets).nth(index)?;
                    return Some(AbsorptionMove::FollowUp { from, to });
                }
                index -= n;
            }
            if index < free_count {
                return free_move_at(&free, index);
            }
            Some(AbsorptionMove::Pass)
        }
        _ => {
            let count = count();
            if count == 0 {
                return None;
            }
            nth_of(rng.random_range(0..count), |v| {
                for_each_move(game, &mut |m| v(m));
            })
        }
    }
}

fn splits(game: &Absorption, visit: &mut impl FnMut(AbsorptionMove) -> bool) -> bool {
    squares(game.occupied[game.mover as usize]).all(|from| splits_of(game, from, visit))
}

/// The number of splits of the stack on `from`: with `k` empty neighbours, `k(k-1)`
/// placements of 2+1 and `C(k,3)` of 1+1+1 for a Large, `C(k,2)` for a Medium.
fn split_count(game: &Absorption, from: u8) -> usize {
    let k = (ADJACENT[from as usize] & game.empty_squares()).count_ones() as usize;
    let pairs = k * k.saturating_sub(1);
    match game.heights[from as usize] {
        3 => pairs + pairs * k.saturating_sub(2) / 6,
        2 => pairs / 2,
        _ => 0,
    }
}

fn splits_of(game: &Absorption, from: u8, visit: &mut impl FnMut(AbsorptionMove) -> bool) -> bool {
    let height = game.heights[from as usize];
    if height < 2 {
        return true;
    }
    let mut cells = [0u8; 8];
    let mut k = 0;
    for s in squares(ADJACENT[from as usize] & game.empty_squares()) {
        cells[k] = s;
        k += 1;
    }
    let cells = &cells[..k];
    let mut emit = |parts: &[(u8, u8)]| {
        let parts = Allotment::new(parts).expect("distinct squares");
        visit(AbsorptionMove::Split { from, parts })
    };
    if height == 3 {
        for &a in cells {
            for &b in cells {
                if a != b && !emit(&[(a, 2), (b, 1)]) {
                    return false;
                }
            }
        }
    }
    for (i, &a) in cells.iter().enumerate() {
        for (j, &b) in cells.iter().enumerate().skip(i + 1) {
            if height == 2 {
                if !emit(&[(a, 1), (b, 1)]) {
                    return false;
                }
                continue;
            }
            for &c in &cells[j + 1..] {
                if !emit(&[(a, 1), (b, 1), (c, 1)]) {
                    return false;
                }
            }
        }
    }
    true
}

/// The mover's Smalls and Mediums, the only stacks that can merge.
fn small_and_medium(game: &Absorption, player: u8) -> (u64, u64) {
    let mut smalls = 0;
    let mut mediums = 0;
    for s in squares(game.occupied[player as usize]) {
        match game.heights[s as usize] {
            1 => smalls |= bit(s),
            2 => mediums |= bit(s),
            _ => {}
        }
    }
    (smalls, mediums)
}

fn merge(dest: u8, others: &[u8]) -> AbsorptionMove {
    AbsorptionMove::Merge {
        dest,
        others: SquareList::new(others).expect("distinct squares"),
    }
}

fn merges(game: &Absorption, visit: &mut impl FnMut(AbsorptionMove) -> bool) -> bool {
    let (smalls, mediums) = small_and_medium(game, game.mover);
    if !game.options.merge_connected {
        return squares(smalls | mediums).all(|dest| star_merges_at(smalls, mediums, dest, visit));
    }
    // Two stacks: 1+1 or 1+2, either one the destination (both rules agree).
    for dest in squares(smalls | mediums) {
        for other in squares(ADJACENT[dest as usize] & merge_partners(smalls, mediums, dest)) {
            if !visit(merge(dest, &[other])) {
                return false;
            }
        }
    }
    // Three Smalls forming a connected group, each one the destination in turn.
    for centre in squares(smalls) {
        let neighbours = ADJACENT[centre as usize] & smalls;
        for a in squares(neighbours) {
            for b in squares(neighbours & !(u64::MAX >> (63 - a))) {
                // A triangle is found from each corner: take it from its lowest one.
                let triangle = ADJACENT[a as usize] & bit(b) != 0;
                if triangle && (a < centre || b < centre) {
                    continue;
                }
                for (dest, others) in [(centre, [a, b]), (a, [centre, b]), (b, [centre, a])] {
                    if !visit(merge(dest, &others)) {
                        return false;
                    }
                }
            }
        }
    }
    true
}

/// The stacks that may join `dest` two at a time: any Small or Medium joins a Small, only
/// a Small joins a Medium.
fn merge_partners(smalls: u64, mediums: u64, dest: u8) -> u64 {
    if smalls & bit(dest) != 0 {
        smalls | mediums
    } else {
        smalls
    }
}

/// Star merges into `dest`: with one neighbour, or a Small with two Small neighbours.
fn star_merges_at(
    smalls: u64,
    mediums: u64,
    dest: u8,
    visit: &mut impl FnMut(AbsorptionMove) -> bool,
) -> bool {
    if (smalls | mediums) & bit(dest) == 0 {
        return true;
    }
    for other in squares(ADJACENT[dest as usize] & merge_partners(smalls, mediums, dest)) {
        if !visit(merge(dest, &[other])) {
            return false;
        }
    }
    if smalls & bit(dest) == 0 {
        return true;
    }
    let neighbours = ADJACENT[dest as usize] & smalls;
    for a in squares(neighbours) {
        for b in squares(neighbours & !(u64::MAX >> (63 - a))) {
            if !visit(merge(dest, &[a, b])) {
                return false;
            }
        }
    }
    true
}

fn star_merge_count_at(smalls: u64, mediums: u64, dest: u8) -> usize {
    if (smalls | mediums) & bit(dest) == 0 {
        return 0;
    }
    let pairs = (ADJACENT[dest as usize] & merge_partners(smalls, mediums, dest)).count_ones();
    let triples = if smalls & bit(dest) != 0 {
        let n = (ADJACENT[dest as usize] & smalls).count_ones();
        n * n.saturating_sub(1) / 2
    } else {
        0
    };
    (pairs + triples) as usize
}

/// Where a Small on `from` can go: 1 or 2 squares in a straight line over empty squares.
/// For a follow-up, `origin` is the split's square, which it may not end on (and, under
/// `forbid_pass_over_origin`, not pass over).
pub fn small_targets(game: &Absorption, from: u8, origin: Option<u8>) -> u64 {
    let empty = game.empty_squares();
    let origin_bit = origin.map_or(0, bit);
    // The squares a Small may pass over on its way to a second square.
    let passable = if game.options.forbid_pass_over_origin {
        empty & !origin_bit
    } else {
        empty
    };
    let (near, far) = (&ONE_STEP[from as usize], &TWO_STEPS[from as usize]);
    let mut targets = ADJACENT[from as usize] & empty;
    for d in 0..8 {
        if near[d] & passable != 0 {
            targets |= far[d];
        }
    }
    targets & empty & !origin_bit
}

/// Where a stack that is not a split product may move in phase B.
pub fn move_targets(game: &Absorption, from: u8) -> u64 {
    match game.heights[from as usize] {
        1 => small_targets(game, from, None),
        2 => ADJACENT[from as usize] & game.empty_squares(),
        _ => 0,
    }
}

/// Phase B moves of the stacks not involved in phase A, by direction, as 24 target sets:
/// Smalls one step, Smalls two steps, Mediums one step, for each of the 8 directions.
/// Each move is one bit of one set; its source is found by stepping back.
fn free_move_sets(game: &Absorption, involved: u64) -> [u64; 24] {
    let (smalls, mediums) = small_and_medium(game, game.mover);
    let empty = game.empty_squares();
    let mut sets = [0u64; 24];
    for d in 0..8 {
        let one = shift(smalls & !involved, d) & empty;
        sets[d] = one;
        sets[8 + d] = shift(one, d) & empty;
        sets[16 + d] = shift(mediums & !involved, d) & empty;
    }
    sets
}

/// The phase B move that is bit `index` of `free_move_sets`, counting set by set.
fn free_move_at(sets: &[u64; 24], mut index: usize) -> Option<AbsorptionMove> {
    for (i, &set) in sets.iter().enumerate() {
        let n = set.count_ones() as usize;
        if index < n {
            let to = squares(set).nth(index)?;
            let (dx, dy) = DIRECTIONS[i % 8];
            let distance = if (8..16).contains(&i) { 2 } else { 1 };
            let from = step(to, (-dx * distance, -dy * distance))?;
            return Some(AbsorptionMove::Move { from, to });
        }
        index -= n;
    }
    None
}

fn shift(set: u64, direction: usize) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let (dx, dy) = DIRECTIONS[direction];
    let amount = dx as i32 + 8 * dy as i32;
    let moved = if amount > 0 {
        set << amount
    } else {
        set >> -amount
    };
    match dx {
        1 => moved & NOT_A,
        -1 => moved & NOT_H,
        _ => moved,
    }
}

/// Each stack that can move in the move phase, whether it moves as a follow-up, and its
/// target squares: follow-ups first, then the phase B moves.
fn move_target_sets(
    game: &Absorption,
    involved: u64,
    follow: u64,
    origin: Option<u8>,
) -> impl Iterator<Item = (u8, bool, u64)> + '_ {
    let follow_ups =
        squares(follow).map(move |from| (from, true, small_targets(game, from, origin)));
    let free = game.occupied[game.mover as usize] & !involved;
    let moves = squares(free).map(move |from| (from, false, move_targets(game, from)));
    follow_ups
        .chain(moves)
        .filter(|(_, _, targets)| *targets != 0)
}

fn moves(
    game: &Absorption,
    involved: u64,
    follow: u64,
    origin: Option<u8>,
    visit: &mut impl FnMut(AbsorptionMove) -> bool,
) -> bool {
    for (from, follow_up, targets) in move_target_sets(game, involved, follow, origin) {
        for to in squares(targets) {
            let mv = if follow_up {
                AbsorptionMove::FollowUp { from, to }
            } else {
                AbsorptionMove::Move { from, to }
            };
            if !visit(mv) {
                return false;
            }
        }
    }
    true
}

/// The mover's stacks around `target` and whether they absorb it: their total height is
/// greater than the target's and they have room for all of its pieces.
pub fn absorbers_of(game: &Absorption, absorber: u8, target: u8) -> Option<u64> {
    let receivers = ORTHOGONAL[target as usize] & game.occupied[absorber as usize];
    let height = game.heights[target as usize];
    let (sum, room) = squares(receivers).fold((0, 0), |(sum, room), s| {
        let h = game.heights[s as usize];
        (sum + h, room + 3 - h)
    });
    (sum > height && room >= height).then_some(receivers)
}

/// The enemy stacks `absorber` must absorb now.
pub fn absorbable(game: &Absorption, absorber: u8) -> u64 {
    let mut set = 0;
    let candidates =
        game.occupied[1 - absorber as usize] & dilate(game.occupied[absorber as usize]);
    for target in squares(candidates) {
        if absorbers_of(game, absorber, target).is_some() {
            set |= bit(target);
        }
    }
    set
}

fn absorptions(
    game: &Absorption,
    absorber: u8,
    visit: &mut impl FnMut(AbsorptionMove) -> bool,
) -> bool {
    for target in squares(absorbable(game, absorber)) {
        let receivers = absorbers_of(game, absorber, target).expect("absorbable");
        let mut rooms = [(0u8, 0u8); 4];
        let mut k = 0;
        for s in squares(receivers) {
            rooms[k] = (s, 3 - game.heights[s as usize]);
            k += 1;
        }
        let mut gifts = [(0u8, 0u8); 4];
        if !distributions(
            &rooms[..k],
            game.heights[target as usize],
            &mut gifts,
            0,
            &mut |g| {
                visit(AbsorptionMove::Absorb {
                    target,
                    gifts: Allotment::new(g).expect("distinct squares"),
                })
            },
        ) {
            return false;
        }
    }
    true
}

/// Every way to share `remaining` pieces among `rooms` (square, free room), each part within
/// its room; `gifts[..len]` holds the nonzero parts chosen so far.
fn distributions(
    rooms: &[(u8, u8)],
    remaining: u8,
    gifts: &mut [(u8, u8); 4],
    len: usize,
    emit: &mut impl FnMut(&[(u8, u8)]) -> bool,
) -> bool {
    let Some((&(square, room), rest)) = rooms.split_first() else {
        return remaining != 0 || emit(&gifts[..len]);
    };
    for give in 0..=room.min(remaining) {
        let next = if give > 0 {
            gifts[len] = (square, give);
            len + 1
        } else {
            len
        };
        if !distributions(rest, remaining - give, gifts, next, emit) {
            return false;
        }
    }
    true
}

/// Whether `player` has a split or a merge, checked at the start of their turn (§4, Forfeit).
/// A three-stack merge always contains a legal two-stack one, so pairs suffice.
pub fn can_split_or_merge(game: &Absorption, player: u8) -> bool {
    let empty = game.empty_squares();
    let (smalls, mediums) = small_and_medium(game, player);
    let larges = game.occupied[player as usize] & !smalls & !mediums;
    squares(larges | mediums).any(|s| (ADJACENT[s as usize] & empty).count_ones() >= 2)
        || dilate(smalls) & (smalls | mediums) != 0
}

/// Whether the move phase offers anything besides passing.
pub fn can_move(game: &Absorption) -> bool {
    match game.phase {
        Phase::Move {
            involved,
            follow,
            origin,
        } => {
            squares(follow).any(|from| small_targets(game, from, origin) != 0)
                || free_move_sets(game, involved).iter().any(|&s| s != 0)
        }
        _ => false,
    }
}
