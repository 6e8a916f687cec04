//! What the language server knows of a rules file and its includes, read from their
//! syntax trees: where each name is defined (macros, games, variants, pieces, zones,
//! directions, positions, move types, attributes), every atom and string with its span
//! (for references, hover and highlighting), and the `include` forms.
//!
//! The trees are read as written, not expanded: a name is defined where the text says
//! `(define NAME`, `(piece (name NAME)`, and so on, which is where an author wants to
//! be taken.

use crate::source::{FileId, Span};
use crate::syntax::{Loaded, Node, NodeKind};

/// Most grid positions listed from one `dimensions` form (a bigger grid still loads;
/// only the editor's list of its names is cut).
const MAX_GRID_NAMES: usize = 10_000;

/// What kind of thing a definition names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DefinitionKind {
    Game,
    Variant,
    Macro,
    Piece,
    Zone,
    Direction,
    Position,
    MoveType,
    Attribute,
}

impl DefinitionKind {
    pub fn describe(self) -> &'static str {
        match self {
            DefinitionKind::Game => "game",
            DefinitionKind::Variant => "variant",
            DefinitionKind::Macro => "macro",
            DefinitionKind::Piece => "piece",
            DefinitionKind::Zone => "zone",
            DefinitionKind::Direction => "direction",
            DefinitionKind::Position => "position",
            DefinitionKind::MoveType => "move type",
            DefinitionKind::Attribute => "attribute",
        }
    }
}

/// One definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    pub kind: DefinitionKind,
    pub name: String,
    /// The name where it is written (for a grid position, the `dimensions` form).
    pub name_span: Span,
    /// The whole defining form.
    pub form_span: Span,
    /// A piece's help text, a game's description.
    pub detail: Option<String>,
}

/// An atom or a string of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    pub span: Span,
    pub is_string: bool,
}

/// The definitions and words of a loaded file and its includes.
#[derive(Debug, Default)]
pub struct Index {
    pub definitions: Vec<Definition>,
    /// Every atom and string, sorted by file and offset.
    pub words: Vec<Word>,
    /// `(include "...")` forms: the string's span and the file it names.
    pub includes: Vec<(Span, FileId)>,
}

impl Index {
    /// Reads every tree of `loaded`.
    pub fn build(loaded: &Loaded) -> Index {
        let mut index = Index::default();
        for parsed in &loaded.files {
            let mut pending: Vec<&Node> = parsed.forms.iter().rev().collect();
            while let Some(node) = pending.pop() {
                match &node.kind {
                    NodeKind::Atom(text) => index.words.push(Word {
                        text: text.to_string(),
                        span: node.span,
                        is_string: false,
                    }),
                    NodeKind::Str(text) => index.words.push(Word {
                        text: text.to_string(),
                        span: node.span,
                        is_string: true,
                    }),
                    NodeKind::List(items) => {
                        index.definitions_in(node, items);
                        if node.head() == Some("include") {
                            if let (Some(string), Some(target)) =
                                (items.get(1), loaded.include_target(node.span))
                            {
                                index.includes.push((string.span, target));
                            }
                        }
                        pending.extend(items.iter().rev());
                    }
                }
            }
        }
        index
            .words
            .sort_by_key(|w| (w.span.file.index(), w.span.start));
        index
    }

    /// The definitions a list form makes.
    fn definitions_in(&mut self, form: &Node, items: &[Node]) {
        let head = items.first().and_then(Node::as_atom);
        let mut define = |kind, name: &Node, detail: Option<String>| {
            if let Some(text) = name.as_atom().or_else(|| name.as_str()) {
                self.definitions.push(Definition {
                    kind,
                    name: text.to_string(),
                    name_span: name.span,
                    form_span: form.span,
                    detail,
                });
            }
        };
        let child = |key: &str| -> Option<&Node> {
            items
                .iter()
                .find(|item| item.head() == Some(key))
                .and_then(|item| item.as_list()?.get(1))
        };
        let text_of = |key: &str| child(key).and_then(Node::as_str).map(str::to_string);
        match head {
            Some("define") => {
                if let Some(name) = items.get(1) {
                    define(DefinitionKind::Macro, name, None);
                }
            }
            Some(kind @ ("game" | "variant")) => {
                if let Some(title) = child("title") {
                    let kind = if kind == "game" {
                        DefinitionKind::Game
                    } else {
                        DefinitionKind::Variant
                    };
                    define(kind, title, text_of("description"));
                }
            }
            Some("piece") => {
                if let Some(name) = child("name") {
                    define(DefinitionKind::Piece, name, text_of("help"));
                }
            }
            Some("zone") => {
                if let Some(name) = child("name") {
                    define(DefinitionKind::Zone, name, None);
                }
            }
            Some("move-type") => {
                if let Some(name) = items.get(1) {
                    define(DefinitionKind::MoveType, name, None);
                }
            }
            Some("attribute") => {
                if let Some(name) = items.get(1) {
                    define(DefinitionKind::Attribute, name, None);
                }
            }
            Some("links") => {
                if let Some(name) = items.get(1) {
                    define(DefinitionKind::Direction, name, None);
                }
            }
            Some(kind @ ("directions" | "positions" | "dummy")) => {
                let kind = if kind == "directions" {
                    DefinitionKind::Direction
                } else {
                    DefinitionKind::Position
                };
                for item in &items[1..] {
                    let name = item.as_list().and_then(|l| l.first()).unwrap_or(item);
                    define(kind, name, None);
                }
            }
            Some("dimensions") => {
                for name in grid_names(&items[1..]) {
                    self.definitions.push(Definition {
                        kind: DefinitionKind::Position,
                        name,
                        name_span: form.span,
                        form_span: form.span,
                        detail: None,
                    });
                }
            }
            _ => {}
        }
    }

    /// The word whose span holds byte `offset` of `file` (its end included, so that a
    /// cursor just past a name still finds it).
    pub fn word_at(&self, file: FileId, offset: u32) -> Option<&Word> {
        let key = (file.index(), offset);
        let after = self
            .words
            .partition_point(|w| (w.span.file.index(), w.span.start) <= key);
        self.words[..after]
            .iter()
            .rev()
            .take(2)
            .find(|w| w.span.file == file && w.span.start <= offset && offset <= w.span.end)
    }

    /// The definitions of `name`.
    pub fn definitions_of<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Definition> {
        self.definitions.iter().filter(move |d| d.name == name)
    }

    /// Where `name` is written as an atom (or, for titles, as a string).
    pub fn uses_of<'a>(&'a self, name: &'a str) -> impl Iterator<Item = Span> + 'a {
        self.words
            .iter()
            .filter(move |w| w.text == name)
            .map(|w| w.span)
    }

    /// The file an `include` string at `span` names.
    pub fn include_at(&self, span: Span) -> Option<FileId> {
        self.includes
            .iter()
            .find(|(at, _)| *at == span)
            .map(|&(_, file)| file)
    }
}

/// The position names of a grid's `dimensions`: `("a/b/c" (50 0)) ("3/2/1" (0 50))`
/// names `a3`, `b3`, ... as Zillions does, first dimension first.
fn grid_names(dimensions: &[Node]) -> Vec<String> {
    let mut names = vec![String::new()];
    for dimension in dimensions {
        let Some(parts) = dimension
            .as_list()
            .and_then(|l| l.first())
            .and_then(Node::as_str)
        else {
            continue;
        };
        let parts: Vec<&str> = parts.split('/').collect();
        if names.len().saturating_mul(parts.len()) > MAX_GRID_NAMES {
            return Vec::new();
        }
        names = names
            .iter()
            .flat_map(|name| parts.iter().map(move |part| format!("{name}{part}")))
            .collect();
    }
    names.retain(|n| !n.is_empty());
    names
}
