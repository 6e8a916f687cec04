//! The game's [`Tables`] as Rust data: `pub fn tables() -> Tables`, field by field, so the
//! compiled engine starts from exactly what the interpreter builds from the IR.

use zrf_runtime::{
    Goal, GoalCond, GoalKind, LeapStep, PassTurn, PieceRef, Place, Shape, Tables, Test, Turn,
    NO_POS,
};

use super::writer::{string_literal, RustWriter};
use super::Names;

pub(super) fn emit_tables(w: &mut RustWriter, tables: &Tables, names: &Names) {
    w.line("/// The static description of the game: board, players, turn order, pieces, goals.");
    w.block("pub fn tables() -> Tables", |w| {
        w.block("Tables", |w| {
            w.line(format!("title: {}.to_string(),", string_literal(&tables.title)));
            prose(w, "about", "", ",", &tables.about);
            strings(w, "positions", &tables.positions);
            let rects = tables.rects.iter().map(|r| match r {
                Some([l, t, r, b]) => format!("Some([{l}, {t}, {r}, {b}])"),
                None => "None".to_string(),
            });
            list(w, "rects", rects, 4);
            strings(w, "directions", &tables.directions);
            let links = tables.links.iter().map(|&p| match p {
                NO_POS => "NO_POS".to_string(),
                p => p.to_string(),
            });
            list(w, "links", links, tables.directions.len().clamp(4, 16));
            w.enclosed("zones: vec![", "],", |w| {
                for zone in &tables.zones {
                    w.enclosed("vec![", "],", |w| {
                        for bits in zone {
                            let words = bits.iter().map(|b| format!("{b:#x}"));
                            w.line(format!("vec![{}],", join(words)));
                        }
                    });
                }
            });
            strings(w, "zone_names", &tables.zone_names);
            w.enclosed("symmetry: vec![", "],", |w| {
                for map in &tables.symmetry {
                    w.line(format!("vec![{}],", join(map.iter().map(u16::to_string))));
                }
            });
            let opposite = tables.opposite.iter().map(|o| format!("{o:?}"));
            list(w, "opposite", opposite, 8);
            w.enclosed("players: vec![", "],", |w| {
                for player in &tables.players {
                    w.line(format!(
                        "Player {{ name: {}.to_string(), random: {} }},",
                        string_literal(&player.name),
                        player.random
                    ));
                }
            });
            let turns = tables.turns.iter().map(|t| turn(t, names));
            list(w, "turns", turns, 1);
            w.line(format!("repeat_from: {},", tables.repeat_from));
            w.enclosed("pieces: vec![", "],", |w| {
                for piece in &tables.pieces {
                    let notation = match &piece.notation {
                        Some(n) => format!("Some({}.to_string())", string_literal(n)),
                        None => "None".to_string(),
                    };
                    let fields = format!(
                        "name: {}.to_string(), default_attributes: {:#x}, dummy: {}, notation: {notation}, ",
                        string_literal(&piece.name),
                        piece.default_attributes,
                        piece.dummy
                    );
                    if piece.shapes.is_empty() {
                        let head = format!(
                            "PieceInfo {{ {fields}shapes: Vec::new(), template_types: Vec::new(), "
                        );
                        prose(w, "about", &head, " },", &piece.about);
                        continue;
                    }
                    w.enclosed("PieceInfo {", "},", |w| {
                        w.line(fields.trim_end());
                        w.enclosed("shapes: vec![", "],", |w| {
                            for template in &piece.shapes {
                                match template {
                                    Some(s) => w.line(format!("Some({}),", shape(s, names))),
                                    None => w.line("None,"),
                                }
                            }
                        });
                        let types = &piece.template_types;
                        if types.iter().all(Option::is_none) {
                            w.line(format!("template_types: vec![None; {}],", types.len()));
                        } else {
                            let types = types.iter().map(|t| match t {
                                Some(t) => {
                                    format!("Some(move_type::{})", names.move_types[*t as usize])
                                }
                                None => "None".to_string(),
                            });
                            list(w, "template_types", types, 8);
                        }
                        prose(w, "about", "", ",", &piece.about);
                    });
                }
            });
            strings(w, "attributes", &tables.attributes);
            strings(w, "move_types", &tables.move_types);
            w.line(format!("flags: {},", tables.flags));
            w.line(format!("position_flags: {},", tables.position_flags));
            w.enclosed("setup: vec![", "],", |w| {
                for setup in &tables.setup {
                    w.line(format!(
                        "Setup {{ player: player::{}, kind: kind::{}, positions: vec![{}], off_board: {} }},",
                        names.players[setup.player as usize],
                        names.kinds[setup.kind as usize],
                        join(setup.positions.iter().map(|&p| format!("pos::{}", names.positions[p as usize]))),
                        setup.off_board
                    ));
                }
            });
            w.enclosed("goals: vec![", "],", |w| {
                for g in &tables.goals {
                    w.line(goal(g, names));
                }
            });
            let priorities = tables
                .priorities
                .iter()
                .map(|&t| format!("move_type::{}", names.move_types[t as usize]));
            list(w, "priorities", priorities, 4);
            let options = &tables.options;
            w.block_with("options: Options", ",", |w| {
                let pass_turn = match options.pass_turn {
                    PassTurn::Never => "Never",
                    PassTurn::Always => "Always",
                    PassTurn::Forced => "Forced",
                };
                w.line(format!("pass_turn: PassTurn::{pass_turn},"));
                w.line(format!("pass_partial: {},", options.pass_partial));
                w.line(format!("recycle_captures: {},", options.recycle_captures));
                w.line(format!("maximal_captures: {},", options.maximal_captures));
                w.line(format!("include_off_pieces: {},", options.include_off_pieces));
            });
            w.enclosed("royal: vec![", "],", |w| {
                for kinds in &tables.royal {
                    w.line(format!("vec![{}],", join(kinds.iter().map(bool::to_string))));
                }
            });
            // The keys themselves are drawn at start-up from the game's seed: thousands of
            // literals would bury the rules in noise.
            w.line("// Hash keys, drawn at start-up from the seed for a game of these sizes.");
            w.enclosed("zobrist: Zobrist::new(ZobristData {", "}),", |w| {
                w.line(format!("seed: {:#018x},", tables.zobrist.seed()));
                w.line(format!("positions: {},", tables.positions.len()));
                w.line(format!("players: {},", tables.players.len()));
                w.line(format!("kinds: {},", tables.kinds()));
                w.line(format!("attributes: {},", tables.attributes.len()));
            });
            emit_reach_field(w, tables);
            match &tables.evaluation {
                Some(text) => w.line(format!("evaluation: Some({}.to_string()),", string_literal(text))),
                None => w.line("evaluation: None,"),
            }
            w.line("derived: Derived::default(),");
        });
    });
    emit_reach_tables(w, tables);
}

/// The `reach` field: its data by name ([`zrf_runtime::ReachData`]), the big tables as statics
/// below the function, built and checked by [`zrf_runtime::Reach::from_data`].
fn emit_reach_field(w: &mut RustWriter, tables: &Tables) {
    let Some(reach) = &tables.reach else {
        w.line("reach: None,");
        return;
    };
    let data = reach.data();
    w.enclosed("reach: Some(Reach::from_data(ReachData {", "})", |w| {
        w.line(format!(
            "players: {}, kinds: {}, positions: {},",
            data.players, data.kinds, data.positions
        ));
        w.enclosed("bounded: &[", "],", |w| {
            w.wrapped_list(data.bounded.iter().map(bool::to_string), 8)
        });
        match data.templates_per_kind {
            Some(counts) => {
                let counts = join(counts.iter().map(u32::to_string));
                w.line(format!("templates_per_kind: Some(&[{counts}]),"));
                w.line("hits: &REACH_BY_TEMPLATE,");
            }
            None => {
                w.line("templates_per_kind: None,");
                w.line("hits: &REACH,");
            }
        }
        let (bounds, starts) = (
            !data.step_bounds.is_empty(),
            !data.starts_elsewhere.is_empty(),
        );
        w.line(if bounds {
            "step_bounds: &STEP_BOUNDS,"
        } else {
            "step_bounds: &[],"
        });
        w.line(if bounds {
            "anchored: &ANCHORED,"
        } else {
            "anchored: &[],"
        });
        w.line(if starts {
            "starts_elsewhere: &STARTS_ELSEWHERE,"
        } else {
            "starts_elsewhere: &[],"
        });
        let promoting = data.promoting_templates.iter().map(|&bits| match bits {
            0 => "0".to_string(),
            bits => format!("{bits:#x}"),
        });
        w.line(format!("promoting_templates: &[{}],", join(promoting)));
    });
    // The sizes are those zrfc checked before writing them: only an edit of the
    // generated file could make them disagree.
    w.line(".expect(\"the sizes zrfc checked when it wrote this file\")),");
}

/// The reach's tables as static data: tens of thousands of words in a `vec!` would
/// make one enormous function for the optimiser.
fn emit_reach_tables(w: &mut RustWriter, tables: &Tables) {
    let Some(reach) = &tables.reach else { return };
    let data = reach.data();
    let per_line = tables.positions.len().div_ceil(64).clamp(4, 8);
    w.line("");
    match data.templates_per_kind {
        Some(_) => {
            w.line("/// Per player, square and move template: where it can take effect (bitsets).");
            emit_words(w, "REACH_BY_TEMPLATE", data.hits, per_line);
        }
        None => {
            w.line(
                "/// Per player, piece type and square: where its moves can take effect (bitsets).",
            );
            emit_words(w, "REACH", data.hits, per_line);
        }
    }
    if !data.step_bounds.is_empty() {
        let doc = "Per player, piece type and square: the most steps its moves could add.";
        let bounds: Vec<String> = data.step_bounds.iter().map(u16::to_string).collect();
        emit_static(w, doc, "STEP_BOUNDS: [u16", bounds, 16);
        let doc = "Per player and piece type: every step of its starts on the piece's square.";
        let anchored: Vec<String> = data.anchored.iter().map(bool::to_string).collect();
        emit_static(w, doc, "ANCHORED: [bool", anchored, 8);
    }
    if !data.starts_elsewhere.is_empty() {
        w.line("");
        w.line("/// Per player, piece type and square: the other squares its steps may start on.");
        emit_words(w, "STARTS_ELSEWHERE", data.starts_elsewhere, per_line);
    }
}

/// A static array after a blank line and its doc line: `head` is `NAME: [TYPE`.
fn emit_static(w: &mut RustWriter, doc: &str, head: &str, items: Vec<String>, per_line: usize) {
    w.line("");
    w.line(format!("/// {doc}"));
    w.line(format!("static {head}; {}] = [", items.len()));
    w.indent();
    w.wrapped_list(items, per_line);
    w.dedent();
    w.line("];");
}

fn emit_words(w: &mut RustWriter, name: &str, bits: &[u64], per_line: usize) {
    w.line(format!("static {name}: [u64; {}] = [", bits.len()));
    w.indent();
    // Zeros short: most squares are out of most pieces' reach.
    let words = bits.iter().map(|&b| match b {
        0 => "0".to_string(),
        b => format!("{b:#x}"),
    });
    w.wrapped_list(words, per_line);
    w.dedent();
    w.line("];");
}

fn join(items: impl IntoIterator<Item = String>) -> String {
    items.into_iter().collect::<Vec<_>>().join(", ")
}

fn list(w: &mut RustWriter, field: &str, items: impl IntoIterator<Item = String>, per_line: usize) {
    let items: Vec<String> = items.into_iter().collect();
    if items.is_empty() {
        w.line(format!("{field}: Vec::new(),"));
        return;
    }
    w.enclosed(format!("{field}: vec!["), "],", |w| {
        w.wrapped_list(items, per_line)
    });
}

fn strings(w: &mut RustWriter, field: &str, items: &[String]) {
    list(
        w,
        field,
        items
            .iter()
            .map(|s| format!("{}.to_string()", string_literal(s))),
        8,
    );
}

/// `field: vec![(section, words), ...]` after `head`, then `tail`: sections of prose
/// one per line.
fn prose(w: &mut RustWriter, field: &str, head: &str, tail: &str, sections: &[(String, String)]) {
    if sections.is_empty() {
        w.line(format!("{head}{field}: Vec::new(){tail}"));
        return;
    }
    w.enclosed(format!("{head}{field}: vec!["), &format!("]{tail}"), |w| {
        for (section, words) in sections {
            w.line(format!(
                "({}.to_string(), {}.to_string()),",
                string_literal(section),
                string_literal(words)
            ));
        }
    });
}

fn turn(t: &Turn, names: &Names) -> String {
    let move_type = names.optional_move_type(t.move_type);
    format!(
        "Turn {{ player: player::{}, move_as: player::{}, move_type: {move_type} }}",
        names.players[t.player as usize], names.players[t.move_as as usize]
    )
}

fn goal(g: &Goal, names: &Names) -> String {
    let kind = match g.kind {
        GoalKind::Win => "Win",
        GoalKind::Loss => "Loss",
        GoalKind::Draw => "Draw",
        GoalKind::Count => "Count",
    };
    let players = join(
        g.players
            .iter()
            .map(|&p| format!("player::{}", names.players[p as usize])),
    );
    format!(
        "Goal {{ kind: GoalKind::{kind}, players: vec![{players}], condition: {} }},",
        goal_cond(&g.condition, names)
    )
}

fn kind_name(kind: u16, names: &Names) -> String {
    format!("kind::{}", names.kinds[kind as usize])
}

fn optional_kind(kind: Option<u16>, names: &Names) -> String {
    kind.map_or("None".to_string(), |k| {
        format!("Some({})", kind_name(k, names))
    })
}

fn piece_ref(r: &PieceRef, names: &Names) -> String {
    let (variant, kind) = match *r {
        PieceRef::Own(k) => ("Own", k),
        PieceRef::Opponent(k) => ("Opponent", k),
        PieceRef::AnyOwner(k) => ("AnyOwner", k),
        PieceRef::NotOwn(k) => ("NotOwn", k),
        PieceRef::NotOpponent(k) => ("NotOpponent", k),
        PieceRef::NotAnyOwner(k) => ("NotAnyOwner", k),
    };
    format!("PieceRef::{variant}({})", kind_name(kind, names))
}

fn goal_cond(cond: &GoalCond, names: &Names) -> String {
    let kinds = |ks: &[u16]| join(ks.iter().map(|&k| kind_name(k, names)));
    let conds = |cs: &[GoalCond]| join(cs.iter().map(|c| goal_cond(c, names)));
    match cond {
        GoalCond::PiecesRemaining { count, kind } => format!(
            "GoalCond::PiecesRemaining {{ count: {count}, kind: {} }}",
            optional_kind(*kind, names)
        ),
        GoalCond::TotalPieceCount { count, kind } => format!(
            "GoalCond::TotalPieceCount {{ count: {count}, kind: {} }}",
            optional_kind(*kind, names)
        ),
        GoalCond::Stalemated => "GoalCond::Stalemated".to_string(),
        GoalCond::Repetition => "GoalCond::Repetition".to_string(),
        GoalCond::AbsoluteConfig { pieces, places } => {
            let pieces = join(pieces.iter().map(|r| piece_ref(r, names)));
            let places = join(places.iter().map(|p| match *p {
                Place::Position(p) => {
                    format!("Place::Position(pos::{})", names.positions[p as usize])
                }
                Place::Zone(z) => format!("Place::Zone(zone::{})", names.zones[z as usize]),
            }));
            format!("GoalCond::AbsoluteConfig {{ pieces: vec![{pieces}], places: vec![{places}] }}")
        }
        GoalCond::RelativeConfig { first, steps } => {
            let steps = join(steps.iter().map(|(d, r)| {
                format!(
                    "(dir::{}, {})",
                    names.directions[*d as usize],
                    piece_ref(r, names)
                )
            }));
            format!(
                "GoalCond::RelativeConfig {{ first: {}, steps: vec![{steps}] }}",
                piece_ref(first, names)
            )
        }
        GoalCond::Checkmated(ks) => format!("GoalCond::Checkmated(vec![{}])", kinds(ks)),
        GoalCond::Captured(ks) => format!("GoalCond::Captured(vec![{}])", kinds(ks)),
        GoalCond::And(cs) => format!("GoalCond::And(vec![{}])", conds(cs)),
        GoalCond::Or(cs) => format!("GoalCond::Or(vec![{}])", conds(cs)),
        GoalCond::Not(c) => format!("GoalCond::Not(Box::new({}))", goal_cond(c, names)),
    }
}

/// A template's [`Shape`] as a literal.
fn shape(shape: &Shape, names: &Names) -> String {
    let tests = |tests: &[Test]| {
        let each = tests.iter().map(|t| match t {
            Test::Empty => "Test::Empty".to_string(),
            Test::Enemy => "Test::Enemy".to_string(),
            Test::NotFriend => "Test::NotFriend".to_string(),
            Test::InZone(zone) => format!("Test::InZone(zone::{})", names.zones[*zone as usize]),
            Test::NotInZone(zone) => {
                format!("Test::NotInZone(zone::{})", names.zones[*zone as usize])
            }
        });
        format!("vec![{}]", each.collect::<Vec<_>>().join(", "))
    };
    let steps = |steps: &[LeapStep]| {
        let each = steps.iter().map(|step| {
            format!(
                "LeapStep {{ dir: dir::{}, tests: {} }}",
                names.dir(step.dir),
                tests(&step.tests)
            )
        });
        format!("vec![{}]", each.collect::<Vec<_>>().join(", "))
    };
    // The zone where a template runs its code, if any.
    let coded = |coded_in: Option<u16>| {
        coded_in.map_or("None".to_string(), |zone| {
            format!("Some(zone::{})", names.zones[zone as usize])
        })
    };
    match shape {
        Shape::Leap {
            origin,
            steps: leap,
            coded_in,
        } => format!(
            "Shape::Leap {{ origin: {}, steps: {}, coded_in: {} }}",
            tests(origin),
            steps(leap),
            coded(*coded_in)
        ),
        Shape::Slide { origin, dir, then } => {
            let then = then
                .as_ref()
                .map_or("None".to_string(), |t| format!("Some({})", tests(t)));
            format!(
                "Shape::Slide {{ origin: {}, dir: dir::{}, then: {then} }}",
                tests(origin),
                names.dir(*dir)
            )
        }
        Shape::Hop {
            origin,
            dir,
            tests: hopped,
        } => format!(
            "Shape::Hop {{ origin: {}, dir: dir::{}, tests: {} }}",
            tests(origin),
            names.dir(*dir),
            tests(hopped)
        ),
        Shape::Strike {
            origin,
            dir,
            tests: struck,
            piece,
        } => format!(
            "Shape::Strike {{ origin: {}, dir: dir::{}, tests: {}, piece: {} }}",
            tests(origin),
            names.dir(*dir),
            tests(struck),
            piece.map_or("None".to_string(), |k| format!(
                "Some(kind::{})",
                names.kind(k)
            ))
        ),
        Shape::Guarded {
            origin,
            steps: opening,
        } => format!(
            "Shape::Guarded {{ origin: {}, steps: {} }}",
            tests(origin),
            steps(opening)
        ),
        Shape::Jump {
            origin,
            steps: opening,
            captured,
            continue_with,
            coded_in,
        } => {
            let continue_with = continue_with.map_or("None".to_string(), |t| {
                format!("Some(move_type::{})", names.move_type(t))
            });
            format!(
                "Shape::Jump {{ origin: {}, steps: {}, captured: {captured}, continue_with: {continue_with}, coded_in: {} }}",
                tests(origin),
                steps(opening),
                coded(*coded_in)
            )
        }
    }
}
