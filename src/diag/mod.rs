//! Diagnostics as data, and the one place where they are rendered.
//!
//! Every stage reports problems as [`Diagnostic`] values (a code, a message, labelled spans,
//! notes and a hint). Nothing outside this module touches codespan-reporting: the terminal
//! and plain-text renderers and the JSON form all live here, so wording and layout stay
//! consistent across stages.

use std::io;
use std::ops::Range;
use std::sync::Arc;

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{self as cs_files, Files};
use codespan_reporting::term::{self, termcolor::WriteColor};

use crate::source::{FileId, SourceMap, Span};

pub mod codes;

/// How serious a diagnostic is. Only errors make a run fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// A span with a short message. The primary label says what is wrong at that point;
/// secondary labels point at related places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
    pub primary: bool,
}

/// One problem found in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable identifier, e.g. `E0101`, so tests and users can refer to a kind of problem.
    pub code: &'static str,
    pub message: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
        debug_assert!(
            codes::lookup(code).is_some(),
            "{code} is not in diag::codes"
        );
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }

    pub fn primary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: true,
        });
        self
    }

    pub fn secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: false,
        });
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The primary label's span, if any: where the diagnostic is "at".
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.iter().find(|l| l.primary).map(|l| l.span)
    }
}

/// The diagnostics of one compilation kept as data, with the sources they point into:
/// what the build.rs API hands its callers, who choose how to show them.
#[derive(Clone)]
pub struct Report {
    sources: Arc<SourceMap>,
    diagnostics: Vec<Diagnostic>,
}

impl Report {
    pub fn new(sources: Arc<SourceMap>, diagnostics: Vec<Diagnostic>) -> Report {
        Report {
            sources,
            diagnostics,
        }
    }

    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    pub fn sources(&self) -> &SourceMap {
        &self.sources
    }

    pub fn is_empty(&self) -> bool {
        self.diagnostics.is_empty()
    }

    /// How many of the diagnostics are errors.
    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    /// Every diagnostic in full, as plain text.
    pub fn render_plain(&self) -> String {
        render_plain(&self.sources, &self.diagnostics)
    }

    /// Every diagnostic in full on standard error, as `zrfc check` shows them: coloured
    /// only when standard error is a terminal and `NO_COLOR` is not set.
    pub fn emit_to_stderr(&self) {
        use std::io::IsTerminal as _;
        let colour =
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && io::stderr().is_terminal();
        let choice = if colour {
            term::termcolor::ColorChoice::Auto
        } else {
            term::termcolor::ColorChoice::Never
        };
        let mut stderr = term::termcolor::StandardStream::stderr(choice);
        // Standard error gone: nowhere left to say so.
        let _ = emit(&self.sources, &self.diagnostics, &mut stderr);
    }

    /// One line per diagnostic: `file:line:column: severity[code]: message`, for places
    /// that show a line each (Cargo's warnings, summaries).
    pub fn lines(&self) -> Vec<String> {
        self.diagnostics
            .iter()
            .map(|d| one_line(&self.sources, d))
            .collect()
    }
}

/// A report reads as its one-line summaries (the full text needs the sources).
impl std::fmt::Debug for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.lines()).finish()
    }
}

/// Most characters of one message, label or note shown: a message quoting a saved
/// game's 10 MB record, or a name of a million characters, is cut here, in every
/// renderer (human, one-line and JSON).
const LONGEST_TEXT_SHOWN: usize = 500;

/// `text` cut to 500 characters (`LONGEST_TEXT_SHOWN`), saying how many more there were.
pub fn capped(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(LONGEST_TEXT_SHOWN) {
        None => std::borrow::Cow::Borrowed(text),
        Some((cut, _)) => {
            let more = text[cut..].chars().count();
            std::borrow::Cow::Owned(format!(
                "{}… ({more} more characters not shown)",
                &text[..cut]
            ))
        }
    }
}

/// A message fit for a terminal: names from rules files may hold escape sequences, and
/// texts quoted from the input may be any length.
fn printable(text: &str) -> String {
    zrf_runtime::printable(&capped(text)).into_owned()
}

/// `file:line:column: severity[code]: message` (no location when the diagnostic has
/// none).
pub fn one_line(sources: &SourceMap, diagnostic: &Diagnostic) -> String {
    let location = diagnostic.primary_span().map(|span| {
        let file = sources.file(span.file);
        let at = file.line_column(span.start);
        format!("{}:{}:{}: ", printable(file.name()), at.line, at.column)
    });
    // One line whatever the rules' strings hold: a build script prints these as
    // `cargo::warning=` lines, and a line break would start a directive of its own.
    format!(
        "{}{}[{}]: {}",
        location.unwrap_or_default(),
        diagnostic.severity.as_str(),
        diagnostic.code,
        printable(&diagnostic.message)
    )
    .replace('\n', "\\n")
}

/// Renders diagnostics as plain text with a fixed width, for tests and logs.
pub fn render_plain(sources: &SourceMap, diagnostics: &[Diagnostic]) -> String {
    let config = plain_config();
    let mut out = String::new();
    for diagnostic in diagnostics {
        match term::emit_into_string(&config, &Files_(sources), &to_codespan(sources, diagnostic)) {
            Ok(text) => out.push_str(&text),
            Err(err) => out.push_str(&format!("{}: {err}\n", diagnostic.message)),
        }
    }
    out
}

/// Renders diagnostics to a terminal stream, coloured if the stream says so.
pub fn emit(
    sources: &SourceMap,
    diagnostics: &[Diagnostic],
    out: &mut dyn WriteColor,
) -> io::Result<()> {
    let config = term::Config::default();
    for diagnostic in diagnostics {
        term::emit_to_write_style(
            out,
            &config,
            &Files_(sources),
            &to_codespan(sources, diagnostic),
        )
        .map_err(io::Error::other)?;
    }
    Ok(())
}

fn plain_config() -> term::Config {
    term::Config {
        chars: term::Chars::ascii(),
        ..term::Config::default()
    }
}

/// Decoded byte range of a span, which is what codespan indexes.
fn decoded_range(sources: &SourceMap, span: Span) -> Range<usize> {
    let file = sources.file(span.file);
    file.decoded_offset(span.start)..file.decoded_offset(span.end)
}

/// Source lines longer than this (in bytes) are not printed under a diagnostic.
const LONGEST_LINE_SHOWN: usize = 1000;

fn to_codespan(sources: &SourceMap, diagnostic: &Diagnostic) -> cs::Diagnostic<FileId> {
    let severity = match diagnostic.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        Severity::Note => cs::Severity::Note,
    };
    // A label on a line too long to print (a minified file) is given as a location in
    // a note instead: codespan would print the whole line with every such diagnostic.
    let mut long_line_notes = Vec::new();
    let mut labels = Vec::new();
    for label in &diagnostic.labels {
        let file = sources.file(label.span.file);
        let range = decoded_range(sources, label.span);
        let line = file.line_range(file.line_index(range.start));
        if line.is_some_and(|line| line.len() > LONGEST_LINE_SHOWN) {
            let at = file.line_column(label.span.start);
            long_line_notes.push(format!(
                "at {}:{}:{}: {} (the line is too long to show)",
                printable(file.name()),
                at.line,
                at.column,
                printable(&label.message)
            ));
            continue;
        }
        let style = if label.primary {
            cs::LabelStyle::Primary
        } else {
            cs::LabelStyle::Secondary
        };
        labels.push(
            cs::Label::new(style, label.span.file, range).with_message(printable(&label.message)),
        );
    }
    let mut notes = long_line_notes;
    notes.extend(diagnostic.notes.iter().map(|n| printable(n)));
    if let Some(help) = &diagnostic.help {
        notes.push(format!("help: {}", printable(help)));
    }
    cs::Diagnostic::new(severity)
        .with_code(diagnostic.code)
        .with_message(printable(&diagnostic.message))
        .with_labels(labels)
        .with_notes(notes)
}

/// The codespan view of a [`SourceMap`]; byte indices here are decoded offsets.
struct Files_<'a>(&'a SourceMap);

impl<'a> Files<'a> for Files_<'a> {
    type FileId = FileId;
    type Name = std::borrow::Cow<'a, str>;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<Self::Name, cs_files::Error> {
        self.file(id).map(|f| zrf_runtime::printable(f.name()))
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, cs_files::Error> {
        self.file(id).map(|f| f.shown_text())
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, cs_files::Error> {
        self.file(id).map(|f| f.line_index(byte_index))
    }

    fn line_range(
        &'a self,
        id: FileId,
        line_index: usize,
    ) -> Result<Range<usize>, cs_files::Error> {
        let file = self.file(id)?;
        file.line_range(line_index)
            .ok_or(cs_files::Error::LineTooLarge {
                given: line_index,
                max: file.line_index(file.text().len()),
            })
    }
}

impl<'a> Files_<'a> {
    fn file(&self, id: FileId) -> Result<&'a crate::source::SourceFile, cs_files::Error> {
        if id.index() < self.0.len() {
            Ok(self.0.file(id))
        } else {
            Err(cs_files::Error::FileMissing)
        }
    }
}

/// One JSON object per diagnostic, as `zrfc --message-format json` prints them.
#[cfg(feature = "cli")]
pub fn to_json(sources: &SourceMap, diagnostic: &Diagnostic) -> serde_json::Value {
    use serde_json::json;
    let span_json = |span: Span| {
        let file = sources.file(span.file);
        let start = file.line_column(span.start);
        let end = file.line_column(span.end);
        json!({
            "file": file.name(),
            "byte_start": span.start,
            "byte_end": span.end,
            "line_start": start.line,
            "column_start": start.column,
            "line_end": end.line,
            "column_end": end.column,
        })
    };
    let labels: Vec<_> = diagnostic
        .labels
        .iter()
        .map(|label| {
            let mut value = span_json(label.span);
            value["message"] = json!(capped(&label.message));
            value["primary"] = json!(label.primary);
            value
        })
        .collect();
    let primary = diagnostic.primary_span().map(span_json);
    json!({
        "severity": diagnostic.severity.as_str(),
        "code": diagnostic.code,
        "message": capped(&diagnostic.message),
        "file": primary.as_ref().map(|p| p["file"].clone()),
        "span": primary,
        "labels": labels,
        "notes": diagnostic.notes.iter().map(|n| capped(n)).collect::<Vec<_>>(),
        "help": diagnostic.help.as_deref().map(capped),
    })
}

/// The closest candidate by edit distance, if close enough to be a likely typo, or one
/// that contains the name or is contained in it (`promotion` for `promotion-zone`).
pub fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    let limit = (name.chars().count() / 3).max(1);
    let related =
        |c: &str| c.len() >= 3 && name.len() >= 3 && (c.contains(name) || name.contains(c));
    candidates
        .map(|c| (strsim::damerau_levenshtein(name, c), c))
        .filter(|&(d, c)| d <= limit || c.eq_ignore_ascii_case(name) || related(c))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c.to_string())
}
