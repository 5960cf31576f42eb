//! Whole-model passes after lowering: union members' tags, recursion boxing, area assignment, request marking, sorting.

use super::references::{edges, names_in};
use crate::ir::{Api, Success, TypeDef, TypeKind, TypeRef};
use crate::surface::modules::SHARED_MODULE;
use std::collections::{BTreeMap, BTreeSet};

/// The references between types, through containers: type name to the names it references.
type Edges = BTreeMap<String, Vec<String>>;

/// Runs the whole-model passes and sorts the model; also returns the types the passes removed.
pub(super) fn finish(mut api: Api) -> (Api, BTreeSet<String>) {
    let dropped = super::member_tags::fix_member_tags(&mut api.types);
    break_alias_cycles(&mut api.types);
    box_recursive(&mut api.types);
    mark_display_unions(&mut api.types);
    let all = edges(&api.types, true);
    let uses = Uses::of(&api, &all);
    for def in &mut api.types {
        def.request = uses.request.contains(&def.name);
        apply_direction(def, uses.response.contains(&def.name));
        def.module = match uses.areas.get(&def.name) {
            Some(set) if set.len() == 1 => set.iter().next().cloned().unwrap_or_default(),
            _ => SHARED_MODULE.to_owned(),
        };
    }
    share_what_shared_types_reach(&mut api, &all);
    sort(&mut api);
    (api, dropped)
}

/// Where each type is used: the areas whose operations reach it, and whether a request or a
/// response (or webhook) carries it.
struct Uses {
    areas: BTreeMap<String, BTreeSet<String>>,
    request: BTreeSet<String>,
    response: BTreeSet<String>,
}

impl Uses {
    fn of(api: &Api, all: &Edges) -> Self {
        let mut areas: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut request: BTreeSet<String> = BTreeSet::new();
        let mut response_roots = Vec::new();
        for op in &api.operations {
            for r in &op.responses {
                if let Some(ty) = &r.ty {
                    names_in(ty, &mut response_roots);
                }
            }
            let mut roots = Vec::new();
            let mut req_roots = Vec::new();
            for p in &op.params {
                names_in(&p.ty, &mut req_roots);
            }
            if let Some(b) = &op.body {
                names_in(&b.ty, &mut req_roots);
            }
            if let Success::Json(ty) = &op.success {
                names_in(ty, &mut response_roots);
                names_in(ty, &mut roots);
            }
            roots.extend(req_roots.iter().cloned());
            for name in reach(all, roots) {
                areas.entry(name).or_default().insert(op.area.clone());
            }
            request.extend(reach(all, req_roots));
        }
        for webhook in &api.webhooks {
            names_in(&webhook.payload, &mut response_roots);
        }
        Uses {
            areas,
            request,
            response: reach(all, response_roots),
        }
    }
}

/// Whatever a shared type references must be shared too (area modules are feature-gated), and
/// so must webhook payloads (the webhooks module is not).
fn share_what_shared_types_reach(api: &mut Api, all: &Edges) {
    let mut shared_roots: Vec<String> = api
        .types
        .iter()
        .filter(|d| d.module == SHARED_MODULE)
        .map(|d| d.name.clone())
        .collect();
    for webhook in &api.webhooks {
        names_in(&webhook.payload, &mut shared_roots);
    }
    let shared = reach(all, shared_roots);
    for def in &mut api.types {
        if shared.contains(&def.name) {
            def.module = SHARED_MODULE.to_owned();
        }
    }
}

/// Types by module and name, operations by area and method name, areas and skipped
/// operations by name.
fn sort(api: &mut Api) {
    api.types
        .sort_by(|a, b| (&a.module, &a.name).cmp(&(&b.module, &b.name)));
    api.operations
        .sort_by(|a, b| (&a.area, &a.fn_name).cmp(&(&b.area, &b.fn_name)));
    api.areas.sort_by(|a, b| a.module.cmp(&b.module));
    api.skipped.sort_by(|a, b| a.pointer.cmp(&b.pointer));
}

/// Direction-aware requiredness: a read-only property is never required of a type a request
/// sends (the server sets it; it has no setter either), a write-only one never of a type a
/// response or webhook carries (the server does not send it back). A type used one way only
/// keeps every other `required`, and stays one type either way.
fn apply_direction(def: &mut TypeDef, in_responses: bool) {
    let TypeKind::Struct { fields, .. } = &mut def.kind else {
        return;
    };
    for f in fields {
        if (def.request && f.read_only) || (in_responses && f.write_only) {
            f.required = false;
        }
    }
}

/// All names reachable from `roots` (including the roots).
fn reach(edges: &Edges, roots: Vec<String>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = roots;
    while let Some(n) = stack.pop() {
        if seen.insert(n.clone())
            && let Some(next) = edges.get(&n)
        {
            stack.extend(next.iter().cloned());
        }
    }
    seen
}

/// Boxes every direct reference that leads back to the type holding it: a reference from `a`
/// to `b` leads back exactly when both are in one strongly connected component.
fn box_recursive(types: &mut [TypeDef]) {
    let direct = edges(types, false);
    let component = components(&direct);
    let cyclic = |from: &str, to: &TypeRef| match to {
        TypeRef::Named(n) => component
            .get(from)
            .is_some_and(|c| component.get(n.as_str()) == Some(c)),
        _ => false,
    };
    for def in types.iter_mut() {
        let name = def.name.clone();
        match &mut def.kind {
            TypeKind::Struct {
                fields, exclusive, ..
            } => {
                for f in fields.iter_mut() {
                    f.boxed = cyclic(&name, &f.ty);
                }
                for m in exclusive.iter_mut().flat_map(|g| g.members.iter_mut()) {
                    m.boxed = cyclic(&name, &m.ty);
                }
            }
            TypeKind::Union { variants, .. } => {
                for v in variants.iter_mut() {
                    v.boxed = cyclic(&name, &v.ty);
                }
            }
            TypeKind::Alias { .. } | TypeKind::Enum { .. } => {}
        }
    }
}

/// The strongly connected component of every node (Tarjan's algorithm, iterative so that long
/// chains cannot exhaust the stack); nodes with the same number are mutually reachable.
fn components(edges: &Edges) -> BTreeMap<&str, usize> {
    let names: Vec<&str> = edges.keys().map(String::as_str).collect();
    let index_of: BTreeMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let successors: Vec<Vec<usize>> = edges
        .values()
        .map(|next| {
            next.iter()
                .filter_map(|n| index_of.get(n.as_str()).copied())
                .collect()
        })
        .collect();
    let mut order = vec![usize::MAX; names.len()];
    let mut low = vec![0; names.len()];
    let mut on_stack = vec![false; names.len()];
    let mut component = vec![usize::MAX; names.len()];
    let (mut stack, mut counter, mut components) = (Vec::new(), 0, 0);
    for root in 0..names.len() {
        if order[root] != usize::MAX {
            continue;
        }
        // (node, index of the next successor to visit)
        let mut work = vec![(root, 0)];
        while let Some(&mut (node, ref mut next)) = work.last_mut() {
            if *next == 0 {
                order[node] = counter;
                low[node] = counter;
                counter += 1;
                stack.push(node);
                on_stack[node] = true;
            }
            if let Some(&succ) = successors[node].get(*next) {
                *next += 1;
                if order[succ] == usize::MAX {
                    work.push((succ, 0));
                } else if on_stack[succ] {
                    low[node] = low[node].min(order[succ]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == order[node] {
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component[member] = components;
                    if member == node {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    names.into_iter().zip(component).collect()
}

/// Type aliases cannot be recursive in Rust: an alias reaching itself through aliases only
/// becomes `serde_json::Value`.
fn break_alias_cycles(types: &mut [TypeDef]) {
    let aliases: BTreeMap<String, Vec<String>> = types
        .iter()
        .filter_map(|d| match &d.kind {
            TypeKind::Alias { target } => {
                let mut out = Vec::new();
                names_in(target, &mut out);
                Some((d.name.clone(), out))
            }
            _ => None,
        })
        .collect();
    for def in types.iter_mut() {
        if let TypeKind::Alias { target } = &mut def.kind {
            let mut start = Vec::new();
            names_in(target, &mut start);
            if reach(&aliases, start).contains(&def.name) {
                *target = TypeRef::Json;
            }
        }
    }
}

/// Sets `display` on unions whose variants are all scalars (or lists of scalars).
fn mark_display_unions(types: &mut [TypeDef]) {
    let flags: Vec<bool> = {
        let kinds: BTreeMap<&str, &TypeKind> =
            types.iter().map(|d| (d.name.as_str(), &d.kind)).collect();
        let kind_of = |name: &str| kinds.get(name).copied();
        types
            .iter()
            .map(|d| {
                matches!(d.kind, TypeKind::Union { tag: None, .. })
                    && TypeRef::Named(d.name.clone()).displayable(&kind_of, false)
            })
            .collect()
    };
    for (def, flag) in types.iter_mut().zip(flags) {
        if let TypeKind::Union { display, .. } = &mut def.kind {
            *display = flag;
        }
    }
}
