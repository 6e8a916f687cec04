//! Small helpers of the CLI's own output.

use std::collections::BTreeMap;

use crate::syntax::Node;

/// "1 game, 2 variant, 14 define": what a file holds at top level.
pub fn form_heads(forms: &[Node]) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for form in forms {
        *counts.entry(form.head().unwrap_or("(other)")).or_default() += 1;
    }
    counts
        .iter()
        .map(|(head, n)| format!("{n} {head}"))
        .collect::<Vec<_>>()
        .join(", ")
}
