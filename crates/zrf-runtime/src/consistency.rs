//! What [`Tables`] must hold before an engine runs on them: sizes that agree with the
//! numbers of positions, directions, players, piece types and attributes, and every
//! index in range. Move generation indexes these tables without further checks, so a
//! table that breaks them would panic or answer wrongly deep inside a search. The
//! compiler's lowering checks the tables it builds, so that the interpreter and
//! generated code run on the same checked tables; [`crate::Engine::try_new`] checks
//! tables from anywhere else.

use crate::inconsistency::Inconsistency;
use crate::limits::MAX_ATTRIBUTES;
use crate::{Dir, GoalCond, Kind, MoveType, Place, PlayerIx, Pos, Shape, Tables, NO_POS};

/// The numbers every table of a game is sized by.
struct Sizes {
    positions: usize,
    directions: usize,
    players: usize,
    kinds: usize,
    attributes: usize,
    zones: usize,
    move_types: usize,
}

impl Sizes {
    fn position(&self, what: &str, pos: Pos) -> Result<(), Inconsistency> {
        Inconsistency::expect_index(what, pos as usize, self.positions)
    }

    fn direction(&self, what: &str, dir: Dir) -> Result<(), Inconsistency> {
        Inconsistency::expect_index(what, dir as usize, self.directions)
    }

    fn player(&self, what: &str, player: PlayerIx) -> Result<(), Inconsistency> {
        Inconsistency::expect_index(what, player as usize, self.players)
    }

    fn kind(&self, what: &str, kind: Kind) -> Result<(), Inconsistency> {
        Inconsistency::expect_index(what, kind as usize, self.kinds)
    }

    fn move_type(&self, what: &str, move_type: MoveType) -> Result<(), Inconsistency> {
        Inconsistency::expect_index(what, move_type as usize, self.move_types)
    }

    fn goal(&self, cond: &GoalCond) -> Result<(), Inconsistency> {
        match cond {
            GoalCond::PiecesRemaining { kind, .. } | GoalCond::TotalPieceCount { kind, .. } => {
                kind.map_or(Ok(()), |k| self.kind("goal piece type", k))
            }
            GoalCond::Stalemated | GoalCond::Repetition => Ok(()),
            GoalCond::AbsoluteConfig { pieces, places } => {
                for piece in pieces {
                    self.kind("goal piece type", piece.kind())?;
                }
                for place in places {
                    match *place {
                        Place::Position(pos) => self.position("goal position", pos)?,
                        Place::Zone(zone) => {
                            Inconsistency::expect_index("goal zone", zone as usize, self.zones)?
                        }
                    }
                }
                Ok(())
            }
            GoalCond::RelativeConfig { first, steps } => {
                self.kind("goal piece type", first.kind())?;
                for &(dir, piece) in steps {
                    self.direction("goal direction", dir)?;
                    self.kind("goal piece type", piece.kind())?;
                }
                Ok(())
            }
            GoalCond::Checkmated(kinds) | GoalCond::Captured(kinds) => kinds
                .iter()
                .try_for_each(|&k| self.kind("goal piece type", k)),
            GoalCond::And(parts) | GoalCond::Or(parts) => {
                parts.iter().try_for_each(|part| self.goal(part))
            }
            GoalCond::Not(inner) => self.goal(inner),
        }
    }
}

impl Tables {
    /// Checks that every table agrees in size with the game's numbers of positions,
    /// directions, players, piece types and attributes, and that every position,
    /// direction, player, piece type, zone and move type it names exists.
    pub fn check(&self) -> Result<(), Inconsistency> {
        let sizes = Sizes {
            positions: self.positions.len(),
            directions: self.directions.len(),
            players: self.players.len(),
            kinds: self.kinds(),
            attributes: self.attributes.len(),
            zones: self.zones.len(),
            move_types: self.move_types.len(),
        };
        Inconsistency::expect_index("positions", sizes.positions, NO_POS as usize)?;
        Inconsistency::expect_index("players", sizes.players, PlayerIx::MAX as usize + 1)?;
        Inconsistency::expect_index("attributes", sizes.attributes, MAX_ATTRIBUTES + 1)?;
        Inconsistency::expect_len("rects", self.rects.len(), sizes.positions)?;
        self.check_board(&sizes)?;
        if self.players.is_empty() || self.turns.is_empty() {
            return Err(Inconsistency("the game has no players or no turns".into()));
        }
        for turn in &self.turns {
            sizes.player("turn player", turn.player)?;
            sizes.player("turn moving as", turn.move_as)?;
            turn.move_type
                .map_or(Ok(()), |t| sizes.move_type("turn move type", t))?;
        }
        Inconsistency::expect_index("repeat", self.repeat_from, self.turns.len())?;
        let attribute_bits = u32::MAX
            .checked_shr(32 - sizes.attributes as u32)
            .unwrap_or(0);
        for piece in &self.pieces {
            if piece.default_attributes & !attribute_bits != 0 {
                return Err(Inconsistency(format!(
                    "piece {:?} sets attributes beyond the {} declared",
                    piece.name, sizes.attributes
                )));
            }
            if piece.template_types.len() != piece.shapes.len() {
                return Err(Inconsistency(format!(
                    "piece {:?} has {} shaped templates but {} template move types",
                    piece.name,
                    piece.shapes.len(),
                    piece.template_types.len()
                )));
            }
            for &move_type in piece.template_types.iter().flatten() {
                sizes.move_type("shaped template move type", move_type)?;
            }
            for shape in piece.shapes.iter().flatten() {
                let (directions, zones) = shape.directions_and_zones();
                for dir in directions {
                    sizes.direction("shaped template direction", dir)?;
                }
                for zone in zones {
                    Inconsistency::expect_index(
                        "shaped template zone",
                        zone as usize,
                        sizes.zones,
                    )?;
                }
                if let Shape::Jump {
                    steps,
                    captured,
                    continue_with,
                    ..
                } = shape
                {
                    Inconsistency::expect_index(
                        "jump's captured step",
                        *captured as usize,
                        steps.len(),
                    )?;
                    if let Some(move_type) = *continue_with {
                        sizes.move_type("jump's continuing move type", move_type)?;
                    }
                }
            }
        }
        for setup in &self.setup {
            sizes.player("setup player", setup.player)?;
            sizes.kind("setup piece type", setup.kind)?;
            for &pos in &setup.positions {
                sizes.position("setup position", pos)?;
            }
        }
        for goal in &self.goals {
            for &player in &goal.players {
                sizes.player("goal player", player)?;
            }
            sizes.goal(&goal.condition)?;
        }
        for &move_type in &self.priorities {
            sizes.move_type("move priority", move_type)?;
        }
        Inconsistency::expect_len("royal types: players", self.royal.len(), sizes.players)?;
        for kinds in &self.royal {
            Inconsistency::expect_len("royal types", kinds.len(), sizes.kinds)?;
        }
        let (positions, players, kinds) = (sizes.positions, sizes.players, sizes.kinds);
        if !self
            .zobrist
            .fits(positions, players, kinds, sizes.attributes)
        {
            return Err(Inconsistency("hash keys drawn for another board".into()));
        }
        if let Some(reach) = &self.reach {
            if !reach.fits(players, kinds, positions) {
                return Err(Inconsistency("reach worked out for another board".into()));
            }
        }
        Ok(())
    }

    /// The links, zones and symmetries against the numbers of positions, directions
    /// and players.
    fn check_board(&self, sizes: &Sizes) -> Result<(), Inconsistency> {
        Inconsistency::expect_len(
            "links",
            self.links.len(),
            sizes.positions * sizes.directions,
        )?;
        for &link in &self.links {
            if link != NO_POS {
                sizes.position("link", link)?;
            }
        }
        Inconsistency::expect_len("zone names", self.zone_names.len(), sizes.zones)?;
        let words = sizes.positions.div_ceil(64);
        for zone in &self.zones {
            Inconsistency::expect_len("zone: players", zone.len(), sizes.players)?;
            for bits in zone {
                Inconsistency::expect_len("zone bitset", bits.len(), words)?;
            }
        }
        Inconsistency::expect_len("symmetries", self.symmetry.len(), sizes.players)?;
        for map in &self.symmetry {
            Inconsistency::expect_len("symmetry", map.len(), sizes.directions)?;
            for &dir in map {
                sizes.direction("symmetry", dir)?;
            }
        }
        Inconsistency::expect_len("opposites", self.opposite.len(), sizes.directions)?;
        for dir in self.opposite.iter().flatten() {
            sizes.direction("opposite", *dir)?;
        }
        Ok(())
    }
}
