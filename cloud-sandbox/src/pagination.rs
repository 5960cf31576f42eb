//! The three pagination models with their exact continuation rules, chosen and named by the
//! operation's `x-pagination` (docs/extensions.md): page (`page`, `pageSize`, `total`, `pages`,
//! `items`), cursor (`next_cursor`, null at the end) and offset (`next_offset`, null at the end).
//! An operation without `x-pagination` answers every item. Also the `limit` / `page_size` /
//! `pageSize` alias rule.

use serde_json::{Map, Value, json};

use crate::errors::ApiError;

/// Default page size.
pub const DEFAULT_LIMIT: u64 = 50;

fn q<'a>(query: &'a [(String, String)], name: &str) -> Option<&'a str> {
    query
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

fn parse_u64(query: &[(String, String)], name: &str) -> Result<Option<u64>, ApiError> {
    q(query, name)
        .map(|v| {
            v.parse::<u64>().map_err(|_| {
                ApiError::invalid_field(&format!("query.{name}"), "must be a non-negative integer")
            })
        })
        .transpose()
}

/// The page size: `limit` (1 to 100), with deprecated `page_size`/`pageSize` that must agree.
pub fn limit(query: &[(String, String)]) -> Result<u64, ApiError> {
    let mut found: Option<u64> = None;
    for name in ["limit", "page_size", "pageSize"] {
        if let Some(v) = parse_u64(query, name)? {
            if found.is_some_and(|f| f != v) {
                return Err(ApiError::invalid_field(
                    "query.limit",
                    "limit, page_size and pageSize must match",
                ));
            }
            found = Some(v);
        }
    }
    let l = found.unwrap_or(DEFAULT_LIMIT);
    if !(1..=100).contains(&l) {
        return Err(ApiError::invalid_field("query.limit", "must be 1 to 100"));
    }
    Ok(l)
}

/// How one operation pages: its `x-pagination`, with the documented default names.
#[derive(Clone, Debug)]
pub struct Model {
    /// `page`, `cursor` or `offset`.
    pub kind: String,
    /// Response array property holding the items.
    pub items: String,
    /// Request parameter of the position: the page number, cursor or offset.
    pub position: String,
    /// Response property that continues: `pages`, `next_cursor` or `next_offset`.
    pub next: String,
}

impl Model {
    /// The model an `x-pagination` value describes; `None` without one.
    pub fn from_extension(ext: Option<&Value>) -> Option<Self> {
        let ext = ext?;
        let name = |key: &str, default: &str| {
            ext.get(key)
                .and_then(Value::as_str)
                .unwrap_or(default)
                .to_owned()
        };
        let kind = name("model", "page");
        let (position, next) = match kind.as_str() {
            "cursor" => (name("cursor", "cursor"), name("next_cursor", "next_cursor")),
            "offset" => (name("offset", "offset"), name("next_offset", "next_offset")),
            _ => (name("page", "page"), name("pages", "pages")),
        };
        Some(Self {
            items: name("items", "items"),
            kind,
            position,
            next,
        })
    }
}

/// One page of `items` in the operation's model, or all of them under `items` without one.
pub fn paginate(
    model: Option<&Model>,
    items: &[Value],
    query: &[(String, String)],
) -> Result<Value, ApiError> {
    let Some(m) = model else {
        return Ok(json!({"ok": true, "items": items}));
    };
    let (page, mut out) = match m.kind.as_str() {
        "cursor" => cursor(items, query, m)?,
        "offset" => offset(items, query, m)?,
        _ => page(items, query, m)?,
    };
    out.insert(m.items.clone(), Value::Array(page.to_vec()));
    out.insert("ok".into(), Value::Bool(true));
    Ok(Value::Object(out))
}

type Page<'a> = (&'a [Value], Map<String, Value>);

/// Page model: `page`, `pageSize`, `total`, and the page count; `page` starts at 1.
fn page<'a>(
    items: &'a [Value],
    query: &[(String, String)],
    m: &Model,
) -> Result<Page<'a>, ApiError> {
    let size = limit(query)?;
    let page = parse_u64(query, &m.position)?.unwrap_or(1);
    if page < 1 {
        return Err(ApiError::invalid_field(
            &format!("query.{}", m.position),
            "must be at least 1",
        ));
    }
    let total = items.len() as u64;
    let start = ((page - 1) * size).min(total) as usize;
    let end = (start + size as usize).min(items.len());
    let mut out = Map::new();
    out.insert(m.position.clone(), json!(page));
    out.insert("pageSize".into(), json!(size));
    out.insert("total".into(), json!(total));
    out.insert(m.next.clone(), json!(total.div_ceil(size)));
    Ok((&items[start..end], out))
}

/// Offset model: the next offset, null when finished.
fn offset<'a>(
    items: &'a [Value],
    query: &[(String, String)],
    m: &Model,
) -> Result<Page<'a>, ApiError> {
    let size = limit(query)?;
    let total = items.len() as u64;
    let start = parse_u64(query, &m.position)?.unwrap_or(0).min(total) as usize;
    let end = (start + size as usize).min(items.len());
    let next = if (end as u64) < total {
        json!(end)
    } else {
        Value::Null
    };
    Ok((&items[start..end], Map::from_iter([(m.next.clone(), next)])))
}

/// Cursor model over items with an `id`: the cursor is the id of the last item returned; the
/// next cursor is null when finished.
fn cursor<'a>(
    items: &'a [Value],
    query: &[(String, String)],
    m: &Model,
) -> Result<Page<'a>, ApiError> {
    let size = limit(query)? as usize;
    let start = match q(query, &m.position) {
        None | Some("") => 0,
        Some(c) => items
            .iter()
            .position(|i| cursor_of(i) == c)
            .map(|p| p + 1)
            .ok_or_else(|| {
                ApiError::invalid_field(&format!("query.{}", m.position), "unknown cursor")
            })?,
    };
    let end = (start + size).min(items.len());
    let page = &items[start..end];
    let next = match page.last() {
        Some(last) if end < items.len() => Value::String(cursor_of(last)),
        _ => Value::Null,
    };
    Ok((page, Map::from_iter([(m.next.clone(), next)])))
}

/// An item's cursor: its `id`, as text.
fn cursor_of(item: &Value) -> String {
    match &item["id"] {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(n: usize) -> Vec<Value> {
        (0..n).map(|i| json!({"id": format!("id-{i}")})).collect()
    }

    fn qs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    }

    fn model(kind: &str) -> Model {
        Model::from_extension(Some(&json!({"model": kind}))).unwrap()
    }

    #[test]
    fn page_model_terminates() {
        let all = items(25);
        let mut p = 1;
        let mut seen = 0;
        loop {
            let query = qs(&[("limit", "10"), ("page", &p.to_string())]);
            let r = paginate(Some(&model("page")), &all, &query).unwrap();
            seen += r["items"].as_array().unwrap().len();
            assert_eq!(r["pages"], 3);
            if r["page"].as_u64() >= r["pages"].as_u64() {
                break;
            }
            p += 1;
        }
        assert_eq!(seen, 25);
        assert!(limit(&qs(&[("limit", "10"), ("pageSize", "20")])).is_err());
        assert_eq!(limit(&qs(&[("page_size", "20")])).unwrap(), 20);
    }

    #[test]
    fn cursor_and_offset_models_terminate() {
        let all = items(7);
        let mut c: Option<String> = None;
        let mut seen = 0;
        loop {
            let mut query = qs(&[("limit", "3")]);
            if let Some(c) = &c {
                query.push(("cursor".into(), c.clone()));
            }
            let r = paginate(Some(&model("cursor")), &all, &query).unwrap();
            seen += r["items"].as_array().unwrap().len();
            match r["next_cursor"].as_str() {
                Some(n) => c = Some(n.to_owned()),
                None => break,
            }
        }
        assert_eq!(seen, 7);
        let offset = model("offset");
        let r = paginate(Some(&offset), &all, &qs(&[("limit", "5"), ("offset", "5")])).unwrap();
        assert_eq!(r["items"].as_array().unwrap().len(), 2);
        assert!(r["next_offset"].is_null());
        let first = paginate(Some(&offset), &all, &qs(&[("limit", "5")])).unwrap();
        assert_eq!(first["next_offset"], 5);
    }

    #[test]
    fn the_extension_names_the_members() {
        let m = Model::from_extension(Some(
            &json!({"model": "cursor", "items": "keys", "cursor": "after", "next_cursor": "more"}),
        ))
        .unwrap();
        let r = paginate(Some(&m), &items(3), &qs(&[("limit", "2")])).unwrap();
        assert_eq!(r["keys"].as_array().unwrap().len(), 2);
        assert_eq!(r["more"], "id-1");
        let all = paginate(None, &items(3), &[]).unwrap();
        assert_eq!(all["items"].as_array().unwrap().len(), 3);
    }
}
