//! Stage 2: macro expansion, and games and variants as lists of sections.
//!
//! | input | output | holds afterwards |
//! |---|---|---|
//! | a [`Loaded`](crate::syntax::Loaded) root file and its includes | [`Expanded`]: expanded top-level forms and one [`GameSpec`] per `game` and `variant` | no `define`, no `$k`, no `include`; every node has its span and the chain of macro calls that produced it |
//!
//! Expansion follows Zillions (see `docs/semantics.md`): every top-level `define` of the
//! file and its includes is visible everywhere, also before it (forward use); the last
//! definition of a name wins; a call's list is replaced by the body items; `$k` is
//! replaced as a whole atom, pasted inside atoms and inside strings; a parameter the call
//! does not supply is taken from the enclosing call. Limits on call depth, tree depth and
//! total nodes turn recursive and exponential macros into diagnostics.
//!
//! Variants inherit from the closest preceding `game`: pieces are merged by name, any goal
//! in the variant drops all the game's goals, options are keyed by name, and every other
//! section the variant restates replaces the game's.

mod error;
mod macros;
mod template;
mod variants;

use std::num::NonZeroU32;

pub use error::ExpandError;
pub use macros::expand;
pub use variants::{normalise_option, OPTION_KEYWORDS};

use crate::intern::{Interner, Sym};
use crate::source::Span;
use crate::syntax::{Node, NodeKind};

/// The most macro calls nested inside one another that expansion ever allows, whatever
/// [`ExpandOptions::max_call_depth`] says: expansion recurses once per level, and this
/// many levels fit in the 2 MB stack of a test or build-script thread.
pub const CALL_DEPTH_CEILING: usize = 1000;

/// Limits that keep expansion bounded; each is a `zrfc` option.
#[derive(Clone, Copy, Debug)]
pub struct ExpandOptions {
    /// Macro calls nested inside one another (the corpus needs 12); at most
    /// [`CALL_DEPTH_CEILING`].
    pub max_call_depth: usize,
    /// Nodes created by expansion in one file (the largest corpus files need 2.8 million).
    pub max_nodes: usize,
    /// List nesting of the expanded tree.
    pub max_nesting: usize,
    /// Bytes of names and strings made by pasting parameters into them, in one file
    /// (doubling a name at each call of a recursive macro grows it exponentially while
    /// creating few nodes; real files paste a few kilobytes).
    pub max_pasted_bytes: usize,
}

impl Default for ExpandOptions {
    fn default() -> ExpandOptions {
        ExpandOptions {
            max_call_depth: 64,
            max_nodes: 8_000_000,
            max_nesting: 512,
            max_pasted_bytes: 16 * 1024 * 1024,
        }
    }
}

/// Identifies one macro call in [`Expanded::expansions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExpnId(NonZeroU32);

impl ExpnId {
    fn index(self) -> usize {
        self.0.get() as usize - 1
    }
}

/// One macro call: which macro, where it was called, where it is defined, and the call
/// whose expansion contained this call.
#[derive(Clone, Debug)]
pub struct Expansion {
    pub macro_name: Sym,
    pub call_site: Span,
    pub def_site: Span,
    pub parent: Option<ExpnId>,
}

/// A node after expansion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ENode {
    pub kind: EKind,
    /// Where the node was written: in the file, in a macro body or in a call's arguments.
    pub span: Span,
    /// The macro call whose body produced the node; `None` when written in place.
    pub expn: Option<ExpnId>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EKind {
    /// A boxed slice, not a `Vec`: expanded trees reach millions of nodes, and the
    /// smaller node keeps them in less memory.
    List(Box<[ENode]>),
    Atom(Sym),
    Str(Sym),
}

impl ENode {
    pub fn as_list(&self) -> Option<&[ENode]> {
        match &self.kind {
            EKind::List(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_atom(&self) -> Option<Sym> {
        match self.kind {
            EKind::Atom(sym) => Some(sym),
            _ => None,
        }
    }

    pub fn head(&self) -> Option<Sym> {
        self.as_list()?.first()?.as_atom()
    }

    /// Back to a syntax tree, for printing with [`crate::syntax::to_zrf`].
    pub fn to_node(&self, interner: &Interner) -> Node {
        let kind = match &self.kind {
            EKind::List(items) => {
                NodeKind::List(items.iter().map(|n| n.to_node(interner)).collect())
            }
            EKind::Atom(sym) => NodeKind::Atom(interner.resolve(*sym).into()),
            EKind::Str(sym) => NodeKind::Str(interner.resolve(*sym).into()),
        };
        Node {
            kind,
            span: self.span,
        }
    }
}

/// Whether a game description comes from `(game ...)` or `(variant ...)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Game,
    Variant,
}

/// A section of a game: `forms[form]`'s item at `index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SectionRef {
    pub form: usize,
    pub index: usize,
}

/// One playable game: a `game`, or a `variant` with its inherited sections merged in.
#[derive(Clone, Debug)]
pub struct GameSpec {
    pub kind: GameKind,
    pub title: Option<Sym>,
    /// The `(game ...)` or `(variant ...)` form in [`Expanded::forms`].
    pub form: usize,
    /// For a variant, the index in [`Expanded::games`] of the game it inherits from.
    pub base: Option<usize>,
    /// The sections in effect, in order.
    pub sections: Vec<SectionRef>,
    /// Marked `(default)`: the game Zillions opens first.
    pub default: bool,
}

/// The result of expanding one file.
#[derive(Debug)]
pub struct Expanded {
    pub interner: Interner,
    pub expansions: Vec<Expansion>,
    /// Expanded top-level forms other than `define` and `include`.
    pub forms: Vec<ENode>,
    /// Every game and variant, in file order; menu separators (`(title "-")`) excluded.
    pub games: Vec<GameSpec>,
    pub errors: Vec<ExpandError>,
    /// Nodes created by expansion, for limits and statistics.
    pub created_nodes: usize,
    /// The names of the macros defined, sorted (for "did you mean").
    pub macro_names: Vec<String>,
}

impl Expanded {
    pub fn section(&self, section: SectionRef) -> &ENode {
        let form = &self.forms[section.form];
        form.as_list()
            .and_then(|items| items.get(section.index))
            .unwrap_or(form)
    }

    pub fn expansion(&self, id: ExpnId) -> &Expansion {
        &self.expansions[id.index()]
    }

    pub fn name(&self, sym: Sym) -> &str {
        self.interner.resolve(sym)
    }

    /// The game or variant with this title (exact match first, then case-insensitive).
    pub fn find_game(&self, title: &str) -> Option<usize> {
        let title_of = |g: &GameSpec| g.title.map(|t| self.name(t));
        self.games
            .iter()
            .position(|g| title_of(g) == Some(title))
            .or_else(|| {
                self.games
                    .iter()
                    .position(|g| title_of(g).is_some_and(|t| t.eq_ignore_ascii_case(title)))
            })
    }

    /// The sections of a game as one `(game ...)` form, for printing.
    pub fn game_as_node(&self, game: usize) -> Node {
        let spec = &self.games[game];
        let form = &self.forms[spec.form];
        let mut items = vec![Node {
            kind: NodeKind::Atom("game".into()),
            span: form.span,
        }];
        items.extend(
            spec.sections
                .iter()
                .map(|&s| self.section(s).to_node(&self.interner)),
        );
        Node {
            kind: NodeKind::List(items),
            span: form.span,
        }
    }
}
