//! A read tool's `jq` argument: a jq filter (run by jaq, as the CLI's `--jq`) applied to the
//! answer, so an agent receives only what it asks for. Reads only: a write's answer is its
//! outcome, kept whole for the journal and a replay.

use crate::{Failure, Sent, args};
use oncegen_cli::output::Jq;
use serde_json::{Map, Value};

/// A compiled filter and the text it came from (named in its errors).
pub(crate) struct Filter {
    code: String,
    jq: Jq,
}

impl Filter {
    /// Takes `jq` out of a read's `arguments`; an error names a filter that does not compile.
    pub(crate) fn take(arguments: &mut Map<String, Value>) -> Result<Option<Filter>, Failure> {
        match arguments.remove(args::JQ) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(code)) => match Jq::compile(&code) {
                Ok(jq) => Ok(Some(Filter { code, jq })),
                Err(why) => Err(Failure::invalid(format!("`jq` filter `{code}`: {why}"))),
            },
            Some(_) => Err(Failure::invalid("`jq` must be a string: a jq filter")),
        }
    }

    /// The answer as the filter selects it: its one output, or the list of its outputs.
    pub(crate) fn apply(&self, sent: Sent) -> Result<Sent, Failure> {
        let code = &self.code;
        let mut outputs = self
            .jq
            .run(&sent.value)
            .map_err(|why| Failure::invalid(format!("`jq` filter `{code}` failed: {why}")))?;
        let value = match outputs.len() {
            1 => outputs.remove(0),
            _ => Value::Array(outputs),
        };
        Ok(Sent { value, ..sent })
    }
}

#[cfg(test)]
mod tests {
    use super::Filter;
    use crate::Sent;
    use serde_json::{Map, Value, json};

    fn filter(code: Value) -> Result<Option<Filter>, String> {
        let mut arguments = Map::from_iter([("jq".to_owned(), code), ("id".into(), json!(1))]);
        let taken = Filter::take(&mut arguments).map_err(|f| f.to_json().to_string());
        assert!(
            !arguments.contains_key("jq"),
            "the filter is not sent to the API"
        );
        taken
    }

    #[test]
    fn a_filter_selects_and_a_bad_one_is_named() {
        let answer = json!({"items": [{"id": "a", "n": 1}, {"id": "b", "n": 2}], "next": null});
        let sent = || Sent {
            value: answer.clone(),
            idempotency_key: None,
        };
        let ids = filter(json!("[.items[].id]")).unwrap().unwrap();
        assert_eq!(ids.apply(sent()).unwrap().value, json!(["a", "b"]));
        let each = filter(json!(".items[] | .n")).unwrap().unwrap();
        assert_eq!(
            each.apply(sent()).unwrap().value,
            json!([1, 2]),
            "outputs become a list"
        );
        assert!(filter(Value::Null).unwrap().is_none());
        let bad = filter(json!(".items[")).err().expect("refused");
        assert!(bad.contains("`.items[`"), "{bad}");
        assert!(filter(json!(3)).is_err());
    }
}
