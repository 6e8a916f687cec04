//! Legality under `checkmated`: the royal guard that keeps the turns leaving the
//! mover's royal pieces safe, the attack tests it (and a search) asks, and the checks
//! of their shortcuts against the general path.

use smallvec::SmallVec;

use crate::bits::squares_in;
use crate::engine::Engine;
use crate::gen::{Listed, SPARE_POSITION};
use crate::run::{removal_square, Footprint, Screen, Steps};
use crate::state::changed::one_piece_moving;
use crate::state::{Change, State, Step};
use crate::strikes::Strikes;
use crate::tables::{Filter, Turn};
use crate::templates::Templates;
use crate::turn::{drop_repeated_turns, Move};
use crate::watched::{royal_squares, threats_after_one_piece_moving, Probe, Watched};
use crate::{Kind, PlayerIx, Pos};

impl<T: Templates> Engine<T> {
    /// The turns of `turn` in `state` that leave the `royal` pieces of the mover safe,
    /// into `moves` (empty), telling [`Listed::routes_differ`]. Out of line: games without
    /// the filter never come here.
    #[inline(never)]
    pub(crate) fn legal_turns_guarded(
        &self,
        state: &State,
        turn: Turn,
        royal: &[bool],
        moves: &mut Vec<Move>,
        loud_only: bool,
    ) -> Option<bool> {
        let listing = if loud_only {
            Listing::LoudOnly
        } else {
            Listing::Every
        };
        let mut guard = RoyalGuard::unscanned(royal);
        let listed = self.screened_turns(state, turn, &mut guard, moves, listing);
        let undecided = listed.undecided;
        match loud_only {
            true => guard.keep_legal(self, state, moves, undecided, |m| m.traits(state).is_loud()),
            false => guard.keep_legal(self, state, moves, undecided, |_| true),
        }
        listed.routes_differ
    }

    /// How many legal turns `turn` has in `state`, under rules whose turns are judged
    /// alone ([`crate::Tables::turns_judged_alone`]): the length of
    /// [`Engine::legal_moves_into`]'s list, passes aside. The turns of one movement that
    /// the screen decides are counted as they are generated, without being built or
    /// tested (see [`Steps::count_plain`]); the others are listed, tested and told
    /// apart as usual. Where a counted turn may repeat another, the whole list is made
    /// instead, as only it tells them apart.
    pub(crate) fn count_guarded(
        &self,
        state: &State,
        turn: Turn,
        royal: &[bool],
        moves: &mut Vec<Move>,
    ) -> usize {
        let mut guard = RoyalGuard::unscanned(royal);
        let listed = self.screened_turns(state, turn, &mut guard, moves, Listing::Counting);
        if listed.count_needs_list {
            drop(guard);
            let routes_differ = self.legal_turns_guarded(state, turn, royal, moves, false);
            drop_repeated_turns(moves, routes_differ);
            return moves.len();
        }
        guard.keep_legal(self, state, moves, listed.undecided, |_| true);
        drop_repeated_turns(moves, listed.routes_differ);
        // A counted turn changes nothing the attack test before looked at: it is legal
        // exactly when the position before was safe.
        let counted_legal = if guard.attacked_before {
            0
        } else {
            listed.counted.0
        };
        moves.len() + counted_legal
    }

    /// The turns of `turn` in `state`, into `moves` (empty), screened as they are listed
    /// where they can be by `guard`, which first scans the position (the attack test
    /// on it); `listing` says which turns are listed.
    pub(crate) fn screened_turns(
        &self,
        state: &State,
        turn: Turn,
        guard: &mut RoyalGuard<'_>,
        moves: &mut Vec<Move>,
        listing: Listing,
    ) -> Listed {
        // The attack test on the position before comes first, so that the turns it
        // decides are told apart as they are generated.
        guard.scan(self, state, turn);
        let screens = guard.screens(turn);
        let mut first = if screens {
            Steps::screening(guard.footprint, std::mem::take(moves))
        } else {
            Steps::appending_to(std::mem::take(moves))
        };
        match listing {
            Listing::Every => {}
            Listing::LoudOnly => first.keep_loud_only(),
            // Only the screen decides turns without a test: unscreened, each is tested.
            Listing::Counting if screens => first.count_plain(),
            Listing::Counting => {}
        }
        self.gen().turns_into(state, turn, first, moves)
    }

    /// A candidate turn in `state` on which the legal-move filter for `checkmated` (as
    /// move generation screens the turns, or turn by turn) and an attack test on a fresh
    /// scan of the position after it disagree, described; `None` when they agree on all
    /// (or the player has no royal piece). For checking the filter's shortcuts on real
    /// positions.
    pub fn royal_guard_violation(&self, state: &State) -> Option<String> {
        let turn = self.turn(state);
        let royal = self.tables.royal_kinds(turn.player)?;
        let mut screened = Vec::new();
        self.legal_turns_guarded(state, turn, royal, &mut screened, false);
        let mut guard = RoyalGuard::new(self, state, turn, royal);
        let mut after = state.clone();
        self.pseudo_legal(state, turn).into_iter().find_map(|m| {
            self.apply_into(state, &m, &mut after);
            let safe = !self.royal_attacked(&after, turn.move_as, royal);
            let verdicts = [
                ("screened", screened.contains(&m)),
                ("turn by turn", guard.keeps_royal_safe(self, state, &m)),
            ];
            let (how, kept) = verdicts.into_iter().find(|&(_, kept)| kept != safe)?;
            let verdict = if kept { "legal" } else { "illegal" };
            Some(format!(
                "{m:?} judged {verdict} by the legal-move filter ({how}), not by a fresh scan"
            ))
        })
    }

    /// Whether the player to move in `state` could capture a royal piece of `owner`.
    pub fn royal_attacked(&self, state: &State, owner: PlayerIx, royal: &[bool]) -> bool {
        self.attacks(state, self.turn(state), owner, royal)
    }

    /// Whether a turn of `turn` in `state` could capture a piece of `owner` whose kind is
    /// marked in `royal` (partial-move chains and drops included).
    pub fn attacks(&self, state: &State, turn: Turn, owner: PlayerIx, royal: &[bool]) -> bool {
        let targets = royal_squares(state, owner, royal);
        self.gen().captures_any_of(state, turn, &targets, royal)
    }

    /// A step of the mover's pieces in `state` that removes a piece outside the reach
    /// table's squares for its piece, or for the template that made it (the attack test
    /// would miss it), or a piece that adds more steps than its bound or a step that
    /// starts elsewhere though its type is anchored (random moves would not be drawn
    /// uniformly, see [`crate::Reach::with_step_bounds`]), described; `None` when the table
    /// holds, or there is none. For checking the table on real positions.
    pub fn reach_violation(&self, state: &State) -> Option<String> {
        let reach = self.tables.reach.as_ref()?;
        let turn = self.turn(state);
        let player = turn.move_as;
        for (pos, piece) in state.pieces_of(player) {
            let name = self.tables.positions[pos as usize].as_str();
            let kind_name = &self.tables.pieces[piece.kind as usize].name;
            let mut all = Steps::new();
            self.gen()
                .moves_of_piece(state, turn, pos, Filter::ANY, u64::MAX, &mut all);
            let count = all.iter().count();
            if let Some(bound) = reach.max_steps(player, piece.kind, pos) {
                if count > bound as usize {
                    return Some(format!(
                        "{kind_name} on {name}: {count} steps, more than its bound of {bound}"
                    ));
                }
            }
            let elsewhere = all.iter().find(|step| step.from != Some(pos));
            if let Some(step) = elsewhere.filter(|_| reach.anchored(player, piece.kind)) {
                return Some(format!(
                    "{kind_name} on {name}: {step:?} starts elsewhere, though its type is anchored"
                ));
            }
            let unforeseen = |step: &&Step| {
                step.from
                    .is_some_and(|start| !reach.may_start_on(player, piece.kind, pos, start))
            };
            if let Some(step) = all.iter().find(unforeseen) {
                return Some(format!(
                    "{kind_name} on {name}: {step:?} starts elsewhere, on a square the reach \
                     table does not name"
                ));
            }
            let templates = reach
                .template_parts()
                .and_then(|(counts, _)| counts.get(piece.kind as usize).copied())
                .unwrap_or(0);
            // All templates together, then each template on its own (from the 64th on,
            // together: they share a bit of the limit).
            let runs = std::iter::once((u64::MAX, None))
                .chain((0..templates.min(64)).map(|template| (1 << template, Some(template))));
            for (mask, template) in runs {
                let mut steps = Steps::new();
                self.gen()
                    .moves_of_piece(state, turn, pos, Filter::ANY, mask, &mut steps);
                let outside = |hit: Pos| match template {
                    None => !reach.may_hit(player, piece.kind, pos, &[hit]),
                    Some(_) => reach.templates_hitting(player, piece.kind, pos, &[hit]) & mask == 0,
                };
                let change = steps.iter().find_map(|step| {
                    step.changes
                        .iter()
                        .find(|c| removal_square(state, c).is_some_and(outside))
                });
                if let Some(change) = change {
                    let whose = match template {
                        None => "its reach".to_string(),
                        Some(63) if templates > 64 => {
                            "the reach of its move templates from the 64th on".to_string()
                        }
                        Some(t) => format!("the reach of its move template {}", t + 1),
                    };
                    return Some(format!("{kind_name} on {name}: {change:?} outside {whose}"));
                }
            }
        }
        None
    }
}

/// Which turns a guarded listing ([`Engine::screened_turns`]) lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Listing {
    /// All of them.
    Every,
    /// Most quiet ones left out (see [`Steps::keep_loud_only`]).
    LoudOnly,
    /// The ones the screen decides, made in the common way, counted instead (see
    /// [`Steps::count_plain`]), where the turns are screened.
    Counting,
}

/// The `checkmated` filter over the candidate turns of one position: which leave every
/// royal piece of the mover safe from capture by the next player.
pub(crate) struct RoyalGuard<'a> {
    pub(crate) royal: &'a [bool],
    pub(crate) reply: Turn,
    /// The attack test after each candidate looks only at the squares that can matter:
    /// those of the position before, plus the ones the candidate changed.
    pub(crate) before: Watched,
    /// The attack test on the position before (as if the next player moved there), and
    /// what its answer depends on (with the royal squares): it holds after every
    /// candidate that changes none of those squares and brings no attacker.
    pub(crate) attacked_before: bool,
    pub(crate) footprint: Footprint,
    /// The position after the candidate under test: the spare position, taken when
    /// first needed and given back when the guard is done.
    pub(crate) after: Option<Box<State>>,
    pub(crate) probe: Probe,
}

impl Drop for RoyalGuard<'_> {
    fn drop(&mut self) {
        if let Some(after) = self.after.take() {
            SPARE_POSITION.set(Some(after));
        }
    }
}

impl<'a> RoyalGuard<'a> {
    /// The guard of the `royal` pieces of `turn`'s mover over the candidate turns in
    /// `state`.
    pub(crate) fn new<T: Templates>(
        engine: &Engine<T>,
        state: &State,
        turn: Turn,
        royal: &'a [bool],
    ) -> RoyalGuard<'a> {
        let mut guard = RoyalGuard::unscanned(royal);
        guard.scan(engine, state, turn);
        guard
    }

    /// A guard of the `royal` pieces that has looked at no position yet: to be made once
    /// and filled in place by [`RoyalGuard::scan`], where a guard is made per listing
    /// (moving one costs as much as filling it).
    pub(crate) fn unscanned(royal: &'a [bool]) -> RoyalGuard<'a> {
        RoyalGuard {
            royal,
            reply: Turn {
                player: 0,
                move_as: 0,
                move_type: None,
            },
            before: Watched::unscanned(),
            attacked_before: false,
            footprint: Footprint::default(),
            after: None,
            probe: Probe::default(),
        }
    }

    /// Looks at `state`, where `turn` is to move: the attack test on it, as if the next
    /// player moved there, and what the test depended on.
    pub(crate) fn scan<T: Templates>(&mut self, engine: &Engine<T>, state: &State, turn: Turn) {
        self.reply = engine.tables.turn(state.turn + 1);
        let (tables, royal) = (&engine.tables, self.royal);
        (self.before).scan::<T>(tables, state, royal, turn.move_as, self.reply.move_as);
        self.footprint = Footprint::default();
        self.attacked_before = engine.gen().captures_any_of_among(
            state,
            self.reply,
            &self.before.targets,
            royal,
            self.before.threats.iter().copied(),
            Some(&mut self.footprint),
        );
        for &target in &self.before.targets {
            self.footprint.note(target);
        }
    }

    /// Whether the turns of `turn` may be screened (see [`Steps::screening`]): the
    /// attacker is another player, so the mover's pieces are never among its threats.
    fn screens(&self, turn: Turn) -> bool {
        self.before.attacker != turn.move_as
    }

    /// Keeps the legal turns of `moves`, screened as they were listed when `undecided`
    /// tells which the screen left undecided ([`Listed::undecided`]), else each tested.
    pub(crate) fn keep_legal<T: Templates>(
        &mut self,
        engine: &Engine<T>,
        state: &State,
        moves: &mut Vec<Move>,
        undecided: Option<u64>,
        wanted: impl Fn(&Move) -> bool,
    ) {
        match undecided {
            Some(undecided) => self.keep_screened(engine, state, moves, undecided, wanted),
            None => moves.retain(|m| wanted(m) && self.keeps_royal_safe(engine, state, m)),
        }
    }

    /// Keeps the legal turns of `moves` that are `wanted`, screened with this guard's
    /// footprint: those not listed in `undecided` are legal exactly when the position
    /// before was safe.
    fn keep_screened<T: Templates>(
        &mut self,
        engine: &Engine<T>,
        state: &State,
        moves: &mut Vec<Move>,
        undecided: u64,
        wanted: impl Fn(&Move) -> bool,
    ) {
        if undecided == 0 && moves.len() <= 64 && !self.attacked_before {
            moves.retain(wanted);
            return;
        }
        let mut index = 0;
        moves.retain(|m| {
            let this = index;
            index += 1;
            if !wanted(m) {
                false
            } else if Screen::is_undecided(undecided, this) {
                self.keeps_royal_safe(engine, state, m)
            } else {
                !self.attacked_before
            }
        });
    }

    /// Whether `mv` leaves the royal pieces safe.
    pub(crate) fn keeps_royal_safe<T: Templates>(
        &mut self,
        engine: &Engine<T>,
        state: &State,
        mv: &Move,
    ) -> bool {
        if self.decided_before(state, mv) {
            return !self.attacked_before;
        }
        self.test_after(engine, state, mv)
    }

    /// The attack test on the position after `mv`. Out of line: most candidates are
    /// decided before, and the loop over them stays small.
    #[inline(never)]
    fn test_after<T: Templates>(&mut self, engine: &Engine<T>, state: &State, mv: &Move) -> bool {
        let Some((targets, strikes)) = self.strikes_after_one_piece_moving(engine, state, mv)
        else {
            return self.test_on_position_after(engine, state, mv);
        };
        let safe = match strikes {
            Strikes::Struck => false,
            Strikes::Unread(threats) => {
                threats == [0; 4] || {
                    let after = position_after(&mut self.after, engine, state, mv);
                    let threats = squares_in(threats);
                    !(engine.gen()).captures_any_of_among(
                        after, self.reply, &targets, self.royal, threats, None,
                    )
                }
            }
        };
        debug_assert_eq!(
            safe,
            self.test_on_position_after(engine, state, mv),
            "{mv:?} judged by the threats after one piece moving, not as by the watched squares"
        );
        safe
    }

    /// Where `mv` moves one piece: the royal squares after it, and what the attacker's
    /// pieces that may hit them by their type's reach (see
    /// [`threats_after_one_piece_moving`]) do there, read off the position before: the
    /// threats' counted templates and strikes are read off the bulk targets, which hold
    /// no move types (so only where the reply may make any type of move); only the
    /// other templates' code is left to run, on the position after. Where no piece
    /// may hit, the test after answers safe without the position after being built;
    /// where some may, only they are tested, without the watched squares carried over
    /// ([`Watched::after_move`]). Most candidates the test after gets move a royal piece
    /// (shogi perft 4: 99.7%, chess perft 5: 93%), and most of those to a square no
    /// attacker's reach includes. `None` for other candidates, where the table cannot
    /// tell, or where a type has drops (which the test would try).
    fn strikes_after_one_piece_moving<T: Templates>(
        &self,
        engine: &Engine<T>,
        state: &State,
        mv: &Move,
    ) -> Option<(SmallVec<[Pos; 4]>, Strikes)> {
        let reach = engine.tables.reach.as_ref()?;
        let moving @ (from, to, captured) = one_piece_moving(&mv.steps)?;
        let targets = &self.before.targets;
        // A royal piece taken or landed on: the watched squares tell.
        if targets.contains(&to) || captured.is_some_and(|pos| targets.contains(&pos)) {
            return None;
        }
        let gen = engine.gen();
        if (0..engine.tables.kinds() as Kind).any(|kind| gen.templates.has_drops(kind)) {
            return None;
        }
        let targets: SmallVec<[Pos; 4]> = (targets.iter())
            .map(|&t| if t == from { to } else { t })
            .collect();
        let attacker = self.before.attacker;
        let threats =
            threats_after_one_piece_moving::<T>(reach, state, attacker, &targets, moving)?;
        let strikes = match threats == [0; 4] || self.reply.move_type.is_some() {
            true => Strikes::Unread(threats),
            false => (engine.tables)
                .strikes_after_one_piece_moving(state, attacker, &targets, threats, moving),
        };
        Some((targets, strikes))
    }

    /// The attack test on the position after `mv`, built.
    fn test_on_position_after<T: Templates>(
        &mut self,
        engine: &Engine<T>,
        state: &State,
        mv: &Move,
    ) -> bool {
        let after = position_after(&mut self.after, engine, state, mv);
        let (watched, probe) = (&self.before, &mut self.probe);
        let reach = engine.tables.reach.as_ref();
        watched.after_move(reach, state, after, mv, self.royal, probe);
        let still_watched = watched.attackers_to_test(probe).iter().copied();
        let gen = engine.gen();
        let targets = watched.targets(probe);
        let attacked = gen.captures_any_of_among(
            after,
            self.reply,
            targets,
            self.royal,
            still_watched.chain(probe.new_attackers.iter().copied()),
            None,
        );
        // The invariant of the watched squares: no attacker left out hits a target.
        debug_assert_eq!(
            attacked,
            gen.captures_any_of_among(
                after,
                self.reply,
                targets,
                self.royal,
                after.squares_of(watched.attacker),
                None
            ),
            "the attackers watched after {mv:?} miss an attack on {targets:?}"
        );
        !attacked
    }
}

/// The position after `mv` from `state`, written into `after`, the guard's spare
/// position (taken when first needed).
fn position_after<'s, T: Templates>(
    after: &'s mut Option<Box<State>>,
    engine: &Engine<T>,
    state: &State,
    mv: &Move,
) -> &'s State {
    let after = after.get_or_insert_with(|| {
        SPARE_POSITION
            .take()
            .unwrap_or_else(|| Box::new(state.position_clone()))
    });
    engine.apply_into(state, mv, after);
    after
}

impl RoyalGuard<'_> {
    /// Whether the attack test after `mv` is the one on the position before: `mv` is one
    /// step that only moves the mover's pieces and captures, away from the royal
    /// squares and from every square the test before looked at.
    pub(crate) fn decided_before(&self, state: &State, mv: &Move) -> bool {
        let [step] = &mv.steps[..] else {
            return false;
        };
        let untouched = |pos: Pos| !self.footprint.contains(pos);
        step.changes.iter().all(|change| match *change {
            Change::Move { from, to } => {
                untouched(from)
                    && untouched(to)
                    && state
                        .at(from)
                        .is_none_or(|p| p.owner != self.before.attacker)
            }
            Change::Capture { pos } => untouched(pos),
            _ => false,
        })
    }
}
