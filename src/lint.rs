//! Warnings about rules that load cleanly but cannot be what their author meant: found
//! by running them (the interpreter is built for each lowered game and asked for the
//! first player's moves) or by reading each game as expanded (names defined and never
//! used). `zrfc check` reports them after the front end's diagnostics.

use std::collections::{HashMap, HashSet};

use crate::diag::Diagnostic;
use crate::expand::Expanded;
use crate::frontend::FrontEnd;
use crate::interp;
use crate::source::Span;
use crate::syntax::Node;

mod templates;

pub use templates::template_pitfalls;

/// W0406 and W0407 for each zone and piece type that a game defines and never names
/// again after expansion (no move, goal, setup or other piece refers to it), in the
/// game and in every variant that inherits the definition: a piece that can never
/// stand on the board, a zone no rule tests, usually a misspelling at the other end.
pub fn unused_names(front_end: &FrontEnd, expanded: &Expanded) -> Vec<Diagnostic> {
    // Per definition (by its span, which variants share with the game they inherit
    // it from): its code, name and game, and whether any game or variant uses it.
    let mut definitions: Vec<(Span, &'static str, String, &str)> = Vec::new();
    let mut used: HashSet<Span> = HashSet::new();
    for (index, result) in front_end.games.iter().enumerate() {
        if result.game.is_none() {
            continue;
        }
        let game = expanded.game_as_node(index);
        let mut uses: HashMap<&str, usize> = HashMap::new();
        let mut defined: Vec<(&'static str, &str, Span)> = Vec::new();
        let mut pending = vec![&game];
        while let Some(node) = pending.pop() {
            if let Some(atom) = node.as_atom() {
                *uses.entry(atom).or_default() += 1;
            }
            let Some(items) = node.as_list() else {
                continue;
            };
            let code = match node.head() {
                Some("zone") => Some("W0406"),
                Some("piece") => Some("W0407"),
                _ => None,
            };
            let name = items
                .iter()
                .find(|item| item.head() == Some("name"))
                .and_then(|item| item.as_list()?.get(1)?.as_atom().map(|n| (n, item)));
            if let (Some(code), Some((name, item))) = (code, name) {
                defined.push((code, name, item.as_list().map_or(item.span, |l| l[1].span)));
            }
            pending.extend(items);
        }
        for (code, name, span) in defined {
            // The definition itself is one use; zones are defined once per player.
            let definitions_here = if code == "W0406" {
                count_zone_definitions(&game, name)
            } else {
                1
            };
            if uses.get(name).copied().unwrap_or(0) > definitions_here {
                used.insert(span);
            } else if !definitions.iter().any(|d| d.0 == span) {
                definitions.push((span, code, name.to_string(), &result.title));
            }
        }
    }
    definitions.sort_by_key(|(span, ..)| (span.file.index(), span.start));
    definitions
        .into_iter()
        .filter(|(span, ..)| !used.contains(span))
        .map(|(span, code, name, title)| {
            let (what, label) = if code == "W0406" {
                ("zone", "no move or goal tests this zone")
            } else {
                (
                    "piece type",
                    "never set up, dropped, created or changed into",
                )
            };
            Diagnostic::warning(code, format!("{what} `{name}` is never used"))
                .primary(span, label)
                .note(format!("in \"{title}\" and every variant that inherits it"))
        })
        .collect()
}

/// How many `(zone (name NAME) ...)` forms of `game` define `name`.
fn count_zone_definitions(game: &Node, name: &str) -> usize {
    let mut count = 0;
    let mut pending = vec![game];
    while let Some(node) = pending.pop() {
        let Some(items) = node.as_list() else {
            continue;
        };
        let names_it = node.head() == Some("zone")
            && items.iter().any(|item| {
                item.head() == Some("name")
                    && item.as_list().and_then(|l| l.get(1)?.as_atom()) == Some(name)
            });
        count += usize::from(names_it);
        pending.extend(items);
    }
    count
}

/// Every lint of this module, in the order `zrfc check` and the language server
/// report them.
pub fn all(front_end: &FrontEnd, expanded: &Expanded) -> Vec<Diagnostic> {
    let mut warnings = start_positions(front_end, expanded);
    warnings.extend(unused_names(front_end, expanded));
    warnings.extend(unplayed_move_types(front_end, expanded));
    warnings.extend(unreachable_positions(front_end, expanded));
    warnings.extend(template_pitfalls(front_end, expanded));
    warnings
}

/// Most position names a W0409 lists.
const LISTED_POSITIONS: usize = 8;

/// W0409 for each board on which some positions (not dummies) can never hold a piece:
/// no direction leads to them, no piece starts on them, no rule names them outside the
/// board (a template's jump, a goal) and the game has no drops. Once per set of such
/// positions, however many variants share the board (or build it by the same macro,
/// which gives each its own span).
pub fn unreachable_positions(front_end: &FrontEnd, expanded: &Expanded) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    let mut reported: HashSet<String> = HashSet::new();
    for (index, (result, spec)) in front_end.games.iter().zip(&expanded.games).enumerate() {
        let Some(game) = &result.game else { continue };
        let has_drops = game.pieces.iter().any(|piece| !piece.drops.is_empty());
        // Moves from an Axiom plug-in are not in the rules (W0403 says so already).
        if has_drops || game.engine.is_some() {
            continue;
        }
        let board_span = section_span(expanded, spec.form, "board");
        let mut reached = vec![false; game.board.positions.len()];
        for target in game.board.links.iter().flatten().flatten() {
            reached[target.index()] = true;
        }
        for setup in &game.setup {
            for pos in &setup.positions {
                reached[pos.index()] = true;
            }
        }
        let named: HashSet<String> =
            atoms_outside(&expanded.game_as_node(index), &["board", "board-setup"])
                .iter()
                .map(|atom| atom.to_lowercase())
                .collect();
        let lost: Vec<&str> = game
            .board
            .positions
            .iter()
            .zip(&reached)
            // Dummies are the rules' own workspace (counters, flags, sentinels).
            .filter(|(pos, &reached)| {
                !reached && !pos.dummy && !named.contains(&pos.name.to_lowercase())
            })
            .map(|(pos, _)| pos.name.as_str())
            .collect();
        // Variants that share the board (or build it by the same macro) share the
        // finding: said once.
        if lost.is_empty() || !reported.insert(lost.join(" ")) {
            continue;
        }
        let mut listed = lost[..lost.len().min(LISTED_POSITIONS)].join(", ");
        if lost.len() > LISTED_POSITIONS {
            listed.push_str(&format!(" and {} more", lost.len() - LISTED_POSITIONS));
        }
        let positions = match lost.len() {
            1 => "a position".to_string(),
            n => format!("{n} positions"),
        };
        warnings.push(
            Diagnostic::warning(
                "W0409",
                format!(
                    "{positions} of \"{}\" can never hold a piece: {listed}",
                    result.title
                ),
            )
            .primary(board_span, "no direction leads there")
            .note(
                "no piece starts there, no rule names them and the game has no drops: \
                 a link or grid dimension left out, or a misspelled position?",
            ),
        );
    }
    warnings
}

/// The atoms of `game` outside the lists whose head is one of `skipped`.
fn atoms_outside(game: &Node, skipped: &[&str]) -> HashSet<String> {
    let mut atoms = HashSet::new();
    let mut pending = vec![game];
    while let Some(node) = pending.pop() {
        if let Some(atom) = node.as_atom() {
            atoms.insert(atom.to_string());
        }
        if !node.head().is_some_and(|head| skipped.contains(&head)) {
            pending.extend(node.as_list().into_iter().flatten());
        }
    }
    atoms
}

/// W0405 for each game or variant whose first player has no legal move at the start:
/// the game is over before it begins (a drop game whose pieces have no stock off the
/// board, a board setup left out).
pub fn start_positions(front_end: &FrontEnd, expanded: &Expanded) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    for (result, spec) in front_end.games.iter().zip(&expanded.games) {
        let Some(game) = &result.game else { continue };
        // Moves from an Axiom plug-in are not in the rules (W0403 says so already).
        if game.engine.is_some() {
            continue;
        }
        let Ok(engine) = interp::engine(game.clone()) else {
            continue;
        };
        let start = engine.start();
        // A list cut short says nothing (the run reports the runaway rules).
        if !engine.legal_moves(&start).is_empty() || zrf_runtime::move_list_cut_short() {
            continue;
        }
        let first = engine.tables.player_names()[engine.turn(&start).player as usize].clone();
        warnings.push(
            Diagnostic::warning(
                "W0405",
                format!(
                    "{first} has no legal move at the start of \"{}\"",
                    result.title
                ),
            )
            .primary(
                section_span(expanded, spec.form, "title"),
                "the game ends before its first turn",
            )
            .note(
                "drops need pieces off the board (`(board-setup (PLAYER (PIECE off N)))`), \
                 moves need pieces on it",
            ),
        );
    }
    warnings
}

/// W0408 for each move type that no turn of any game or variant of the file can play:
/// every turn of a game is restricted to a move type (`(PLAYER TYPE)`) and its pieces
/// list moves under another, which no continuation (`add-partial`), attack test or
/// other game of the file names either. Zillions offers a turn only the moves of its
/// type, so those moves are never generated.
pub fn unplayed_move_types(front_end: &FrontEnd, expanded: &Expanded) -> Vec<Diagnostic> {
    // Per move type name: the first game that leaves it unplayed, and whether any
    // game plays or names it.
    let mut unplayed: Vec<(String, usize, String)> = Vec::new();
    let mut played: HashSet<String> = HashSet::new();
    for (index, (result, spec)) in front_end.games.iter().zip(&expanded.games).enumerate() {
        let Some(game) = &result.game else { continue };
        let restricted = game
            .turn_order
            .turns
            .iter()
            .map(|turn| turn.move_type)
            .collect::<Option<HashSet<_>>>();
        let Some(restricted) = restricted else {
            // An unrestricted turn plays every type.
            played.extend(game.move_types.iter().cloned());
            continue;
        };
        played.extend(
            restricted
                .iter()
                .map(|t| game.move_types[t.index()].clone()),
        );
        // A move type named outside its `(move-type NAME)` markers is used by a
        // continuation, an attack test or a priority.
        played.extend(atoms_outside(&expanded.game_as_node(index), &["move-type"]));
        for name in game
            .pieces
            .iter()
            .flat_map(|piece| piece.moves.iter().chain(&piece.drops))
            .filter_map(|used| used.move_type)
            .filter(|t| !restricted.contains(t))
            .map(|t| &game.move_types[t.index()])
        {
            if !unplayed.iter().any(|(n, ..)| n == name) {
                unplayed.push((name.clone(), spec.form, result.title.clone()));
            }
        }
    }
    unplayed
        .into_iter()
        .filter(|(name, ..)| !played.contains(name))
        .map(|(name, form, title)| {
            Diagnostic::warning(
                "W0408",
                format!("moves of type `{name}` are never played in \"{title}\""),
            )
            .primary(
                section_span(expanded, form, "turn-order"),
                "every turn is restricted to other move types",
            )
            .note("a turn `(PLAYER TYPE)` offers only the moves of TYPE")
        })
        .collect()
}

/// The `(SECTION ...)` of the game or variant form `form`, else the whole form.
fn section_span(expanded: &Expanded, form: usize, section: &str) -> Span {
    let form = &expanded.forms[form];
    form.as_list()
        .and_then(|items| {
            items
                .iter()
                .find(|item| item.head().is_some_and(|h| expanded.name(h) == section))
        })
        .map_or(form.span, |found| found.span)
}
