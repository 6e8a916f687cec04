//! Evaluations learned per game: piece values, square tables shared between the two
//! sides by the board's symmetry, and the pressure of pieces near the enemy's royal
//! pieces, fitted by logistic (Texel-style) regression to the results of self-play
//! games.
//!
//! A position's features, from the first side's view (+1 for its pieces, -1 for the
//! other's): the count of each piece type; each piece on its square, the second side's
//! squares mapped onto the first side's by the board's symmetry ([`Features`]), in two
//! tables blended by how much of the start's material is left (a king shelters while
//! the board is full and comes out as it empties); the pieces standing within two
//! steps of an enemy royal piece; and each piece's room ([`crate::room`]: the squares
//! it could move to, weighed per type). The evaluation is the weighted sum; the fit
//! minimises the squared difference between the game's result (1, 0.5, 0) and
//! `1 / (1 + exp(-k * evaluation))`, with `k` first chosen to fit the rules-derived
//! evaluation the weights start from ([`crate::RulesEval`]). How hard the weights are pulled
//! back toward that start is chosen by games held out of the fit
//! ([`crate::tune::fit`]): a few
//! hundred games say much of piece values and little of each square.
//!
//! A learned evaluation is kept as text ([`Learned::to_text`]): piece and game names,
//! so a file stays readable and is refused by a game whose pieces differ.

use std::fmt::Write as _;

use zrf_runtime::{Kind, PlayerIx, Pos, Tables, NO_POS};

use crate::room::Room;

/// A learned evaluation of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Learned {
    /// The game's title.
    pub title: String,
    /// Self-play games and positions it was fitted on.
    pub games: usize,
    pub positions: usize,
    /// Per piece type (by name): its worth.
    pub values: Vec<(String, i32)>,
    /// Per piece type (by name): its bonus on each position, as the first side sees
    /// the board (the other side's by the board's symmetry), with the board as full as
    /// at the start.
    pub squares: Vec<(String, Vec<i32>)>,
    /// The same on an emptied board; between the two, a bonus is blended by how much
    /// of the start's material is left (older files have none: one table throughout).
    pub open_squares: Vec<(String, Vec<i32>)>,
    /// The worth of each piece within two steps of an enemy royal piece.
    pub royal_pressure: i32,
    /// Per piece type (by name): the worth of each square of its room (older files
    /// have none: room is not counted).
    pub room: Vec<(String, i32)>,
}

const HEADER: &str = "# zrf learned evaluation (zrfc tune); one line a setting";

impl Learned {
    /// The evaluation as text: `game`, `games`, `positions`, `royal-pressure`, then a
    /// `value NAME N`, a `room NAME N`, a `squares NAME N N ...` and an `open-squares
    /// NAME N N ...` line per piece type.
    pub fn to_text(&self) -> String {
        let mut text = format!("{HEADER}\ngame {}\n", self.title);
        let _ = writeln!(text, "games {}\npositions {}", self.games, self.positions);
        let _ = writeln!(text, "royal-pressure {}", self.royal_pressure);
        for (name, value) in &self.values {
            let _ = writeln!(text, "value {name} {value}");
        }
        for (name, weight) in &self.room {
            let _ = writeln!(text, "room {name} {weight}");
        }
        for (key, tables) in [
            ("squares", &self.squares),
            ("open-squares", &self.open_squares),
        ] {
            for (name, squares) in tables {
                let numbers: Vec<String> = squares.iter().map(i32::to_string).collect();
                let _ = writeln!(text, "{key} {name} {}", numbers.join(" "));
            }
        }
        text
    }

    /// Reads [`Learned::to_text`]'s text.
    pub fn parse(text: &str) -> Result<Learned, String> {
        let mut learned = Learned {
            title: String::new(),
            games: 0,
            positions: 0,
            values: Vec::new(),
            squares: Vec::new(),
            open_squares: Vec::new(),
            royal_pressure: 0,
            room: Vec::new(),
        };
        let number = |word: Option<&str>, line: usize| -> Result<i64, String> {
            word.and_then(|w| w.parse().ok())
                .ok_or_else(|| format!("line {line}: a number is missing"))
        };
        for (n, line) in text.lines().enumerate() {
            let n = n + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let mut words = rest.split_whitespace();
            match key {
                "game" => learned.title = rest.trim().to_string(),
                "games" => learned.games = number(words.next(), n)? as usize,
                "positions" => learned.positions = number(words.next(), n)? as usize,
                "royal-pressure" => learned.royal_pressure = number(words.next(), n)? as i32,
                "value" | "room" => {
                    let name = words
                        .next()
                        .ok_or(format!("line {n}: a piece name is missing"))?;
                    let table = if key == "value" {
                        &mut learned.values
                    } else {
                        &mut learned.room
                    };
                    table.push((name.to_string(), number(words.next(), n)? as i32));
                }
                "squares" | "open-squares" => {
                    let name = words
                        .next()
                        .ok_or(format!("line {n}: a piece name is missing"))?;
                    let squares = words
                        .map(|w| {
                            w.parse::<i32>()
                                .map_err(|_| format!("line {n}: {w:?} is not a number"))
                        })
                        .collect::<Result<Vec<i32>, String>>()?;
                    let table = if key == "squares" {
                        &mut learned.squares
                    } else {
                        &mut learned.open_squares
                    };
                    table.push((name.to_string(), squares));
                }
                other => return Err(format!("line {n}: unknown setting {other:?}")),
            }
        }
        if learned.title.is_empty() {
            return Err("no `game` line: not a learned evaluation".into());
        }
        Ok(learned)
    }

    /// Checks that this evaluation is for the game of `tables`: its title, piece
    /// names and board size.
    pub fn check(&self, tables: &Tables) -> Result<(), String> {
        if self.title != tables.title {
            return Err(format!(
                "the evaluation is for {:?}, not {:?}",
                self.title, tables.title
            ));
        }
        let known = |name: &str| tables.pieces.iter().any(|p| p.name == name);
        for (name, _) in self.values.iter().chain(&self.room) {
            if !known(name) {
                return Err(format!("the game has no piece type {name}"));
            }
        }
        for (name, squares) in self.squares.iter().chain(&self.open_squares) {
            if !known(name) {
                return Err(format!("the game has no piece type {name}"));
            }
            if squares.len() != tables.positions.len() {
                return Err(format!(
                    "{name} has {} squares; the board has {}",
                    squares.len(),
                    tables.positions.len()
                ));
            }
        }
        Ok(())
    }
}

/// The features of a game's positions (see the module's documentation).
pub struct Features {
    pub(crate) kinds: usize,
    pub(crate) positions: usize,
    /// The two sides: the first one's view is the features'.
    pub(crate) sides: [PlayerIx; 2],
    /// Per player: each position as the first side sees it (every hand square as the
    /// first).
    canonical: Vec<Vec<Pos>>,
    /// Per position: whether it holds pieces in hand.
    hand: Vec<bool>,
    /// Per position: the positions within two steps of it.
    near: Vec<Vec<Pos>>,
    /// Per player and kind: royal.
    royal: Vec<Vec<bool>>,
}

/// One position of a self-play game: its pieces (square, owner, type).
pub type Pieces = Vec<(Pos, PlayerIx, Kind)>;

/// The positions of one self-play game and how it ended for the first side.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// 1 the first side won, 0 it lost, 0.5 a draw (or a cut game).
    pub result: f64,
    pub positions: Vec<Pieces>,
    /// Per position, the self-play search's score of it for the first side, where
    /// known (files written before scores were kept have none).
    pub scores: Vec<Option<i32>>,
}

impl Features {
    /// The features of a game of two sides.
    pub fn new(tables: &Tables) -> Result<Features, String> {
        let [first, second] = two_sides(tables).map_err(|players| {
            format!("learning needs a game of two sides; this one has {players} players who move")
        })?;
        let positions = tables.positions.len();
        // A hand kept on the grid is a pile, not a place: its squares only count the
        // pieces held. They share one weight per type, that of the first hand square,
        // so that what is learned is the worth of a piece in hand.
        let hand = crate::hands::hand_positions(tables);
        let in_hand = hand.iter().position(|&h| h).map(|first| first as Pos);
        let canonical = (0..tables.players.len() as PlayerIx)
            .map(|p| {
                let squares = if p == second {
                    symmetric_squares(tables, first, second)
                        .or_else(|| drawn_mirror(tables, first, second))
                        .unwrap_or_else(|| (0..positions as Pos).collect())
                } else {
                    (0..positions as Pos).collect::<Vec<_>>()
                };
                (squares.into_iter())
                    .map(|square| match in_hand {
                        Some(first_hand) if hand[square as usize] => first_hand,
                        _ => square,
                    })
                    .collect()
            })
            .collect();
        Ok(Features {
            kinds: tables.kinds(),
            positions,
            sides: [first, second],
            canonical,
            hand,
            near: (0..positions as Pos)
                .map(|p| within_two_steps(tables, p))
                .collect(),
            royal: tables.royal.clone(),
        })
    }

    /// How many weights: values, squares on a full board, squares on an emptied
    /// board, royal pressure, room per type.
    pub fn len(&self) -> usize {
        self.royal_pressure_weight() + 1 + self.kinds
    }

    /// The weight of a piece near an enemy royal piece.
    fn royal_pressure_weight(&self) -> usize {
        self.kinds + 2 * self.kinds * self.positions
    }

    /// The weight of a square of room of a piece of `kind`.
    pub(crate) fn room_weight(&self, kind: usize) -> usize {
        self.royal_pressure_weight() + 1 + kind
    }

    /// The weight of `kind` on `square` (as the first side sees it), on a full board
    /// or an emptied one.
    pub(crate) fn square_weight(&self, kind: usize, square: usize, full: bool) -> usize {
        let table = if full { 0 } else { self.kinds * self.positions };
        self.kinds + table + kind * self.positions + square
    }

    /// Whether there are no weights (never: there is the royal pressure).
    pub fn is_empty(&self) -> bool {
        false
    }

    fn side(&self, owner: PlayerIx) -> Option<f32> {
        match self.sides.iter().position(|&s| s == owner)? {
            0 => Some(1.0),
            _ => Some(-1.0),
        }
    }

    /// The position's features, as (weight index, value) pairs; `fullness` (0 to 1)
    /// is how much of the start's material is left ([`crate::RulesEval::fullness`]), which
    /// blends each square's two bonuses; `room` is the game's ([`crate::RulesEval::room`]).
    pub fn of(
        &self,
        pieces: &[(Pos, PlayerIx, Kind)],
        fullness: f32,
        room: &Room,
    ) -> Vec<(u32, f32)> {
        let mut features: Vec<(u32, f32)> = Vec::with_capacity(pieces.len() * 4 + 1);
        let mut pressure = 0.0f32;
        let mut board: Vec<Option<PlayerIx>> = vec![None; self.positions];
        for &(pos, owner, _) in pieces {
            if let Some(square) = board.get_mut(pos as usize) {
                *square = Some(owner);
            }
        }
        for &(pos, owner, kind) in pieces {
            let Some(sign) = self.side(owner) else {
                continue;
            };
            let kind_ix = kind as usize;
            if kind_ix >= self.kinds || pos as usize >= self.positions {
                continue; // Not a piece of this game (a positions file of another).
            }
            features.push((kind_ix as u32, sign));
            let space = room.of(owner, kind, pos, |p| {
                board.get(p as usize).is_some_and(Option::is_none)
            });
            if space > 0 {
                features.push((self.room_weight(kind_ix) as u32, sign * space as f32));
            }
            let square = self.canonical[owner as usize][pos as usize] as usize;
            for (full, share) in [(true, fullness), (false, 1.0 - fullness)] {
                if share != 0.0 {
                    let weight = self.square_weight(kind_ix, square, full) as u32;
                    features.push((weight, sign * share));
                }
            }
            let is_royal =
                self.royal.get(owner as usize).and_then(|r| r.get(kind_ix)) == Some(&true);
            if is_royal {
                // Enemy pieces near this royal piece count for the enemy.
                let enemies = self.near[pos as usize]
                    .iter()
                    .filter(|&&n| board[n as usize].is_some_and(|o| o != owner))
                    .count();
                pressure -= sign * enemies as f32;
            }
        }
        if pressure != 0.0 {
            features.push((self.royal_pressure_weight() as u32, pressure));
        }
        features
    }

    /// The evaluation of these weights, for a game of `tables`.
    pub(crate) fn learned(
        &self,
        tables: &Tables,
        weights: &[f64],
        games: usize,
        positions: usize,
    ) -> Learned {
        let round = |w: f64| w.round().clamp(-1e6, 1e6) as i32;
        Learned {
            title: tables.title.clone(),
            games,
            positions,
            values: (0..self.kinds)
                .map(|k| (tables.pieces[k].name.clone(), round(weights[k])))
                .collect(),
            squares: self.table_of(tables, weights, true),
            open_squares: self.table_of(tables, weights, false),
            royal_pressure: round(weights[self.royal_pressure_weight()]),
            room: (0..self.kinds)
                .map(|k| {
                    (
                        tables.pieces[k].name.clone(),
                        round(weights[self.room_weight(k)]),
                    )
                })
                .collect(),
        }
    }

    /// Per piece type: its square bonuses in `weights`, on a full board or an emptied
    /// one.
    fn table_of(&self, tables: &Tables, weights: &[f64], full: bool) -> Vec<(String, Vec<i32>)> {
        (0..self.kinds)
            .map(|k| {
                let row = (0..self.positions).map(|square| {
                    // Every hand square has the shared weight.
                    let shared = match self.hand[square] {
                        true => self.canonical[self.sides[0] as usize][square] as usize,
                        false => square,
                    };
                    let w = weights[self.square_weight(k, shared, full)];
                    w.round().clamp(-1e6, 1e6) as i32
                });
                (tables.pieces[k].name.clone(), row.collect())
            })
            .collect()
    }

    /// Per player, each position as the first side sees it.
    pub fn canonical(&self, player: PlayerIx) -> &[Pos] {
        &self.canonical[player as usize]
    }

    /// The positions within two steps of `pos`.
    pub fn near(&self, pos: Pos) -> &[Pos] {
        &self.near[pos as usize]
    }
}

/// The two players who take turns, in `players` order; `Err` is how many there are
/// when they are not two.
pub fn two_sides(tables: &Tables) -> Result<[PlayerIx; 2], usize> {
    let active: Vec<PlayerIx> = (0..tables.players.len() as PlayerIx)
        .filter(|&p| tables.is_active(p))
        .collect();
    match active[..] {
        [first, second] => Ok([first, second]),
        _ => Err(active.len()),
    }
}

/// Positions reached from `from` in one or two steps along any direction.
fn within_two_steps(tables: &Tables, from: Pos) -> Vec<Pos> {
    let directions = tables.directions.len();
    let step = |p: Pos| {
        (0..directions)
            .map(move |d| tables.links[p as usize * directions + d])
            .filter(|&n| n != NO_POS)
    };
    let mut near: Vec<Pos> = step(from)
        .flat_map(|n| std::iter::once(n).chain(step(n)))
        .collect();
    near.sort_unstable();
    near.dedup();
    near.retain(|&p| p != from);
    near
}

/// The board's symmetry read off the drawing, where the links do not give it (a file
/// whose extra directions, such as one that walks every square for drops, have no
/// mirror): the half turn, or the flip top to bottom or left to right, of the drawn
/// positions that takes the first side's setup onto the second's. Its own inverse, so
/// it serves as [`symmetric_squares`]' answer does.
fn drawn_mirror(tables: &Tables, first: PlayerIx, second: PlayerIx) -> Option<Vec<Pos>> {
    // Twice the centres, to stay in integers.
    let centres: Vec<Option<(i64, i64)>> = (tables.rects.iter())
        .map(|r| r.map(|[l, t, r, b]| (i64::from(l) + i64::from(r), i64::from(t) + i64::from(b))))
        .collect();
    let drawn = centres.iter().flatten();
    let span = (
        drawn.clone().map(|c| c.0).min()? + drawn.clone().map(|c| c.0).max()?,
        drawn.clone().map(|c| c.1).min()? + drawn.map(|c| c.1).max()?,
    );
    let at: std::collections::HashMap<(i64, i64), Pos> = (centres.iter().enumerate())
        .filter_map(|(p, c)| Some(((*c)?, p as Pos)))
        .collect();
    let setup = |player: PlayerIx, map: &dyn Fn(Pos) -> Pos| -> Vec<(Kind, Pos)> {
        let mut pieces: Vec<(Kind, Pos)> = (tables.setup.iter())
            .filter(|s| s.player == player)
            .flat_map(|s| s.positions.iter().map(move |&p| (s.kind, map(p))))
            .collect();
        pieces.sort_unstable();
        pieces
    };
    let theirs = setup(second, &|p| p);
    type Point = (i64, i64);
    let mirrors: [fn(Point, Point) -> Point; 3] = [
        |(x, y), (w, h)| (w - x, h - y),
        |(x, y), (_, h)| (x, h - y),
        |(x, y), (w, _)| (w - x, y),
    ];
    mirrors.iter().find_map(|mirror| {
        // Undrawn positions stay where they are.
        let map: Vec<Pos> = (centres.iter().enumerate())
            .map(|(p, c)| match c {
                Some(c) => at.get(&mirror(*c, span)).copied().unwrap_or(NO_POS),
                None => p as Pos,
            })
            .collect();
        let mine = setup(first, &|p| map[p as usize]);
        let whole = !map.contains(&NO_POS);
        (whole && !theirs.is_empty() && mine == theirs).then_some(map)
    })
}

/// The map of positions that carries `first`'s view of the board onto `second`'s: a
/// step in direction `d` from `x` lands where `second`'s step `d` lands from the image
/// of `x`. Anchored on a piece type both sides set up; `None` when no anchor gives a
/// consistent one-to-one map of the whole board.
fn symmetric_squares(tables: &Tables, first: PlayerIx, second: PlayerIx) -> Option<Vec<Pos>> {
    let positions = tables.positions.len();
    let directions = tables.directions.len();
    let view = |player: PlayerIx, d: usize| {
        tables
            .symmetry
            .get(player as usize)
            .and_then(|s| s.get(d))
            .map_or(d, |&s| s as usize)
    };
    let link = |p: Pos, d: usize| tables.links[p as usize * directions + d];
    let squares_of = |player: PlayerIx| -> Vec<(Kind, Pos)> {
        tables
            .setup
            .iter()
            .filter(|s| s.player == player)
            .flat_map(|s| s.positions.iter().map(move |&p| (s.kind, p)))
            .collect()
    };
    let (mine, theirs) = (squares_of(first), squares_of(second));
    for &(kind, x0) in &mine {
        for &(_, y0) in theirs.iter().filter(|&&(k, _)| k == kind) {
            let mut map = vec![NO_POS; positions];
            map[x0 as usize] = y0;
            let mut queue = vec![x0];
            let mut consistent = true;
            while let Some(x) = queue.pop() {
                let y = map[x as usize];
                for d in 0..directions {
                    let (x2, y2) = (link(x, view(first, d)), link(y, view(second, d)));
                    match (x2 == NO_POS, y2 == NO_POS) {
                        (true, true) => {}
                        (false, false) if map[x2 as usize] == NO_POS => {
                            map[x2 as usize] = y2;
                            queue.push(x2);
                        }
                        (false, false) if map[x2 as usize] == y2 => {}
                        _ => consistent = false,
                    }
                }
            }
            let mut seen = vec![false; positions];
            let one_to_one = map
                .iter()
                .all(|&y| y != NO_POS && !std::mem::replace(&mut seen[y as usize], true));
            if consistent && one_to_one {
                // `map` takes the first side's squares to the second's; the features
                // want the inverse: where the second side's square stands for the first.
                let mut inverse = vec![0; positions];
                for (x, &y) in map.iter().enumerate() {
                    inverse[y as usize] = x as Pos;
                }
                return Some(inverse);
            }
        }
    }
    None
}
