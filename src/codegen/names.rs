//! Rust identifiers from ZRF names, through one sanitiser: names such as
//! `Drunk-Elephant!`, `?Dice`, `1`, `self` or `move` become valid, distinct identifiers.

use std::collections::HashSet;

/// Words Rust reserves (strict and reserved keywords, 2021 edition), as they would be
/// written in snake case; `_`-suffixed when a name would be one.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "union", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// `drunk_elephant`: functions and modules.
    Snake,
    /// `DRUNK_ELEPHANT`: constants.
    Upper,
}

/// Hands out distinct identifiers within one namespace.
#[derive(Default)]
pub struct Namer {
    taken: HashSet<String>,
}

impl Namer {
    pub fn new() -> Namer {
        Namer::default()
    }

    /// A fresh identifier for `name`: sanitised, then suffixed `_2`, `_3`, ... if taken.
    pub fn name(&mut self, name: &str, case: Case) -> String {
        let base = sanitise(name, case);
        let mut candidate = base.clone();
        let mut n = 2;
        while !self.taken.insert(candidate.clone()) {
            candidate = format!("{base}_{n}");
            n += 1;
        }
        candidate
    }
}

/// `name` as an identifier: ASCII letters and digits kept, every other run of characters
/// one `_`, words split at case changes; a leading digit or an empty result is prefixed,
/// a keyword suffixed.
pub fn sanitise(name: &str, case: Case) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && previous_lower && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            word.push(c);
        } else {
            previous_lower = false;
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            // Non-ASCII letters keep names apart (`Läufer` vs `Laufer`) as their code.
            if !c.is_ascii() {
                words.push(format!("u{:x}", c as u32));
            }
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    let joined = words.join("_");
    let mut ident = match case {
        Case::Snake => joined.to_ascii_lowercase(),
        Case::Upper => joined.to_ascii_uppercase(),
    };
    if ident.is_empty() || ident.starts_with(|c: char| c.is_ascii_digit()) {
        let prefix = match case {
            Case::Snake => "n_",
            Case::Upper => "N_",
        };
        ident.insert_str(0, prefix);
    }
    if KEYWORDS.contains(&ident.as_str()) {
        ident.push('_');
    }
    ident
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn awkward_names_become_distinct_identifiers() {
        let mut namer = Namer::new();
        let names: Vec<String> = [
            "Drunk-Elephant!",
            "Drunk_Elephant",
            "?Dice",
            "1",
            "self",
            "move",
            "",
            "Läufer",
            "Laufer",
            "WhitePawn",
        ]
        .iter()
        .map(|n| namer.name(n, Case::Snake))
        .collect();
        assert_eq!(
            names,
            [
                "drunk_elephant",
                "drunk_elephant_2",
                "dice",
                "n_1",
                "self_",
                "move_",
                "n_",
                "l_ue4_ufer",
                "laufer",
                "white_pawn",
            ]
        );
        assert_eq!(sanitise("Type", Case::Upper), "TYPE");
        assert_eq!(sanitise("Self", Case::Snake), "self_");
        assert_eq!(sanitise("a1", Case::Upper), "A1");
        assert_eq!(sanitise("c'", Case::Upper), "C");
    }
}
