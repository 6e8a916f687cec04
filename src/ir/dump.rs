//! A stable, readable text form of a [`Game`], for `zrfc ir` and snapshots. Templates
//! print as S-expressions with names restored, so they read like the ZRF they came from.

use std::fmt::Write as _;

use super::*;

/// The whole game as text.
pub fn dump(game: &Game) -> String {
    let mut d = Dumper {
        game,
        out: String::new(),
    };
    d.all();
    d.out
}

struct Dumper<'a> {
    game: &'a Game,
    out: String,
}

impl Dumper<'_> {
    fn line(&mut self, text: impl AsRef<str>) {
        self.out.push_str(text.as_ref());
        self.out.push('\n');
    }

    fn all(&mut self) {
        let g = self.game;
        self.line(format!("game {:?}", g.title));
        if let Some(engine) = &g.engine {
            self.line(format!("engine {engine:?} (moves come from the plug-in)"));
        }
        let players: Vec<String> = g
            .players
            .iter()
            .map(|p| {
                if p.random {
                    format!("{} (random)", p.name)
                } else {
                    p.name.clone()
                }
            })
            .collect();
        self.line(format!("players {}", players.join(" ")));
        let turns: Vec<String> = g.turn_order.turns.iter().map(|t| self.turn(t)).collect();
        let repeat = match g.turn_order.repeat_from {
            0 => String::new(),
            n => format!(" (repeat from {n})"),
        };
        self.line(format!("turn-order {}{repeat}", turns.join(" ")));
        self.board();
        for (label, names) in [
            ("attributes", &g.attributes),
            ("flags", &g.flags),
            ("position-flags", &g.position_flags),
            ("move-types", &g.move_types),
        ] {
            if !names.is_empty() {
                self.line(format!("{label} {}", names.join(" ")));
            }
        }
        for piece in &g.pieces {
            self.piece(piece);
        }
        for (i, template) in g.templates.iter().enumerate() {
            let body: Vec<String> = template.iter().map(|s| self.stmt(s)).collect();
            self.line(format!("template t{i} ({})", body.join(" ")));
        }
        for setup in &g.setup {
            let mut text = format!(
                "setup {} {}",
                self.player(setup.player),
                g.pieces[setup.piece.index()].name
            );
            if setup.off_board > 0 {
                let _ = write!(text, " off {}", setup.off_board);
            }
            for &p in &setup.positions {
                let _ = write!(text, " {}", self.pos(p));
            }
            self.line(text);
        }
        for goal in &g.goals {
            let players: Vec<&str> = goal.players.iter().map(|&p| self.player(p)).collect();
            let kind = format!("{:?}", goal.kind).to_lowercase();
            self.line(format!(
                "{kind}-goal ({}) {}",
                players.join(" "),
                self.goal(&goal.condition)
            ));
        }
        if !g.move_priorities.is_empty() {
            let types: Vec<&str> = g
                .move_priorities
                .iter()
                .map(|&t| self.move_type(t))
                .collect();
            self.line(format!("move-priorities {}", types.join(" ")));
        }
        let o = &g.options;
        self.line(format!(
            "options pass-turn={:?} pass-partial={} maximal-captures={:?} recycle-captures={} include-off-pieces={}",
            o.pass_turn, o.pass_partial, o.maximal_captures, o.recycle_captures, o.include_off_pieces
        ));
        for (name, value) in &o.dagaz_only {
            self.line(format!("dagaz-only option {name:?} {value}"));
        }
    }

    fn board(&mut self) {
        let b = &self.game.board;
        if !b.directions.is_empty() {
            self.line(format!("directions {}", b.directions.join(" ")));
        }
        for (p, position) in b.positions.iter().enumerate() {
            let mut text = format!("position {}", position.name);
            if position.dummy {
                text.push_str(" (dummy)");
            }
            for (d, target) in b.links[p].iter().enumerate() {
                if let Some(target) = target {
                    let _ = write!(text, " {}={}", b.directions[d], self.pos(*target));
                }
            }
            self.line(text);
        }
        for zone in &b.zones {
            for (player, positions) in zone.positions.iter().enumerate() {
                if positions.is_empty() {
                    continue;
                }
                let names: Vec<&str> = positions.iter().map(|&p| self.pos(p)).collect();
                self.line(format!(
                    "zone {} for {}: {}",
                    zone.name,
                    self.game.players[player].name,
                    names.join(" ")
                ));
            }
        }
        for (player, map) in b.symmetry.iter().enumerate() {
            let swaps: Vec<String> = map
                .iter()
                .enumerate()
                .filter(|(d, to)| to.index() != *d)
                .map(|(d, to)| format!("{}->{}", b.directions[d], b.directions[to.index()]))
                .collect();
            if !swaps.is_empty() {
                self.line(format!(
                    "symmetry {} {}",
                    self.game.players[player].name,
                    swaps.join(" ")
                ));
            }
        }
        let opposites: Vec<String> = b
            .opposite
            .iter()
            .enumerate()
            .filter_map(|(d, o)| {
                o.map(|o| format!("{}<->{}", b.directions[d], b.directions[o.index()]))
            })
            .collect();
        if !opposites.is_empty() {
            self.line(format!("opposites {}", opposites.join(" ")));
        }
    }

    fn piece(&mut self, piece: &Piece) {
        let mut text = format!("piece {}", piece.name);
        if piece.dummy {
            text.push_str(" (dummy)");
        }
        for (attribute, value) in &piece.attributes {
            let _ = write!(text, " {}={value}", self.game.attributes[attribute.index()]);
        }
        self.line(text);
        for (kind, uses) in [("moves", &piece.moves), ("drops", &piece.drops)] {
            if uses.is_empty() {
                continue;
            }
            let items: Vec<String> = uses
                .iter()
                .map(|u| match u.move_type {
                    Some(t) => format!("{}:t{}", self.move_type(t), u.template.0),
                    None => format!("t{}", u.template.0),
                })
                .collect();
            self.line(format!("  {kind} {}", items.join(" ")));
        }
    }

    fn turn(&self, turn: &Turn) -> String {
        let mut parts = vec![self.player(turn.player).to_string()];
        if turn.move_as != turn.player {
            parts.push(self.player(turn.move_as).to_string());
        }
        if let Some(t) = turn.move_type {
            parts.push(self.move_type(t).to_string());
        }
        if parts.len() == 1 {
            parts.remove(0)
        } else {
            format!("({})", parts.join(" "))
        }
    }

    fn player(&self, p: PlayerId) -> &str {
        &self.game.players[p.index()].name
    }

    fn pos(&self, p: PositionId) -> &str {
        &self.game.board.positions[p.index()].name
    }

    fn dir_name(&self, d: DirectionId) -> &str {
        &self.game.board.directions[d.index()]
    }

    fn move_type(&self, t: MoveTypeId) -> &str {
        &self.game.move_types[t.index()]
    }

    fn piece_name(&self, p: PieceId) -> &str {
        &self.game.pieces[p.index()].name
    }

    fn dir(&self, d: Dir) -> String {
        match d {
            Dir::Named(d) => self.dir_name(d).to_string(),
            Dir::Opposite(d) => format!("(opposite {})", self.dir_name(d)),
        }
    }

    fn loc(&self, loc: Option<Loc>) -> String {
        match loc {
            None => String::new(),
            Some(Loc::Pos(p)) => format!(" {}", self.pos(p)),
            Some(Loc::Dir(d)) => format!(" {}", self.dir(d)),
        }
    }

    fn block(&self, block: &Block) -> String {
        block
            .iter()
            .map(|s| self.stmt(s))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn stmt(&self, stmt: &Stmt) -> String {
        let g = self.game;
        match stmt {
            Stmt::Step(d) => self.dir(*d),
            Stmt::Jump(p) => self.pos(*p).to_string(),
            Stmt::Verify(c) => format!("(verify {})", self.cond(c)),
            Stmt::If(c, then, other) if other.is_empty() => {
                format!("(if {} {})", self.cond(c), self.block(then))
            }
            Stmt::If(c, then, other) => {
                format!(
                    "(if {} {} else {})",
                    self.cond(c),
                    self.block(then),
                    self.block(other)
                )
            }
            Stmt::While(c, body) => format!("(while {} {})", self.cond(c), self.block(body)),
            Stmt::Mark(None) => "mark".into(),
            Stmt::Mark(at) => format!("(mark{})", self.loc(*at)),
            Stmt::Back => "back".into(),
            Stmt::Go(t) => format!("(go {})", format!("{t:?}").to_lowercase()),
            Stmt::Capture(None) => "capture".into(),
            Stmt::Capture(at) => format!("(capture{})", self.loc(*at)),
            Stmt::Create { owner, piece, at } => {
                let owner = owner
                    .map(|p| format!(" {}", self.player(p)))
                    .unwrap_or_default();
                let piece = piece
                    .map(|p| format!(" {}", self.piece_name(p)))
                    .unwrap_or_default();
                format!("(create{owner}{piece}{})", self.loc(*at))
            }
            Stmt::ChangeType(p, at) => {
                format!("(change-type {}{})", self.piece_name(*p), self.loc(*at))
            }
            Stmt::ChangeOwner(None) => "change-owner".into(),
            Stmt::ChangeOwner(at) => format!("(change-owner{})", self.loc(*at)),
            Stmt::Flip(None) => "flip".into(),
            Stmt::Flip(at) => format!("(flip{})", self.loc(*at)),
            Stmt::SetAttribute(a, v) => format!(
                "(set-attribute {} {})",
                g.attributes[a.index()],
                self.cond(v)
            ),
            Stmt::SetFlag(f, v) => format!("(set-flag {} {})", g.flags[f.index()], self.cond(v)),
            Stmt::SetPositionFlag(f, v, at) => format!(
                "(set-position-flag {} {}{})",
                g.position_flags[f.index()],
                self.cond(v),
                self.loc(*at)
            ),
            Stmt::From => "from".into(),
            Stmt::To => "to".into(),
            Stmt::Cascade => "cascade".into(),
            Stmt::Add {
                kind,
                promote,
                continue_with,
            } => {
                let name = match kind {
                    AddKind::Add => "add",
                    AddKind::AddCopy => "add-copy",
                    AddKind::AddPartial => "add-partial",
                    AddKind::AddCopyPartial => "add-copy-partial",
                };
                let mut args: Vec<&str> = promote.iter().map(|&p| self.piece_name(p)).collect();
                if let Some(t) = continue_with {
                    args.push(self.move_type(*t));
                }
                if args.is_empty() {
                    name.to_string()
                } else {
                    format!("({name} {})", args.join(" "))
                }
            }
        }
    }

    fn cond(&self, cond: &Cond) -> String {
        let g = self.game;
        let pred = |name: &str, loc: &Option<Loc>| match loc {
            None => name.to_string(),
            Some(_) => format!("({name}{})", self.loc(*loc)),
        };
        match cond {
            Cond::Const(b) => b.to_string(),
            Cond::Not(c) => format!("(not {})", self.cond(c)),
            Cond::And(cs) => format!(
                "(and {})",
                cs.iter()
                    .map(|c| self.cond(c))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Cond::Or(cs) => format!(
                "(or {})",
                cs.iter()
                    .map(|c| self.cond(c))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Cond::Empty(l) => pred("empty?", l),
            Cond::Occupied(l) => pred("not-empty?", l),
            Cond::Friend(l) => pred("friend?", l),
            Cond::Enemy(l) => pred("enemy?", l),
            Cond::Neutral(l) => pred("neutral?", l),
            Cond::Piece(p, l) => format!("(piece? {}{})", self.piece_name(*p), self.loc(*l)),
            Cond::InZone(z, l) => format!(
                "(in-zone? {}{})",
                g.board.zones[z.index()].name,
                self.loc(*l)
            ),
            Cond::OnBoard(l) => pred("on-board?", l),
            Cond::Flag(f) => format!("(flag? {})", g.flags[f.index()]),
            Cond::PositionFlag(f, l) => format!(
                "(position-flag? {}{})",
                g.position_flags[f.index()],
                self.loc(*l)
            ),
            Cond::Attribute(a, l) => pred(&g.attributes[a.index()], l),
            Cond::LastFrom(l) => pred("last-from?", l),
            Cond::LastTo(l) => pred("last-to?", l),
            Cond::AtPosition(p, at) => format!("(position? {}{})", self.pos(*p), self.loc(*at)),
            Cond::Marked(l) => pred("marked?", l),
            Cond::Attacked(t, l) | Cond::Defended(t, l) => {
                let name = if matches!(cond, Cond::Attacked(..)) {
                    "attacked?"
                } else {
                    "defended?"
                };
                let t = t
                    .map(|t| format!(" {}", self.move_type(t)))
                    .unwrap_or_default();
                format!("({name}{t}{})", self.loc(*l))
            }
            Cond::AdjacentToEnemy(l) => pred("adjacent-to-enemy?", l),
            Cond::GoalPosition(l) => pred("goal-position?", l),
        }
    }

    fn piece_ref(&self, r: &PieceRef) -> String {
        match r {
            PieceRef::Own(p) => self.piece_name(*p).to_string(),
            PieceRef::Opponent(p) => format!("(opponent {})", self.piece_name(*p)),
            PieceRef::AnyOwner(p) => format!("(any-owner {})", self.piece_name(*p)),
            PieceRef::NotOwn(p) => format!("(not {})", self.piece_name(*p)),
            PieceRef::NotOpponent(p) => format!("(not (opponent {}))", self.piece_name(*p)),
            PieceRef::NotAnyOwner(p) => format!("(not (any-owner {}))", self.piece_name(*p)),
        }
    }

    fn goal(&self, cond: &GoalCond) -> String {
        let join = |cs: &[GoalCond]| {
            cs.iter()
                .map(|c| self.goal(c))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let count = |name: &str, n: &u32, p: &Option<PieceId>| match p {
            Some(p) => format!("({name} {n} {})", self.piece_name(*p)),
            None => format!("({name} {n})"),
        };
        let pieces = |ps: &[PieceId]| {
            ps.iter()
                .map(|&p| self.piece_name(p))
                .collect::<Vec<_>>()
                .join(" ")
        };
        match cond {
            GoalCond::PiecesRemaining { count: n, piece } => count("pieces-remaining", n, piece),
            GoalCond::TotalPieceCount { count: n, piece } => count("total-piece-count", n, piece),
            GoalCond::Stalemated => "stalemated".into(),
            GoalCond::Repetition => "repetition".into(),
            GoalCond::AbsoluteConfig { pieces, places } => {
                let pieces: Vec<String> = pieces.iter().map(|r| self.piece_ref(r)).collect();
                let places: Vec<&str> = places
                    .iter()
                    .map(|p| match p {
                        Place::Position(p) => self.pos(*p),
                        Place::Zone(z) => &self.game.board.zones[z.index()].name,
                    })
                    .collect();
                format!(
                    "(absolute-config {} ({}))",
                    pieces.join(" "),
                    places.join(" ")
                )
            }
            GoalCond::RelativeConfig { first, steps } => {
                let mut text = format!("(relative-config {}", self.piece_ref(first));
                for (d, r) in steps {
                    let _ = write!(text, " {} {}", self.dir_name(*d), self.piece_ref(r));
                }
                text + ")"
            }
            GoalCond::Checkmated(ps) => format!("(checkmated {})", pieces(ps)),
            GoalCond::Captured(ps) => format!("(captured {})", pieces(ps)),
            GoalCond::And(cs) => format!("(and {})", join(cs)),
            GoalCond::Or(cs) => format!("(or {})", join(cs)),
            GoalCond::Not(c) => format!("(not {})", self.goal(c)),
        }
    }
}
