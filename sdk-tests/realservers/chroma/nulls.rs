//! Issue #19, items 1 and 2: array items that may be null (`items: {type: [string, "null"]}`,
//! `oneOf: [null, $ref]`) are `Option`s, both ways: records added with null documents and
//! metadatas come back from `get` and `query` with those nulls in place.

use chroma_driver::{Context, check, ensure_eq, env, unique};
use sdk::record::{
    AddCollectionRecordsPayload, AddCollectionRecordsPayloadArgs, EmbeddingsPayload,
    GetRequestPayload, Include, QueryRequestPayload,
};
use sdk::types::HashMapModelInnerValue;

const TENANT: &str = "default_tenant";
const DATABASE: &str = "default_database";

#[tokio::main]
async fn main() {
    let client = sdk::Client::new(sdk::Config::new(env("SERVER_URL"))).expect("client");
    let name = unique("nulls");
    let collection = client
        .create_collection(
            sdk::collection::CreateCollectionArgs {
                tenant: TENANT.into(),
                database: DATABASE.into(),
            },
            sdk::collection::CreateCollectionPayload::new(&name),
        )
        .send()
        .await
        .expect("create_collection")
        .into_body();
    let id = collection.id.to_string();
    let mut meta = sdk::types::HashMapModel::new();
    meta.insert("k".to_owned(), HashMapModelInnerValue::Boolean(true));

    let added = add_records_with_null_documents_and_metadatas(&client, &id, &meta);
    check("add_records_with_null_documents_and_metadatas", added).await;
    let got = get_returns_null_items_in_place(&client, &id, &meta);
    check("get_returns_null_items_in_place", got).await;
    let found = query_returns_null_items_in_place(&client, &id);
    check("query_returns_null_items_in_place", found).await;

    let _ = client
        .delete_collection(sdk::collection::DeleteCollectionArgs {
            tenant: TENANT.into(),
            database: DATABASE.into(),
            collection_id: name.to_string(),
        })
        .send()
        .await;
}

/// Adds `with` (a document and the metadata `meta`) and `without` (null for both).
async fn add_records_with_null_documents_and_metadatas(
    client: &sdk::Client,
    id: &str,
    meta: &sdk::types::HashMapModel,
) -> Result<(), String> {
    let add = AddCollectionRecordsPayload::new(AddCollectionRecordsPayloadArgs {
        embeddings: EmbeddingsPayload::NumberListList(vec![vec![1.0, 0.0], vec![0.0, 1.0]]),
        ids: vec!["with".into(), "without".into()],
    })
    .documents(vec![Some("text".to_owned()), None])
    .metadatas(vec![Some(meta.clone()), None]);
    client
        .collection_add(
            sdk::record::CollectionAddArgs {
                tenant: TENANT.into(),
                database: DATABASE.into(),
                collection_id: id.to_string(),
            },
            add,
        )
        .send()
        .await
        .ctx("collection_add")?;
    Ok(())
}

/// `get` answers both records with their nulls in place (and null URIs).
async fn get_returns_null_items_in_place(
    client: &sdk::Client,
    id: &str,
    meta: &sdk::types::HashMapModel,
) -> Result<(), String> {
    let got = client
        .collection_get(
            sdk::record::CollectionGetArgs {
                tenant: TENANT.into(),
                database: DATABASE.into(),
                collection_id: id.to_string(),
            },
            GetRequestPayload::new()
                .ids(vec!["with".to_owned(), "without".into()])
                .include(vec![Include::Documents, Include::Metadatas, Include::Uris]),
        )
        .send()
        .await
        .ctx("collection_get")?
        .into_body();
    let documents: Vec<Option<String>> = got.documents.into_value().ok_or("no documents")?;
    let metadatas: Vec<Option<sdk::types::HashMapModel>> =
        got.metadatas.into_value().ok_or("no metadatas")?;
    let uris: Vec<Option<String>> = got.uris.into_value().ok_or("no uris")?;
    let mut rows: Vec<_> = got
        .ids
        .into_iter()
        .zip(documents)
        .zip(metadatas)
        .map(|((id, d), m)| (id, d, m))
        .collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    ensure_eq(
        "rows",
        rows,
        vec![
            (
                "with".to_owned(),
                Some("text".to_owned()),
                Some(meta.clone()),
            ),
            ("without".to_owned(), None, None),
        ],
    )?;
    ensure_eq("uris", uris, vec![None, None])
}

/// A query near `without` answers both records, `without`'s null document in place.
async fn query_returns_null_items_in_place(client: &sdk::Client, id: &str) -> Result<(), String> {
    let found = client
        .collection_query(
            sdk::record::CollectionQueryArgs {
                tenant: TENANT.into(),
                database: DATABASE.into(),
                collection_id: id.to_string(),
            },
            QueryRequestPayload::new(vec![vec![0.0, 1.0]])
                .include(vec![Include::Documents, Include::Distances]),
        )
        .send()
        .await
        .ctx("collection_query")?
        .into_body();
    let documents: Vec<Vec<Option<String>>> = found.documents.into_value().ok_or("no documents")?;
    let distances: Vec<Vec<Option<f64>>> = found.distances.into_value().ok_or("no distances")?;
    ensure_eq(
        "ids",
        found.ids,
        vec![vec!["without".to_owned(), "with".into()]],
    )?;
    ensure_eq(
        "documents",
        documents,
        vec![vec![None, Some("text".to_owned())]],
    )?;
    ensure_eq(
        "distances per row",
        distances[0].iter().filter(|d| d.is_some()).count(),
        2,
    )
}
