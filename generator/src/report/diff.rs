//! Compares two [`ApiDescription`]s and classifies every change by the rules in the
//! [module docs](super): one [`Change`] per operation aspect, parameter, field, type or error
//! code, in a deterministic order.

use super::describe::{
    ApiDescription, BodyDescription, FieldDescription, OperationDescription, ParamDescription,
    Shape, TypeDescription,
};
use std::collections::{BTreeMap, BTreeSet};

/// Area label of changes to the crate-wide error codes.
pub const ERROR_CODES_AREA: &str = "error codes";

/// Area label of the contract revision change.
pub const CONTRACT_AREA: &str = "contract";

/// How a change affects code written against the previous crate, least severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Documentation, wire or server-behaviour facts only: the Rust API is unchanged.
    DocsOnly,
    /// New API; code written against the previous crate still compiles.
    Additive,
    /// Code written against the previous crate may no longer compile.
    Breaking,
}

impl Class {
    /// Every class, most severe first (the report's order).
    pub const ALL: [Class; 3] = [Class::Breaking, Class::Additive, Class::DocsOnly];

    /// The heading of the class in the report.
    pub fn title(self) -> &'static str {
        match self {
            Class::Breaking => "Breaking",
            Class::Additive => "Additive",
            Class::DocsOnly => "Docs only",
        }
    }
}

/// One classified change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The class.
    pub class: Class,
    /// Area module of the operation or type (`types` for shared types), or
    /// [`ERROR_CODES_AREA`] / [`CONTRACT_AREA`].
    pub area: String,
    /// One line of Markdown naming the change.
    pub text: String,
}

/// Every change from `old` to `new`.
pub fn diff(old: &ApiDescription, new: &ApiDescription) -> Vec<Change> {
    let mut out = Changes::default();
    if old.contract_revision != new.contract_revision {
        out.push(
            Class::DocsOnly,
            CONTRACT_AREA,
            format!(
                "contract revision `{}` → `{}`",
                old.contract_revision, new.contract_revision
            ),
        );
    }
    operations(&old.operations, &new.operations, &mut out);
    types(&old.types, &new.types, &mut out);
    error_codes(old, new, &mut out);
    out.0
}

#[derive(Default)]
struct Changes(Vec<Change>);

impl Changes {
    fn push(&mut self, class: Class, area: &str, text: String) {
        self.0.push(Change {
            class,
            area: area.to_owned(),
            text,
        });
    }

    /// One line `subject: part; part` classified by its most severe part.
    fn push_parts(&mut self, area: &str, subject: &str, parts: Vec<(Class, String)>) {
        let Some(class) = parts.iter().map(|(c, _)| *c).max() else {
            return;
        };
        let texts: Vec<String> = parts.into_iter().map(|(_, t)| t).collect();
        self.push(class, area, format!("{subject}: {}", texts.join("; ")));
    }
}

type Operations = BTreeMap<String, OperationDescription>;

fn operations(old: &Operations, new: &Operations, out: &mut Changes) {
    let renamed = renames(old, new);
    for (id, o) in old {
        if let Some(n) = new.get(id) {
            if o.rust_fn != n.rust_fn {
                out.push(
                    Class::Breaking,
                    &n.area,
                    format!(
                        "`{}`: client method renamed from `{}`",
                        n.rust_fn, o.rust_fn
                    ),
                );
            }
            operation(o, n, out);
        } else if let Some(new_id) = renamed.get(id.as_str()) {
            let n = &new[*new_id];
            let (class, what) = if o.rust_fn == n.rust_fn {
                (Class::DocsOnly, format!("operation `{}`", n.rust_fn))
            } else {
                (
                    Class::Breaking,
                    format!("operation `{}` renamed to `{}`", o.rust_fn, n.rust_fn),
                )
            };
            out.push(
                class,
                &n.area,
                format!(
                    "{what}: operationId `{id}` → `{new_id}` (`{} {}`)",
                    n.method, n.path
                ),
            );
            operation(o, n, out);
        } else {
            out.push(
                Class::Breaking,
                &o.area,
                format!(
                    "operation `{}` removed (`{} {}`)",
                    o.rust_fn, o.method, o.path
                ),
            );
        }
    }
    let rename_targets: BTreeSet<&str> = renamed.values().copied().collect();
    for (id, n) in new {
        if !old.contains_key(id) && !rename_targets.contains(id.as_str()) {
            out.push(
                Class::Additive,
                &n.area,
                format!(
                    "operation `{}` added (`{} {}`)",
                    n.rust_fn, n.method, n.path
                ),
            );
        }
    }
}

/// Removed operationId → added operationId, for pairs with the same method and path.
fn renames<'a>(old: &'a Operations, new: &'a Operations) -> BTreeMap<&'a str, &'a str> {
    let mut added: BTreeMap<(&str, &str), &str> = BTreeMap::new();
    for (id, n) in new.iter().filter(|(id, _)| !old.contains_key(*id)) {
        added.entry((&n.method, &n.path)).or_insert(id);
    }
    old.iter()
        .filter(|(id, _)| !new.contains_key(*id))
        .filter_map(|(id, o)| {
            let new_id = added.remove(&(o.method.as_str(), o.path.as_str()))?;
            Some((id.as_str(), new_id))
        })
        .collect()
}

fn operation(o: &OperationDescription, n: &OperationDescription, out: &mut Changes) {
    let area = n.area.as_str();
    let subject = format!("`{}`", n.rust_fn);
    let mut line = |class: Class, text: String| out.push(class, area, format!("{subject}: {text}"));
    if o.area != n.area {
        line(
            Class::Breaking,
            format!(
                "moved from area `{}` to `{}` (builder module and cargo feature)",
                o.area, n.area
            ),
        );
    }
    if (&o.method, &o.path) != (&n.method, &n.path) {
        line(
            Class::DocsOnly,
            format!("`{} {}` → `{} {}`", o.method, o.path, n.method, n.path),
        );
    }
    if o.success != n.success {
        line(
            Class::Breaking,
            format!("success type `{}` → `{}`", o.success, n.success),
        );
    }
    if let Some(change) = pagination(o.pagination.as_deref(), n.pagination.as_deref()) {
        line(change.0, change.1);
    }
    if o.idempotency != n.idempotency {
        let class = match (o.idempotency.as_str(), n.idempotency.as_str()) {
            ("none", _) => Class::Additive,
            (_, "none") => Class::Breaking,
            _ => Class::DocsOnly,
        };
        let setter = match class {
            Class::Additive => " (`idempotency_key` setter added)",
            Class::Breaking => " (`idempotency_key` setter removed)",
            Class::DocsOnly => "",
        };
        line(
            class,
            format!(
                "Idempotency-Key `{}` → `{}`{setter}",
                o.idempotency, n.idempotency
            ),
        );
    }
    if o.operation_envelope != n.operation_envelope {
        let change = if n.operation_envelope {
            (
                Class::Additive,
                "accepts the operation envelope (`operation_format` setter added)",
            )
        } else {
            (
                Class::Breaking,
                "no longer accepts the operation envelope (`operation_format` setter removed)",
            )
        };
        line(change.0, change.1.to_owned());
    }
    if o.deprecated != n.deprecated {
        line(Class::DocsOnly, deprecation(n.deprecated).to_owned());
    }
    if let Some(text) = set_change("scope", &o.scopes, &n.scopes) {
        line(Class::DocsOnly, text);
    }
    if let Some(text) = error_responses(&o.errors, &n.errors) {
        line(Class::DocsOnly, text);
    }
    let docs: Vec<&str> = [
        (o.summary != n.summary).then_some("summary"),
        (o.description != n.description).then_some("description"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !docs.is_empty() {
        line(Class::DocsOnly, format!("{} changed", docs.join(" and ")));
    }
    let body_changes = body(o.body.as_ref(), n.body.as_ref(), &n.rust_fn);
    out.push_parts(area, &format!("{subject}: request body"), body_changes);
    params(&o.params, &n.params, area, &n.rust_fn, out);
}

fn params(
    old: &BTreeMap<String, ParamDescription>,
    new: &BTreeMap<String, ParamDescription>,
    area: &str,
    rust_fn: &str,
    out: &mut Changes,
) {
    for key in union_keys(old, new) {
        let subject =
            |p: &ParamDescription| format!("`{rust_fn}`: {} parameter `{key}`", p.location);
        match (old.get(key), new.get(key)) {
            (Some(o), None) => out.push(Class::Breaking, area, format!("{} removed", subject(o))),
            (None, Some(n)) if n.required => out.push(
                Class::Breaking,
                area,
                format!(
                    "{} added (required: a new argument of `{rust_fn}`)",
                    subject(n)
                ),
            ),
            (None, Some(n)) => out.push(
                Class::Additive,
                area,
                format!("{} added (optional: a builder setter)", subject(n)),
            ),
            (Some(o), Some(n)) => {
                let mut parts = Vec::new();
                if o.required != n.required {
                    parts.push((
                        Class::Breaking,
                        if n.required {
                            format!("optional → required (now an argument of `{rust_fn}`)")
                        } else {
                            "required → optional (now a builder setter)".to_owned()
                        },
                    ));
                }
                if o.ty != n.ty {
                    parts.push((Class::Breaking, format!("type `{}` → `{}`", o.ty, n.ty)));
                }
                if o.location != n.location {
                    parts.push((
                        Class::DocsOnly,
                        format!("sent in {} → {}", o.location, n.location),
                    ));
                }
                if o.name != n.name {
                    parts.push((
                        Class::DocsOnly,
                        format!("wire name `{}` → `{}`", o.name, n.name),
                    ));
                }
                if o.deprecated != n.deprecated {
                    parts.push((Class::DocsOnly, deprecation(n.deprecated).to_owned()));
                }
                out.push_parts(area, &subject(n), parts);
            }
            (None, None) => {}
        }
    }
}

fn body(
    old: Option<&BodyDescription>,
    new: Option<&BodyDescription>,
    rust_fn: &str,
) -> Vec<(Class, String)> {
    let mut parts = Vec::new();
    match (old, new) {
        (None, None) => {}
        (Some(_), None) => parts.push((Class::Breaking, "removed".to_owned())),
        (None, Some(n)) if n.required => parts.push((
            Class::Breaking,
            format!("`{}` added (required: a new argument of `{rust_fn}`)", n.ty),
        )),
        (None, Some(n)) => parts.push((
            Class::Additive,
            format!("`{}` added (optional: the `body` setter)", n.ty),
        )),
        (Some(o), Some(n)) => {
            if o.required != n.required {
                parts.push((
                    Class::Breaking,
                    if n.required {
                        format!("optional → required (now an argument of `{rust_fn}`)")
                    } else {
                        "required → optional (now the `body` setter)".to_owned()
                    },
                ));
            }
            if o.ty != n.ty {
                parts.push((Class::Breaking, format!("type `{}` → `{}`", o.ty, n.ty)));
            }
            if o.media_type != n.media_type {
                parts.push((
                    Class::DocsOnly,
                    format!("media type `{}` → `{}`", o.media_type, n.media_type),
                ));
            }
        }
    }
    parts
}

fn pagination(old: Option<&str>, new: Option<&str>) -> Option<(Class, String)> {
    match (old, new) {
        (None, Some(n)) => Some((
            Class::Additive,
            format!("paginated (`{n}`): `into_stream` added"),
        )),
        (Some(o), None) => Some((
            Class::Breaking,
            format!("no longer paginated (was `{o}`): `into_stream` removed"),
        )),
        (Some(o), Some(n)) if o != n => {
            Some((Class::DocsOnly, format!("pagination `{o}` → `{n}`")))
        }
        _ => None,
    }
}

/// Status-by-status changes of the error responses, in one line.
fn error_responses(
    old: &BTreeMap<String, Vec<String>>,
    new: &BTreeMap<String, Vec<String>>,
) -> Option<String> {
    let mut parts = Vec::new();
    for status in union_keys(old, new) {
        match (old.get(status), new.get(status)) {
            (None, Some(codes)) => parts.push(format!(
                "error response {status} added{}",
                codes_suffix(codes)
            )),
            (Some(_), None) => parts.push(format!("error response {status} removed")),
            (Some(o), Some(n)) => {
                if let Some(text) = set_change("code", o, n) {
                    parts.push(format!("error response {status}: {text}"));
                }
            }
            (None, None) => {}
        }
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

fn codes_suffix(codes: &[String]) -> String {
    if codes.is_empty() {
        String::new()
    } else {
        format!(" ({})", ticks(codes))
    }
}

type Types = BTreeMap<String, TypeDescription>;

fn types(old: &Types, new: &Types, out: &mut Changes) {
    for name in union_keys(old, new) {
        match (old.get(name), new.get(name)) {
            (Some(o), None) => {
                out.push(Class::Breaking, &o.module, format!("type `{name}` removed"))
            }
            (None, Some(n)) => out.push(Class::Additive, &n.module, format!("type `{name}` added")),
            (Some(o), Some(n)) => type_change(name, o, n, out),
            (None, None) => {}
        }
    }
}

fn type_change(name: &str, o: &TypeDescription, n: &TypeDescription, out: &mut Changes) {
    let area = n.module.as_str();
    let subject = format!("`{name}`");
    if o.module != n.module {
        out.push(
            Class::Breaking,
            area,
            format!(
                "{subject}: moved from module `{}` to `{}`",
                o.module, n.module
            ),
        );
    }
    let mut parts = Vec::new();
    let both_structs = matches!(
        (&o.shape, &n.shape),
        (Shape::Struct { .. }, Shape::Struct { .. })
    );
    if both_structs && o.request != n.request {
        parts.push(if n.request {
            (
                Class::Additive,
                "now a request type (`new` and setters added)".to_owned(),
            )
        } else {
            (
                Class::Breaking,
                "no longer a request type (`new` and setters removed)".to_owned(),
            )
        });
    }
    if o.deprecated != n.deprecated {
        parts.push((Class::DocsOnly, deprecation(n.deprecated).to_owned()));
    }
    if o.doc != n.doc {
        parts.push((Class::DocsOnly, "documentation changed".to_owned()));
    }
    out.push_parts(area, &subject, parts);
    match (&o.shape, &n.shape) {
        (
            Shape::Struct {
                fields: of,
                additional: oa,
            },
            Shape::Struct {
                fields: nf,
                additional: na,
            },
        ) => {
            fields(name, (o.request, of), (n.request, nf), area, out);
            let catch_all = match (oa, na) {
                (None, Some(_)) => Some((Class::Additive, "catch-all map added".to_owned())),
                (Some(_), None) => Some((Class::Breaking, "catch-all map removed".to_owned())),
                (Some(a), Some(b)) if a != b => Some((
                    Class::Breaking,
                    format!("catch-all value type `{a}` → `{b}`"),
                )),
                _ => None,
            };
            out.push_parts(area, &subject, catch_all.into_iter().collect());
        }
        (Shape::Enum { values: ov }, Shape::Enum { values: nv }) => {
            let (added, removed) = added_removed(ov, nv);
            if !added.is_empty() {
                out.push(
                    Class::Additive,
                    area,
                    format!("{subject}: {} added", named("value", &added)),
                );
            }
            if !removed.is_empty() {
                out.push(
                    Class::Breaking,
                    area,
                    format!("{subject}: {} removed", named("value", &removed)),
                );
            }
        }
        (
            Shape::Union {
                variants: ov,
                display: od,
                ..
            },
            Shape::Union {
                variants: nv,
                unknown_fallback,
                display: nd,
            },
        ) => {
            let grows = if *unknown_fallback {
                Class::Additive
            } else {
                Class::Breaking
            };
            variants(&subject, ov, nv, grows, area, out);
            if od != nd {
                let change = if *nd {
                    (Class::Additive, "`Display` added")
                } else {
                    (Class::Breaking, "`Display` removed")
                };
                out.push(change.0, area, format!("{subject}: {}", change.1));
            }
        }
        (Shape::Choice { variants: ov }, Shape::Choice { variants: nv }) => {
            variants(&subject, ov, nv, Class::Breaking, area, out);
        }
        (Shape::Alias { target: ot }, Shape::Alias { target: nt }) => {
            if ot != nt {
                out.push(
                    Class::Breaking,
                    area,
                    format!("{subject}: alias of `{ot}` → `{nt}`"),
                );
            }
        }
        (old_shape, new_shape) => out.push(
            Class::Breaking,
            area,
            format!(
                "{subject}: {} → {}",
                shape_name(old_shape),
                shape_name(new_shape)
            ),
        ),
    }
}

fn shape_name(shape: &Shape) -> &'static str {
    match shape {
        Shape::Struct { .. } => "struct",
        Shape::Enum { .. } => "enum",
        Shape::Union { .. } => "union",
        Shape::Choice { .. } => "choice enum",
        Shape::Alias { .. } => "alias",
    }
}

type Fields = BTreeMap<String, FieldDescription>;

/// Field changes of struct `name`; each side is `(is a request type, fields)`.
fn fields(
    name: &str,
    (old_request, old): (bool, &Fields),
    (new_request, new): (bool, &Fields),
    area: &str,
    out: &mut Changes,
) {
    for key in union_keys(old, new) {
        let subject = format!("`{name}`: field `{key}`");
        match (old.get(key), new.get(key)) {
            (Some(_), None) => out.push(Class::Breaking, area, format!("{subject} removed")),
            (None, Some(n)) if new_request && n.is_constructor_argument() => out.push(
                Class::Breaking,
                area,
                format!("{subject} added (required: a new argument of `{name}::new`)"),
            ),
            (None, Some(n)) => out.push(
                Class::Additive,
                area,
                format!("{subject} added (`{}`)", n.rust_type),
            ),
            (Some(o), Some(n)) => {
                let mut parts = Vec::new();
                if o.required != n.required {
                    let text = if n.required {
                        "optional → required"
                    } else {
                        "required → optional"
                    };
                    parts.push((Class::DocsOnly, text.to_owned()));
                }
                if o.nullable != n.nullable {
                    let text = if n.nullable {
                        "now nullable"
                    } else {
                        "no longer nullable"
                    };
                    parts.push((Class::DocsOnly, text.to_owned()));
                }
                if o.ty != n.ty {
                    parts.push((Class::Breaking, format!("type `{}` → `{}`", o.ty, n.ty)));
                } else if o.rust_type != n.rust_type {
                    parts.push((
                        Class::Breaking,
                        format!("Rust type `{}` → `{}`", o.rust_type, n.rust_type),
                    ));
                }
                let was_argument = old_request && o.is_constructor_argument();
                let is_argument = new_request && n.is_constructor_argument();
                if was_argument != is_argument {
                    let text = if is_argument {
                        format!("now an argument of `{name}::new`")
                    } else {
                        format!("no longer an argument of `{name}::new`")
                    };
                    parts.push((Class::Breaking, text));
                }
                if o.const_value != n.const_value {
                    parts.push((Class::DocsOnly, "fixed value changed".to_owned()));
                }
                if o.name != n.name {
                    parts.push((
                        Class::DocsOnly,
                        format!("wire name `{}` → `{}`", o.name, n.name),
                    ));
                }
                if o.deprecated != n.deprecated {
                    parts.push((Class::DocsOnly, deprecation(n.deprecated).to_owned()));
                }
                if o.doc != n.doc {
                    parts.push((Class::DocsOnly, "documentation changed".to_owned()));
                }
                out.push_parts(area, &subject, parts);
            }
            (None, None) => {}
        }
    }
}

/// Variant changes of a union or choice enum; an added variant is classified `grows`.
fn variants(
    subject: &str,
    old: &BTreeMap<String, String>,
    new: &BTreeMap<String, String>,
    grows: Class,
    area: &str,
    out: &mut Changes,
) {
    for key in union_keys(old, new) {
        match (old.get(key), new.get(key)) {
            (Some(_), None) => out.push(
                Class::Breaking,
                area,
                format!("{subject}: variant `{key}` removed"),
            ),
            (None, Some(ty)) => out.push(
                grows,
                area,
                format!("{subject}: variant `{key}({ty})` added"),
            ),
            (Some(o), Some(n)) if o != n => out.push(
                Class::Breaking,
                area,
                format!("{subject}: variant `{key}` payload `{o}` → `{n}`"),
            ),
            _ => {}
        }
    }
}

fn error_codes(old: &ApiDescription, new: &ApiDescription, out: &mut Changes) {
    for code in union_keys(&old.error_codes, &new.error_codes) {
        match (old.error_codes.get(code), new.error_codes.get(code)) {
            (None, Some(returned_by)) => out.push(
                Class::Additive,
                ERROR_CODES_AREA,
                format!(
                    "error code `{code}` added (returned by {})",
                    returned_by_text(new, returned_by)
                ),
            ),
            (Some(_), None) => out.push(
                Class::Breaking,
                ERROR_CODES_AREA,
                format!("error code `{code}` removed"),
            ),
            _ => {}
        }
    }
}

/// `` `fn` 409, `fn2` 422 `` for `operationId status` pairs, at most three named.
fn returned_by_text(api: &ApiDescription, returned_by: &[String]) -> String {
    const NAMED: usize = 3;
    let mut named: Vec<String> = returned_by
        .iter()
        .take(NAMED)
        .map(|pair| {
            let (id, status) = pair.split_once(' ').unwrap_or((pair, ""));
            let rust_fn = api.operations.get(id).map_or(id, |o| o.rust_fn.as_str());
            format!("`{rust_fn}` {status}")
        })
        .collect();
    if returned_by.len() > NAMED {
        named.push(format!("{} more", returned_by.len() - NAMED));
    }
    named.join(", ")
}

/// `` scopes `a`, `b` added, scope `c` removed `` for two lists, `None` when equal.
fn set_change(what: &str, old: &[String], new: &[String]) -> Option<String> {
    let (added, removed) = added_removed(old, new);
    let mut parts = Vec::new();
    if !added.is_empty() {
        parts.push(format!("{} added", named(what, &added)));
    }
    if !removed.is_empty() {
        parts.push(format!("{} removed", named(what, &removed)));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

fn added_removed<'a>(old: &'a [String], new: &'a [String]) -> (Vec<&'a String>, Vec<&'a String>) {
    let added = new.iter().filter(|v| !old.contains(v)).collect();
    let removed = old.iter().filter(|v| !new.contains(v)).collect();
    (added, removed)
}

fn union_keys<'a, V>(a: &'a BTreeMap<String, V>, b: &'a BTreeMap<String, V>) -> BTreeSet<&'a str> {
    a.keys().chain(b.keys()).map(String::as_str).collect()
}

fn ticks<S: AsRef<str>>(items: &[S]) -> String {
    items
        .iter()
        .map(|s| format!("`{}`", s.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `` value `a` `` or `` values `a`, `b` ``.
fn named<S: AsRef<str>>(noun: &str, items: &[S]) -> String {
    let plural = if items.len() == 1 { "" } else { "s" };
    format!("{noun}{plural} {}", ticks(items))
}

fn deprecation(deprecated: bool) -> &'static str {
    if deprecated {
        "deprecated"
    } else {
        "no longer deprecated"
    }
}
