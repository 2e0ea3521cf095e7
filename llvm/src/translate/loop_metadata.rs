//! Loop annotations and access groups as LLVM metadata, as
//! mlir-translate writes them: a branch's `loop_annotation` becomes
//! `!llvm.loop !N`, a self-referencing distinct node listing one node per
//! hint (`!{!"llvm.loop.unroll.count", i32 4}`, follow-ups as nested loop
//! nodes, `llvm.loop.parallel_accesses` with the access groups); a memory
//! access's `access_groups` becomes `!llvm.access.group` (one group's
//! distinct node, or a node listing several). Each attribute gets one node.
//! Start and end locations need debug info and are left out.

use crate::dialect::loop_attrs::{entries, nested_mnemonic};
use silica_ir::{Attr, AttrKind, Context};
use std::collections::HashMap;

/// The metadata nodes of one module, numbered from `next`.
pub(super) struct Metadata {
    next: usize,
    definitions: Vec<(usize, String)>,
    loops: HashMap<Attr, usize>,
    groups: HashMap<Attr, usize>,
    group_lists: HashMap<Attr, usize>,
}

fn bool_of(ctx: &Context, a: Attr) -> Option<bool> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => Some(*value != 0.into()),
        _ => None,
    }
}

fn int_of(ctx: &Context, a: Attr) -> Option<String> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => Some(value.to_string()),
        _ => None,
    }
}

/// `followupRemainderOuter` → `followup_remainder_outer`.
fn snake(key: &str) -> String {
    let mut out = String::new();
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

impl Metadata {
    /// Nodes numbered from `first` (after the module flags).
    pub(super) fn new(first: usize) -> Self {
        Self {
            next: first,
            definitions: Vec::new(),
            loops: HashMap::new(),
            groups: HashMap::new(),
            group_lists: HashMap::new(),
        }
    }

    fn reserve(&mut self) -> usize {
        self.next += 1;
        self.next - 1
    }

    fn node(&mut self, text: String) -> usize {
        let id = self.reserve();
        self.definitions.push((id, text));
        id
    }

    fn unit(&mut self, name: &str) -> usize {
        self.node(format!("!{{!\"{name}\"}}"))
    }

    fn typed(&mut self, name: &str, ty: &str, value: &str) -> usize {
        self.node(format!("!{{!\"{name}\", {ty} {value}}}"))
    }

    /// The `!llvm.loop` node of loop annotation `a`.
    pub(super) fn loop_node(&mut self, ctx: &Context, a: Attr) -> usize {
        if let Some(&id) = self.loops.get(&a) {
            return id;
        }
        let id = self.reserve();
        self.loops.insert(a, id);
        let params = entries(ctx, a);
        let get = |key: &str| params.iter().find(|(k, _)| k == key).map(|(_, v)| *v);
        let mut hints = Vec::new();
        if get("disableNonforced").and_then(|v| bool_of(ctx, v)) == Some(true) {
            hints.push(self.unit("llvm.loop.disable_nonforced"));
        }
        if get("mustProgress").and_then(|v| bool_of(ctx, v)) == Some(true) {
            hints.push(self.unit("llvm.loop.mustprogress"));
        }
        if let Some(v) = get("isVectorized").and_then(|v| bool_of(ctx, v)) {
            let n = u8::from(v).to_string();
            hints.push(self.typed("llvm.loop.isvectorized", "i32", &n));
        }
        // The parts (vectorize, interleave, unroll, ...), in the order
        // the parameters are kept, which is MLIR's.
        for (option, part) in &params {
            if !option.starts_with("followup")
                && nested_mnemonic("loop_annotation", option).is_some()
            {
                self.options(ctx, option, *part, &mut hints);
            }
        }
        if let Some(AttrKind::Array(groups)) = get("parallelAccesses").map(|v| ctx.attr_kind(v)) {
            let refs: Vec<String> = groups
                .iter()
                .map(|&g| format!("!{}", self.group(g)))
                .collect();
            let text = format!("!{{!\"llvm.loop.parallel_accesses\", {}}}", refs.join(", "));
            hints.push(self.node(text));
        }
        let mut items = vec![format!("!{id}")];
        items.extend(hints.iter().map(|h| format!("!{h}")));
        self.definitions
            .push((id, format!("distinct !{{{}}}", items.join(", "))));
        id
    }

    /// The hints of one part (`unroll = <...>`) of a loop annotation.
    fn options(&mut self, ctx: &Context, option: &str, part: Attr, hints: &mut Vec<usize>) {
        let prefix = match option {
            "licm" => "llvm.licm".to_string(),
            "unrollAndJam" => "llvm.loop.unroll_and_jam".to_string(),
            other => format!("llvm.loop.{other}"),
        };
        for (key, value) in entries(ctx, part) {
            let flag = bool_of(ctx, value);
            let hint = match (option, key.as_str()) {
                (_, k) if k.starts_with("followup") => {
                    let node = self.loop_node(ctx, value);
                    let name = format!("{prefix}.{}", snake(k));
                    Some(self.node(format!("!{{!\"{name}\", !{node}}}")))
                }
                ("unroll" | "unrollAndJam", "disable") => {
                    let which = if flag == Some(true) {
                        "disable"
                    } else {
                        "enable"
                    };
                    Some(self.unit(&format!("{prefix}.{which}")))
                }
                ("vectorize" | "distribute", "disable") => {
                    let enabled = (flag != Some(true)).to_string();
                    Some(self.typed(&format!("{prefix}.enable"), "i1", &enabled))
                }
                ("vectorize", "predicateEnable" | "scalableEnable") => {
                    let name = format!("{prefix}.{}.enable", &key[..key.len() - "Enable".len()]);
                    Some(self.typed(&name, "i1", &(flag == Some(true)).to_string()))
                }
                ("unroll", "runtimeDisable") => Some(self.typed(
                    "llvm.loop.unroll.runtime.disable",
                    "i1",
                    &(flag == Some(true)).to_string(),
                )),
                ("pipeline", "disable") => Some(self.typed(
                    "llvm.loop.pipeline.disable",
                    "i1",
                    &(flag == Some(true)).to_string(),
                )),
                ("unroll", "full") if flag == Some(true) => {
                    Some(self.unit("llvm.loop.unroll.full"))
                }
                ("licm", "disable") if flag == Some(true) => Some(self.unit("llvm.licm.disable")),
                ("licm", "versioningDisable") if flag == Some(true) => {
                    Some(self.unit("llvm.loop.licm_versioning.disable"))
                }
                ("unswitch", "partialDisable") if flag == Some(true) => {
                    Some(self.unit("llvm.loop.unswitch.partial.disable"))
                }
                (_, "width" | "count" | "initiationinterval") => int_of(ctx, value)
                    .map(|n| self.typed(&format!("{prefix}.{}", key.to_lowercase()), "i32", &n)),
                _ => None,
            };
            hints.extend(hint);
        }
    }

    /// The distinct node of access group `g`.
    fn group(&mut self, g: Attr) -> usize {
        if let Some(&id) = self.groups.get(&g) {
            return id;
        }
        let id = self.node("distinct !{}".to_string());
        self.groups.insert(g, id);
        id
    }

    /// The `!llvm.access.group` node of an `access_groups` array.
    pub(super) fn access_groups(&mut self, ctx: &Context, list: Attr) -> Option<usize> {
        if let Some(&id) = self.group_lists.get(&list) {
            return Some(id);
        }
        let AttrKind::Array(groups) = ctx.attr_kind(list) else {
            return None;
        };
        let id = match groups.as_ref() {
            [] => return None,
            [one] => self.group(*one),
            many => {
                let refs: Vec<String> = many
                    .iter()
                    .map(|&g| format!("!{}", self.group(g)))
                    .collect();
                self.node(format!("!{{{}}}", refs.join(", ")))
            }
        };
        self.group_lists.insert(list, id);
        Some(id)
    }

    /// The node definitions, one per line.
    pub(super) fn text(&self) -> String {
        let mut defs = self.definitions.clone();
        defs.sort_by_key(|(id, _)| *id);
        defs.iter()
            .map(|(id, text)| format!("!{id} = {text}\n"))
            .collect()
    }
}
