//! Warnings about rules that load cleanly but cannot be what their author meant, found
//! by running them: the interpreter is built for each lowered game and asked for the
//! first player's moves. `zrfc check` reports them after the front end's diagnostics.

use crate::diag::Diagnostic;
use crate::expand::Expanded;
use crate::frontend::FrontEnd;
use crate::interp;
use crate::source::Span;

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
                title_span(expanded, spec.form),
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

/// The `(title ...)` of the game or variant form `form`, else the whole form.
fn title_span(expanded: &Expanded, form: usize) -> Span {
    let form = &expanded.forms[form];
    form.as_list()
        .and_then(|items| {
            items
                .iter()
                .find(|item| item.head().is_some_and(|h| expanded.name(h) == "title"))
        })
        .map_or(form.span, |title| title.span)
}
