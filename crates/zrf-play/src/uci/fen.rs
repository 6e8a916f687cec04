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
//!   take from; without brackets, the stocks of the start position stay. Where the
//!   rules keep each side's hand as grid positions beside the board (the small shogis,
//!   [`zrf_search::hands`]), those positions are no part of the placement: a held piece
//!   is put on its side's first empty hand position, in the order the rules walk to
//!   find one for a piece taken (the longest run of hand positions one of the side's
//!   directions leads into and along, as `hand (while not-empty? hand)` walks).
//! - A type that no piece has at the start and that exactly one other type becomes by
//!   moving (a tokin, a dragon) is written `+` and that type's letter, as
//!   Fairy-Stockfish writes promoted shogi pieces; its own letter is read as well.
//! - The full-move number sets the turn count; the half-move clock is read and ignored
//!   (Zillions has no fifty-move rule), and written as 0.

use std::collections::HashMap;

use zrf_runtime::{Engine, Gen, Kind, Piece, PlayerIx, Pos, State, Tables, Templates, NO_POS};

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
    /// Per side, its hand positions in the order they fill ([`hand_order`]); empty
    /// where the game keeps no hands on the grid.
    hands: [Vec<Pos>; 2],
    /// Every hand position, whoever's.
    hand_positions: Vec<Pos>,
    /// Per kind: the type it is the promoted form of, written `+` and that type's
    /// letter.
    promoted_from: Vec<Option<Kind>>,
}

impl FenBoard {
    /// The FEN view of a game, or why it has none.
    pub fn new<T: Templates>(engine: &Engine<T>) -> Result<FenBoard, String> {
        let tables = &engine.tables;
        let hand = zrf_search::hands::hand_positions(tables);
        let start = engine.start();
        let mut at: HashMap<(char, u32), Pos> = HashMap::new();
        for (pos, name) in tables.positions.iter().enumerate() {
            if hand[pos] {
                continue;
            }
            let file = name.chars().next().filter(|c| c.is_ascii_lowercase());
            let rank = name.get(1..).and_then(|r| r.parse::<u32>().ok());
            match (file, rank) {
                (Some(file), Some(rank)) if name.len() > 1 => {
                    at.insert((file, rank), pos as Pos);
                }
                // Positions not drawn (a walk's START and END) are no part of the
                // board while nothing stands there.
                _ if tables.rects[pos].is_none() && start.at(pos as Pos).is_none() => {}
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
        let sides = [white, black];
        let letters = piece_letters(tables);
        let promoted_from = promoted_forms(engine, sides, &hand);
        let mut kinds_by_letter = HashMap::new();
        // Promoted forms are written `+` and their base's letter: their own letters are
        // read only where no other type has them.
        let unpromoted_first = (0..tables.kinds())
            .filter(|&k| promoted_from[k].is_none())
            .chain((0..tables.kinds()).filter(|&k| promoted_from[k].is_some()));
        for kind in unpromoted_first {
            let piece = &tables.pieces[kind];
            if piece.dummy {
                continue;
            }
            match kinds_by_letter.get(&letters[kind]) {
                None => {
                    kinds_by_letter.insert(letters[kind], kind as Kind);
                }
                Some(_) if promoted_from[kind].is_some() => {}
                Some(&other) => {
                    return Err(format!(
                        "the piece types {} and {} share the letter {}",
                        tables.pieces[other as usize].name, piece.name, letters[kind]
                    ))
                }
            }
        }
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
            hands: sides.map(|side| hand_order(tables, &hand, side)),
            hand_positions: (0..tables.positions.len() as Pos)
                .filter(|&pos| hand[pos as usize])
                .collect(),
            promoted_from,
        };
        if hand.contains(&true) {
            if let Some(side) = (0..2).find(|&side| board.hands[side].is_empty()) {
                return Err(format!(
                    "its hands are kept as positions beside the board, and no direction of {} \
                     leads into one; use `position startpos moves ...`",
                    tables.players[sides[side] as usize].name
                ));
            }
        }
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
        // Fairy-Stockfish writes a shogi's FEN without castling and en-passant fields:
        // the counters follow the side to move.
        let counters_follow_side = rest
            .get(1)
            .is_some_and(|f| f.chars().all(|c| c.is_ascii_digit()));
        let (rights, en_passant, full_moves) = match counters_follow_side {
            true => ("-", "-", rest.get(2)),
            false => (
                rest.get(1).copied().unwrap_or("-"),
                rest.get(2).copied().unwrap_or("-"),
                rest.get(4),
            ),
        };
        let full_moves = match full_moves {
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

    /// The piece `+base` names: the promoted form of the type lettered `base`.
    fn promoted_piece(&self, base: char) -> Result<Piece, String> {
        let mut piece = self.letter_piece(base)?;
        piece.kind = self
            .promoted_from
            .iter()
            .position(|&from| from == Some(piece.kind))
            .ok_or_else(|| format!("no piece type is the promoted form of {base}"))?
            as Kind;
        Ok(piece)
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
                let mut piece = if c == '+' {
                    let base = chars.next().ok_or("a + ends a rank of the placement")?;
                    self.promoted_piece(base)?
                } else {
                    self.letter_piece(c)?
                };
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

    /// Puts the held pieces in their sides' hands: on hand positions where the game
    /// keeps them on the grid, else in its stocks off the board.
    fn hold(&self, tables: &Tables, state: &mut State, holdings: &str) -> Result<(), String> {
        let grid_hands = !self.hands[0].is_empty();
        let mut stock = vec![0; state.stock.len()];
        for c in holdings.chars().filter(|&c| c != '-') {
            let mut piece = self.letter_piece(c)?;
            piece.attributes = tables.pieces[piece.kind as usize].default_attributes;
            let side = usize::from(c.is_ascii_lowercase());
            if grid_hands {
                let place = (self.hands[side].iter())
                    .find(|&&pos| state.at(pos).is_none())
                    .ok_or_else(|| {
                        format!(
                            "the hand of {} has room for {} pieces",
                            tables.players[self.sides[side] as usize].name,
                            self.hands[side].len()
                        )
                    })?;
                state.put(*place, Some(piece));
            } else {
                stock[tables
                    .layout()
                    .pair(piece.owner as usize, piece.kind as usize)] += 1;
            }
        }
        if !grid_hands {
            state.stock = stock.into();
        }
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
                match piece.and_then(|p| self.piece_name(p)) {
                    Some(name) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push_str(&name);
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
        let grid_hands = !self.hands[0].is_empty();
        if grid_hands
            || tables.setup.iter().any(|s| s.off_board > 0)
            || state.stock.iter().any(|&n| n > 0)
        {
            placement.push('[');
            for (side, &player) in self.sides.iter().enumerate() {
                for (kind, &letter) in self.letters.iter().enumerate() {
                    let on_hand_positions = (self.hand_positions.iter())
                        .filter_map(|&pos| state.at(pos))
                        .filter(|p| p.owner == player && p.kind == kind as Kind)
                        .count();
                    let count = state.stock(tables, player, kind as Kind) as usize
                        + if grid_hands { on_hand_positions } else { 0 };
                    let letter = if side == 0 {
                        letter.to_ascii_uppercase()
                    } else {
                        letter
                    };
                    placement.extend(std::iter::repeat_n(letter, count));
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

    /// How a piece is written: its type's letter, upper case for White, or `+` and the
    /// letter of the type it promoted from; `None` for a piece of neither side.
    fn piece_name(&self, piece: Piece) -> Option<String> {
        let side = self.side_of(piece.owner)?;
        let (prefix, kind) = match self.promoted_from[piece.kind as usize] {
            Some(base) => ("+", base),
            None => ("", piece.kind),
        };
        let letter = self.letters[kind as usize];
        let letter = if side == 0 {
            letter.to_ascii_uppercase()
        } else {
            letter
        };
        Some(format!("{prefix}{letter}"))
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
    let Some(empty) = empty_board_for(engine, player) else {
        return start;
    };
    let home = (tables.setup.iter())
        .filter(|s| s.player == player && s.kind == kind)
        .flat_map(|s| s.positions.iter().copied());
    let elsewhere = (0..tables.positions.len() as Pos).take(256);
    let piece = Piece {
        kind,
        owner: player,
        attributes: start,
    };
    // Bits seen set and seen clear after some move, from the first square with moves.
    let (mut set, mut clear) = (0u32, 0u32);
    for from in home.chain(elsewhere) {
        let moved: Vec<Piece> = lone_moves(engine, &empty, piece, from)
            .into_iter()
            .filter(|p| p.kind == kind && p.owner == player)
            .collect();
        if moved.is_empty() {
            continue;
        }
        for after in moved {
            set |= after.attributes;
            clear |= !after.attributes;
        }
        // An attribute every move leaves at one value takes it; others keep their start.
        let settled_set = set & !clear;
        let settled_clear = clear & !set;
        return (start | settled_set) & !settled_clear;
    }
    start
}

/// Per kind, the type it is the promoted form of: no piece of it stands anywhere at the
/// start, and exactly one type that does becomes it by moving, for either side, from
/// some board square (not `hand`) of an otherwise empty board.
fn promoted_forms<T: Templates>(
    engine: &Engine<T>,
    sides: [PlayerIx; 2],
    hand: &[bool],
) -> Vec<Option<Kind>> {
    let tables = &engine.tables;
    let at_start = |kind: Kind| {
        (tables.setup.iter())
            .any(|s| s.kind == kind && (!s.positions.is_empty() || s.off_board > 0))
    };
    let mut sources: Vec<Vec<Kind>> = vec![Vec::new(); tables.kinds()];
    for side in sides {
        let Some(empty) = empty_board_for(engine, side) else {
            continue;
        };
        for kind in (0..tables.kinds() as Kind).filter(|&k| at_start(k)) {
            let piece = Piece {
                kind,
                owner: side,
                attributes: tables.pieces[kind as usize].default_attributes,
            };
            let squares = (0..tables.positions.len() as Pos).filter(|&p| !hand[p as usize]);
            for from in squares.take(256) {
                for after in lone_moves(engine, &empty, piece, from) {
                    let becomes = &mut sources[after.kind as usize];
                    if after.kind != kind && !becomes.contains(&kind) {
                        becomes.push(kind);
                    }
                }
            }
        }
    }
    (sources.into_iter().enumerate())
        .map(|(kind, from)| match from[..] {
            [base] if !at_start(kind as Kind) => Some(base),
            _ => None,
        })
        .collect()
}

/// The board emptied, with `player` to move; `None` when it never moves.
fn empty_board_for<T: Templates>(engine: &Engine<T>, player: PlayerIx) -> Option<State> {
    let tables = &engine.tables;
    let turn =
        (0..(2 * tables.turns.len() as u32 + 2)).find(|&n| tables.turn(n).player == player)?;
    let mut empty = start_keeping(engine, |_| false);
    empty.turn = turn;
    Some(empty)
}

/// `piece` as it stands after each of its turns from `from` on `empty` (a board with
/// nothing else on it): its type, owner and attributes where the turn leaves it.
fn lone_moves<T: Templates>(
    engine: &Engine<T>,
    empty: &State,
    piece: Piece,
    from: Pos,
) -> Vec<Piece> {
    let tables = &engine.tables;
    let gen = Gen {
        tables,
        templates: &engine.templates,
    };
    let mut board = empty.clone();
    board.put(from, Some(piece));
    gen.pseudo_legal(&board, tables.turn(board.turn))
        .iter()
        .filter_map(|mv| {
            let mut after = board.clone();
            for step in &mv.steps {
                after.apply_step(tables, step);
            }
            after.at(mv.steps.last()?.to)
        })
        .collect()
}

/// The order in which `player`'s hand positions fill: the longest run of them that one
/// of its directions (as it sees them) leads into from outside the hand and then
/// along. Rules files that keep hands on the grid walk so to the first empty position
/// for a piece taken (`hand (while not-empty? hand)`), so pieces put there in this order
/// stand where captures would have put them.
fn hand_order(tables: &Tables, hand: &[bool], player: PlayerIx) -> Vec<Pos> {
    let directions = tables.directions.len();
    let positions = tables.positions.len();
    let in_hand = |pos: Pos| pos != NO_POS && hand[pos as usize];
    let mut best: Vec<Pos> = Vec::new();
    for dir in 0..directions {
        let dir = (tables.symmetry.get(player as usize))
            .and_then(|s| s.get(dir))
            .map_or(dir, |&d| d as usize);
        let link = |pos: Pos| tables.links[pos as usize * directions + dir];
        let mut entries: Vec<Pos> = (0..positions as Pos)
            .filter(|&pos| !hand[pos as usize])
            .map(link)
            .filter(|&entry| in_hand(entry))
            .collect();
        entries.sort_unstable();
        entries.dedup();
        for entry in entries {
            let mut run = vec![entry];
            let mut next = link(entry);
            while in_hand(next) && !run.contains(&next) {
                run.push(next);
                next = link(next);
            }
            if run.len() > best.len() {
                best = run;
            }
        }
    }
    best
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
