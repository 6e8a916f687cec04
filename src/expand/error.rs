//! Errors of the expansion stage; [`ExpandError::to_diagnostic`] holds their wording.

use super::{Expanded, ExpnId};
use crate::diag::Diagnostic;
use crate::source::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExpandError {
    /// `$k` in a macro body that neither the call nor any enclosing call supplies.
    UndefinedParameter {
        span: Span,
        param: u32,
        macro_name: String,
        expn: Option<ExpnId>,
    },
    /// `$k` written outside any macro body.
    ParameterOutsideMacro { span: Span, param: u32 },
    /// Macro calls nested deeper than the limit (usually a recursive macro).
    CallDepth {
        span: Span,
        macro_name: String,
        limit: usize,
        expn: Option<ExpnId>,
    },
    /// Expansion created more nodes than the limit (an exponential macro).
    NodeLimit {
        span: Span,
        macro_name: String,
        limit: usize,
        expn: Option<ExpnId>,
    },
    /// Pasting parameters into names and strings made more text than the limit.
    PasteLimit {
        span: Span,
        macro_name: String,
        limit: usize,
        expn: Option<ExpnId>,
    },
    /// The expanded tree nests deeper than the limit.
    NestingLimit {
        span: Span,
        limit: usize,
        expn: Option<ExpnId>,
    },
    /// A list argument pasted into an atom or string (`t-$1` with `$1` = `(a b)`).
    ListPasted {
        span: Span,
        param: u32,
        expn: Option<ExpnId>,
    },
    /// `define`, `include`, `game`, `variant` or `version` inside another form.
    NotAtTopLevel {
        span: Span,
        head: String,
        expn: Option<ExpnId>,
    },
    /// `(define)` without a name, or with a list as its name.
    MalformedDefine { span: Span },
    /// A top-level form that is none of the known ones.
    UnknownTopLevel {
        span: Span,
        head: Option<String>,
        /// A top-level form or macro name close to `head`.
        suggestion: Option<String>,
        expn: Option<ExpnId>,
    },
    /// A `variant` in a file without any `game`.
    VariantWithoutGame { span: Span },
    /// A file (with its includes) that defines no game at all; `span` is its start.
    NoGame { span: Span },
    /// A `game` without `(title "...")`.
    MissingTitle { span: Span, kind: &'static str },
    /// A `variant` without a title of its own (a warning: it shows the game's title).
    UntitledVariant {
        span: Span,
        shown_as: Option<String>,
    },
    /// A macro defined again; the later definition wins (a warning).
    Redefinition {
        span: Span,
        name: String,
        previous: Span,
    },
    /// A macro of the root file that nothing calls (a warning): a typo in a call, or
    /// rules left behind.
    UnusedMacro { span: Span, name: String },
}

impl ExpandError {
    /// The diagnostic, with the chain of macro calls that led to the problem.
    pub fn to_diagnostic(&self, expanded: &Expanded) -> Diagnostic {
        let (diagnostic, expn) = self.describe();
        match expn {
            Some(expn) => expanded.with_trail(diagnostic, expn),
            None => diagnostic,
        }
    }

    fn describe(&self) -> (Diagnostic, Option<ExpnId>) {
        match self {
            ExpandError::UndefinedParameter {
                span,
                param,
                macro_name,
                expn,
            } => (
                Diagnostic::error(
                    "E0301",
                    format!("`${param}` has no value in this expansion of `{macro_name}`"),
                )
                .primary(
                    *span,
                    format!("no call supplies a {} argument", ordinal(*param)),
                )
                .help(format!(
                    "pass it in the call of `{macro_name}`, or call `{macro_name}` from a macro \
                     that has a {} parameter",
                    ordinal(*param)
                )),
                *expn,
            ),
            ExpandError::ParameterOutsideMacro { span, param } => (
                Diagnostic::error("E0302", format!("`${param}` outside a macro"))
                    .primary(*span, "parameters only have values inside `define` bodies"),
                None,
            ),
            ExpandError::CallDepth {
                span,
                macro_name,
                limit,
                expn,
            } => (
                Diagnostic::error(
                    "E0303",
                    format!("macro calls nested more than {limit} deep, in `{macro_name}`"),
                )
                .primary(
                    *span,
                    format!("this call of `{macro_name}` is {} levels deep", limit + 1),
                )
                .note("a macro that calls itself, directly or through others, never finishes")
                .help(if *limit < super::CALL_DEPTH_CEILING {
                    "if the nesting is intended, raise the limit with `--macro-depth-limit`"
                } else {
                    "this is the deepest nesting expansion allows"
                }),
                *expn,
            ),
            ExpandError::NodeLimit {
                span,
                macro_name,
                limit,
                expn,
            } => (
                Diagnostic::error(
                    "E0304",
                    format!("expansion creates more than {limit} nodes, in `{macro_name}`"),
                )
                .primary(
                    *span,
                    format!("the limit was reached expanding this call of `{macro_name}`"),
                )
                .note("macros whose bodies call other macros several times grow exponentially")
                .help("if the size is intended, raise the limit with `--max-expanded-nodes`"),
                *expn,
            ),
            ExpandError::PasteLimit {
                span,
                macro_name,
                limit,
                expn,
            } => (
                Diagnostic::error(
                    "E0313",
                    format!("pasting makes more than {limit} bytes of names, in `{macro_name}`"),
                )
                .primary(
                    *span,
                    format!("the limit was reached expanding this call of `{macro_name}`"),
                )
                .note("a name pasted into itself at each call (`$1$1`) doubles in length every time")
                .help("if the size is intended, raise the limit with `--max-pasted-bytes`"),
                *expn,
            ),
            ExpandError::NestingLimit { span, limit, expn } => (
                Diagnostic::error(
                    "E0305",
                    format!("expanded lists nest more than {limit} deep"),
                )
                .primary(*span, "this list is too deeply nested after expansion"),
                *expn,
            ),
            ExpandError::ListPasted { span, param, expn } => (
                Diagnostic::error(
                    "E0306",
                    format!("a list cannot be pasted into a name (`${param}`)"),
                )
                .primary(*span, format!("`${param}` is a list here"))
                .help("pass a single name or number to parameters used inside names or strings"),
                *expn,
            ),
            ExpandError::NotAtTopLevel { span, head, expn } => (
                Diagnostic::error("E0307", format!("`{head}` inside another form"))
                    .primary(
                        *span,
                        format!("`{head}` is only allowed at the top level of a file"),
                    )
                    .help("check the parentheses of the form around it"),
                *expn,
            ),
            ExpandError::MalformedDefine { span } => (
                Diagnostic::error("E0308", "malformed `define`")
                    .primary(*span, "expected a macro name after `define`")
                    .help("write it as (define NAME body...)"),
                None,
            ),
            ExpandError::UnknownTopLevel {
                span,
                head,
                suggestion,
                expn,
            } => (
                Diagnostic::error(
                    "E0309",
                    match head {
                        Some(head) => format!("unknown top-level form `{head}`"),
                        None => "unexpected top-level item".to_string(),
                    },
                )
                .primary(*span, "not a definition, game or variant")
                .help(match suggestion {
                    Some(name) => format!("did you mean `{name}`?"),
                    None => "a file holds `define`, `game`, `variant`, `include` and `version` forms"
                        .to_string(),
                }),
                *expn,
            ),
            ExpandError::NoGame { span } => (
                Diagnostic::error("E0312", "no game in this file")
                    .primary(*span, "nothing here or in its includes is a `(game ...)`")
                    .note("a rules file describes at least one game; macros and variants alone cannot be played")
                    .help("a file meant to be included goes in another's `(include \"...\")`"),
                None,
            ),
            ExpandError::VariantWithoutGame { span } => (
                Diagnostic::error("E0310", "variant without a game")
                    .primary(*span, "a variant inherits from a game; this file has none")
                    .help("add the `(game ...)` this variant changes"),
                None,
            ),
            ExpandError::UntitledVariant { span, shown_as } => (
                Diagnostic::warning("W0302", "variant without a title of its own")
                    .primary(
                        *span,
                        match shown_as {
                            Some(title) => format!("it inherits the title {title:?}"),
                            None => "it has no title".to_string(),
                        },
                    )
                    .help("give it a (title \"...\") so it can be told apart in menus"),
                None,
            ),
            ExpandError::MissingTitle { span, kind } => (
                Diagnostic::error("E0311", format!("{kind} without a title"))
                    .primary(*span, format!("this {kind} has no (title \"...\")"))
                    .help("Zillions lists games by title; add one"),
                None,
            ),
            ExpandError::Redefinition {
                span,
                name,
                previous,
            } => (
                Diagnostic::warning("W0301", format!("macro `{name}` is defined twice"))
                    .primary(*span, "this definition is used everywhere in the file")
                    .secondary(*previous, "this earlier definition is ignored"),
                None,
            ),
            ExpandError::UnusedMacro { span, name } => (
                Diagnostic::warning("W0303", format!("macro `{name}` is never used"))
                    .primary(*span, "no game or variant calls it")
                    .help("check the spelling of its calls, or remove it"),
                None,
            ),
        }
    }
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// How many calls of a macro trail are labelled before the rest are summarised.
const TRAIL_LABELS: usize = 4;

impl Expanded {
    /// Adds "in this call of `m`" labels for each macro call from `expn` outwards; a
    /// recursive call repeated at the same place is labelled once.
    pub fn with_trail(&self, mut diagnostic: Diagnostic, expn: ExpnId) -> Diagnostic {
        let mut current = Some(expn);
        let mut labelled = 0;
        let mut unlabelled = 0;
        while let Some(id) = current {
            let expansion = self.expansion(id);
            let name = self.name(expansion.macro_name);
            let message = format!("in this call of `{name}`");
            let repeated = diagnostic
                .labels
                .iter()
                .any(|l| l.span == expansion.call_site && l.message == message);
            if repeated {
                unlabelled += 1;
            } else if labelled < TRAIL_LABELS {
                diagnostic = diagnostic.secondary(expansion.call_site, message);
                if labelled == 0 {
                    diagnostic = diagnostic
                        .secondary(expansion.def_site, format!("`{name}` is defined here"));
                }
                labelled += 1;
            } else {
                unlabelled += 1;
            }
            current = expansion.parent;
        }
        if unlabelled > 0 {
            diagnostic = diagnostic.note(format!("{unlabelled} more enclosing macro calls"));
        }
        diagnostic
    }
}
