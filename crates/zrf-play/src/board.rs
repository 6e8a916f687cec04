//! Pictures of a position: a text board for terminals and an SVG drawing, both laid out
//! from the rectangles the rules give each position (grids, offset grids of hex and
//! shogi boards, explicit `positions`). Pieces are drawn from their names: standard
//! chess names get chess glyphs, others their first free letter, one colour (or letter
//! case, in text) per player; pieces off the board are listed beside it, and hands that
//! the rules keep on the grid (outside a `board-zone`) are drawn apart from the board.

use std::collections::BTreeMap;
use std::fmt::Write;

use zrf_runtime::{Kind, Move, Piece, PlayerIx, Pos, State, Tables};

/// Letters for piece types past the 26 of the Latin alphabet: they too have a small
/// form for the second player.
const GREEK_CAPITALS: &str = "ΓΔΘΛΞΠΣΦΨΩ";

/// How each piece type is drawn: a chess glyph pair, or a letter.
struct Glyphs {
    /// Per piece type: its letter (uppercase), and chess glyphs (first player's,
    /// second's) when its name is a chess piece's.
    letters: Vec<char>,
    chess: Vec<Option<(char, char)>>,
}

impl Glyphs {
    fn new(tables: &Tables) -> Glyphs {
        let mut letters: Vec<char> = Vec::new();
        for piece in &tables.pieces {
            let preferred = match piece.name.to_ascii_lowercase().as_str() {
                "knight" => Some('N'),
                _ => None,
            };
            // Letters only: a digit beside counts of seeds or stones reads as a number.
            let candidates = preferred.into_iter().chain(
                piece
                    .name
                    .chars()
                    .filter(char::is_ascii_alphabetic)
                    .map(|c| c.to_ascii_uppercase()),
            );
            let free = candidates
                .clone()
                .chain('A'..='Z')
                .chain(GREEK_CAPITALS.chars())
                .find(|c| !letters.contains(c))
                .unwrap_or('?');
            letters.push(free);
        }
        let chess = tables
            .pieces
            .iter()
            .map(|p| match p.name.to_ascii_lowercase().as_str() {
                "king" => Some(('♔', '♚')),
                "queen" => Some(('♕', '♛')),
                "rook" => Some(('♖', '♜')),
                "bishop" => Some(('♗', '♝')),
                "knight" => Some(('♘', '♞')),
                "pawn" => Some(('♙', '♟')),
                _ => None,
            })
            .collect();
        Glyphs { letters, chess }
    }

    /// The piece's mark in a text board: a chess glyph for the first two players,
    /// else its letter, uppercase for the first player and lowercase for the others.
    fn text(&self, piece: Piece) -> String {
        let kind = piece.kind as usize;
        match (self.chess.get(kind).copied().flatten(), piece.owner) {
            (Some((white, _)), 0) => white.to_string(),
            (Some((_, black)), 1) => black.to_string(),
            _ => {
                let letter = self.letters.get(kind).copied().unwrap_or('?');
                match piece.owner {
                    0 => letter.to_string(),
                    1 => letter.to_lowercase().to_string(),
                    n => format!("{}{n}", letter.to_lowercase()),
                }
            }
        }
    }

    /// The piece's label in an SVG drawing (the colour tells the owner).
    fn label(&self, kind: Kind) -> String {
        let kind = kind as usize;
        match self.chess.get(kind).copied().flatten() {
            Some((_, black)) => black.to_string(),
            None => self.letters.get(kind).copied().unwrap_or('?').to_string(),
        }
    }
}

/// The positions with rectangles, in rows and columns by their centres.
struct Layout {
    /// `(position, column, row)` of every drawn position.
    cells: Vec<(Pos, usize, usize)>,
    columns: usize,
    rows: usize,
    /// Per position: whether it is a hand ([`crate::hands`]), drawn apart.
    hand: Vec<bool>,
}

impl Layout {
    fn new(tables: &Tables) -> Layout {
        let centre = |r: &[i32; 4]| {
            (
                i64::from(r[0]) + i64::from(r[2]),
                i64::from(r[1]) + i64::from(r[3]),
            )
        };
        let drawn: Vec<(Pos, (i64, i64))> = tables
            .rects
            .iter()
            .enumerate()
            .filter_map(|(p, r)| Some((p as Pos, centre(r.as_ref()?))))
            .collect();
        let index = |values: Vec<i64>| -> BTreeMap<i64, usize> {
            let mut values = values;
            values.sort_unstable();
            values.dedup();
            values
                .into_iter()
                .enumerate()
                .map(|(i, v)| (v, i))
                .collect()
        };
        let xs = index(drawn.iter().map(|d| d.1 .0).collect());
        let ys = index(drawn.iter().map(|d| d.1 .1).collect());
        Layout {
            cells: drawn
                .iter()
                .map(|&(p, (x, y))| (p, xs[&x], ys[&y]))
                .collect(),
            columns: xs.len(),
            rows: ys.len(),
            hand: zrf_search::hands::hand_positions(tables),
        }
    }

    /// The cells of the board proper, hands left out.
    fn board_cells(&self) -> impl Iterator<Item = &(Pos, usize, usize)> {
        self.cells.iter().filter(|c| !self.hand[c.0 as usize])
    }

    /// Per column (`rows == false`) or row: whether it holds hand cells only.
    fn hand_lines(&self, rows: bool) -> Vec<bool> {
        let lines = if rows { self.rows } else { self.columns };
        let mut board = vec![false; lines];
        let mut any = vec![false; lines];
        for &(pos, column, row) in &self.cells {
            let line = if rows { row } else { column };
            any[line] = true;
            board[line] |= !self.hand[pos as usize];
        }
        any.iter().zip(&board).map(|(&a, &b)| a && !b).collect()
    }
}

/// What is off the board: per player with any, `Mark ×5` items.
fn hands(tables: &Tables, state: &State) -> Vec<(PlayerIx, String)> {
    (0..tables.players.len() as PlayerIx)
        .filter_map(|player| {
            let held: Vec<String> = (0..tables.kinds() as Kind)
                .filter_map(|kind| {
                    let count = state.stock(tables, player, kind);
                    (count > 0).then(|| format!("{} ×{count}", tables.pieces[kind as usize].name))
                })
                .collect();
            (!held.is_empty()).then(|| (player, held.join(", ")))
        })
        .collect()
}

fn player_name(tables: &Tables, player: PlayerIx) -> &str {
    tables
        .players
        .get(player as usize)
        .map_or("?", |p| p.name.as_str())
}

/// The common labels of a column or row: the part of its positions' names that they
/// share (files `a`, `b`... and ranks `1`, `2`... on a chess board), if any.
fn shared_label<'t>(names: impl Iterator<Item = &'t str>, first_char: bool) -> String {
    let parts: Vec<&str> = names
        .map(|n| {
            let split = n.char_indices().nth(1).map_or(n.len(), |(i, _)| i);
            if first_char {
                &n[..split]
            } else {
                &n[split..]
            }
        })
        .collect();
    match parts.split_first() {
        Some((first, rest)) if !first.is_empty() && rest.iter().all(|p| p == first) => {
            first.to_string()
        }
        _ => String::new(),
    }
}

/// Whether no label is given twice (lines without one left out).
fn all_different(labels: &[String]) -> bool {
    let mut seen = std::collections::BTreeSet::new();
    labels
        .iter()
        .filter(|l| !l.is_empty())
        .all(|l| seen.insert(l))
}

/// The names along a grid board's edges: ranks beside each row (numbers or single
/// letters, or none), and files under each column when every column has a one-letter
/// file and the rows have ranks.
struct EdgeLabels {
    rows: Vec<String>,
    columns: Option<Vec<String>>,
}

impl EdgeLabels {
    fn new(tables: &Tables, layout: &Layout) -> EdgeLabels {
        let mut column_names: Vec<Vec<&str>> = vec![Vec::new(); layout.columns];
        let mut row_names: Vec<Vec<&str>> = vec![Vec::new(); layout.rows];
        // Hands are labelled by neither their rows nor their columns.
        for &(pos, column, row) in layout.board_cells() {
            column_names[column].push(&tables.positions[pos as usize]);
            row_names[row].push(&tables.positions[pos as usize]);
        }
        let labelled = |names: &Vec<&str>| !names.is_empty();
        let mut rows: Vec<String> = row_names
            .iter()
            .map(|names| shared_label(names.iter().copied(), false))
            .collect();
        // Ranks are numbers or single letters; anything else is not a rank.
        // A label on two rows names neither (two boards side by side, hex rows).
        let ranks = rows.iter().zip(&row_names).all(|(l, names)| {
            !labelled(names)
                || !l.is_empty()
                    && (l.chars().all(|c| c.is_ascii_digit()) || l.chars().count() == 1)
        }) && all_different(&rows);
        if !ranks {
            rows.iter_mut().for_each(String::clear);
        }
        let columns: Vec<String> = column_names
            .iter()
            .map(|names| shared_label(names.iter().copied(), true))
            .collect();
        let files = ranks
            && columns
                .iter()
                .zip(&column_names)
                .all(|(c, names)| !labelled(names) || c.chars().count() == 1)
            && all_different(&columns);
        EdgeLabels {
            rows,
            columns: files.then_some(columns),
        }
    }
}

/// The position as text: a board of one cell per position for games whose positions
/// have rectangles (others list their occupied positions), the pieces off the board,
/// a key to the letters, and who moves.
pub fn text_board(tables: &Tables, state: &State, to_move: PlayerIx) -> String {
    let glyphs = Glyphs::new(tables);
    let layout = Layout::new(tables);
    let mut text = String::new();
    if layout.cells.is_empty() {
        for (pos, square) in state.board().iter().enumerate() {
            if let Some(piece) = square {
                let _ = writeln!(
                    text,
                    "{}: {} {}",
                    tables.positions[pos],
                    player_name(tables, piece.owner),
                    tables.pieces[piece.kind as usize].name
                );
            }
        }
    } else {
        let width = if tables.players.len() > 2 { 3 } else { 2 };
        let mut grid = vec![vec![None::<String>; layout.columns]; layout.rows];
        for &(pos, column, row) in &layout.cells {
            let mark = state.at(pos).map_or(".".to_string(), |p| glyphs.text(p));
            grid[row][column] = Some(mark);
        }
        let labels = EdgeLabels::new(tables, &layout);
        let row_labels = labels.rows;
        let margin = row_labels
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0);
        // A blank column (or line) where hands meet the board.
        let gaps = |hand: Vec<bool>| -> Vec<bool> {
            (0..hand.len())
                .map(|i| i > 0 && hand[i] != hand[i - 1])
                .collect()
        };
        let (column_gaps, row_gaps) = (
            gaps(layout.hand_lines(false)),
            gaps(layout.hand_lines(true)),
        );
        let line_of = |label: &str, marks: &mut dyn Iterator<Item = &str>| -> String {
            let mut line = match margin {
                0 => String::new(),
                _ => format!("{label:>margin$} "),
            };
            for (column, mark) in marks.enumerate() {
                if column_gaps[column] {
                    line.push_str(&" ".repeat(width));
                }
                let _ = write!(line, "{mark:<width$}");
            }
            format!("{}\n", line.trim_end())
        };
        for (row, cells) in grid.iter().enumerate() {
            if row_gaps[row] {
                text.push('\n');
            }
            let marks = &mut cells.iter().map(|c| c.as_deref().unwrap_or(" "));
            text.push_str(&line_of(&row_labels[row], marks));
        }
        if let Some(columns) = &labels.columns {
            text.push_str(&line_of("", &mut columns.iter().map(String::as_str)));
        }
    }
    for (player, held) in hands(tables, state) {
        let _ = writeln!(
            text,
            "off the board, {}: {held}",
            player_name(tables, player)
        );
    }
    let key: Vec<String> = tables
        .pieces
        .iter()
        .enumerate()
        .filter(|(kind, _)| glyphs.chess[*kind].is_none())
        .map(|(kind, piece)| format!("{} {}", glyphs.letters[kind], piece.name))
        .collect();
    if !key.is_empty() && !layout.cells.is_empty() {
        let _ = writeln!(
            text,
            "key: {} ({} in capitals, {} in small letters)",
            key.join(", "),
            player_name(tables, 0),
            player_name(tables, 1)
        );
    }
    let _ = writeln!(text, "{} to move", player_name(tables, to_move));
    text
}

/// What an SVG drawing shows besides the position.
#[derive(Clone, Debug, Default)]
pub struct SvgOptions {
    /// The squares the last move touched ([`move_squares`]), highlighted.
    pub last_move: Vec<Pos>,
    /// Whether the zones' outlines are shown. They are always drawn (class `zones`),
    /// hidden unless asked for: on most boards they read as noise, and a page can show
    /// them with CSS (`.zones { visibility: visible }`).
    pub zones: bool,
}

/// The squares a move touches: where its piece starts and where each step arrives.
pub fn move_squares(mv: &Move) -> Vec<Pos> {
    let start = mv.steps.first().and_then(|s| s.from);
    start
        .into_iter()
        .chain(mv.steps.iter().map(|s| s.to))
        .collect()
}

/// Fill and ink of pieces of players named by a colour (`Green`, `Red`).
fn named_colour(name: &str) -> Option<(&'static str, &'static str)> {
    Some(match name.to_ascii_lowercase().as_str() {
        "white" => ("#f8f8f0", "#202020"),
        "black" => ("#303030", "#f8f8f0"),
        "red" => ("#c83737", "#ffffff"),
        "blue" => ("#3771c8", "#ffffff"),
        "green" => ("#37a837", "#ffffff"),
        "yellow" => ("#e8d030", "#202020"),
        "orange" => ("#e88a20", "#202020"),
        "purple" | "violet" => ("#7f3fbf", "#ffffff"),
        "brown" => ("#8b5a2b", "#ffffff"),
        "gray" | "grey" | "silver" => ("#a0a0a0", "#202020"),
        "gold" => ("#d4af37", "#202020"),
        "pink" => ("#f0a0c0", "#202020"),
        "cyan" => ("#40c0d0", "#202020"),
        _ => return None,
    })
}

/// Fill and ink of each player's pieces: the colour a player's name names, else the
/// next of [`PLAYER_COLOURS`] in player order.
fn player_colours(tables: &Tables) -> Vec<(&'static str, &'static str)> {
    (0..tables.players.len())
        .map(|p| {
            named_colour(&tables.players[p].name)
                .unwrap_or(PLAYER_COLOURS[p % PLAYER_COLOURS.len()])
        })
        .collect()
}

/// Fill colours of the players' pieces, in player order (then repeating).
const PLAYER_COLOURS: [(&str, &str); 6] = [
    ("#f8f8f0", "#202020"),
    ("#303030", "#f8f8f0"),
    ("#c83737", "#ffffff"),
    ("#3771c8", "#ffffff"),
    ("#37a837", "#ffffff"),
    ("#e0c020", "#202020"),
];

/// The position as an SVG drawing: every position's rectangle (its name shown on
/// hover), the last move's squares highlighted, the zones as outlines (shown when
/// asked for), the links of boards that are not plain chequers, ranks and files on the
/// edges, the pieces as discs in their owner's colour with their letter or chess
/// glyph, and the pieces off the board listed below.
pub fn svg_board(
    tables: &Tables,
    state: &State,
    to_move: PlayerIx,
    options: &SvgOptions,
) -> String {
    let glyphs = Glyphs::new(tables);
    let layout = Layout::new(tables);
    let drawn = drawn_cells(tables, &layout);
    let bound = |f: fn(&[i32; 4]) -> i32, most: bool| {
        let values = drawn.iter().map(|d| f(&d.1));
        if most {
            values.max().unwrap_or(100)
        } else {
            values.min().unwrap_or(0)
        }
    };
    let (left, top) = (bound(|r| r[0], false), bound(|r| r[1], false));
    let (right, bottom) = (bound(|r| r[2], true), bound(|r| r[3], true));
    let labels = EdgeLabels::new(tables, &layout);
    let rank_margin = if labels.rows.iter().any(|l| !l.is_empty()) {
        22
    } else {
        0
    };
    let file_margin = if labels.columns.is_some() { 20 } else { 0 };
    let hand_lines = hands(tables, state);
    let line_height = 22;
    let footer = line_height * (hand_lines.len() as i32 + 1) + 8 + file_margin;
    let (width, height) = (right - left + 20 + rank_margin, bottom - top + 20 + footer);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{} {} {width} {height}" width="{width}" height="{height}" font-family="sans-serif">"#,
        left - 10 - rank_margin,
        top - 10
    );
    let _ = writeln!(svg, "<title>{}</title>", escape(&tables.title));
    // A full rectangle of cells is chequered; offset grids (hex) and free layouts are
    // not, as neighbours there need not alternate. Hands are trays, never chequered.
    let board: Vec<&(Pos, usize, usize)> = layout.board_cells().collect();
    let distinct = |of: fn(&(Pos, usize, usize)) -> usize| {
        let lines: std::collections::BTreeSet<usize> = board.iter().map(|c| of(c)).collect();
        lines.len()
    };
    let chequered = distinct(|c| c.1) * distinct(|c| c.2) == board.len();
    for &(pos, [l, t, r, b], column, row) in &drawn {
        let (class, fill, stroke) = if layout.hand[pos as usize] {
            ("square hand", "#e8dcc4", "#a89070")
        } else if chequered && (column + row) % 2 == 1 {
            ("square", "#b58863", "#6b4f36")
        } else {
            ("square", "#f0d9b5", "#6b4f36")
        };
        let _ = writeln!(
            svg,
            r##"<rect class="{class}" data-pos="{name}" x="{l}" y="{t}" width="{}" height="{}" fill="{fill}" stroke="{stroke}" stroke-width="1"><title>{name}</title></rect>"##,
            r - l,
            b - t,
            name = escape(&tables.positions[pos as usize])
        );
    }
    for &(pos, [l, t, r, b], _, _) in &drawn {
        if options.last_move.contains(&pos) {
            let _ = writeln!(
                svg,
                r##"<rect class="last-move" x="{l}" y="{t}" width="{}" height="{}" fill="#f6e05e" fill-opacity="0.55" pointer-events="none"/>"##,
                r - l,
                b - t
            );
        }
    }
    let hidden = if options.zones {
        ""
    } else {
        r#" visibility="hidden""#
    };
    let _ = writeln!(svg, r#"<g class="zones"{hidden}>"#);
    draw_zones(&mut svg, tables, &drawn);
    svg.push_str("</g>\n");
    if !chequered {
        draw_links(&mut svg, tables, &drawn);
    }
    // Ranks beside the board proper, between it and a hand on its left.
    let board_left = drawn
        .iter()
        .filter(|d| !layout.hand[d.0 as usize])
        .map(|d| d.1[0])
        .min()
        .unwrap_or(left);
    draw_edge_labels(&mut svg, &labels, &drawn, board_left - 4, bottom + 16);
    let colours = player_colours(tables);
    for &(pos, [l, t, r, b], _, _) in &drawn {
        let Some(piece) = state.at(pos) else { continue };
        let (fill, ink) = colours
            .get(piece.owner as usize)
            .copied()
            .unwrap_or(PLAYER_COLOURS[0]);
        let (cx, cy) = (f64::from(l + r) / 2.0, f64::from(t + b) / 2.0);
        let radius = f64::from((r - l).min(b - t)) * 0.4;
        let _ = writeln!(
            svg,
            r##"<g class="piece" data-pos="{name}"><title>{name}: {owner} {kind}</title><circle cx="{cx}" cy="{cy}" r="{radius:.1}" fill="{fill}" stroke="#101010" stroke-width="1.5"/><text x="{cx}" y="{cy}" dy="0.35em" text-anchor="middle" font-size="{size:.1}" fill="{ink}">{label}</text></g>"##,
            name = escape(&tables.positions[pos as usize]),
            owner = escape(player_name(tables, piece.owner)),
            kind = escape(&tables.pieces[piece.kind as usize].name),
            size = radius * 1.2,
            label = escape(&glyphs.label(piece.kind)),
        );
    }
    let mut y = bottom + 10 + line_height + file_margin;
    for (player, held) in &hand_lines {
        let _ = writeln!(
            svg,
            r#"<text class="hand" x="{left}" y="{y}" font-size="16">{}: {}</text>"#,
            escape(player_name(tables, *player)),
            escape(held)
        );
        y += line_height;
    }
    let _ = writeln!(
        svg,
        r#"<text class="to-move" x="{left}" y="{y}" font-size="16">{} to move</text>"#,
        escape(player_name(tables, to_move))
    );
    svg.push_str("</svg>\n");
    svg
}

/// A drawn position: its rectangle `[left, top, right, bottom]`, column and row.
type DrawnCell = (Pos, [i32; 4], usize, usize);

/// Every drawn position where it is drawn: where the rules put it, hands moved half a
/// cell further from the board so that they read as apart from it.
fn drawn_cells(tables: &Tables, layout: &Layout) -> Vec<DrawnCell> {
    let rect = |pos: Pos| tables.rects[pos as usize];
    let board: Vec<[i32; 4]> = layout.board_cells().filter_map(|c| rect(c.0)).collect();
    let edge = |f: fn(&[i32; 4]) -> i32, most: bool| {
        let values = board.iter().map(f);
        if most {
            values.max()
        } else {
            values.min()
        }
    };
    let bounds = (
        edge(|r| r[0], false),
        edge(|r| r[1], false),
        edge(|r| r[2], true),
        edge(|r| r[3], true),
    );
    let gap = board
        .first()
        .map_or(0, |r| (r[2] - r[0]).min(r[3] - r[1]) / 2);
    layout
        .cells
        .iter()
        .filter_map(|&(pos, column, row)| {
            let [l, t, r, b] = rect(pos)?;
            let (dx, dy) = match bounds {
                (Some(left), Some(top), Some(right), Some(bottom)) if layout.hand[pos as usize] => {
                    // By the centre: the rules' rectangles may overlap a little.
                    let shift = |low: i32, high: i32, start: i32, end: i32| {
                        let centre = (low + high) / 2;
                        if centre < start {
                            -gap
                        } else if centre > end {
                            gap
                        } else {
                            0
                        }
                    };
                    (shift(l, r, left, right), shift(t, b, top, bottom))
                }
                _ => (0, 0),
            };
            Some((pos, [l + dx, t + dy, r + dx, b + dy], column, row))
        })
        .collect()
}

fn centre_of(rect: [i32; 4]) -> (f64, f64) {
    (
        f64::from(rect[0] + rect[2]) / 2.0,
        f64::from(rect[1] + rect[3]) / 2.0,
    )
}

/// Outline colours of the players' zones, in player order (then repeating).
const ZONE_COLOURS: [&str; 6] = [
    "#1f5fbf", "#bf1f1f", "#1f8f3f", "#b07f10", "#7f3fbf", "#3f9fbf",
];

/// Most zone outlines drawn inside one cell; more would hide the cell.
const ZONE_OUTLINES_PER_CELL: usize = 3;

/// Each player's zones as dashed outlines inside their cells (in the player's zone
/// colour, the zone's name on hover), nested where zones overlap.
fn draw_zones(svg: &mut String, tables: &Tables, drawn: &[DrawnCell]) {
    let mut outlines = vec![0usize; tables.positions.len()];
    for (zone, per_player) in tables.zones.iter().enumerate() {
        for (player, members) in per_player.iter().enumerate() {
            for &(pos, [l, t, r, b], _, _) in drawn {
                let member = members
                    .get(pos as usize / 64)
                    .is_some_and(|word| word >> (pos % 64) & 1 == 1);
                let drawn_here = &mut outlines[pos as usize];
                if !member || *drawn_here >= ZONE_OUTLINES_PER_CELL {
                    continue;
                }
                *drawn_here += 1;
                let inset = 2 * *drawn_here as i32;
                let _ = writeln!(
                    svg,
                    r#"<rect class="zone" data-zone="{name}" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{colour}" stroke-width="1.5" stroke-dasharray="4 3"><title>{name} ({owner})</title></rect>"#,
                    l + inset,
                    t + inset,
                    (r - l - 2 * inset).max(1),
                    (b - t - 2 * inset).max(1),
                    name = escape(&tables.zone_names[zone]),
                    owner = escape(player_name(tables, player as PlayerIx)),
                    colour = ZONE_COLOURS[player % ZONE_COLOURS.len()],
                );
            }
        }
    }
}

/// The links between neighbouring cells, as thin lines between their centres: they
/// show the shape of boards whose cells alone do not (hex and free layouts). Links
/// longer than about a cell (leaps, wrap-arounds) would cross the board and are left
/// out.
fn draw_links(svg: &mut String, tables: &Tables, drawn: &[DrawnCell]) {
    let mut rect_of: Vec<Option<[i32; 4]>> = vec![None; tables.positions.len()];
    for &(pos, rect, _, _) in drawn {
        rect_of[pos as usize] = Some(rect);
    }
    let directions = tables.directions.len();
    let mut lines = std::collections::BTreeSet::new();
    for &(pos, rect, _, _) in drawn {
        for dir in 0..directions {
            let target = tables.link(pos, dir as _);
            let Some(Some(other)) = rect_of.get(target as usize) else {
                continue;
            };
            let ((x1, y1), (x2, y2)) = (centre_of(rect), centre_of(*other));
            let cell = f64::from((rect[2] - rect[0]).min(rect[3] - rect[1]));
            if (x2 - x1).hypot(y2 - y1) <= 1.6 * cell {
                lines.insert((pos.min(target), pos.max(target)));
            }
        }
    }
    for (a, b) in lines {
        let (Some(from), Some(to)) = (rect_of[a as usize], rect_of[b as usize]) else {
            continue;
        };
        let ((x1, y1), (x2, y2)) = (centre_of(from), centre_of(to));
        let _ = writeln!(
            svg,
            r##"<line class="link" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#6b4f36" stroke-width="1" stroke-opacity="0.5"/>"##
        );
    }
}

/// Ranks left of the rows and files under the columns, where the board has them.
fn draw_edge_labels(
    svg: &mut String,
    labels: &EdgeLabels,
    drawn: &[DrawnCell],
    rank_x: i32,
    file_y: i32,
) {
    let mean = |values: &mut dyn Iterator<Item = f64>| {
        let (sum, count) = values.fold((0.0, 0.0), |(s, n), v| (s + v, n + 1.0));
        sum / count
    };
    for (row, label) in labels.rows.iter().enumerate() {
        if label.is_empty() {
            continue;
        }
        let y = mean(
            &mut drawn
                .iter()
                .filter(|d| d.3 == row)
                .map(|d| centre_of(d.1).1),
        );
        let _ = writeln!(
            svg,
            r##"<text class="rank" x="{rank_x}" y="{y}" dy="0.35em" text-anchor="end" font-size="14" fill="#4a3a2a">{}</text>"##,
            escape(label)
        );
    }
    for (column, label) in labels.columns.iter().flatten().enumerate() {
        if label.is_empty() {
            continue;
        }
        let x = mean(
            &mut drawn
                .iter()
                .filter(|d| d.2 == column)
                .map(|d| centre_of(d.1).0),
        );
        let _ = writeln!(
            svg,
            r##"<text class="file" x="{x}" y="{file_y}" text-anchor="middle" font-size="14" fill="#4a3a2a">{}</text>"##,
            escape(label)
        );
    }
}

/// Text safe inside SVG elements and attributes; control characters dropped.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// What the rules say of the game for players, as Zillions' "About this game" showed
/// it: the title, the players, the description, history and strategy, then each piece
/// (dummies left out) with its help text.
pub fn about_text(tables: &Tables) -> String {
    let indent = |text: &str| -> String {
        text.lines()
            .map(|l| match l {
                "" => "\n".to_string(),
                l => format!("  {l}\n"),
            })
            .collect()
    };
    let mut text = format!(
        "{}\nplayers: {}\n",
        tables.title,
        tables.player_names().join(", ")
    );
    for (section, words) in &tables.about {
        let _ = write!(text, "{section}:\n{}", indent(words));
    }
    let pieces: Vec<_> = tables.pieces.iter().filter(|p| !p.dummy).collect();
    if !pieces.is_empty() {
        text.push_str("pieces:\n");
        for piece in pieces {
            let _ = writeln!(text, "  {}", piece.name);
            for (_, words) in &piece.about {
                text.push_str(&indent(&indent(words)));
            }
        }
    }
    // For terminals: the rules' own words may hold escape sequences.
    zrf_runtime::printable(&text).into_owned()
}
