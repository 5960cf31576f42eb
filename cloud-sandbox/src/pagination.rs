//! The three pagination models with their exact continuation rules: page (`page`, `pageSize`,
//! `total`, `pages`, `items`), cursor (`next_cursor`, null at the end) and offset (`next_offset`,
//! null at the end). Also the `limit` / `page_size` / `pageSize` alias rule.

use serde_json::{Value, json};

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

/// Page model: `{ok, page, pageSize, total, pages, items}`; `page` starts at 1.
pub fn page(items: &[Value], query: &[(String, String)]) -> Result<Value, ApiError> {
    let size = limit(query)?;
    let page = parse_u64(query, "page")?.unwrap_or(1);
    if page < 1 {
        return Err(ApiError::invalid_field("query.page", "must be at least 1"));
    }
    let total = items.len() as u64;
    let pages = total.div_ceil(size);
    let start = ((page - 1) * size).min(total) as usize;
    let end = (start + size as usize).min(items.len());
    Ok(
        json!({"ok": true, "page": page, "pageSize": size, "total": total, "pages": pages, "items": &items[start..end]}),
    )
}

/// Offset model: `{ok, items, next_offset}`; `next_offset` is null when finished.
pub fn offset(items: &[Value], query: &[(String, String)]) -> Result<Value, ApiError> {
    let size = limit(query)?;
    let off = parse_u64(query, "offset")?.unwrap_or(0);
    let total = items.len() as u64;
    let start = off.min(total) as usize;
    let end = (start + size as usize).min(items.len());
    let next = if (end as u64) < total {
        json!(end)
    } else {
        Value::Null
    };
    Ok(json!({"ok": true, "items": &items[start..end], "next_offset": next}))
}

/// Cursor model over items with an `id`: the cursor is the id of the last item returned;
/// `next_cursor` is null when finished.
pub fn cursor(items: &[Value], query: &[(String, String)]) -> Result<Value, ApiError> {
    let size = limit(query)? as usize;
    let start = match q(query, "cursor") {
        None | Some("") => 0,
        Some(c) => items
            .iter()
            .position(|i| i["id"].as_str() == Some(c))
            .map(|p| p + 1)
            .ok_or_else(|| ApiError::invalid_field("query.cursor", "unknown cursor"))?,
    };
    let end = (start + size).min(items.len());
    let page = &items[start..end];
    let next = if end < items.len() {
        page.last().map(|i| i["id"].clone()).unwrap_or(Value::Null)
    } else {
        Value::Null
    };
    Ok(json!({"ok": true, "items": page, "next_cursor": next}))
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

    #[test]
    fn page_model_terminates() {
        let all = items(25);
        let mut p = 1;
        let mut seen = 0;
        loop {
            let r = page(&all, &qs(&[("limit", "10"), ("page", &p.to_string())])).unwrap();
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
            let r = cursor(&all, &query).unwrap();
            seen += r["items"].as_array().unwrap().len();
            match r["next_cursor"].as_str() {
                Some(n) => c = Some(n.to_owned()),
                None => break,
            }
        }
        assert_eq!(seen, 7);
        let r = offset(&all, &qs(&[("limit", "5"), ("offset", "5")])).unwrap();
        assert_eq!(r["items"].as_array().unwrap().len(), 2);
        assert!(r["next_offset"].is_null());
        assert_eq!(
            offset(&all, &qs(&[("limit", "5")])).unwrap()["next_offset"],
            5
        );
    }
}
