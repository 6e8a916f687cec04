//! Errors of the syntax stage. [`SyntaxError::to_diagnostic`] is the only place their
//! wording lives.

use crate::diag::Diagnostic;
use crate::source::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    /// A `(` never closed. `end` is where we gave up: the end of the file, or the start of
    /// the next top-level form when `at_next_form`.
    UnclosedList {
        open: Span,
        end: Span,
        inner_open: usize,
        at_next_form: bool,
    },
    /// `count` consecutive `)` with no list open.
    StrayClose {
        span: Span,
        count: usize,
        previous_form: Option<Span>,
    },
    /// A `"` whose string runs to the end of the file.
    UnterminatedString {
        start: Span,
        eof: Span,
        open_lists: usize,
    },
    /// A list nested deeper than the parser accepts.
    TooDeep { span: Span, limit: usize },
    /// The error cap of one file was reached.
    TooManyErrors { span: Span, more: usize },
    /// `(include ...)` without exactly one string argument.
    IncludeMalformed { span: Span },
    /// No file of that name next to the including file or in a search path.
    IncludeNotFound {
        span: Span,
        name: String,
        searched: Vec<String>,
    },
    /// An include by an absolute path, or of a file outside the rules' folders.
    IncludeOutside { span: Span, name: String },
    /// A file that includes itself, directly or through others.
    IncludeCycle {
        span: Span,
        name: String,
        chain: Vec<String>,
    },
    /// The included file exists but could not be read.
    IncludeUnreadable {
        span: Span,
        name: String,
        reason: String,
    },
}

impl SyntaxError {
    pub fn span(&self) -> Span {
        match self {
            SyntaxError::UnclosedList { open: span, .. }
            | SyntaxError::StrayClose { span, .. }
            | SyntaxError::UnterminatedString { start: span, .. }
            | SyntaxError::TooDeep { span, .. }
            | SyntaxError::TooManyErrors { span, .. }
            | SyntaxError::IncludeMalformed { span }
            | SyntaxError::IncludeNotFound { span, .. }
            | SyntaxError::IncludeOutside { span, .. }
            | SyntaxError::IncludeCycle { span, .. }
            | SyntaxError::IncludeUnreadable { span, .. } => *span,
        }
    }

    pub fn to_diagnostic(&self) -> Diagnostic {
        match self {
            SyntaxError::UnclosedList {
                open,
                end,
                inner_open,
                at_next_form,
            } => {
                let mut d = Diagnostic::error("E0101", "unclosed `(`")
                    .primary(*open, "this `(` is never closed");
                d = if *at_next_form {
                    d.secondary(*end, "the next top-level form starts here")
                        .help(
                            "a `)` is missing inside the form above; `define`, `game`, \
                             `variant`, `include` and `version` can only start top-level forms",
                        )
                } else {
                    d.secondary(*end, "the file ends here")
                        .help("add the missing `)`; count the parentheses of the last form")
                };
                if *inner_open > 0 {
                    d = d.note(format!(
                        "{inner_open} more `(` inside it {} still open at that point",
                        if *inner_open == 1 { "is" } else { "are" }
                    ));
                }
                d
            }
            SyntaxError::StrayClose {
                span,
                count,
                previous_form,
            } => {
                let mut d = if *count == 1 {
                    Diagnostic::error("E0102", "unexpected `)`")
                        .primary(*span, "this `)` has no matching `(`")
                } else {
                    Diagnostic::error("E0102", format!("{count} unexpected `)`"))
                        .primary(*span, "these `)` have no matching `(`")
                };
                if let Some(previous) = previous_form {
                    d = d.secondary(*previous, "the previous top-level form ends here");
                }
                d.help("remove the extra `)`, or look for one too many in the form before")
            }
            SyntaxError::UnterminatedString {
                start,
                eof,
                open_lists,
            } => {
                let mut d = Diagnostic::error("E0103", "unterminated string")
                    .primary(*start, "this string is never closed")
                    .secondary(*eof, "the file ends inside the string")
                    .help(
                        "add the closing `\"`; strings may span lines and have no escapes, \
                         so a `\"` cannot appear inside one",
                    );
                if *open_lists > 0 {
                    d = d.note(format!(
                        "the {open_lists} `(` open at that point are not reported separately"
                    ));
                }
                d
            }
            SyntaxError::TooDeep { span, limit } => {
                Diagnostic::error("E0104", format!("lists nested more than {limit} deep"))
                    .primary(*span, "this list is too deeply nested")
                    .note("its contents are skipped; real rules files nest at most 64 levels")
            }
            SyntaxError::TooManyErrors { span, more } => {
                Diagnostic::error("E0105", format!("{more} more syntax errors in this file"))
                    .primary(*span, "not shown: only the first errors of a file are kept")
            }
            SyntaxError::IncludeMalformed { span } => {
                Diagnostic::error("E0201", "malformed `include`")
                    .primary(*span, "expected one file name in quotes")
                    .help("write it as (include \"file.zrf\")")
            }
            SyntaxError::IncludeNotFound {
                span,
                name,
                searched,
            } => {
                let mut d = Diagnostic::error("E0202", format!("included file `{name}` not found"))
                    .primary(*span, "included here");
                for path in searched {
                    d = d.note(format!("looked for {path}"));
                }
                d.help("put the file next to this one, or add its folder with `-I DIR`")
            }
            SyntaxError::IncludeOutside { span, name } => Diagnostic::error(
                "E0205",
                format!("included file `{name}` is outside the rules' folders"),
            )
            .primary(*span, "not read")
            .note("included files are named relative to the including file, and must lie under the folder of the rules file or an `-I` folder")
            .help("copy the file beside the rules, add its folder with `-I DIR`, or allow any file with `--include-anywhere`"),
            SyntaxError::IncludeCycle { span, name, chain } => {
                Diagnostic::error("E0203", format!("include cycle through `{name}`"))
                    .primary(*span, "this include closes a cycle")
                    .note(format!("include chain: {}", chain.join(" -> ")))
                    .help("remove one of the includes; each file needs to be included once")
            }
            SyntaxError::IncludeUnreadable { span, name, reason } => {
                Diagnostic::error("E0204", format!("cannot read included file `{name}`"))
                    .primary(*span, "included here")
                    .note(reason.clone())
            }
        }
    }
}
