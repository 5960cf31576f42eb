//! Which operations send a type in their request and which receive it in their success
//! response, through fields, variants, aliases, lists and maps.

use crate::surface::{Shape, Surface};
use std::collections::{BTreeMap, BTreeSet};

/// Type name → client methods (`rust_fn`), for both directions of one description.
#[derive(Debug, Default)]
pub(super) struct Usage {
    sent: BTreeMap<String, BTreeSet<String>>,
    received: BTreeMap<String, BTreeSet<String>>,
}

impl Usage {
    /// The usage of every named type of `api`.
    pub(super) fn of(api: &Surface) -> Usage {
        let mut usage = Usage::default();
        for op in api.operations.values() {
            let sent_roots = op
                .params
                .values()
                .map(|p| p.ty.as_str())
                .chain(op.body.iter().map(|b| b.ty.as_str()));
            for name in reachable(api, sent_roots) {
                usage
                    .sent
                    .entry(name)
                    .or_default()
                    .insert(op.rust_fn.clone());
            }
            for name in reachable(api, [op.success.as_str()]) {
                usage
                    .received
                    .entry(name)
                    .or_default()
                    .insert(op.rust_fn.clone());
            }
        }
        usage
    }

    /// Client methods whose request carries `type_name`.
    pub(super) fn sent_by(&self, type_name: &str) -> Vec<&str> {
        names(self.sent.get(type_name))
    }

    /// Client methods whose success response carries `type_name`.
    pub(super) fn received_by(&self, type_name: &str) -> Vec<&str> {
        names(self.received.get(type_name))
    }
}

fn names(set: Option<&BTreeSet<String>>) -> Vec<&str> {
    set.map(|s| s.iter().map(String::as_str).collect())
        .unwrap_or_default()
}

/// Every named type reachable from the type strings `roots`.
fn reachable<'a>(api: &Surface, roots: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<String> = roots
        .into_iter()
        .flat_map(|ty| named_types(api, ty))
        .collect();
    while let Some(name) = todo.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let Some(def) = api.types.get(&name) else {
            continue;
        };
        let inner: Vec<&str> = match &def.shape {
            Shape::Struct {
                fields, additional, ..
            } => fields
                .values()
                .map(|f| f.ty.as_str())
                .chain(additional.as_deref())
                .collect(),
            Shape::Union { variants, .. } | Shape::Choice { variants } => {
                variants.values().map(String::as_str).collect()
            }
            Shape::Alias { target } => vec![target.as_str()],
            Shape::Enum { .. } => Vec::new(),
        };
        todo.extend(inner.into_iter().flat_map(|ty| named_types(api, ty)));
    }
    seen
}

/// The named types a type string mentions (`Vec<Box<Zone>>` → `Zone`).
fn named_types(api: &Surface, ty: &str) -> Vec<String> {
    ty.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|word| api.types.contains_key(*word))
        .map(str::to_owned)
        .collect()
}
