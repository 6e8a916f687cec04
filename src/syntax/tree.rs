//! The concrete syntax tree: lists, atoms and strings, each with the span it was read from.

use crate::source::Span;

/// One node of a parsed file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub kind: NodeKind,
    /// For a list, from its `(` to its `)`; for a string, quotes included.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    List(Vec<Node>),
    /// Any run of characters other than blanks, parentheses, `"` and `;`: keywords,
    /// names, numbers and macro parameters alike (`a1`, `$1`, `n-1`, `img/$1.bmp`).
    Atom(Box<str>),
    /// The text between the quotes, unchanged: no escapes, line breaks kept.
    Str(Box<str>),
}

impl Node {
    pub fn as_list(&self) -> Option<&[Node]> {
        match &self.kind {
            NodeKind::List(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_atom(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Atom(text) => Some(text),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Str(text) => Some(text),
            _ => None,
        }
    }

    /// The head atom of a list, as in `(game ...)` -> `game`.
    pub fn head(&self) -> Option<&str> {
        self.as_list()?.first()?.as_atom()
    }

    /// Number of nodes in this subtree, itself included. Iterative: trees can be deep.
    pub fn count(&self) -> usize {
        let mut count = 0;
        let mut pending = vec![self];
        while let Some(node) = pending.pop() {
            count += 1;
            if let NodeKind::List(items) = &node.kind {
                pending.extend(items);
            }
        }
        count
    }

    /// Structural equality ignoring spans, for round-trip tests.
    pub fn same_shape(&self, other: &Node) -> bool {
        match (&self.kind, &other.kind) {
            (NodeKind::List(a), NodeKind::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_shape(y))
            }
            (a, b) => a == b,
        }
    }
}
