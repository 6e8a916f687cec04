//! The `zrfc` command line: argument parsing and output only; the work is done by the
//! library stages.
//!
//! Exit codes: 0 success (warnings allowed), 1 diagnostics with errors (or a corpus
//! regression), 2 usage or IO errors.

mod corpus;
mod pipeline;

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};

use crate::diag::{self, Diagnostic};
use crate::source::SourceMap;
use crate::syntax;

/// Compile Zillions of Games rule files (.zrf) into native game engines.
///
/// Start with `zrfc check FILE.zrf` to see what the toolchain makes of a rules file.
#[derive(Parser, Debug)]
#[command(name = "zrfc", version, max_term_width = 100)]
pub struct Cli {
    /// When to colour diagnostics. `auto` colours only on a terminal and honours NO_COLOR.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, global = true)]
    color: ColorWhen,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Read one rules file and its includes; print a summary, the tree or the text.
    ///
    /// Example: `zrfc parse zrf-samples/tictactoe.zrf --tree`
    Parse {
        /// The .zrf file to read.
        file: PathBuf,
        /// Print every node with its line:column range.
        #[arg(long, conflicts_with = "print")]
        tree: bool,
        /// Print the file back as ZRF text (comments dropped, layout normalised).
        #[arg(long)]
        print: bool,
        #[command(flatten)]
        includes: IncludeArgs,
    },
    /// Check rules files and report every problem found, with its location.
    ///
    /// Runs the front end as far as it is built (today: decoding, syntax and includes).
    ///
    /// Example: `zrfc check games/*.zrf --message-format json`
    Check {
        /// One or more .zrf files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// `human` renders diagnostics for people on stderr; `json` prints one JSON object
        /// per diagnostic on stdout (file, byte and line/column range, code, message).
        #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
        message_format: MessageFormat,
        #[command(flatten)]
        includes: IncludeArgs,
    },
    /// Run the pipeline over every .zrf under a folder and compare with expectations.
    ///
    /// Prints one status line per file and a closing `N passed, N failed` line. With
    /// `--expect`, a file passes when its status matches the recorded one (or became
    /// `ok`); any other change fails the run. `--bless` rewrites the expectations.
    ///
    /// Example: `zrfc corpus ../shared/corpus --expect tests/corpus/expected.tsv`
    Corpus(corpus::CorpusArgs),
}

/// Include search paths.
#[derive(Args, Debug, Clone, Default)]
struct IncludeArgs {
    /// A folder searched for `(include "...")` files after the including file's own
    /// folder; repeatable, searched in order.
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    include_dirs: Vec<PathBuf>,
}

impl IncludeArgs {
    fn options(&self) -> syntax::LoadOptions {
        syntax::LoadOptions {
            include_dirs: self.include_dirs.clone(),
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum MessageFormat {
    Human,
    Json,
}

/// How many diagnostics of one file are shown before the rest are counted.
const SHOWN_PER_FILE: usize = 50;

/// Runs `zrfc` with the process arguments.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return ExitCode::from(if err.use_stderr() { 2 } else { 0 });
        }
    };
    let color = color_choice(cli.color);
    let code = match cli.command {
        Command::Parse {
            file,
            tree,
            print,
            includes,
        } => parse_command(&file, tree, print, &includes.options(), color),
        Command::Check {
            files,
            message_format,
            includes,
        } => check_command(&files, message_format, &includes.options(), color),
        Command::Corpus(args) => corpus::run(&args),
    };
    ExitCode::from(code)
}

fn color_choice(when: ColorWhen) -> ColorChoice {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    match when {
        ColorWhen::Always => ColorChoice::Always,
        ColorWhen::Never => ColorChoice::Never,
        ColorWhen::Auto if no_color || !io::stderr().is_terminal() => ColorChoice::Never,
        ColorWhen::Auto => ColorChoice::Auto,
    }
}

/// Renders diagnostics on stderr, at most [`SHOWN_PER_FILE`] of them.
fn report_human(sources: &SourceMap, diagnostics: &[Diagnostic], color: ColorChoice) {
    let mut stderr = StandardStream::stderr(color);
    let shown = &diagnostics[..diagnostics.len().min(SHOWN_PER_FILE)];
    let _ = diag::emit(sources, shown, &mut stderr);
    if diagnostics.len() > shown.len() {
        let _ = writeln!(
            stderr,
            "... and {} more diagnostics not shown",
            diagnostics.len() - shown.len()
        );
    }
}

fn report_json(sources: &SourceMap, diagnostics: &[Diagnostic]) {
    let mut stdout = io::stdout().lock();
    for diagnostic in diagnostics {
        let _ = writeln!(stdout, "{}", diag::to_json(sources, diagnostic));
    }
}

fn parse_command(
    file: &std::path::Path,
    tree: bool,
    print: bool,
    options: &syntax::LoadOptions,
    color: ColorChoice,
) -> u8 {
    let mut sources = SourceMap::new();
    let loaded = match syntax::load(file, &syntax::FsLoader, options, &mut sources) {
        Ok(loaded) => loaded,
        Err(err) => {
            eprintln!("error: {err}");
            return 2;
        }
    };
    let diagnostics: Vec<Diagnostic> = loaded.errors.iter().map(|e| e.to_diagnostic()).collect();
    let mut stdout = io::stdout().lock();
    for parsed in &loaded.files {
        let source = sources.file(parsed.file);
        let _ = if tree {
            writeln!(stdout, "; {}", source.name())
                .and_then(|()| write!(stdout, "{}", syntax::to_tree_dump(&sources, &parsed.forms)))
        } else if print {
            writeln!(stdout, "; {}", source.name())
                .and_then(|()| write!(stdout, "{}", syntax::to_zrf(&parsed.forms)))
        } else {
            let nodes: usize = parsed.forms.iter().map(syntax::Node::count).sum();
            let heads = pipeline::form_heads(&parsed.forms);
            writeln!(
                stdout,
                "{}: {} bytes ({}), {} lines, {} top-level forms ({}), {} nodes",
                source.name(),
                source.bytes().len(),
                source.encoding(),
                source.line_count(),
                parsed.forms.len(),
                heads,
                nodes,
            )
        };
    }
    drop(stdout);
    report_human(&sources, &diagnostics, color);
    exit_code(&diagnostics)
}

fn check_command(
    files: &[PathBuf],
    format: MessageFormat,
    options: &syntax::LoadOptions,
    color: ColorChoice,
) -> u8 {
    let mut worst = 0;
    for file in files {
        let mut sources = SourceMap::new();
        let diagnostics = match pipeline::check(file, options, &mut sources) {
            Ok(diagnostics) => diagnostics,
            Err(err) => {
                eprintln!("error: {err}");
                worst = 2;
                continue;
            }
        };
        match format {
            MessageFormat::Human => {
                report_human(&sources, &diagnostics, color);
                let errors = diagnostics.iter().filter(|d| d.is_error()).count();
                let warnings = diagnostics.len() - errors;
                if !diagnostics.is_empty() {
                    eprintln!(
                        "{}: {errors} error{}, {warnings} warning{}",
                        file.display(),
                        if errors == 1 { "" } else { "s" },
                        if warnings == 1 { "" } else { "s" },
                    );
                }
            }
            MessageFormat::Json => report_json(&sources, &diagnostics),
        }
        worst = worst.max(exit_code(&diagnostics));
    }
    worst
}

fn exit_code(diagnostics: &[Diagnostic]) -> u8 {
    u8::from(diagnostics.iter().any(Diagnostic::is_error))
}
