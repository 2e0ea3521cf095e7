//! The `{-# ... #-}` file metadata section: dialect and external resources,
//! kept as their raw entries and printed back in mlir-opt's layout.

use crate::context::{Context, Symbol};
use crate::printer::keyword_or_string;

/// One resource entry: `key: value` under a dialect (or external owner).
#[derive(Clone, Debug)]
pub struct ResourceEntry {
    pub owner: String,
    pub key: String,
    /// The value's source text (a string literal, `true`/`false`, ...).
    pub value: String,
}

/// Resources of one parsed buffer.
#[derive(Clone, Debug, Default)]
pub struct Resources {
    /// `dialect_resources` entries.
    pub dialect: Vec<ResourceEntry>,
    /// `external_resources` entries.
    pub external: Vec<ResourceEntry>,
    /// Handles referenced by `dense_resource<...>` attributes.
    pub referenced: Vec<Symbol>,
}

impl Resources {
    /// Appends the metadata section, if there is anything to print. Dialect
    /// resources are printed only when referenced, as mlir-opt does.
    pub fn print_into(&self, ctx: &Context, out: &mut String) {
        let dialect: Vec<&ResourceEntry> = self
            .dialect
            .iter()
            .filter(|e| {
                ctx.lookup_sym(&e.key)
                    .is_some_and(|s| self.referenced.contains(&s))
            })
            .collect();
        if dialect.is_empty() && self.external.is_empty() {
            return;
        }
        out.push_str("\n{-#\n");
        let mut sections = Vec::new();
        if !dialect.is_empty() {
            sections.push(("dialect_resources", dialect));
        }
        if !self.external.is_empty() {
            sections.push(("external_resources", self.external.iter().collect()));
        }
        for (si, (name, entries)) in sections.iter().enumerate() {
            out.push_str("  ");
            out.push_str(name);
            out.push_str(": {\n");
            let mut owners: Vec<&str> = Vec::new();
            for e in entries {
                if !owners.contains(&e.owner.as_str()) {
                    owners.push(&e.owner);
                }
            }
            for (oi, owner) in owners.iter().enumerate() {
                out.push_str("    ");
                keyword_or_string(out, owner);
                out.push_str(": {\n");
                let items: Vec<&&ResourceEntry> =
                    entries.iter().filter(|e| e.owner == *owner).collect();
                for (ii, e) in items.iter().enumerate() {
                    out.push_str("      ");
                    keyword_or_string(out, &e.key);
                    out.push_str(": ");
                    out.push_str(&e.value);
                    if ii + 1 < items.len() {
                        out.push(',');
                    }
                    out.push('\n');
                }
                out.push_str("    }");
                if oi + 1 < owners.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            out.push_str("  }");
            if si + 1 < sections.len() {
                out.push(',');
            }
            out.push('\n');
        }
        out.push_str("#-}\n");
    }
}
