//! Interned names: every atom and string after macro expansion is a [`Sym`], so copying
//! expanded trees (millions of nodes in the largest files) copies a `u32`, and name
//! comparison is integer comparison.

use std::collections::HashMap;

/// An interned string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sym(u32);

/// The string table. Symbols are only meaningful with the interner that made them.
#[derive(Default, Debug)]
pub struct Interner {
    ids: HashMap<Box<str>, Sym>,
    strings: Vec<Box<str>>,
}

impl Interner {
    pub fn new() -> Interner {
        Interner::default()
    }

    pub fn intern(&mut self, text: &str) -> Sym {
        if let Some(&sym) = self.ids.get(text) {
            return sym;
        }
        let sym = Sym(self.strings.len() as u32);
        self.strings.push(text.into());
        self.ids.insert(text.into(), sym);
        sym
    }

    /// The symbol of `text` if it was ever interned.
    pub fn get(&self, text: &str) -> Option<Sym> {
        self.ids.get(text).copied()
    }

    pub fn resolve(&self, sym: Sym) -> &str {
        self.strings.get(sym.0 as usize).map_or("", |s| s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_idempotent() {
        let mut interner = Interner::new();
        let a = interner.intern("add");
        let b = interner.intern("add-partial");
        assert_ne!(a, b);
        assert_eq!(interner.intern("add"), a);
        assert_eq!(interner.resolve(b), "add-partial");
        assert_eq!(interner.get("missing"), None);
    }
}
