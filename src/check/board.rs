//! The board: grids, explicit and dummy positions, killed positions, links, unlinks,
//! symmetry, zones, and the derived opposite directions.
//!
//! Build order (as Zillions): grids, then `positions` and `dummy`, skipping killed
//! positions, then `links` and `unlink` in the order written, then symmetry and zones.

use std::collections::{HashMap, HashSet};

use super::{args, at, Lower, NameKind};
use zrf_runtime::limits::{MAX_LINKS, MAX_POSITIONS};

use crate::check::CheckError;
use crate::expand::ENode;
use crate::ir::{self, DirectionId, PositionId};

/// The sections of a `board`, and of a `grid` in it.
const BOARD_SECTIONS: &[&str] = &[
    "grid",
    "positions",
    "dummy",
    "kill-positions",
    "links",
    "unlink",
    "symmetry",
    "zone",
    "image",
];
const GRID_SECTIONS: &[&str] = &["start-rectangle", "dimensions", "directions"];

/// Every board keyword, for [`super::keywords`].
pub(super) const KEYWORDS: [&[&str]; 2] = [BOARD_SECTIONS, GRID_SECTIONS];

/// Board facts gathered section by section, turned into [`ir::Board`] at the end.
#[derive(Default, Clone)]
pub(super) struct BoardBuild {
    links: HashMap<(u32, u32), u32>,
    killed: HashSet<String>,
    /// Every name a grid generated, killed or not.
    grid_names: HashSet<String>,
    symmetry: Vec<(u32, u32, u32)>,
    zone_members: Vec<(u32, u32, u32)>,
}

impl Lower<'_> {
    pub(super) fn board_section(&mut self, board: &ENode) {
        let items = args(board);
        let of = |head: &str| -> Vec<&ENode> {
            items
                .iter()
                .filter(|i| i.head().map(|h| self.x.name(h)) == Some(head))
                .collect()
        };
        for kill in of("kill-positions") {
            for name in args(kill) {
                if let Some(sym) = self.atom(name) {
                    self.build.killed.insert(self.name(sym).to_string());
                }
            }
        }
        for grid in of("grid") {
            self.grid(grid);
        }
        for positions in of("positions") {
            for entry in args(positions) {
                match entry.as_list() {
                    Some([name, rest @ ..]) => {
                        let rect = match rest {
                            [a, b, c, d] => self.rect([a, b, c, d]),
                            _ => None,
                        };
                        self.declare_position(name, false, rect);
                    }
                    _ => self.malformed(entry, "(NAME left top right bottom)"),
                }
            }
        }
        for dummy in of("dummy") {
            for name in args(dummy) {
                self.declare_position(name, true, None);
            }
        }
        for kill in of("kill-positions") {
            for name in args(kill) {
                let text = self.text(name);
                if name.as_atom().is_some()
                    && !self.build.grid_names.contains(text)
                    && self.positions.get(text).is_none()
                {
                    let suggestion = self.positions.closest(text);
                    self.undefined(name, NameKind::Position, suggestion);
                }
            }
        }
        // In the order written: an `unlink` does not remove links declared after it
        // (Chessence.zsg record 46 moves a captured piece along a `links` direction out of
        // positions unlinked earlier in the board).
        for item in items {
            match item.head().map(|h| self.x.name(h)) {
                Some("links") => self.links(item),
                Some("unlink") => self.unlink(item),
                _ => {}
            }
        }
        for symmetry in of("symmetry") {
            self.symmetry(symmetry);
        }
        for zone in of("zone") {
            self.zone(zone);
        }
        for item in items {
            let head = item.head().map(|h| self.name(h));
            match head {
                Some(
                    "grid" | "positions" | "dummy" | "kill-positions" | "links" | "unlink"
                    | "symmetry" | "zone" | "image",
                ) => {}
                other => {
                    let found = other.unwrap_or("(...)").to_string();
                    let suggestion =
                        other.and_then(|h| super::closest(h, BOARD_SECTIONS.iter().copied()));
                    self.err(CheckError::UnknownKeyword {
                        at: at(item),
                        context: "board section",
                        found,
                        suggestion,
                    });
                }
            }
        }
    }

    /// Four numbers as a rectangle, or `None` if one is not a number.
    fn rect(&self, corners: [&ENode; 4]) -> Option<[i32; 4]> {
        let mut rect = [0; 4];
        for (slot, node) in rect.iter_mut().zip(corners) {
            *slot = i32::try_from(self.number_quietly(node)?).ok()?;
        }
        Some(rect)
    }

    fn declare_position(&mut self, name: &ENode, dummy: bool, rect: Option<[i32; 4]>) {
        let Some(sym) = self.atom(name) else { return };
        let text = self.name(sym);
        if self.build.killed.contains(text) {
            return;
        }
        // The same dummy written twice (a board macro and the file both add `a0`) is
        // one position.
        if dummy
            && self
                .positions
                .get(text)
                .is_some_and(|p| self.board.positions[p as usize].dummy)
        {
            return;
        }
        match self.positions.declare(text, at(name)) {
            Ok(_) => self.board.positions.push(ir::Position {
                name: text.to_string(),
                dummy,
                rect,
            }),
            Err((_, previous)) => self.err(CheckError::Duplicate {
                at: at(name),
                kind: NameKind::Position,
                name: text.to_string(),
                previous: previous.span,
            }),
        }
    }

    fn grid(&mut self, grid: &ENode) {
        let mut dimensions: Vec<Vec<&str>> = Vec::new();
        // Per dimension, the pixel offset of one step along it.
        let mut steps: Vec<Option<(i64, i64)>> = Vec::new();
        let mut start: Option<[i32; 4]> = None;
        let mut directions: Vec<(&ENode, Vec<i64>)> = Vec::new();
        let mut dimensions_at = at(grid);
        for item in args(grid) {
            match item.head().map(|h| self.name(h)) {
                Some("start-rectangle") => {
                    if let [a, b, c, d] = args(item) {
                        start = self.rect([a, b, c, d]);
                    }
                }
                Some("dimensions") => {
                    dimensions_at = at(item);
                    for dimension in args(item) {
                        let labels = dimension
                            .as_list()
                            .and_then(|l| l.first())
                            .map(|l| self.text(l));
                        match labels {
                            Some(labels) if dimension.as_list().is_some_and(|l| l.len() == 2) => {
                                dimensions.push(labels.split('/').collect());
                                let offset = dimension.as_list().and_then(|l| l[1].as_list());
                                steps.push(match offset {
                                    Some([dx, dy]) => {
                                        self.number_quietly(dx).zip(self.number_quietly(dy))
                                    }
                                    _ => None,
                                });
                            }
                            _ => self.malformed(dimension, "(\"a/b/c\" (dx dy))"),
                        }
                    }
                }
                Some("directions") => {
                    for direction in args(item) {
                        let offsets: Option<Vec<i64>> =
                            args(direction).iter().map(|o| self.number(o)).collect();
                        match (direction.as_list().and_then(|l| l.first()), offsets) {
                            (Some(name), Some(offsets)) if name.as_atom().is_some() => {
                                directions.push((name, offsets))
                            }
                            _ => self.malformed(direction, "(NAME offset...)"),
                        }
                    }
                }
                other => {
                    let found = other.unwrap_or("(...)").to_string();
                    let suggestion =
                        other.and_then(|h| super::closest(h, GRID_SECTIONS.iter().copied()));
                    self.err(CheckError::UnknownKeyword {
                        at: at(item),
                        context: "grid section",
                        found,
                        suggestion,
                    });
                }
            }
        }
        if dimensions.is_empty() {
            self.malformed(grid, "(dimensions ...) in the grid");
            return;
        }
        // Every index vector of the grid, last dimension outermost (reading order).
        let sizes: Vec<usize> = dimensions.iter().map(Vec::len).collect();
        let room = MAX_POSITIONS.saturating_sub(self.board.positions.len());
        let count = sizes
            .iter()
            .try_fold(1usize, |product, &size| product.checked_mul(size))
            .filter(|&count| count <= room);
        let Some(count) = count else {
            let exact = sizes
                .iter()
                .try_fold(1u128, |product, &size| product.checked_mul(size as u128));
            self.err(CheckError::TooMany {
                at: dimensions_at,
                what: "positions",
                count: match (exact, self.board.positions.len()) {
                    (None, _) => "more than 2^128".to_string(),
                    (Some(n), 0) => n.to_string(),
                    (Some(n), before) => format!("{before} + {n}"),
                },
                limit: MAX_POSITIONS,
            });
            return;
        };
        if count.saturating_mul(directions.len()) > MAX_LINKS {
            self.err(CheckError::TooMany {
                at: at(grid),
                what: "board links (positions x directions)",
                count: format!("{count} x {}", directions.len()),
                limit: MAX_LINKS,
            });
            return;
        }
        let mut cells: Vec<(Vec<usize>, Option<u32>)> = Vec::with_capacity(count);
        for n in 0..count {
            let mut rest = n;
            let mut index = vec![0; sizes.len()];
            for d in 0..sizes.len() {
                index[d] = rest % sizes[d];
                rest /= sizes[d];
            }
            let name: String = index
                .iter()
                .enumerate()
                .map(|(d, &i)| dimensions[d][i])
                .collect();
            self.build.grid_names.insert(name.clone());
            let id = if self.build.killed.contains(&name) {
                None
            } else {
                match self.positions.declare(&name, at(grid)) {
                    Ok(id) => {
                        let rect = grid_rect(start, &steps, &index);
                        self.board.positions.push(ir::Position {
                            name,
                            dummy: false,
                            rect,
                        });
                        Some(id)
                    }
                    Err((_, previous)) => {
                        self.err(CheckError::Duplicate {
                            at: at(grid),
                            kind: NameKind::Position,
                            name,
                            previous: previous.span,
                        });
                        None
                    }
                }
            };
            cells.push((index, id));
        }
        for (name, offsets) in directions {
            if offsets.len() != sizes.len() {
                self.err(CheckError::Arity {
                    at: at(name),
                    form: self.text(name).to_string(),
                    expected: "one offset per grid dimension",
                    found: offsets.len(),
                });
                continue;
            }
            let dir = self.directions.intern(self.text(name), at(name));
            for (index, id) in &cells {
                let Some(from) = id else { continue };
                let target: Option<Vec<usize>> = index
                    .iter()
                    .zip(&offsets)
                    .zip(&sizes)
                    .map(|((&i, &o), &size)| {
                        let j = i as i64 + o;
                        (0..size as i64).contains(&j).then_some(j as usize)
                    })
                    .collect();
                let Some(target) = target else { continue };
                // `cells` is ordered with the first dimension varying fastest.
                let linear = target
                    .iter()
                    .zip(&sizes)
                    .rev()
                    .fold(0usize, |acc, (&i, &size)| acc * size + i);
                if let Some(to) = cells[linear].1 {
                    self.build.links.insert((*from, dir), to);
                }
            }
        }
    }

    /// Whether a name is a position removed with `kill-positions`.
    fn killed(&self, name: &ENode) -> bool {
        name.as_atom().is_some() && self.build.killed.contains(self.text(name))
    }

    fn links(&mut self, links: &ENode) {
        let items = args(links);
        let Some((direction, pairs)) = items.split_first() else {
            self.arity(links, "a direction and (from to) pairs");
            return;
        };
        if self.atom(direction).is_none() {
            return;
        }
        let dir = self.directions.intern(self.text(direction), at(direction));
        for pair in pairs {
            match pair.as_list() {
                Some([from, to]) => {
                    // A link into or out of a killed position leads nowhere (SimpleShogi
                    // ends its `next` chain at a killed square).
                    if self.killed(from) || self.killed(to) {
                        continue;
                    }
                    let from = self.lookup(from, NameKind::Position);
                    let to = self.lookup(to, NameKind::Position);
                    if let (Some(from), Some(to)) = (from, to) {
                        self.build.links.insert((from, dir), to);
                    }
                }
                _ => self.malformed(pair, "a (from to) pair"),
            }
        }
    }

    fn unlink(&mut self, unlink: &ENode) {
        for entry in args(unlink) {
            match entry.as_list() {
                None => {
                    if let Some(pos) = self.lookup(entry, NameKind::Position) {
                        self.build.links.retain(|&(from, _), _| from != pos);
                    }
                }
                Some([p, second]) => {
                    let Some(p) = self.lookup(p, NameKind::Position) else {
                        continue;
                    };
                    let direction = second
                        .as_atom()
                        .and_then(|_| self.directions.get(self.text(second)));
                    match direction {
                        Some(dir) => {
                            self.build.links.remove(&(p, dir));
                        }
                        None => {
                            // Links between two positions are removed both ways.
                            let Some(q) = self.lookup(second, NameKind::Position) else {
                                continue;
                            };
                            self.build.links.retain(|&(from, _), to| {
                                !((from == p && *to == q) || (from == q && *to == p))
                            });
                        }
                    }
                }
                Some(_) => self.malformed(entry, "a position, (p q) or (position direction)"),
            }
        }
    }

    fn symmetry(&mut self, symmetry: &ENode) {
        let items = args(symmetry);
        let Some((player, pairs)) = items.split_first() else {
            self.arity(symmetry, "a player and (direction direction) pairs");
            return;
        };
        let Some(player) = self.lookup(player, NameKind::Player) else {
            return;
        };
        for pair in pairs {
            match pair.as_list() {
                Some([from, to]) => {
                    let from = self.lookup(from, NameKind::Direction);
                    let to = self.lookup(to, NameKind::Direction);
                    if let (Some(from), Some(to)) = (from, to) {
                        self.build.symmetry.push((player, from, to));
                    }
                }
                _ => self.malformed(pair, "a (direction direction) pair"),
            }
        }
    }

    fn zone(&mut self, zone: &ENode) {
        let mut name = None;
        let mut players = Vec::new();
        let mut positions = Vec::new();
        for item in args(zone) {
            match item.head().map(|h| self.name(h)) {
                Some("name") => name = args(item).first(),
                Some("players") => players.extend(
                    args(item)
                        .iter()
                        .filter_map(|p| self.lookup(p, NameKind::Player)),
                ),
                Some("positions") => {
                    for position in args(item) {
                        if !self.killed(position) {
                            positions.extend(self.lookup(position, NameKind::Position));
                        }
                    }
                }
                Some("glyph" | "help") => self.err(CheckError::DagazExtension {
                    at: at(item),
                    what: "zone glyphs and help",
                    read_as: "a comment",
                }),
                other => {
                    let found = other.unwrap_or("(...)").to_string();
                    let suggestion = other.and_then(|h| {
                        super::closest(h, ["name", "players", "positions"].into_iter())
                    });
                    self.err(CheckError::UnknownKeyword {
                        at: at(item),
                        context: "zone section",
                        found,
                        suggestion,
                    });
                }
            }
        }
        let Some(name) = name else {
            self.malformed(zone, "(name ZONE) in the zone");
            return;
        };
        if self.atom(name).is_none() {
            return;
        }
        let zone = self.zones.intern(self.text(name), at(name));
        for &player in &players {
            for &position in &positions {
                self.build.zone_members.push((zone, player, position));
            }
        }
    }

    /// Turns the gathered facts into the final link table, zones, symmetry and opposites.
    pub(super) fn finish_board(&mut self) {
        let positions = self.positions.len();
        let directions = self.directions.len();
        let players = self.players.len();
        let mut links = vec![vec![None; directions]; positions];
        for (&(from, dir), &to) in &self.build.links {
            links[from as usize][dir as usize] = Some(PositionId(to));
        }
        let mut zones: Vec<ir::Zone> = self
            .zones
            .names
            .iter()
            .map(|name| ir::Zone {
                name: name.clone(),
                positions: vec![Vec::new(); players],
            })
            .collect();
        for &(zone, player, position) in &self.build.zone_members {
            zones[zone as usize].positions[player as usize].push(PositionId(position));
        }
        for zone in &mut zones {
            for members in &mut zone.positions {
                members.sort();
                members.dedup();
            }
        }
        let mut symmetry: Vec<Vec<DirectionId>> =
            vec![(0..directions as u32).map(DirectionId).collect(); players];
        for &(player, from, to) in &self.build.symmetry {
            symmetry[player as usize][from as usize] = DirectionId(to);
        }
        let opposite = (0..directions).map(|d| opposite_of(&links, d)).collect();
        self.board.directions = self.directions.names.clone();
        self.board.links = links;
        self.board.zones = zones;
        self.board.symmetry = symmetry;
        self.board.opposite = opposite;
    }
}

/// `d'` undoes `d` when every `d` link p->q has a `d'` link q->p (and `d` has links).
fn opposite_of(links: &[Vec<Option<PositionId>>], d: usize) -> Option<DirectionId> {
    let directions = links.first().map_or(0, Vec::len);
    let edges: Vec<(usize, PositionId)> = links
        .iter()
        .enumerate()
        .filter_map(|(p, row)| row[d].map(|q| (p, q)))
        .collect();
    if edges.is_empty() {
        return None;
    }
    (0..directions)
        .filter(|&e| e != d)
        .find(|&e| {
            edges
                .iter()
                .all(|&(p, q)| links[q.index()][e] == Some(PositionId(p as u32)))
        })
        .map(|e| DirectionId(e as u32))
}

/// The rectangle of the grid cell at `index`: the start rectangle moved by each
/// dimension's step as many times as the index along it says.
fn grid_rect(
    start: Option<[i32; 4]>,
    steps: &[Option<(i64, i64)>],
    index: &[usize],
) -> Option<[i32; 4]> {
    let [left, top, right, bottom] = start?;
    let (mut dx, mut dy) = (0i64, 0i64);
    for (step, &i) in steps.iter().zip(index) {
        let (x, y) = (*step)?;
        dx = dx.checked_add(x.checked_mul(i as i64)?)?;
        dy = dy.checked_add(y.checked_mul(i as i64)?)?;
    }
    let dx = i32::try_from(dx).ok()?;
    let dy = i32::try_from(dy).ok()?;
    Some([
        left.checked_add(dx)?,
        top.checked_add(dy)?,
        right.checked_add(dx)?,
        bottom.checked_add(dy)?,
    ])
}
