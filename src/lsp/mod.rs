//! `zrfc lsp`: a language server for rules files, over stdio (or any
//! [`lsp_server::Connection`]).
//!
//! Each open document is analysed as a root file with the whole front end (the same
//! diagnostics as `zrfc check`, its lints included), reading open documents from the
//! editor's text and their includes from disk; a change is analysed once the editor
//! has been quiet for [`DEBOUNCE`]. The requests (hover, definition, references,
//! document symbols, completion, semantic tokens) are answered from an [`index`] of the
//! syntax trees, so they work on a file with errors too.

pub mod index;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, GotoDefinition, HoverRequest, References, Request as _,
    SemanticTokensFullRequest,
};
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionOptions, CompletionParams, CompletionResponse,
    DiagnosticRelatedInformation, DiagnosticSeverity, DocumentSymbol, DocumentSymbolParams,
    DocumentSymbolResponse, GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents,
    HoverParams, HoverProviderCapability, Location, MarkupContent, MarkupKind, NumberOrString,
    OneOf, Position, PublishDiagnosticsParams, Range, ReferenceParams, SemanticToken,
    SemanticTokenType, SemanticTokens, SemanticTokensFullOptions, SemanticTokensLegend,
    SemanticTokensOptions, SemanticTokensParams, SemanticTokensResult,
    SemanticTokensServerCapabilities, ServerCapabilities, SymbolKind, TextDocumentSyncCapability,
    TextDocumentSyncKind, Uri,
};

use crate::diag::{Diagnostic, Severity};
use crate::frontend::{self, FrontEndOptions};
use crate::source::{FileId, SourceFile, SourceMap, Span};
use crate::syntax::{self, FsLoader, SourceLoader};
use index::{Definition, DefinitionKind, Index};

/// How long the editor must be quiet after a change before the file is analysed again.
pub const DEBOUNCE: Duration = Duration::from_millis(50);
/// Lines of a macro's definition shown when hovering over a use of it.
const HOVER_LINES: usize = 30;

/// The token types of [`SemanticTokens`], by index.
const TOKEN_TYPES: [SemanticTokenType; 7] = [
    SemanticTokenType::KEYWORD,
    SemanticTokenType::MACRO,
    SemanticTokenType::CLASS,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::NAMESPACE,
    SemanticTokenType::STRING,
];

/// Serves the language server protocol on stdin and stdout until the editor exits.
pub fn run_stdio() -> Result<(), String> {
    let (connection, threads) = Connection::stdio();
    serve(&connection)?;
    threads.join().map_err(|e| e.to_string())
}

/// Serves one editor on `connection`: the initialisation handshake, then requests until
/// `shutdown` and `exit`.
pub fn serve(connection: &Connection) -> Result<(), String> {
    let capabilities = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    connection
        .initialize(capabilities)
        .map_err(|e| e.to_string())?;
    let mut server = Server::default();
    loop {
        let wait = server.next_due().map_or(Duration::from_secs(3600), |due| {
            due.saturating_duration_since(Instant::now())
        });
        match connection.receiver.recv_timeout(wait) {
            Ok(Message::Request(request)) => {
                if connection
                    .handle_shutdown(&request)
                    .map_err(|e| e.to_string())?
                {
                    return Ok(());
                }
                let response = server.answer(request);
                send(connection, Message::Response(response))?;
            }
            Ok(Message::Notification(notification)) => server.notice(notification),
            Ok(Message::Response(_)) => {}
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => {}
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return Ok(()),
        }
        for message in server.publish_due(Instant::now()) {
            send(connection, message)?;
        }
    }
}

fn send(connection: &Connection, message: Message) -> Result<(), String> {
    connection.sender.send(message).map_err(|e| e.to_string())
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions::default()),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: SemanticTokensLegend {
                    token_types: TOKEN_TYPES.to_vec(),
                    token_modifiers: Vec::new(),
                },
                full: Some(SemanticTokensFullOptions::Bool(true)),
                ..SemanticTokensOptions::default()
            },
        )),
        ..ServerCapabilities::default()
    }
}

/// One analysed root file.
struct Analysis {
    /// The files as the index read them.
    sources: SourceMap,
    root: FileId,
    index: Index,
    /// The front end's diagnostics, and the files as it read them (its spans point
    /// there).
    diagnostics: Vec<Diagnostic>,
    diagnostic_sources: SourceMap,
}

#[derive(Default)]
struct Server {
    /// The editor's text of each open document.
    open: HashMap<PathBuf, String>,
    /// Per open document, when its pending analysis is due.
    due: HashMap<PathBuf, Instant>,
    analyses: HashMap<PathBuf, Analysis>,
    /// Per analysed root, the files its diagnostics were last published for.
    published: HashMap<PathBuf, Vec<PathBuf>>,
}

/// Reads open documents from the editor's text, other files from disk.
struct Overlay<'a> {
    open: &'a HashMap<PathBuf, String>,
}

impl SourceLoader for Overlay<'_> {
    fn find(&self, path: &Path) -> Option<PathBuf> {
        if self.open.contains_key(path) {
            return Some(path.to_path_buf());
        }
        FsLoader.find(path)
    }

    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        match self.open.get(path) {
            Some(text) => Ok(text.clone().into_bytes()),
            None => FsLoader.read(path),
        }
    }

    fn folder(&self, path: &Path) -> Option<PathBuf> {
        FsLoader.folder(path)
    }
}

impl Server {
    fn next_due(&self) -> Option<Instant> {
        self.due.values().min().copied()
    }

    fn notice(&mut self, notification: Notification) {
        let now = Instant::now();
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(params) = notification
                    .extract::<lsp_types::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                {
                    if let Some(path) = uri_to_path(&params.text_document.uri) {
                        self.open.insert(path.clone(), params.text_document.text);
                        self.due.insert(path, now);
                    }
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(params) = notification.extract::<lsp_types::DidChangeTextDocumentParams>(
                    DidChangeTextDocument::METHOD,
                ) {
                    // Whole-text sync: the last change is the document.
                    if let (Some(path), Some(change)) = (
                        uri_to_path(&params.text_document.uri),
                        params.content_changes.into_iter().last(),
                    ) {
                        self.open.insert(path.clone(), change.text);
                        self.due.insert(path, now + DEBOUNCE);
                    }
                }
            }
            DidSaveTextDocument::METHOD => {
                if let Ok(params) = notification
                    .extract::<lsp_types::DidSaveTextDocumentParams>(DidSaveTextDocument::METHOD)
                {
                    if let Some(path) = uri_to_path(&params.text_document.uri) {
                        self.due.insert(path, now);
                    }
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(params) = notification
                    .extract::<lsp_types::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                {
                    if let Some(path) = uri_to_path(&params.text_document.uri) {
                        self.open.remove(&path);
                        self.due.remove(&path);
                        self.analyses.remove(&path);
                    }
                }
            }
            _ => {}
        }
    }

    /// Analyses the documents whose time has come and returns their diagnostics.
    fn publish_due(&mut self, now: Instant) -> Vec<Message> {
        let ready: Vec<PathBuf> = self
            .due
            .iter()
            .filter(|(_, &due)| due <= now)
            .map(|(path, _)| path.clone())
            .collect();
        ready
            .into_iter()
            .flat_map(|path| {
                self.due.remove(&path);
                self.analyse(&path);
                self.diagnostics_of(&path)
            })
            .collect()
    }

    fn analyse(&mut self, path: &Path) {
        let loader = Overlay { open: &self.open };
        let options = FrontEndOptions::default();
        let mut sources = SourceMap::new();
        let mut diagnostics = Vec::new();
        match frontend::run(path, &loader, &options, &mut sources) {
            Ok(front_end) => {
                diagnostics.extend(front_end.diagnostics.iter().cloned());
                if let Some(expanded) = &front_end.expanded {
                    diagnostics.extend(crate::lint::all(&front_end, expanded));
                }
            }
            Err(err) => {
                self.analyses.remove(path);
                self.load_failed(path, &err.to_string());
                return;
            }
        }
        // The trees, read again: the front end keeps only what it expanded, and reading
        // costs little beside checking.
        let mut tree_sources = SourceMap::new();
        let Ok(loaded) = syntax::load(path, &loader, &options.load, &mut tree_sources) else {
            return;
        };
        self.analyses.insert(
            path.to_path_buf(),
            Analysis {
                sources: tree_sources,
                root: loaded.root,
                index: Index::build(&loaded),
                diagnostics,
                diagnostic_sources: sources,
            },
        );
    }

    /// A root that could not be read at all: one diagnostic at its start.
    fn load_failed(&mut self, path: &Path, message: &str) {
        let mut sources = SourceMap::new();
        let root = sources.add(path.display().to_string(), Vec::new());
        let mut diagnostic_sources = SourceMap::new();
        diagnostic_sources.add(path.display().to_string(), Vec::new());
        self.analyses.insert(
            path.to_path_buf(),
            Analysis {
                sources,
                root,
                index: Index::default(),
                diagnostics: vec![Diagnostic::error("E0100", message)
                    .primary(Span::new(root, 0, 0), "cannot be read")],
                diagnostic_sources,
            },
        );
    }

    /// `publishDiagnostics` for every file of `root`'s analysis, and empty ones for
    /// files that had some last time and have none now.
    fn diagnostics_of(&mut self, root: &Path) -> Vec<Message> {
        let Some(analysis) = self.analyses.get(root) else {
            return Vec::new();
        };
        let mut by_file: HashMap<PathBuf, Vec<lsp_types::Diagnostic>> = HashMap::new();
        by_file.insert(root.to_path_buf(), Vec::new());
        let sources = &analysis.diagnostic_sources;
        for diagnostic in &analysis.diagnostics {
            let path = match diagnostic.primary_span() {
                Some(span) => PathBuf::from(sources.file(span.file).name()),
                None => root.to_path_buf(),
            };
            by_file
                .entry(path)
                .or_default()
                .push(to_lsp_diagnostic(sources, diagnostic));
        }
        let before = self.published.remove(root).unwrap_or_default();
        for stale in before {
            by_file.entry(stale).or_default();
        }
        self.published
            .insert(root.to_path_buf(), by_file.keys().cloned().collect());
        by_file
            .into_iter()
            .filter_map(|(path, diagnostics)| {
                let params = PublishDiagnosticsParams {
                    uri: path_to_uri(&path)?,
                    diagnostics,
                    version: None,
                };
                Some(Message::Notification(Notification::new(
                    PublishDiagnostics::METHOD.to_string(),
                    params,
                )))
            })
            .collect()
    }

    /// The analysis of the document at `uri`, brought up to date.
    fn analysis(&mut self, uri: &Uri) -> Option<(&Analysis, FileId)> {
        let path = uri_to_path(uri)?;
        if self.due.remove(&path).is_some() || !self.analyses.contains_key(&path) {
            self.analyse(&path);
        }
        let analysis = self.analyses.get(&path)?;
        let file = analysis
            .sources
            .files()
            .find(|(_, f)| Path::new(f.name()) == path)
            .map_or(analysis.root, |(id, _)| id);
        Some((analysis, file))
    }

    fn answer(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            HoverRequest::METHOD => self.with::<HoverParams, _>(request, |s, p| s.hover(p)),
            GotoDefinition::METHOD => {
                self.with::<GotoDefinitionParams, _>(request, |s, p| s.definition(p))
            }
            References::METHOD => self.with::<ReferenceParams, _>(request, |s, p| s.references(p)),
            DocumentSymbolRequest::METHOD => {
                self.with::<DocumentSymbolParams, _>(request, |s, p| s.symbols(p))
            }
            Completion::METHOD => self.with::<CompletionParams, _>(request, |s, p| s.complete(p)),
            SemanticTokensFullRequest::METHOD => {
                self.with::<SemanticTokensParams, _>(request, |s, p| s.tokens(p))
            }
            _ => {
                return Response::new_err(
                    id,
                    lsp_server::ErrorCode::MethodNotFound as i32,
                    format!("zrfc lsp does not answer {}", request.method),
                )
            }
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err(message) => {
                Response::new_err(id, lsp_server::ErrorCode::InvalidParams as i32, message)
            }
        }
    }

    /// Reads a request's parameters and answers with `handler`'s result as JSON.
    fn with<P, R>(
        &mut self,
        request: Request,
        handler: impl FnOnce(&mut Self, P) -> R,
    ) -> Result<serde_json::Value, String>
    where
        P: serde::de::DeserializeOwned,
        R: serde::Serialize,
    {
        let params: P = serde_json::from_value(request.params).map_err(|e| e.to_string())?;
        serde_json::to_value(handler(self, params)).map_err(|e| e.to_string())
    }

    /// The analysis, the document's file and the word at a position of it.
    fn word_at(
        &mut self,
        at: &lsp_types::TextDocumentPositionParams,
    ) -> Option<(&Analysis, index::Word)> {
        let (analysis, file) = self.analysis(&at.text_document.uri)?;
        let offset = offset_of(analysis.sources.file(file), at.position)?;
        let word = analysis.index.word_at(file, offset)?.clone();
        Some((analysis, word))
    }

    fn hover(&mut self, params: HoverParams) -> Option<Hover> {
        let (analysis, word) = self.word_at(&params.text_document_position_params)?;
        let sources = &analysis.sources;
        let mut parts = Vec::new();
        if word.is_string {
            let file = analysis.index.include_at(word.span)?;
            parts.push(format!("includes `{}`", sources.file(file).name()));
        }
        for definition in analysis.index.definitions_of(&word.text).take(5) {
            parts.push(describe(sources, definition));
        }
        if parts.is_empty() && crate::check::keywords().contains(&word.text.as_str()) {
            parts.push(format!("`{}`: a ZRF keyword", word.text));
        }
        if parts.is_empty() {
            return None;
        }
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: parts.join("\n\n---\n\n"),
            }),
            range: Some(range_of(sources, word.span)),
        })
    }

    fn definition(&mut self, params: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
        let (analysis, word) = self.word_at(&params.text_document_position_params)?;
        let sources = &analysis.sources;
        let locations: Vec<Location> = if word.is_string {
            let file = analysis.index.include_at(word.span)?;
            vec![location(sources, Span::new(file, 0, 0))?]
        } else {
            analysis
                .index
                .definitions_of(&word.text)
                .filter_map(|d| location(sources, d.name_span))
                .collect()
        };
        (!locations.is_empty()).then_some(GotoDefinitionResponse::Array(locations))
    }

    fn references(&mut self, params: ReferenceParams) -> Option<Vec<Location>> {
        let (analysis, word) = self.word_at(&params.text_document_position)?;
        if word.is_string {
            return None;
        }
        let sources = &analysis.sources;
        let uses = analysis.index.uses_of(&word.text);
        Some(uses.filter_map(|span| location(sources, span)).collect())
    }

    fn symbols(&mut self, params: DocumentSymbolParams) -> Option<DocumentSymbolResponse> {
        let (analysis, file) = self.analysis(&params.text_document.uri)?;
        let sources = &analysis.sources;
        let listed = |d: &&Definition| {
            d.name_span.file == file
                && !matches!(d.kind, DefinitionKind::Position | DefinitionKind::Direction)
        };
        let definitions: Vec<&Definition> =
            analysis.index.definitions.iter().filter(listed).collect();
        let is_game =
            |d: &Definition| matches!(d.kind, DefinitionKind::Game | DefinitionKind::Variant);
        let mut symbols = Vec::new();
        for outer in &definitions {
            let inside_a_game = definitions.iter().any(|game| {
                is_game(game)
                    && !std::ptr::eq(*game, *outer)
                    && contains(game.form_span, outer.form_span)
            });
            if inside_a_game {
                continue;
            }
            let children: Vec<DocumentSymbol> = if is_game(outer) {
                definitions
                    .iter()
                    .filter(|d| !is_game(d) && contains(outer.form_span, d.form_span))
                    .map(|d| symbol(sources, d, None))
                    .collect()
            } else {
                Vec::new()
            };
            symbols.push(symbol(sources, outer, Some(children)));
        }
        Some(DocumentSymbolResponse::Nested(symbols))
    }

    fn complete(&mut self, params: CompletionParams) -> Option<CompletionResponse> {
        let (analysis, _) = self.analysis(&params.text_document_position.text_document.uri)?;
        let mut items: Vec<CompletionItem> = crate::check::keywords()
            .into_iter()
            .map(|word| CompletionItem {
                label: word.to_string(),
                kind: Some(CompletionItemKind::KEYWORD),
                ..CompletionItem::default()
            })
            .collect();
        let mut seen = std::collections::HashSet::new();
        for definition in &analysis.index.definitions {
            if matches!(
                definition.kind,
                DefinitionKind::Game | DefinitionKind::Variant
            ) || !seen.insert((definition.kind, definition.name.as_str()))
            {
                continue;
            }
            items.push(CompletionItem {
                label: definition.name.clone(),
                kind: Some(completion_kind(definition.kind)),
                detail: Some(definition.kind.describe().to_string()),
                ..CompletionItem::default()
            });
        }
        Some(CompletionResponse::Array(items))
    }

    fn tokens(&mut self, params: SemanticTokensParams) -> Option<SemanticTokensResult> {
        let (analysis, file) = self.analysis(&params.text_document.uri)?;
        let source = analysis.sources.file(file);
        let keywords = crate::check::keywords();
        let kinds: HashMap<&str, DefinitionKind> = analysis
            .index
            .definitions
            .iter()
            .map(|d| (d.name.as_str(), d.kind))
            .collect();
        let mut data = Vec::new();
        let mut last = Position::new(0, 0);
        for word in analysis.index.words.iter().filter(|w| w.span.file == file) {
            let token_type = if word.is_string {
                6
            } else if let Some(kind) = kinds.get(word.text.as_str()) {
                match kind {
                    DefinitionKind::Macro => 1,
                    DefinitionKind::Piece => 2,
                    DefinitionKind::Direction => 3,
                    DefinitionKind::Position => 4,
                    _ => 5,
                }
            } else if keywords.contains(&word.text.as_str()) {
                0
            } else {
                continue;
            };
            let start = position_of(source, word.span.start);
            let end = position_of(source, word.span.end);
            // A token spans one line (a string over several is left plain).
            if start.line != end.line || end.character <= start.character {
                continue;
            }
            let delta_line = start.line - last.line;
            let delta_start = if delta_line == 0 {
                start.character - last.character
            } else {
                start.character
            };
            data.push(SemanticToken {
                delta_line,
                delta_start,
                length: end.character - start.character,
                token_type,
                token_modifiers_bitset: 0,
            });
            last = start;
        }
        Some(SemanticTokensResult::Tokens(SemanticTokens {
            result_id: None,
            data,
        }))
    }
}

fn contains(outer: Span, inner: Span) -> bool {
    outer.file == inner.file && outer.start <= inner.start && inner.end <= outer.end
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written, as `None`.
fn symbol(
    sources: &SourceMap,
    definition: &Definition,
    children: Option<Vec<DocumentSymbol>>,
) -> DocumentSymbol {
    DocumentSymbol {
        name: definition.name.clone(),
        detail: Some(definition.kind.describe().to_string()),
        kind: match definition.kind {
            DefinitionKind::Game | DefinitionKind::Variant => SymbolKind::MODULE,
            DefinitionKind::Macro => SymbolKind::FUNCTION,
            DefinitionKind::Piece => SymbolKind::CLASS,
            DefinitionKind::Attribute => SymbolKind::FIELD,
            _ => SymbolKind::CONSTANT,
        },
        tags: None,
        deprecated: None,
        range: range_of(sources, definition.form_span),
        selection_range: range_of(sources, definition.name_span),
        children: children.filter(|c| !c.is_empty()),
    }
}

fn completion_kind(kind: DefinitionKind) -> CompletionItemKind {
    match kind {
        DefinitionKind::Macro => CompletionItemKind::FUNCTION,
        DefinitionKind::Piece => CompletionItemKind::CLASS,
        DefinitionKind::Direction => CompletionItemKind::ENUM_MEMBER,
        DefinitionKind::Attribute => CompletionItemKind::FIELD,
        _ => CompletionItemKind::CONSTANT,
    }
}

/// A definition as hover text: its kind, name, place, and what it says.
fn describe(sources: &SourceMap, definition: &Definition) -> String {
    let file = sources.file(definition.name_span.file);
    let at = file.line_column(definition.name_span.start);
    let mut text = format!(
        "{} `{}` ({}:{})",
        definition.kind.describe(),
        definition.name,
        file.name(),
        at
    );
    if definition.kind == DefinitionKind::Macro {
        let form = sources.snippet(definition.form_span);
        let mut lines: Vec<&str> = form.lines().take(HOVER_LINES + 1).collect();
        let cut = lines.len() > HOVER_LINES;
        lines.truncate(HOVER_LINES);
        text.push_str("\n\n```zrf\n");
        text.push_str(&lines.join("\n"));
        text.push_str(if cut { "\n...\n```" } else { "\n```" });
    }
    if let Some(detail) = &definition.detail {
        text.push_str("\n\n");
        text.push_str(detail);
    }
    text
}

fn to_lsp_diagnostic(sources: &SourceMap, diagnostic: &Diagnostic) -> lsp_types::Diagnostic {
    let range = diagnostic
        .primary_span()
        .map_or_else(Range::default, |span| range_of(sources, span));
    let mut message = diagnostic.message.clone();
    for note in &diagnostic.notes {
        message.push_str("\nnote: ");
        message.push_str(note);
    }
    if let Some(help) = &diagnostic.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    // The other labels (the macro trail among them) as related places.
    let related: Vec<DiagnosticRelatedInformation> = diagnostic
        .labels
        .iter()
        .filter(|label| !label.primary)
        .filter_map(|label| {
            Some(DiagnosticRelatedInformation {
                location: location(sources, label.span)?,
                message: label.message.clone(),
            })
        })
        .collect();
    lsp_types::Diagnostic {
        range,
        severity: Some(match diagnostic.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Note => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(diagnostic.code.to_string())),
        source: Some("zrfc".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp_types::Diagnostic::default()
    }
}

fn location(sources: &SourceMap, span: Span) -> Option<Location> {
    let uri = path_to_uri(Path::new(sources.file(span.file).name()))?;
    Some(Location {
        uri,
        range: range_of(sources, span),
    })
}

fn range_of(sources: &SourceMap, span: Span) -> Range {
    let file = sources.file(span.file);
    Range {
        start: position_of(file, span.start),
        end: position_of(file, span.end),
    }
}

/// The editor's position (line, and UTF-16 units into it) of an original byte offset.
fn position_of(file: &SourceFile, original: u32) -> Position {
    let decoded = file.decoded_offset(original).min(file.text().len());
    let line = file.line_index(decoded);
    let start = file.line_range(line).map_or(0, |r| r.start);
    let before = file.text().get(start..decoded).unwrap_or_default();
    Position::new(line as u32, before.encode_utf16().count() as u32)
}

/// The original byte offset of an editor's position, `None` past the end of its line.
fn offset_of(file: &SourceFile, position: Position) -> Option<u32> {
    let range = file.line_range(position.line as usize)?;
    let line = file.text().get(range.clone())?;
    let mut units = 0u32;
    for (at, ch) in line.char_indices() {
        if units >= position.character {
            return Some(file.original_offset(range.start + at));
        }
        units += ch.len_utf16() as u32;
    }
    (units >= position.character).then(|| file.original_offset(range.end))
}

/// The path of a `file:` URI, `%XX` escapes decoded.
fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let text = uri.as_str().strip_prefix("file://")?;
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' && at + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[at + 1..at + 3]).ok()?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            decoded.push(bytes[at]);
            at += 1;
        }
    }
    Some(PathBuf::from(String::from_utf8(decoded).ok()?))
}

/// A `file:` URI for `path`, escaping what a URI path may not hold.
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let mut text = String::from("file://");
    for byte in path.to_str()?.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'.' | b'_' | b'~' => {
                text.push(byte as char)
            }
            _ => text.push_str(&format!("%{byte:02X}")),
        }
    }
    text.parse().ok()
}
