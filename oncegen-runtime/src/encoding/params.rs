//! OpenAPI serialization of structured values: parameters of any `style`/`explode` in path,
//! query, header and cookie, and form bodies with nested objects and lists.
//!
//! Hand-written rather than taken from a crate: `serde_urlencoded` stops at flat maps, and
//! `serde_qs` knows only the bracket form; OpenAPI's table of styles (simple, label, matrix,
//! form, space- and pipe-delimited, deepObject) needs both and more. Values go through
//! `serde_json::Value`, so every generated type works.

use serde_json::{Map, Value};

use crate::error::Error;
use crate::spec::ParamIn;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

/// Characters left unencoded in a path segment or query component: RFC 3986 unreserved.
pub(crate) const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Percent-encodes one path segment or query component (everything but RFC 3986 unreserved).
pub fn encode_component(value: &str) -> String {
    utf8_percent_encode(value, COMPONENT).to_string()
}

/// The OpenAPI `style` of a parameter: each of OpenAPI's table (simple, label, matrix, form,
/// space- and pipe-delimited, deepObject), with `explode`, for a value of any shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamStyle {
    /// `a,b` / `k,v` (path and header default).
    Simple,
    /// `.a.b` (path).
    Label,
    /// `;name=a` (path).
    Matrix,
    /// `name=a&name=b` or `name=a,b` (query and cookie default).
    Form,
    /// `name=a%20b` (query arrays).
    SpaceDelimited,
    /// `name=a|b` (query arrays).
    PipeDelimited,
    /// `name[k]=v` (query objects).
    DeepObject,
}

/// One rendered parameter: `(name, value)` pairs for the query string (names raw, values
/// percent-encoded), or one pair holding the text of a path segment, header or cookie value.
pub(crate) type Pairs = Vec<(String, String)>;

/// Serializes `value` as parameter `name`. Query values come percent-encoded (names raw: the
/// query renderer encodes them); a path segment comes encoded except for the style's own
/// separators; header and cookie values come as text. `null` serializes to nothing.
pub(crate) fn serialize(
    name: &str,
    value: &Value,
    location: ParamIn,
    style: ParamStyle,
    explode: bool,
) -> Result<Pairs, Error> {
    let param = Param {
        name,
        location,
        style,
        explode,
    };
    Ok(match value {
        Value::Null => Vec::new(),
        Value::Array(items) => param.array(items, value),
        Value::Object(map) => param.object(map, value),
        scalar_value => param.scalar(scalar_value),
    })
}

/// One parameter being serialized: its name, where it travels and its style.
struct Param<'a> {
    name: &'a str,
    location: ParamIn,
    style: ParamStyle,
    explode: bool,
}

impl Param<'_> {
    /// `text` encoded for the location: percent-encoded in a query or path, as it is elsewhere.
    fn enc(&self, text: &str) -> String {
        match self.location {
            ParamIn::Query | ParamIn::Path => encode_component(text),
            ParamIn::Header | ParamIn::Cookie => text.to_owned(),
        }
    }

    /// The parameter as one pair carrying `text`.
    fn one(&self, text: String) -> Pairs {
        vec![(self.name.to_owned(), text)]
    }

    /// `deepObject`: `name[key]=value` for every member, however deep.
    fn deep(&self, value: &Value) -> Pairs {
        let mut out = Vec::new();
        brackets(self.name, value, &mut out);
        out
    }

    /// A list, as the style lays out its items.
    fn array(&self, items: &[Value], value: &Value) -> Pairs {
        let texts: Vec<String> = items.iter().map(|v| self.enc(&scalar(v))).collect();
        let name_enc = self.enc(self.name);
        match (self.style, self.explode) {
            (ParamStyle::Simple, _) => self.one(texts.join(",")),
            (ParamStyle::Label, false) => self.one(format!(".{}", texts.join(","))),
            (ParamStyle::Label, true) => self.one(format!(".{}", texts.join("."))),
            (ParamStyle::Matrix, false) => self.one(format!(";{name_enc}={}", texts.join(","))),
            (ParamStyle::Matrix, true) => self.one(
                texts
                    .iter()
                    .map(|t| format!(";{name_enc}={t}"))
                    .collect::<String>(),
            ),
            (ParamStyle::Form, true) => texts
                .into_iter()
                .map(|t| (self.name.to_owned(), t))
                .collect(),
            (ParamStyle::Form, false) => self.one(texts.join(",")),
            (ParamStyle::SpaceDelimited, _) => self.one(texts.join("%20")),
            (ParamStyle::PipeDelimited, _) => self.one(texts.join("|")),
            (ParamStyle::DeepObject, _) => self.deep(value),
        }
    }

    /// An object, as the style lays out its members (`null` members left out).
    fn object(&self, map: &Map<String, Value>, value: &Value) -> Pairs {
        let members: Vec<(String, String)> = map
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (self.enc(k), self.enc(&scalar(v))))
            .collect();
        let flat = |kv: &str, sep: &str| {
            members
                .iter()
                .map(|(k, v)| format!("{k}{kv}{v}"))
                .collect::<Vec<_>>()
                .join(sep)
        };
        let name_enc = self.enc(self.name);
        match (self.style, self.explode) {
            (ParamStyle::Simple, false) => self.one(flat(",", ",")),
            (ParamStyle::Simple, true) => self.one(flat("=", ",")),
            (ParamStyle::Label, false) => self.one(format!(".{}", flat(",", ","))),
            (ParamStyle::Label, true) => self.one(format!(".{}", flat("=", "."))),
            (ParamStyle::Matrix, false) => self.one(format!(";{name_enc}={}", flat(",", ","))),
            (ParamStyle::Matrix, true) => self.one(format!(";{}", flat("=", ";"))),
            (ParamStyle::Form, true) if self.location == ParamIn::Cookie => {
                self.one(flat("=", "; "))
            }
            (ParamStyle::Form, true) => map
                .iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), self.enc(&scalar(v))))
                .collect(),
            (ParamStyle::Form | ParamStyle::SpaceDelimited | ParamStyle::PipeDelimited, _) => {
                self.one(flat(",", ","))
            }
            (ParamStyle::DeepObject, _) => self.deep(value),
        }
    }

    /// A string, number or boolean: label and matrix styles prefix it.
    fn scalar(&self, value: &Value) -> Pairs {
        let text = self.enc(&scalar(value));
        match self.style {
            ParamStyle::Label => self.one(format!(".{text}")),
            ParamStyle::Matrix => self.one(format!(";{}={text}", self.enc(self.name))),
            _ => self.one(text),
        }
    }
}

/// Serializes a form body (`application/x-www-form-urlencoded`): each member of the top-level
/// object is a field; lists repeat the field, nested objects and lists of objects use brackets
/// (`a[b]=c`, `a[0][b]=c`), the common reading of OpenAPI's `deepObject` for bodies.
pub(crate) fn form(body: &Value) -> Result<String, Error> {
    let Value::Object(map) = body else {
        return Err(Error::validation(
            "a form body must serialize as an object of fields",
        ));
    };
    let mut pairs = Vec::new();
    for (key, value) in map {
        match value {
            Value::Null => {}
            Value::Array(items) if items.iter().all(is_scalar) => {
                for item in items {
                    pairs.push((key.clone(), encode_component(&scalar(item))));
                }
            }
            Value::Array(_) | Value::Object(_) => brackets(key, value, &mut pairs),
            v => pairs.push((key.clone(), encode_component(&scalar(v)))),
        }
    }
    Ok(pairs
        .into_iter()
        .map(|(k, v)| format!("{}={v}", encode_component(&k)))
        .collect::<Vec<_>>()
        .join("&"))
}

/// `prefix[key]=value` pairs (names raw, values encoded) for every scalar inside `value`; lists
/// use indices.
fn brackets(prefix: &str, value: &Value, out: &mut Pairs) {
    match value {
        Value::Null => {}
        Value::Object(map) => {
            for (k, v) in map {
                brackets(&format!("{prefix}[{k}]"), v, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                brackets(&format!("{prefix}[{i}]"), v, out);
            }
        }
        v => out.push((prefix.to_owned(), encode_component(&scalar(v)))),
    }
}

fn is_scalar(v: &Value) -> bool {
    !matches!(v, Value::Array(_) | Value::Object(_))
}

/// The text of a value inside a parameter: strings as they are, nested structures as JSON.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn q(value: Value, style: ParamStyle, explode: bool) -> String {
        serialize("id", &value, ParamIn::Query, style, explode)
            .unwrap()
            .into_iter()
            .map(|(k, v)| format!("{}={v}", encode_component(&k)))
            .collect::<Vec<_>>()
            .join("&")
    }

    fn text(value: Value, location: ParamIn, style: ParamStyle, explode: bool) -> String {
        let pairs = serialize("id", &value, location, style, explode).unwrap();
        assert_eq!(pairs.len(), 1, "{pairs:?}");
        pairs[0].1.clone()
    }

    #[test]
    fn the_openapi_style_table() {
        use ParamIn::{Header, Path};
        use ParamStyle::*;
        let (prim, arr, obj) = (json!(5), json!([3, 4, 5]), json!({"R": 100, "G": 200}));
        assert_eq!(text(prim.clone(), Path, Simple, false), "5");
        assert_eq!(text(arr.clone(), Path, Simple, false), "3,4,5");
        assert_eq!(text(obj.clone(), Path, Simple, false), "R,100,G,200");
        assert_eq!(text(obj.clone(), Header, Simple, true), "R=100,G=200");
        assert_eq!(text(prim.clone(), Path, Label, false), ".5");
        assert_eq!(text(arr.clone(), Path, Label, true), ".3.4.5");
        assert_eq!(text(obj.clone(), Path, Label, true), ".R=100.G=200");
        assert_eq!(text(prim.clone(), Path, Matrix, false), ";id=5");
        assert_eq!(text(arr.clone(), Path, Matrix, true), ";id=3;id=4;id=5");
        assert_eq!(text(obj.clone(), Path, Matrix, false), ";id=R,100,G,200");
        assert_eq!(text(obj.clone(), Path, Matrix, true), ";R=100;G=200");
        assert_eq!(q(prim, Form, true), "id=5");
        assert_eq!(q(arr.clone(), Form, true), "id=3&id=4&id=5");
        assert_eq!(q(arr.clone(), Form, false), "id=3,4,5");
        assert_eq!(q(obj.clone(), Form, true), "R=100&G=200");
        assert_eq!(q(obj.clone(), Form, false), "id=R,100,G,200");
        assert_eq!(q(arr.clone(), SpaceDelimited, false), "id=3%204%205");
        assert_eq!(q(arr, PipeDelimited, false), "id=3|4|5");
        assert_eq!(q(obj, DeepObject, true), "id%5BR%5D=100&id%5BG%5D=200");
        assert_eq!(
            q(json!({"created": {"gte": 1}, "n": null}), DeepObject, true),
            "id%5Bcreated%5D%5Bgte%5D=1"
        );
        assert_eq!(q(Value::Null, Form, true), "");
    }

    #[test]
    fn values_are_encoded_where_they_travel() {
        assert_eq!(
            q(json!(["a b", "c&d"]), ParamStyle::Form, true),
            "id=a%20b&id=c%26d"
        );
        assert_eq!(
            text(json!("a b"), ParamIn::Header, ParamStyle::Simple, false),
            "a b"
        );
        assert_eq!(
            text(
                json!({"a": 1, "b": "x"}),
                ParamIn::Cookie,
                ParamStyle::Form,
                true
            ),
            "a=1; b=x"
        );
    }

    #[test]
    fn form_bodies_nest_with_brackets() {
        let body = json!({
            "name": "a b",
            "tags": ["x", "y"],
            "meta": {"k": "v", "deep": {"z": 1}},
            "items": [{"price": "p1", "qty": 2}],
            "skip": null
        });
        assert_eq!(
            form(&body).unwrap(),
            "name=a%20b&tags=x&tags=y&meta%5Bk%5D=v&meta%5Bdeep%5D%5Bz%5D=1&items%5B0%5D%5Bprice%5D=p1&items%5B0%5D%5Bqty%5D=2"
        );
        assert!(form(&json!([1])).is_err());
    }
}
