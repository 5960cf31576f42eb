//! The union the generator makes of a schema with `items` but no `type`
//! (`sdk-tests/fixtures/pipeline/typeless_items.yaml`, emitted as below): JSON Schema applies
//! `items` to arrays only, so an array decodes into the typed list and any other value (one
//! object, as a create answers) into `Other`, where a `Vec` failed.

use serde_json::{Value, json};

#[derive(Clone, Debug, PartialEq)]
pub struct Tag {
    pub name: String,
}
oncegen_codec::json_object!(Tag { name });

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(untagged)]
pub enum CreatedData {
    TagList(Vec<Tag>),
    Other(Value),
}
oncegen_codec::untagged_union!(CreatedData { TagList, Other });

#[test]
fn an_array_decodes_typed_and_any_other_value_as_it_came() {
    let list: CreatedData = serde_json::from_str(r#"[{"name": "a"}, {"name": "b"}]"#).unwrap();
    assert_eq!(
        list,
        CreatedData::TagList(vec![Tag { name: "a".into() }, Tag { name: "b".into() }])
    );
    let one = json!({"name": "a", "id": 7});
    let decoded: CreatedData = serde_json::from_str(&one.to_string()).unwrap();
    assert_eq!(decoded, CreatedData::Other(one.clone()));
    assert_eq!(serde_json::to_value(&decoded).unwrap(), one);
    // What the generator made before: a list refuses the object.
    assert!(serde_json::from_value::<Vec<Tag>>(one).is_err());
}
