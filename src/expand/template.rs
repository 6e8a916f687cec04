//! Macro bodies (and written top-level forms) compiled once into templates whose atoms
//! and strings already know where their `$k` parameters are.

use crate::intern::{Interner, Sym};
use crate::source::Span;
use crate::syntax::{Node, NodeKind};

/// A piece of an atom or string with parameters pasted in: `t-$1` is `[Text("t-"), Param(1)]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Text(Box<str>),
    Param(u32),
}

#[derive(Clone, Debug)]
pub enum TNode {
    List(Vec<TNode>, Span),
    Atom(Sym, Span),
    Str(Sym, Span),
    /// A whole-atom `$k`: replaced by the argument node itself.
    Param(u32, Span),
    PastedAtom(Vec<Piece>, Span),
    PastedStr(Vec<Piece>, Span),
}

/// Compiles a syntax node. Recursion is bounded by the parser's nesting limit.
pub fn compile(node: &Node, interner: &mut Interner) -> TNode {
    match &node.kind {
        NodeKind::List(items) => TNode::List(
            items.iter().map(|item| compile(item, interner)).collect(),
            node.span,
        ),
        NodeKind::Atom(text) => {
            let pieces = split_params(text);
            match pieces.as_slice() {
                [] | [Piece::Text(_)] => TNode::Atom(interner.intern(text), node.span),
                [Piece::Param(k)] => TNode::Param(*k, node.span),
                _ => TNode::PastedAtom(pieces, node.span),
            }
        }
        NodeKind::Str(text) => {
            let pieces = split_params(text);
            if pieces.iter().any(|p| matches!(p, Piece::Param(_))) {
                TNode::PastedStr(pieces, node.span)
            } else {
                TNode::Str(interner.intern(text), node.span)
            }
        }
    }
}

/// Splits text at `$` followed by digits (greedy: `$12` is parameter 12; `$1-01` is
/// parameter 1 then `-01`). A `$` without digits is ordinary text.
pub fn split_params(text: &str) -> Vec<Piece> {
    let bytes = text.as_bytes();
    let mut pieces = Vec::new();
    let mut literal_start = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'$' {
            let digits = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            // Parameter numbers beyond u32 are not parameters; keep them as text.
            if let Some(k) = (digits > 0)
                .then(|| text[i + 1..i + 1 + digits].parse::<u32>().ok())
                .flatten()
            {
                if literal_start < i {
                    pieces.push(Piece::Text(text[literal_start..i].into()));
                }
                pieces.push(Piece::Param(k));
                i += 1 + digits;
                literal_start = i;
                continue;
            }
        }
        i += 1;
    }
    if literal_start < bytes.len() {
        pieces.push(Piece::Text(text[literal_start..].into()));
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_split_greedily() {
        use Piece::*;
        assert_eq!(split_params("$1"), [Param(1)]);
        assert_eq!(split_params("t-$1"), [Text("t-".into()), Param(1)]);
        assert_eq!(split_params("$1-01"), [Param(1), Text("-01".into())]);
        assert_eq!(split_params("$1$2"), [Param(1), Param(2)]);
        assert_eq!(split_params("$17x"), [Param(17), Text("x".into())]);
        assert_eq!(split_params("cost$"), [Text("cost$".into())]);
        assert_eq!(
            split_params("img/$1.bmp"),
            [Text("img/".into()), Param(1), Text(".bmp".into())]
        );
    }
}
