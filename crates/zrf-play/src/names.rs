//! The names UCI gives moves, and the letters it gives piece types.
//!
//! On boards whose positions are all named like `a1` or `k10` (a letter, then digits) a
//! move is named by the squares of the piece that moves: `e2e4`, plus the letter of
//! the type a promotion makes (`e7e8q`), or `+` when that type is a promoted form that
//! no piece has at the start (a shogi promotion, `c4c5+`, as Fairy-Stockfish writes
//! it); a drop is `P@e4`. Hands that the rules keep on the grid (Doubutsu and the small
//! shogis: positions outside a `board-zone`) are not squares: their names need not look
//! like `a1`, and a move out of a hand is a drop. A turn that moves the
//! mover's royal piece together with another of its pieces (castling, whatever the
//! rules call it) is named by the royal piece's own squares (`e1g1`), or, under
//! `UCI_Chess960`, as the royal piece taking the other (`e1h1`); either form is read in
//! both modes. Other boards use the saved-game notation with spaces written as `_`.
//!
//! Where two legal turns still get one name (a checkers capture chain that can take
//! two routes between the same squares), the later ones in move-list order get `~2`,
//! `~3`, ...: the standard notation cannot tell them apart.

use std::collections::HashMap;

use zrf_runtime::{
    Change, Engine, Game, Kind, Move, PlayerIx, Pos, State, Step, Tables, Templates,
};

/// How castling is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Castling {
    /// The royal piece's own move: `e1g1`.
    #[default]
    Standard,
    /// The royal piece takes its own rook: `e1h1` (the standard option `UCI_Chess960`).
    KingTakesRook,
}

/// The letter of each piece type, by kind: the rules' `notation` when it is one
/// letter, else the first letter of the name (`n` for a knight), lower case.
pub fn piece_letters(tables: &Tables) -> Vec<char> {
    tables
        .pieces
        .iter()
        .map(|piece| {
            let notation = piece.notation.as_deref().unwrap_or("");
            let mut chars = notation.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_lowercase(),
                _ if piece.name.eq_ignore_ascii_case("knight") => 'n',
                _ => piece
                    .name
                    .chars()
                    .find(char::is_ascii_alphabetic)
                    .map_or('?', |c| c.to_ascii_lowercase()),
            }
        })
        .collect()
}

/// `a1`, `k10`: one lowercase letter then digits.
pub fn is_square_name(name: &str) -> bool {
    split_square(name).is_some_and(|(file, _)| file.len() == 1)
}

/// `e4` as (`e`, `4`), `aa12` as (`aa`, `12`): the lowercase letters and then the
/// digits of a square named by file and rank.
pub(crate) fn split_square(name: &str) -> Option<(&str, &str)> {
    let digits = name.find(|c: char| c.is_ascii_digit())?;
    let (file, rank) = name.split_at(digits);
    let file_ok = !file.is_empty() && file.chars().all(|c| c.is_ascii_lowercase());
    (file_ok && rank.chars().all(|c| c.is_ascii_digit())).then_some((file, rank))
}

/// Names the moves of one game.
pub struct Namer {
    squares: bool,
    letters: Vec<char>,
    castling: Castling,
    /// Per position: a hand kept on the grid ([`zrf_search::hands::hand_positions`]).
    hand: Vec<bool>,
    /// Per piece type: a promoted form (no piece of it at the start), written `+`.
    promoted_form: Vec<bool>,
}

/// A move's name, and the other name it is also read by (castling in the other style).
struct Named {
    name: String,
    alias: Option<String>,
}

impl Namer {
    pub fn new(tables: &Tables, castling: Castling) -> Namer {
        let hand = zrf_search::hands::hand_positions(tables);
        let mut on_board = tables
            .positions
            .iter()
            .zip(&hand)
            .filter(|(_, &hand)| !hand)
            .map(|(name, _)| name);
        let mut at_start = vec![false; tables.kinds()];
        for setup in &tables.setup {
            if let Some(start) = at_start.get_mut(setup.kind as usize) {
                *start |= !setup.positions.is_empty() || setup.off_board > 0;
            }
        }
        Namer {
            squares: on_board.clone().next().is_some() && on_board.all(|p| is_square_name(p)),
            letters: piece_letters(tables),
            castling,
            hand,
            // With no setup there is no telling: letters throughout.
            promoted_form: at_start
                .iter()
                .map(|&start| !start && !tables.setup.is_empty())
                .collect(),
        }
    }

    /// Whether moves are named by squares (every position is named like `a1`).
    pub fn names_squares(&self) -> bool {
        self.squares
    }

    /// The names of `moves`, the legal moves of `state`, in move-list order.
    pub fn names<T: Templates>(
        &self,
        engine: &Engine<T>,
        state: &State,
        moves: &[Move],
    ) -> Vec<String> {
        self.named(engine, state, moves)
            .into_iter()
            .map(|n| n.name)
            .collect()
    }

    /// The index of the move of `moves` that `wanted` names: its name, else the other
    /// castling style's name or the name with its promotion letter in another case, when
    /// only one move is named so.
    pub fn find<T: Templates>(
        &self,
        engine: &Engine<T>,
        state: &State,
        moves: &[Move],
        wanted: &str,
    ) -> Result<usize, String> {
        let named = self.named(engine, state, moves);
        if let Some(index) = named.iter().position(|n| n.name == wanted) {
            return Ok(index);
        }
        let unique = |matches: Vec<usize>| match matches[..] {
            [index] => Some(index),
            _ => None,
        };
        let by_alias = named
            .iter()
            .enumerate()
            .filter(|(_, n)| n.alias.as_deref() == Some(wanted))
            .map(|(i, _)| i)
            .collect();
        let ignoring_case = named
            .iter()
            .enumerate()
            .filter(|(_, n)| n.name.eq_ignore_ascii_case(wanted))
            .map(|(i, _)| i)
            .collect();
        unique(by_alias)
            .or_else(|| unique(ignoring_case))
            .ok_or_else(|| {
                let all: Vec<&str> = named.iter().map(|n| n.name.as_str()).collect();
                format!("{wanted} is not legal here; legal: {}", all.join(" "))
            })
    }

    fn named<T: Templates>(&self, engine: &Engine<T>, state: &State, moves: &[Move]) -> Vec<Named> {
        let mover = engine.turn(state).player;
        let mut seen: HashMap<String, usize> = HashMap::new();
        moves
            .iter()
            .map(|mv| {
                let mut named = if self.squares {
                    self.square_name(&engine.tables, state, mover, mv)
                } else {
                    Named {
                        name: engine.notation(state, mv).replace(' ', "_"),
                        alias: None,
                    }
                };
                let count = seen.entry(named.name.clone()).or_insert(0);
                *count += 1;
                if *count > 1 {
                    named.name = format!("{}~{count}", named.name);
                }
                named
            })
            .collect()
    }

    fn square_name(&self, tables: &Tables, state: &State, mover: PlayerIx, mv: &Move) -> Named {
        let square = |p: Pos| tables.positions.get(p as usize).map_or("?", String::as_str);
        let letter = |kind: Kind| self.letters.get(kind as usize).copied().unwrap_or('?');
        let (Some(first), Some(last)) = (mv.steps.first(), mv.steps.last()) else {
            return Named {
                name: "0000".to_string(),
                alias: None,
            };
        };
        let changes = || mv.steps.iter().flat_map(|s| &s.changes);
        // A taken piece that changes back in a hand is not a promotion.
        let promotion = changes().find_map(|c| match *c {
            Change::ChangeType { pos, .. } if self.in_hand(pos) => None,
            Change::ChangeType { kind, .. }
                if self.promoted_form.get(kind as usize) == Some(&true) =>
            {
                Some('+')
            }
            Change::ChangeType { kind, .. } => Some(letter(kind)),
            _ => None,
        });
        if let Some(from) = first
            .from
            .filter(|&from| self.in_hand(from) && !self.in_hand(last.to))
        {
            let piece = state
                .at(from)
                .map_or('?', |p| letter(p.kind).to_ascii_uppercase());
            return Named {
                name: format!("{piece}@{}", square(last.to)),
                alias: None,
            };
        }
        let Some(from) = first.from else {
            let dropped = changes().find_map(|c| match *c {
                Change::Place { piece, .. } | Change::Create { piece, .. } => Some(piece.kind),
                _ => None,
            });
            let piece = dropped.map_or('?', |k| letter(k).to_ascii_uppercase());
            return Named {
                name: format!("{piece}@{}", square(last.to)),
                alias: None,
            };
        };
        if let Some(castling) = castling(tables, state, mover, mv) {
            let standard = format!(
                "{}{}",
                square(castling.royal_from),
                square(castling.royal_to)
            );
            let takes_rook = format!(
                "{}{}",
                square(castling.royal_from),
                square(castling.partner_from)
            );
            let (name, alias) = match self.castling {
                Castling::Standard => (standard, takes_rook),
                Castling::KingTakesRook => (takes_rook, standard),
            };
            return Named {
                name,
                alias: Some(alias),
            };
        }
        let (from, to) = self.travel(from, first, last);
        let mut name = format!("{}{}", square(from), square(to));
        name.extend(promotion);
        Named { name, alias: None }
    }

    /// Whether `pos` is a hand kept on the grid.
    fn in_hand(&self, pos: Pos) -> bool {
        self.hand.get(pos as usize) == Some(&true)
    }

    /// Where the moving piece of a move starts and arrives, given the first step's
    /// start. A step that sends a taken piece on into a hand (`cascade`) starts and
    /// ends with that piece: the mover's own movement is then the first step's first
    /// movement and the last step's first movement onto the board.
    fn travel(&self, from: Pos, first: &Step, last: &Step) -> (Pos, Pos) {
        if !self.in_hand(last.to) {
            return (from, last.to);
        }
        fn movements(step: &Step) -> impl Iterator<Item = (Pos, Pos)> + '_ {
            step.changes.iter().filter_map(|c| match *c {
                Change::Move { from, to } => Some((from, to)),
                _ => None,
            })
        }
        let from = movements(first).next().map_or(from, |(f, _)| f);
        let to = movements(last)
            .find(|&(_, to)| !self.in_hand(to))
            .map_or(last.to, |(_, t)| t);
        (from, to)
    }
}

/// A turn that moves the mover's royal piece and another of its pieces.
pub(crate) struct CastlingSquares {
    pub(crate) royal_from: Pos,
    pub(crate) royal_to: Pos,
    pub(crate) partner_from: Pos,
}

/// The squares of a castling turn: one moving the mover's royal piece and exactly one
/// other piece of the mover's, with no capture.
pub(crate) fn castling(
    tables: &Tables,
    state: &State,
    mover: PlayerIx,
    mv: &Move,
) -> Option<CastlingSquares> {
    let royal = tables.royal.get(mover as usize)?;
    // Each moved piece as (where it started, where it is now).
    let mut travels: Vec<(Pos, Pos)> = Vec::new();
    for change in mv.steps.iter().flat_map(|s| &s.changes) {
        match *change {
            Change::Move { from, to } => {
                travels.retain(|&(_, now)| now != to);
                match travels.iter_mut().find(|(_, now)| *now == from) {
                    Some(travel) => travel.1 = to,
                    None => travels.push((from, to)),
                }
            }
            Change::Capture { .. } | Change::Create { .. } | Change::Place { .. } => return None,
            _ => {}
        }
    }
    let [a, b] = travels[..] else { return None };
    let own = |pos: Pos| state.at(pos).filter(|p| p.owner == mover);
    let (pa, pb) = (own(a.0)?, own(b.0)?);
    let is_royal = |kind: Kind| royal.get(kind as usize) == Some(&true);
    let (king, partner) = match (is_royal(pa.kind), is_royal(pb.kind)) {
        (true, false) => (a, b),
        (false, true) => (b, a),
        _ => return None,
    };
    Some(CastlingSquares {
        royal_from: king.0,
        royal_to: king.1,
        partner_from: partner.0,
    })
}
