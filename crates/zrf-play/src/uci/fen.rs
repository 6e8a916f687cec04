//! Forsyth-Edwards Notation for games whose board is a rectangle of squares named like
//! `a1` and whose two sides' piece types have distinct letters ([`piece_letters`]).
//!
//! Zillions keeps no castling rights or en-passant square: a rules file expresses them
//! through what its templates test, so a FEN is carried onto the game's own state:
//! - A piece standing on a square the board setup gives its type and owner keeps the
//!   type's starting attributes; elsewhere it gets the attributes its own moves write
//!   (found by running its templates on an otherwise empty board: a rook's
//!   `never-moved?` becomes false).
//! - Castling rights (`KQkq`, or the rooks' files as in Shredder-FEN and X-FEN) decide
//!   whether the royal piece and each rook (the type lettered `r`) keep their starting
//!   attributes. A FEN that withholds a right the rules would still grant (a file whose
//!   castling tests no attribute) is refused. Rights are written for a side that can
//!   castle at all (its royal piece, alone with its rooks, has a turn that moves one of
//!   them too) while its royal piece and a rook stand at home as they started.
//! - The en-passant square becomes the last move: the pawn in front of it arrived from
//!   the square behind it (what `last-from?` and `last-to?` test).
//! - Holdings in brackets (`[Pp]`, as Fairy-Stockfish writes them) set the stocks drops
//!   take from; without brackets, the stocks of the start position stay.
//! - The full-move number sets the turn count; the half-move clock is read and ignored
//!   (Zillions has no fifty-move rule), and written as 0.

use std::collections::HashMap;

use zrf_runtime::{Engine, Gen, Kind, Piece, PlayerIx, Pos, State, Tables, Templates};

use crate::names::{castling, piece_letters};

/// What a game needs for FEN, worked out once from its tables.
pub struct FenBoard {
    files: Vec<char>,
    ranks: Vec<u32>,
    /// `squares[rank index * files + file index]`.
    squares: Vec<Pos>,
    /// Where each position is: (file index, rank index).
    coordinates: HashMap<Pos, (usize, usize)>,
    /// The two sides: White (upper case), then Black.
    sides: [PlayerIx; 2],
    letters: Vec<char>,
    /// Per kind: whether it is a dummy or shares its letter with another type.
    kinds_by_letter: HashMap<char, Kind>,
    /// Per side and kind, the attributes its pieces have once they have moved.
    moved_attributes: Vec<Vec<u32>>,
    /// Per side, whether it can castle at all: its royal piece, alone on the board with
    /// its rooks where the setup puts them, moves together with one of them.
    castles: [bool; 2],
}

impl FenBoard {
    /// The FEN view of a game, or why it has none.
    pub fn new<T: Templates>(engine: &Engine<T>) -> Result<FenBoard, String> {
        let tables = &engine.tables;
        let hands = zrf_search::hands::hand_positions(tables);
        if let Some(hand) = hands.iter().position(|&h| h) {
            return Err(format!(
                "its hands are kept as positions beside the board ({}), which FEN has no \
                 place for; use `position startpos moves ...`",
                tables.positions[hand]
            ));
        }
        let mut at: HashMap<(char, u32), Pos> = HashMap::new();
        for (pos, name) in tables.positions.iter().enumerate() {
            let file = name.chars().next().filter(|c| c.is_ascii_lowercase());
            let rank = name.get(1..).and_then(|r| r.parse::<u32>().ok());
            match (file, rank) {
                (Some(file), Some(rank)) if name.len() > 1 => {
                    at.insert((file, rank), pos as Pos);
                }
                _ => {
                    return Err(format!(
                        "the board's position {name:?} is not named like a1"
                    ))
                }
            }
        }
        let mut files: Vec<char> = at.keys().map(|&(f, _)| f).collect();
        let mut ranks: Vec<u32> = at.keys().map(|&(_, r)| r).collect();
        files.sort_unstable();
        files.dedup();
        ranks.sort_unstable();
        ranks.dedup();
        let mut squares = Vec::new();
        let mut coordinates = HashMap::new();
        for (r, &rank) in ranks.iter().enumerate() {
            for (f, &file) in files.iter().enumerate() {
                let Some(&pos) = at.get(&(file, rank)) else {
                    return Err(format!(
                        "the board is not a rectangle: it has no square {file}{rank}"
                    ));
                };
                squares.push(pos);
                coordinates.insert(pos, (f, r));
            }
        }
        let [white, black] = zrf_search::learn::two_sides(tables).map_err(|players| {
            format!("FEN is for two sides; this game has {players} players who move")
        })?;
        let letters = piece_letters(tables);
        let mut kinds_by_letter = HashMap::new();
        for (kind, piece) in tables.pieces.iter().enumerate() {
            if piece.dummy {
                continue;
            }
            if let Some(other) = kinds_by_letter.insert(letters[kind], kind as Kind) {
                return Err(format!(
                    "the piece types {} and {} share the letter {}",
                    tables.pieces[other as usize].name, piece.name, letters[kind]
                ));
            }
        }
        let sides = [white, black];
        let moved_attributes = sides
            .iter()
            .map(|&side| {
                (0..tables.kinds() as Kind)
                    .map(|kind| attributes_after_moving(engine, side, kind))
                    .collect()
            })
            .collect();
        let mut board = FenBoard {
            files,
            ranks,
            squares,
            coordinates,
            sides,
            letters,
            kinds_by_letter,
            moved_attributes,
            castles: [false; 2],
        };
        board.castles = [0, 1].map(|side| board.can_castle(engine, side));
        Ok(board)
    }

    /// Whether `side`'s royal piece, with only its rooks on the board (where the setup
    /// puts them), has a castling turn.
    fn can_castle<T: Templates>(&self, engine: &Engine<T>, side: usize) -> bool {
        let tables = &engine.tables;
        let player = self.sides[side];
        let rook = self.kinds_by_letter.get(&'r').copied();
        let royal = &tables.royal[player as usize];
        let mut state = start_keeping(engine, |p| {
            p.owner == player && (Some(p.kind) == rook || royal.get(p.kind as usize) == Some(&true))
        });
        let Ok(turn_index) = self.turn_for(tables, side, 1) else {
            return false;
        };
        state.turn = turn_index;
        let gen = Gen {
            tables,
            templates: &engine.templates,
        };
        let turn = tables.turn(state.turn);
        gen.pseudo_legal(&state, turn)
            .iter()
            .any(|mv| castling(tables, &state, player, mv).is_some())
    }

    fn square_name<'t>(&self, tables: &'t Tables, pos: Pos) -> &'t str {
        &tables.positions[pos as usize]
    }

    fn square(&self, file: usize, rank: usize) -> Option<Pos> {
        (file < self.files.len() && rank < self.ranks.len())
            .then(|| self.squares[rank * self.files.len() + file])
    }

    fn side_of(&self, player: PlayerIx) -> Option<usize> {
        self.sides.iter().position(|&s| s == player)
    }

    /// Whether `piece` stands on a square the setup gives its type and owner.
    fn at_home(tables: &Tables, pos: Pos, piece: Piece) -> bool {
        tables
            .setup
            .iter()
            .any(|s| s.player == piece.owner && s.kind == piece.kind && s.positions.contains(&pos))
    }

    /// The position a FEN describes, given as its space-separated fields.
    pub fn read<T: Templates>(&self, engine: &Engine<T>, fields: &[&str]) -> Result<State, String> {
        let tables = &engine.tables;
        let [placement, rest @ ..] = fields else {
            return Err("the FEN is empty".into());
        };
        let side = match rest.first().copied().unwrap_or("w") {
            "w" => 0,
            "b" => 1,
            other => return Err(format!("the side to move is {other:?}, not w or b")),
        };
        let rights = rest.get(1).copied().unwrap_or("-");
        let en_passant = rest.get(2).copied().unwrap_or("-");
        let full_moves = match rest.get(4) {
            None => 1,
            Some(n) => n
                .parse::<u32>()
                .ok()
                .filter(|&n| (1..=1_000_000).contains(&n))
                .ok_or_else(|| format!("the full-move number {n:?} is not a number from 1"))?,
        };
        let mut state = start_keeping(engine, |_| false);
        let (board, holdings) = match placement.split_once('[') {
            Some((board, hand)) => (board, Some(hand.trim_end_matches(']'))),
            None => (*placement, None),
        };
        self.place(tables, &mut state, board)?;
        if let Some(holdings) = holdings {
            self.hold(tables, &mut state, holdings)?;
        }
        self.grant_rights(tables, &mut state, rights)?;
        state.turn = self.turn_for(tables, side, full_moves)?;
        if en_passant != "-" {
            self.set_en_passant(tables, &mut state, side, en_passant)?;
        }
        self.check_rights_are_kept(engine, &state, rights)?;
        Ok(state)
    }

    fn letter_piece(&self, letter: char) -> Result<Piece, String> {
        let kind = *self
            .kinds_by_letter
            .get(&letter.to_ascii_lowercase())
            .ok_or_else(|| format!("no piece type has the letter {letter}"))?;
        let side = usize::from(letter.is_ascii_lowercase());
        Ok(Piece {
            kind,
            owner: self.sides[side],
            attributes: 0,
        })
    }

    fn place(&self, tables: &Tables, state: &mut State, board: &str) -> Result<(), String> {
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != self.ranks.len() {
            return Err(format!(
                "the placement has {} ranks; the board has {}",
                rows.len(),
                self.ranks.len()
            ));
        }
        for (row, text) in rows.iter().enumerate() {
            let rank = self.ranks.len() - 1 - row;
            let mut file = 0;
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(digit) = c.to_digit(10) {
                    let mut empty = digit as usize;
                    while let Some(more) = chars.peek().and_then(|c| c.to_digit(10)) {
                        empty = empty * 10 + more as usize;
                        chars.next();
                    }
                    file += empty;
                    continue;
                }
                if c == '~' {
                    continue; // Fairy-Stockfish marks promoted pieces; the type says it here.
                }
                let mut piece = self.letter_piece(c)?;
                let pos = self
                    .square(file, rank)
                    .ok_or_else(|| format!("rank {} of the placement is too long", row + 1))?;
                piece.attributes = if Self::at_home(tables, pos, piece) {
                    tables.pieces[piece.kind as usize].default_attributes
                } else {
                    self.moved(piece)
                };
                state.put(pos, Some(piece));
                file += 1;
            }
            if file != self.files.len() {
                return Err(format!(
                    "rank {} of the placement has {file} squares; the board has {}",
                    row + 1,
                    self.files.len()
                ));
            }
        }
        Ok(())
    }

    fn moved(&self, piece: Piece) -> u32 {
        let side = self.side_of(piece.owner).unwrap_or(0);
        self.moved_attributes[side][piece.kind as usize]
    }

    fn hold(&self, tables: &Tables, state: &mut State, holdings: &str) -> Result<(), String> {
        let mut stock = vec![0; state.stock.len()];
        for c in holdings.chars().filter(|&c| c != '-') {
            let piece = self.letter_piece(c)?;
            stock[tables
                .layout()
                .pair(piece.owner as usize, piece.kind as usize)] += 1;
        }
        state.stock = stock.into();
        Ok(())
    }

    /// The royal pieces of `side` on their home squares: these keep their starting
    /// attributes only while the side may castle.
    fn castlers(&self, tables: &Tables, state: &State, side: usize) -> Vec<(Pos, Piece)> {
        let player = self.sides[side];
        let royal = &tables.royal[player as usize];
        state
            .pieces_of(player)
            .filter(|&(pos, piece)| {
                royal.get(piece.kind as usize) == Some(&true) && Self::at_home(tables, pos, piece)
            })
            .collect()
    }

    /// The pieces on the royal piece's rank, on home squares, that a right names: `K`
    /// the outermost toward the last file, `Q` toward the first, a file letter the one
    /// on that file (Shredder-FEN, X-FEN).
    fn named_partner(
        &self,
        tables: &Tables,
        state: &State,
        side: usize,
        right: char,
    ) -> Option<Pos> {
        let (king_pos, _) = *self.castlers(tables, state, side).first()?;
        let (king_file, rank) = self.coordinates[&king_pos];
        let rook = *self.kinds_by_letter.get(&'r')?;
        let player = self.sides[side];
        let is_rook_at = |file: usize| {
            let pos = self.square(file, rank)?;
            state
                .at(pos)
                .filter(|p| p.owner == player && p.kind == rook)
                .map(|_| pos)
        };
        match right.to_ascii_lowercase() {
            'k' => (king_file + 1..self.files.len()).rev().find_map(is_rook_at),
            'q' => (0..king_file).find_map(is_rook_at),
            file => is_rook_at(self.files.iter().position(|&f| f == file)?),
        }
    }

    /// Gives the royal pieces and the rooks their moved attributes unless a right keeps
    /// them as they started.
    fn grant_rights(&self, tables: &Tables, state: &mut State, rights: &str) -> Result<(), String> {
        if rights != "-" && !rights.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(format!(
                "the castling rights {rights:?} are not letters or -"
            ));
        }
        for side in 0..2 {
            let own: Vec<char> = rights
                .chars()
                .filter(|c| (side == 0) == c.is_ascii_uppercase())
                .collect();
            let kept: Vec<Pos> = own
                .iter()
                .filter_map(|&right| self.named_partner(tables, state, side, right))
                .collect();
            let rook = self.kinds_by_letter.get(&'r').copied();
            let player = self.sides[side];
            let unkept_rooks: Vec<(Pos, Piece)> = state
                .pieces_of(player)
                .filter(|&(pos, piece)| Some(piece.kind) == rook && !kept.contains(&pos))
                .collect();
            let mut changed = unkept_rooks;
            if own.is_empty() {
                changed.extend(self.castlers(tables, state, side));
            }
            for (pos, piece) in changed {
                let moved = Piece {
                    attributes: self.moved(piece),
                    ..piece
                };
                state.put(pos, Some(moved));
            }
        }
        Ok(())
    }

    /// The first turn, from the full-move number on, at which `side` moves.
    fn turn_for(&self, tables: &Tables, side: usize, full_moves: u32) -> Result<u32, String> {
        let wanted = self.sides[side];
        let preferred = 2 * (full_moves - 1) + side as u32;
        let cycle = (tables.turns.len() + 1) as u32;
        (preferred..preferred + 2 * cycle)
            .find(|&n| {
                let turn = tables.turn(n);
                turn.player == wanted
            })
            .ok_or_else(|| {
                format!(
                    "{} never moves in this game's turn order",
                    tables.players[wanted as usize].name
                )
            })
    }

    /// The last move that makes `square` the en-passant square: the other side's pawn
    /// passed over it onto the square in front of it.
    fn set_en_passant(
        &self,
        tables: &Tables,
        state: &mut State,
        side: usize,
        square: &str,
    ) -> Result<(), String> {
        let pos = tables
            .positions
            .iter()
            .position(|p| p == square)
            .ok_or_else(|| format!("the en-passant square {square} is not on the board"))?;
        let (file, rank) = self.coordinates[&(pos as Pos)];
        // White to move: Black's pawn went from the rank above to the rank below.
        let (from, to) = match side {
            0 => (rank.checked_add(1), rank.checked_sub(1)),
            _ => (rank.checked_sub(1), rank.checked_add(1)),
        };
        let from = from.and_then(|r| self.square(file, r));
        let to = to.and_then(|r| self.square(file, r));
        let (Some(from), Some(to)) = (from, to) else {
            return Err(format!(
                "the en-passant square {square} is on the board's edge"
            ));
        };
        let pawn = self.kinds_by_letter.get(&'p');
        let mover = self.sides[1 - side];
        match state.at(to) {
            Some(piece) if Some(&piece.kind) == pawn && piece.owner == mover => {}
            _ => {
                return Err(format!(
                    "no pawn of the side that just moved stands in front of the en-passant square {square}"
                ))
            }
        }
        state.last_from = Some(from);
        state.last_to = Some(to);
        Ok(())
    }

    /// Refuses a FEN whose castling rights the rules cannot keep: a castling turn the
    /// rules generate (for either side) that no right grants.
    fn check_rights_are_kept<T: Templates>(
        &self,
        engine: &Engine<T>,
        state: &State,
        rights: &str,
    ) -> Result<(), String> {
        let tables = &engine.tables;
        for side in 0..2 {
            let mut position = state.clone();
            position.turn = self.turn_for(tables, side, 1)?;
            let gen = Gen {
                tables,
                templates: &engine.templates,
            };
            let turn = tables.turn(position.turn);
            for mv in gen.pseudo_legal(&position, turn) {
                let Some(castling) = castling(tables, &position, turn.player, &mv) else {
                    continue;
                };
                let (king, partner) = (castling.royal_from, castling.partner_from);
                let granted = rights.chars().any(|right| {
                    (side == 0) == right.is_ascii_uppercase()
                        && self.named_partner(tables, &position, side, right) == Some(partner)
                });
                if !granted {
                    return Err(format!(
                        "the castling rights {rights:?} forbid {} castling with {} (the royal piece on {}), \
                         which this game's rules allow: they keep no such right",
                        tables.players[self.sides[side] as usize].name,
                        self.square_name(tables, partner),
                        self.square_name(tables, king),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The FEN of `state`.
    pub fn write<T: Templates>(&self, engine: &Engine<T>, state: &State) -> String {
        let tables = &engine.tables;
        let mut rows = Vec::new();
        for rank in (0..self.ranks.len()).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..self.files.len() {
                let piece = self.square(file, rank).and_then(|pos| state.at(pos));
                let letter = piece.and_then(|p| {
                    let side = self.side_of(p.owner)?;
                    let letter = self.letters[p.kind as usize];
                    Some(if side == 0 {
                        letter.to_ascii_uppercase()
                    } else {
                        letter
                    })
                });
                match letter {
                    Some(letter) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(letter);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let mut placement = rows.join("/");
        if tables.setup.iter().any(|s| s.off_board > 0) || state.stock.iter().any(|&n| n > 0) {
            placement.push('[');
            for (side, &player) in self.sides.iter().enumerate() {
                for (kind, &letter) in self.letters.iter().enumerate() {
                    let count = state.stock(tables, player, kind as Kind);
                    let letter = if side == 0 {
                        letter.to_ascii_uppercase()
                    } else {
                        letter
                    };
                    placement.extend(std::iter::repeat_n(letter, count as usize));
                }
            }
            placement.push(']');
        }
        let mover = engine.turn(state).player;
        let side = if self.side_of(mover) == Some(1) {
            "b"
        } else {
            "w"
        };
        let rights = self.rights(tables, state);
        let en_passant = self.en_passant(tables, state);
        let full_moves = state.turn / 2 + 1;
        format!("{placement} {side} {rights} {en_passant} 0 {full_moves}")
    }

    /// The rights kept: a royal piece and a rook on their home squares with their
    /// starting attributes, `K`/`Q` for the outermost rooks, else the rook's file.
    fn rights(&self, tables: &Tables, state: &State) -> String {
        let mut rights = String::new();
        let rook = self.kinds_by_letter.get(&'r').copied();
        for side in (0..2).filter(|&side| self.castles[side]) {
            let fresh = |pos: Pos, piece: Piece| {
                Self::at_home(tables, pos, piece)
                    && piece.attributes == tables.pieces[piece.kind as usize].default_attributes
            };
            let Some(&(king_pos, _)) = self
                .castlers(tables, state, side)
                .iter()
                .find(|&&(pos, piece)| fresh(pos, piece))
            else {
                continue;
            };
            let (king_file, rank) = self.coordinates[&king_pos];
            let player = self.sides[side];
            let rook_at = |file: usize| {
                let pos = self.square(file, rank)?;
                let piece = state.at(pos)?;
                (piece.owner == player && Some(piece.kind) == rook && fresh(pos, piece))
                    .then_some(file)
            };
            let mut found = Vec::new();
            let outer_king_side = (king_file + 1..self.files.len())
                .rev()
                .find(|&f| rook_at(f).is_some());
            for file in (king_file + 1..self.files.len()).rev().filter_map(rook_at) {
                found.push(if Some(file) == outer_king_side {
                    'k'
                } else {
                    self.files[file]
                });
            }
            let outer_queen_side = (0..king_file).find(|&f| rook_at(f).is_some());
            for file in (0..king_file).filter_map(rook_at) {
                found.push(if Some(file) == outer_queen_side {
                    'q'
                } else {
                    self.files[file]
                });
            }
            rights.extend(found.into_iter().map(|c| {
                if side == 0 {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            }));
        }
        if rights.is_empty() {
            rights.push('-');
        }
        rights
    }

    /// The square a pawn passed over on the last move, if it moved two squares along a
    /// file.
    fn en_passant(&self, tables: &Tables, state: &State) -> String {
        let (Some(from), Some(to)) = (state.last_from, state.last_to) else {
            return "-".into();
        };
        let pawn = self.kinds_by_letter.get(&'p');
        let is_pawn = state.at(to).is_some_and(|p| Some(&p.kind) == pawn);
        let (Some(&(file_a, rank_a)), Some(&(file_b, rank_b))) =
            (self.coordinates.get(&from), self.coordinates.get(&to))
        else {
            return "-".into();
        };
        if !is_pawn || file_a != file_b || rank_a.abs_diff(rank_b) != 2 {
            return "-".into();
        }
        self.square(file_a, rank_a.min(rank_b) + 1).map_or_else(
            || "-".into(),
            |pos| self.square_name(tables, pos).to_string(),
        )
    }
}

/// The attributes a piece of `kind` of `player` has after its own moves: its templates
/// run from its setup squares (else from any square) on an otherwise empty board, each
/// attribute that every such move leaves at one value other than its start taking it.
fn attributes_after_moving<T: Templates>(engine: &Engine<T>, player: PlayerIx, kind: Kind) -> u32 {
    let tables = &engine.tables;
    let start = tables.pieces[kind as usize].default_attributes;
    let Some(turn_index) =
        (0..(2 * tables.turns.len() as u32 + 2)).find(|&n| tables.turn(n).player == player)
    else {
        return start;
    };
    let mut empty = start_keeping(engine, |_| false);
    empty.turn = turn_index;
    let home: Vec<Pos> = tables
        .setup
        .iter()
        .filter(|s| s.player == player && s.kind == kind)
        .flat_map(|s| s.positions.iter().copied())
        .collect();
    let elsewhere = (0..tables.positions.len() as Pos).take(256);
    let gen = Gen {
        tables,
        templates: &engine.templates,
    };
    let piece = Piece {
        kind,
        owner: player,
        attributes: start,
    };
    // Bits seen set and seen clear after some move.
    let (mut set, mut clear, mut moves) = (0u32, 0u32, 0usize);
    for from in home.into_iter().chain(elsewhere) {
        let mut board = empty.clone();
        board.put(from, Some(piece));
        for mv in gen.pseudo_legal(&board, tables.turn(board.turn)) {
            let mut after = board.clone();
            for step in &mv.steps {
                after.apply_step(tables, step);
            }
            let Some(moved) = mv.steps.last().and_then(|s| after.at(s.to)) else {
                continue;
            };
            if moved.kind == kind && moved.owner == player {
                set |= moved.attributes;
                clear |= !moved.attributes;
                moves += 1;
            }
        }
        if moves > 0 {
            break;
        }
    }
    if moves == 0 {
        return start;
    }
    // An attribute every move leaves at one value takes it; others keep their start.
    let settled_set = set & !clear;
    let settled_clear = clear & !set;
    (start | settled_set) & !settled_clear
}

/// The start position with only the pieces on the board that `keep` keeps.
fn start_keeping<T: Templates>(engine: &Engine<T>, keep: impl Fn(Piece) -> bool) -> State {
    let mut state = engine.start();
    for pos in 0..engine.tables.positions.len() as Pos {
        if !state.at(pos).is_some_and(&keep) {
            state.put(pos, None);
        }
    }
    state
}
