//! Chroma through the generated SDK: what works with the generator as it is (JSON bodies, path
//! and query parameters, nested objects, maps and unions). Every call goes to the real server.

use chroma_driver::{Context, check, ensure, ensure_eq, env, unique};
use sdk::record::{
    AddCollectionRecordsPayload, DeleteCollectionRecordsPayload, GetRequestPayload, Include,
    QueryRequestPayload,
};
use sdk::types::HashMapModelInnerValue;

const TENANT: &str = "default_tenant";

#[tokio::main]
async fn main() {
    let client = sdk::Client::new(sdk::Config::new(env("SERVER_URL"))).expect("client");
    let database = unique("db");
    check("heartbeat", heartbeat(&client)).await;
    check("pre_flight_checks", pre_flight_checks(&client)).await;
    check("get_user_identity", get_user_identity(&client)).await;
    let created = create_and_get_database(&client, &database);
    check("create_and_get_database", created).await;
    let flaw = list_databases_reports_the_documents_flaw(&client);
    check("list_databases_reports_the_documents_flaw", flaw).await;
    let collection_name = unique("docs");
    let collection_id = create_collection(&client, &database, &collection_name).await;
    let got = get_collection_by_name_and_id(&client, &database, &collection_name, &collection_id);
    check("get_collection_by_name_and_id", got).await;
    let records = add_count_get_query_delete_records(&client, &database, &collection_id);
    check("add_count_get_query_delete_records", records).await;
    let ended = update_list_count_and_delete_collection(&client, &database, &collection_id);
    check("update_list_count_and_delete_collection", ended).await;
}

async fn heartbeat(client: &sdk::Client) -> Result<(), String> {
    let beat = client
        .heartbeat()
        .send()
        .await
        .ctx("heartbeat")?
        .into_body();
    ensure(beat.nanosecond_heartbeat > 0, || "heartbeat is 0".into())
}

async fn pre_flight_checks(client: &sdk::Client) -> Result<(), String> {
    let checks = client
        .pre_flight_checks()
        .send()
        .await
        .ctx("pre_flight_checks")?
        .into_body();
    ensure(checks.max_batch_size > 0, || format!("{checks:?}"))
}

async fn get_user_identity(client: &sdk::Client) -> Result<(), String> {
    let me = client
        .get_user_identity()
        .send()
        .await
        .ctx("get_user_identity")?
        .into_body();
    ensure_eq("tenant", me.tenant.as_str(), TENANT)
}

async fn create_and_get_database(client: &sdk::Client, database: &str) -> Result<(), String> {
    client
        .create_database(TENANT, sdk::database::CreateDatabasePayload::new(database))
        .send()
        .await
        .ctx("create_database")?;
    let db = client
        .get_database(sdk::database::GetDatabaseArgs {
            tenant: TENANT.into(),
            database: database.to_string(),
        })
        .send()
        .await
        .ctx("get_database")?
        .into_body();
    ensure_eq("name", db.name.as_str(), database)?;
    ensure_eq("tenant", db.tenant.as_str(), TENANT)
}

/// A flaw of Chroma's document: `list_databases` answers with `#/components/schemas/Vec`,
/// which its generator made an array of *collections* (two Rust `Vec<_>`s share the name), so
/// the real list of databases does not decode. The SDK must say so, naming the field.
async fn list_databases_reports_the_documents_flaw(client: &sdk::Client) -> Result<(), String> {
    match client
        .list_databases(TENANT)
        .limit(5)
        .offset(0)
        .send()
        .await
    {
        Ok(listed) => Err(format!(
            "the document was fixed? databases decoded as collections: {:?}",
            listed.body()
        )),
        Err(e) => ensure(
            e.to_string().contains("missing field `configuration_json`"),
            || format!("unexpected error: {e}"),
        ),
    }
}

/// Creates the collection `name` with metadata in `database`, checks it keeps them
/// (`create_collection_keeps_metadata`) and returns its id; every later check needs it, so
/// failing to create it ends the program.
async fn create_collection(client: &sdk::Client, database: &str, name: &str) -> String {
    let mut metadata = sdk::types::HashMapModel::new();
    metadata.insert(
        "topic".to_owned(),
        HashMapModelInnerValue::String("news".into()),
    );
    metadata.insert("rank".to_owned(), HashMapModelInnerValue::Integer(3));
    let created = client
        .create_collection(
            sdk::collection::CreateCollectionArgs {
                tenant: TENANT.into(),
                database: database.to_string(),
            },
            sdk::collection::CreateCollectionPayload::new(name).metadata(metadata.clone()),
        )
        .send()
        .await;
    let collection_id = match &created {
        Ok(c) => c.body().id.to_string(),
        Err(e) => panic!("create_collection: {e} ({e:?})"),
    };
    check("create_collection_keeps_metadata", async {
        let c = created.ctx("create_collection")?.into_body();
        ensure_eq("name", c.name.as_str(), name)?;
        ensure_eq("metadata", c.metadata.as_value(), Some(&metadata))
    })
    .await;
    collection_id
}

async fn get_collection_by_name_and_id(
    client: &sdk::Client,
    database: &str,
    name: &str,
    collection_id: &str,
) -> Result<(), String> {
    let by_name = client
        .get_collection(sdk::collection::GetCollectionArgs {
            tenant: TENANT.into(),
            database: database.to_string(),
            collection_id: name.to_string(),
        })
        .send()
        .await
        .ctx("get_collection")?
        .into_body();
    ensure_eq("id", by_name.id.to_string(), collection_id.to_owned())?;
    let by_id = client
        .get_collection_by_id(sdk::collection::GetCollectionByIdArgs {
            tenant: TENANT.into(),
            database: database.to_string(),
            collection_id: collection_id.to_string(),
        })
        .send()
        .await
        .ctx("get_collection_by_id")?
        .into_body();
    ensure_eq("name", by_id.name.as_str(), name)
}

/// Records added, counted, read back, queried, one deleted and counted again.
async fn add_count_get_query_delete_records(
    client: &sdk::Client,
    database: &str,
    collection_id: &str,
) -> Result<(), String> {
    add_three_records_and_count_them(client, database, collection_id).await?;
    get_two_records_by_id(client, database, collection_id).await?;
    query_the_nearest_record(client, database, collection_id).await?;
    delete_one_record_and_count_the_rest(client, database, collection_id).await
}

/// Adds the records `a`, `b` and `c`; the collection then counts 3.
async fn add_three_records_and_count_them(
    client: &sdk::Client,
    database: &str,
    collection_id: &str,
) -> Result<(), String> {
    // Built from JSON, so this binary compiles whether `documents` holds `String`s or, as
    // issue #19 asks, `Option<String>`s (the `nulls` binary sets those through setters).
    let add: AddCollectionRecordsPayload = serde_json::from_value(serde_json::json!({
        "ids": ["a", "b", "c"],
        "embeddings": [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]],
        "documents": ["alpha", "beta", "gamma"],
    }))
    .ctx("payload")?;
    client
        .collection_add(
            sdk::record::CollectionAddArgs {
                tenant: TENANT.into(),
                database: database.to_string(),
                collection_id: collection_id.to_string(),
            },
            add,
        )
        .send()
        .await
        .ctx("collection_add")?;
    ensure_eq("count", count(client, database, collection_id).await?, 3)
}

/// `get` of `b` and `c` answers those two, with their documents.
async fn get_two_records_by_id(
    client: &sdk::Client,
    database: &str,
    collection_id: &str,
) -> Result<(), String> {
    let got = client
        .collection_get(
            sdk::record::CollectionGetArgs {
                tenant: TENANT.into(),
                database: database.to_string(),
                collection_id: collection_id.to_string(),
            },
            GetRequestPayload::new()
                .ids(vec!["b".to_owned(), "c".into()])
                .include(vec![Include::Documents]),
        )
        .send()
        .await
        .ctx("collection_get")?
        .into_body();
    let mut ids = got.ids.clone();
    ids.sort();
    ensure_eq("ids", ids, vec!["b".to_owned(), "c".into()])?;
    let documents = got.documents.as_value().ok_or("no documents")?;
    ensure_eq("documents", documents.len(), 2)
}

/// A query by an embedding near `a`'s answers `a` first.
async fn query_the_nearest_record(
    client: &sdk::Client,
    database: &str,
    collection_id: &str,
) -> Result<(), String> {
    let nearest = client
        .collection_query(
            sdk::record::CollectionQueryArgs {
                tenant: TENANT.into(),
                database: database.to_string(),
                collection_id: collection_id.to_string(),
            },
            QueryRequestPayload::new(vec![vec![1.0, 0.1]])
                .include(vec![Include::Documents, Include::Distances]),
        )
        .limit(2)
        .send()
        .await
        .ctx("collection_query")?
        .into_body();
    ensure_eq(
        "query ids",
        nearest
            .ids
            .first()
            .and_then(|r| r.first())
            .map(String::as_str),
        Some("a"),
    )
}

/// Deletes `c`; the collection then counts 2.
async fn delete_one_record_and_count_the_rest(
    client: &sdk::Client,
    database: &str,
    collection_id: &str,
) -> Result<(), String> {
    client
        .collection_delete(
            sdk::record::CollectionDeleteArgs {
                tenant: TENANT.into(),
                database: database.to_string(),
                collection_id: collection_id.to_string(),
            },
            DeleteCollectionRecordsPayload::new().ids(vec!["c".to_owned()]),
        )
        .send()
        .await
        .ctx("collection_delete")?;
    let after = count(client, database, collection_id).await?;
    ensure_eq("count after delete", after, 2)
}

/// How many records the collection holds (`collection_count`).
async fn count(client: &sdk::Client, database: &str, collection_id: &str) -> Result<u32, String> {
    let count = client
        .collection_count(sdk::record::CollectionCountArgs {
            tenant: TENANT.into(),
            database: database.to_string(),
            collection_id: collection_id.to_string(),
        })
        .send()
        .await
        .ctx("collection_count")?;
    Ok(count.into_body())
}

/// The collection renamed, listed under its new name (alone: nothing past offset 1), counted,
/// then it and the database deleted.
async fn update_list_count_and_delete_collection(
    client: &sdk::Client,
    database: &str,
    collection_id: &str,
) -> Result<(), String> {
    let renamed = unique("renamed");
    client
        .update_collection(
            sdk::collection::UpdateCollectionArgs {
                tenant: TENANT.into(),
                database: database.to_string(),
                collection_id: collection_id.to_string(),
            },
            sdk::collection::UpdateCollectionPayload::new().new_name(renamed.as_str()),
        )
        .send()
        .await
        .ctx("update_collection")?;
    list_the_one_collection(client, database, &renamed).await?;
    count_and_delete_the_collection_and_database(client, database, &renamed).await
}

/// `list_collections` shows `renamed`, and nothing past offset 1.
async fn list_the_one_collection(
    client: &sdk::Client,
    database: &str,
    renamed: &str,
) -> Result<(), String> {
    let listed = client
        .list_collections(sdk::collection::ListCollectionsArgs {
            tenant: TENANT.into(),
            database: database.to_string(),
        })
        .limit(10)
        .offset(0)
        .send()
        .await
        .ctx("list_collections")?
        .into_body();
    ensure(listed.iter().any(|c| c.name == renamed), || {
        format!("{renamed} not listed")
    })?;
    let past_the_end = client
        .list_collections(sdk::collection::ListCollectionsArgs {
            tenant: TENANT.into(),
            database: database.to_string(),
        })
        .limit(10)
        .offset(1)
        .send()
        .await
        .ctx("list_collections offset=1")?
        .into_body();
    ensure_eq("collections past offset 1", past_the_end.len(), 0)
}

/// The database counts one collection; then the collection (by its name `renamed`) and the
/// database are deleted.
async fn count_and_delete_the_collection_and_database(
    client: &sdk::Client,
    database: &str,
    renamed: &str,
) -> Result<(), String> {
    let count = client
        .count_collections(sdk::collection::CountCollectionsArgs {
            tenant: TENANT.into(),
            database: database.to_string(),
        })
        .send()
        .await
        .ctx("count_collections")?
        .into_body();
    ensure_eq("collections", count, 1)?;
    client
        .delete_collection(sdk::collection::DeleteCollectionArgs {
            tenant: TENANT.into(),
            database: database.to_string(),
            collection_id: renamed.to_string(),
        })
        .send()
        .await
        .ctx("delete_collection")?;
    client
        .delete_database(sdk::database::DeleteDatabaseArgs {
            tenant: TENANT.into(),
            database: database.to_string(),
        })
        .send()
        .await
        .ctx("delete_database")?;
    Ok(())
}
