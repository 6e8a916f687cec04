//! Pitfalls inside move templates, read from each game as expanded: statements that
//! load and run but cannot do what they say, because of how Zillions runs a template
//! (flags start false in every run; `add` takes only the effects recorded since the
//! last `add`). Each finding is said once per place in the file, however many pieces,
//! games and variants share the template.

use std::collections::HashSet;

use crate::diag::Diagnostic;
use crate::expand::Expanded;
use crate::frontend::FrontEnd;
use crate::source::Span;
use crate::syntax::Node;

/// W0410 to W0413 over the templates of every game and variant.
pub fn template_pitfalls(front_end: &FrontEnd, expanded: &Expanded) -> Vec<Diagnostic> {
    let mut findings = Findings::default();
    for (index, result) in front_end.games.iter().enumerate() {
        if result.game.is_none() {
            continue;
        }
        let game = expanded.game_as_node(index);
        for (section, template) in templates(&game) {
            findings.flags_read_unset(template);
            findings.effects_before_adding_loops(template);
            // A drop's piece lands where the template starts.
            if section == "moves" {
                findings.attributes_left_behind(template);
            }
            findings.captures_of_changed_squares(template);
        }
    }
    findings.warnings
}

/// The move and drop templates of the pieces of `game`, each with its section (`moves`
/// or `drops`): the lists there, but the `(move-type NAME)` markers.
fn templates(game: &Node) -> impl Iterator<Item = (&'static str, &[Node])> {
    sections(game, "piece")
        .flat_map(|piece| {
            let moves = sections(piece, "moves").map(|list| ("moves", list));
            moves.chain(sections(piece, "drops").map(|list| ("drops", list)))
        })
        .flat_map(|(section, list)| {
            let items = list.as_list().unwrap_or_default().iter().skip(1);
            items.map(move |template| (section, template))
        })
        .filter(|(_, template)| template.head() != Some("move-type"))
        .filter_map(|(section, template)| Some((section, template.as_list()?)))
}

/// The `(HEAD ...)` lists in `node`.
fn sections<'n>(node: &'n Node, head: &'static str) -> impl Iterator<Item = &'n Node> {
    (node.as_list().unwrap_or_default().iter()).filter(move |item| item.head() == Some(head))
}

#[derive(Default)]
struct Findings {
    warnings: Vec<Diagnostic>,
    said: HashSet<Span>,
}

impl Findings {
    fn say(&mut self, at: Span, warning: impl FnOnce() -> Diagnostic) {
        if self.said.insert(at) {
            self.warnings.push(warning());
        }
    }

    /// W0410: `(flag? F)` or `(not-flag? F)` where nothing run before it in the template
    /// sets F. Flags start false in every run of a template, and so at every partial
    /// move: such a test always reads false (a flag set in one template, or one part of
    /// a move, is not seen by another).
    fn flags_read_unset(&mut self, template: &[Node]) {
        let mut set = HashSet::new();
        let mut reads = Vec::new();
        flag_reads(template, &mut set, &mut reads);
        for (name, at) in reads {
            self.say(at, || {
                Diagnostic::warning(
                    "W0410",
                    format!("flag `{name}` is read before anything in its template sets it"),
                )
                .primary(at, "always false here")
                .note(
                    "flags start false in every run of a move template, and at every \
                     partial move: a flag set by another template, or by an earlier part \
                     of the move, is not seen here",
                )
            });
        }
    }

    /// W0411: an effect (`capture`, `change-type`, `flip` ...) recorded once for a loop
    /// that adds many moves: before a loop whose body adds without recording an effect
    /// first (the flying king that captures once, then adds on every empty square
    /// beyond), or in the body after its last `add`. `add` makes a move of the effects
    /// recorded since the last `add`, so only one of the loop's moves has it.
    fn effects_before_adding_loops(&mut self, template: &[Node]) {
        let mut lost = Vec::new();
        effects_around_loops(template, None, &mut lost);
        for Lost {
            effect,
            word,
            looping,
            after_add,
        } in lost
        {
            self.say(effect, || {
                let (message, label) = match after_add {
                    false => (
                        format!("`{word}` is part of only the first move the loop after it adds"),
                        "recorded once, before the loop",
                    ),
                    true => (
                        format!("`{word}` after the loop's `add` is part of the next move it adds"),
                        "recorded after this turn's move was added",
                    ),
                };
                Diagnostic::warning("W0411", message)
                    .primary(effect, label)
                    .secondary(looping, "each time round, this loop adds a move")
                    .note(
                        "`add` makes a move of the effects recorded since the last `add`: \
                         record the effect in the loop, before its `add`",
                    )
            });
        }
    }

    /// W0412: `(set-attribute A V)` on the square the moving piece starts from, before
    /// the template steps away and adds: an attribute is set on whatever piece stands on
    /// the square once the move is made, and the moving piece has left it (usually
    /// nothing, so the set is lost). To mark the moving piece, set it at its
    /// destination.
    fn attributes_left_behind(&mut self, template: &[Node]) {
        // Templates that pick up or set down other pieces, or leave a copy, are left
        // alone: another piece may well end on the start square.
        let moves_others = |node: &Node| {
            let word = node.as_atom().or_else(|| node.head());
            matches!(
                word,
                Some("from" | "to" | "cascade" | "add-copy" | "add-copy-partial")
            )
        };
        if template.iter().any(|s| within(s, moves_others)) {
            return;
        }
        let mut set_at_start = None;
        for statement in template {
            let word = statement.as_atom().or_else(|| statement.head());
            match word {
                Some("set-attribute") if set_at_start.is_none() => {
                    set_at_start = Some(statement);
                }
                _ if adds(statement) => return,
                _ if leaves(statement) => break,
                _ => {}
            }
        }
        let Some(set) = set_at_start else { return };
        let index = template
            .iter()
            .position(|s| std::ptr::eq(s, set))
            .unwrap_or(0);
        if !template[index..].iter().any(|s| within(s, adds)) {
            return;
        }
        let name = set
            .as_list()
            .and_then(|i| i.get(1)?.as_atom())
            .unwrap_or("?");
        self.say(set.span, || {
            Diagnostic::warning(
                "W0412",
                format!("attribute `{name}` is set on the square the moving piece leaves"),
            )
            .primary(
                set.span,
                "set on the start square, before the piece moves away",
            )
            .note(
                "an attribute is set on whatever piece stands on the square once the move \
                 is made; to mark the moving piece, set it after stepping to its \
                 destination",
            )
        });
    }

    /// W0413: a `capture` of the square whose piece the same move changed earlier
    /// (`change-type`, `change-owner`, `flip`), with nothing run in between that leaves
    /// the square or adds the move. Zillions keeps one change per square in a move: the
    /// capture is lost.
    fn captures_of_changed_squares(&mut self, template: &[Node]) {
        let mut pending = vec![template];
        while let Some(block) = pending.pop() {
            // The changes since the run last moved or added, by the square they name
            // (the argument as written; none for the current square).
            let mut changed: Vec<(Option<&str>, &Node)> = Vec::new();
            for statement in block {
                if adds(statement) || leaves(statement) {
                    changed.clear();
                }
                if matches!(statement.head(), Some("if" | "while")) {
                    let (then, other) = branches(statement);
                    pending.extend([then, other]);
                    changed.clear();
                    continue;
                }
                let word = statement.as_atom().or_else(|| statement.head());
                let args = statement.as_list().unwrap_or_default();
                let square = |skip: usize| args.get(skip).and_then(Node::as_atom);
                match word {
                    Some("change-type") => changed.push((square(2), statement)),
                    Some("change-owner" | "flip") => changed.push((square(1), statement)),
                    Some("capture") => {
                        let Some(&(_, change)) = changed.iter().find(|(at, _)| *at == square(1))
                        else {
                            continue;
                        };
                        self.say(statement.span, || {
                            Diagnostic::warning(
                                "W0413",
                                "this capture is lost: the move already changed the piece here",
                            )
                            .primary(statement.span, "captures the square changed before")
                            .secondary(change.span, "changed here, earlier in the same move")
                            .note(
                                "Zillions keeps one change per square in a move: the later \
                                 capture is dropped; capture without changing the piece \
                                 first",
                            )
                        });
                    }
                    _ => {}
                }
            }
        }
    }
}

/// Whether `statement` may take the run off the square it is on: a step in a
/// direction or a jump to a position (a bare name), `back`, `go`, or a loop or branch
/// whose statements do one of those.
fn leaves(statement: &Node) -> bool {
    const STAYING: [&str; 6] = ["add", "capture", "flip", "mark", "change-owner", "else"];
    match (statement.as_atom(), statement.head()) {
        (Some(word), _) => !STAYING.contains(&word),
        (None, Some("go" | "opposite")) => true,
        (None, Some("while" | "if")) => {
            let items = statement.as_list().unwrap_or_default();
            items.get(2..).unwrap_or_default().iter().any(leaves)
        }
        _ => false,
    }
}

/// Whether `found` holds of `node` or of a node within it.
fn within(node: &Node, found: impl Fn(&Node) -> bool) -> bool {
    let mut pending = vec![node];
    while let Some(node) = pending.pop() {
        if found(node) {
            return true;
        }
        pending.extend(node.as_list().unwrap_or_default());
    }
    false
}

/// An effect recorded for one `add` where a loop adds many moves.
struct Lost<'n> {
    effect: Span,
    word: &'n str,
    /// The loop.
    looping: Span,
    /// Recorded in the loop's body after its `add`, rather than before the loop.
    after_add: bool,
}

/// The flags `statements` read while unset, with where, given the flags `set` before
/// them (updated to those that may be set after them).
fn flag_reads(statements: &[Node], set: &mut HashSet<String>, reads: &mut Vec<(String, Span)>) {
    for statement in statements {
        let Some(items) = statement.as_list() else {
            continue;
        };
        match statement.head() {
            Some("if") => {
                if let Some(condition) = items.get(1) {
                    read_in(condition, set, reads);
                }
                let (then, other) = branches(statement);
                let mut after_then = set.clone();
                flag_reads(then, &mut after_then, reads);
                flag_reads(other, set, reads);
                set.extend(after_then);
            }
            Some("while") => {
                // From the second time round, what the body sets is read too.
                set.extend(flags_set_in(statement));
                flag_reads(items.get(1..).unwrap_or_default(), set, reads);
            }
            Some("set-flag") => {
                for value in items.iter().skip(2) {
                    read_in(value, set, reads);
                }
                if let Some(name) = items.get(1).and_then(Node::as_atom) {
                    set.insert(name.to_lowercase());
                }
            }
            _ => read_in(statement, set, reads),
        }
    }
}

/// The flag tests in `node` of flags not in `set`.
fn read_in(node: &Node, set: &HashSet<String>, reads: &mut Vec<(String, Span)>) {
    let mut pending = vec![node];
    while let Some(node) = pending.pop() {
        let Some(items) = node.as_list() else {
            continue;
        };
        let tests_flag = matches!(node.head(), Some("flag?" | "not-flag?"));
        match items.get(1).and_then(Node::as_atom) {
            Some(name) if tests_flag => {
                if !set.contains(&name.to_lowercase()) {
                    reads.push((name.to_string(), node.span));
                }
            }
            _ => pending.extend(items),
        }
    }
}

/// The flags `(set-flag F ...)` sets anywhere in `node`.
fn flags_set_in(node: &Node) -> Vec<String> {
    let mut names = Vec::new();
    let mut pending = vec![node];
    while let Some(node) = pending.pop() {
        let Some(items) = node.as_list() else {
            continue;
        };
        if node.head() == Some("set-flag") {
            names.extend(items.get(1).and_then(Node::as_atom).map(str::to_lowercase));
        }
        pending.extend(items);
    }
    names
}

/// Statements that record an effect for the next `add`.
const EFFECTS: [&str; 6] = [
    "capture",
    "change-type",
    "change-owner",
    "flip",
    "create",
    "set-attribute",
];

/// The keyword of `statement` if it records an effect.
fn effect_of(statement: &Node) -> Option<&str> {
    let word = statement.as_atom().or_else(|| statement.head())?;
    EFFECTS.contains(&word).then_some(word)
}

/// Whether `statement` ends a move (`add` and its family).
fn adds(statement: &Node) -> bool {
    let word = statement.as_atom().or_else(|| statement.head());
    word.is_some_and(|w| w.starts_with("add"))
}

/// Walks `statements` with the effect `pending` since the last `add` (where, and its
/// keyword), noting effects recorded once for a loop that adds many moves. Returns the
/// effect pending after them.
fn effects_around_loops<'n>(
    statements: &'n [Node],
    mut pending: Option<(Span, &'n str)>,
    lost: &mut Vec<Lost<'n>>,
) -> Option<(Span, &'n str)> {
    for statement in statements {
        if adds(statement) {
            pending = None;
        } else if let Some(word) = effect_of(statement) {
            pending = pending.or(Some((statement.span, word)));
        } else if statement.head() == Some("while") {
            let body = (statement.as_list().unwrap_or_default().get(2..)).unwrap_or_default();
            let Some(first_add) = body.iter().position(|s| within(s, adds)) else {
                pending = effects_around_loops(body, pending, lost);
                continue;
            };
            let records_first = body[..first_add].iter().any(|s| effect_of(s).is_some());
            if let (Some((effect, word)), false) = (pending, records_first) {
                let looping = statement.span;
                lost.push(Lost {
                    effect,
                    word,
                    looping,
                    after_add: false,
                });
            }
            if let Some((effect, word)) = effects_around_loops(body, None, lost) {
                let looping = statement.span;
                lost.push(Lost {
                    effect,
                    word,
                    looping,
                    after_add: true,
                });
            }
            pending = None;
        } else if statement.head() == Some("if") {
            let (then, other) = branches(statement);
            let after_then = effects_around_loops(then, pending, lost);
            let after_other = effects_around_loops(other, pending, lost);
            pending = after_then.or(after_other);
        }
    }
    pending
}

/// The statements of an `(if CONDITION THEN... [else OTHER...])` run when the condition
/// holds, and those run when it does not; of a `(while CONDITION BODY...)`, its body
/// and none.
fn branches(statement: &Node) -> (&[Node], &[Node]) {
    let items = statement.as_list().unwrap_or_default();
    let branches = items.get(2..).unwrap_or_default();
    match branches.iter().position(|b| b.as_atom() == Some("else")) {
        Some(at) => (&branches[..at], &branches[at + 1..]),
        None => (branches, &[]),
    }
}
