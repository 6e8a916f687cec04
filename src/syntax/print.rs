//! Printing trees: back to ZRF text (re-readable, so print -> parse round-trips), and as
//! an indented dump with positions for `zrfc parse --tree` and snapshots.

use std::fmt::Write as _;

use super::tree::{Node, NodeKind};
use crate::source::SourceMap;

/// Lists whose flat text fits in this many columns are printed on one line.
const FLAT_WIDTH: usize = 72;

/// Prints forms as ZRF text, one top-level form after another.
pub fn to_zrf(forms: &[Node]) -> String {
    let mut out = String::new();
    for form in forms {
        write_node(&mut out, form, 0);
        out.push('\n');
    }
    // A leading byte-order mark would be skipped when read back; keep it part of the atom.
    if out.starts_with('\u{FEFF}') {
        out.insert(0, ' ');
    }
    out
}

fn write_node(out: &mut String, node: &Node, indent: usize) {
    match &node.kind {
        NodeKind::Atom(text) => out.push_str(text),
        NodeKind::Str(text) => {
            out.push('"');
            out.push_str(text);
            out.push('"');
        }
        NodeKind::List(items) => {
            if let Some(flat) = flat_text(node, FLAT_WIDTH.saturating_sub(indent)) {
                out.push_str(&flat);
                return;
            }
            out.push('(');
            // Leading atoms and strings (the head and names like `define step`) stay on
            // the opening line; the rest go one per line.
            let leading = items
                .iter()
                .take_while(|item| !matches!(item.kind, NodeKind::List(_)))
                .count();
            for (i, item) in items[..leading].iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                write_node(out, item, indent + 1);
            }
            for item in &items[leading..] {
                out.push('\n');
                out.extend(std::iter::repeat_n(' ', indent + 2));
                write_node(out, item, indent + 2);
            }
            out.push(')');
        }
    }
}

/// The node on one line, if it fits in `width` and contains no line break.
fn flat_text(node: &Node, width: usize) -> Option<String> {
    let mut out = String::new();
    let mut pending = vec![Some(node)];
    // `None` marks the end of a list.
    while let Some(entry) = pending.pop() {
        if out.len() > width {
            return None;
        }
        let Some(node) = entry else {
            out.push(')');
            continue;
        };
        if !out.is_empty() && !out.ends_with('(') {
            out.push(' ');
        }
        match &node.kind {
            NodeKind::Atom(text) => out.push_str(text),
            NodeKind::Str(text) => {
                if text.contains(['\n', '\r']) {
                    return None;
                }
                out.push('"');
                out.push_str(text);
                out.push('"');
            }
            NodeKind::List(items) => {
                out.push('(');
                pending.push(None);
                pending.extend(items.iter().rev().map(Some));
            }
        }
    }
    (out.len() <= width).then_some(out)
}

/// An indented dump, one node per line with its `line:column` range.
pub fn to_tree_dump(sources: &SourceMap, forms: &[Node]) -> String {
    let mut out = String::new();
    let mut pending: Vec<(usize, &Node)> = forms.iter().rev().map(|n| (0, n)).collect();
    while let Some((depth, node)) = pending.pop() {
        let file = sources.file(node.span.file);
        let start = file.line_column(node.span.start);
        let end = file.line_column(node.span.end);
        let indent = "  ".repeat(depth);
        let _ = match &node.kind {
            NodeKind::List(items) => {
                pending.extend(items.iter().rev().map(|n| (depth + 1, n)));
                writeln!(out, "{indent}list {start}-{end}")
            }
            NodeKind::Atom(text) => writeln!(out, "{indent}atom {text} {start}-{end}"),
            NodeKind::Str(text) => writeln!(out, "{indent}string {text:?} {start}-{end}"),
        };
    }
    out
}
