//! Synthetic OpenAPI 3.1 documents of any number of operations, shaped like the real contract:
//! resources with list (page-model `x-pagination`), create (request body with nested objects,
//! enums, `uuid`, `date-time` and `decimal` fields, `Idempotency-Key`), get, update and delete
//! (path parameters), shared error responses, one tag (API area) per ten resources.
//!
//! Made at run time by `bench-report`; never checked in.

use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

/// Operations per synthetic resource (list, create, get, update, delete).
pub const OPS_PER_RESOURCE: usize = 5;

fn error_responses() -> Value {
    json!({
        "400": { "$ref": "#/components/responses/BadRequest" },
        "404": { "$ref": "#/components/responses/NotFound" },
        "429": { "$ref": "#/components/responses/TooManyRequests" },
        "5XX": { "$ref": "#/components/responses/ServerError" }
    })
}

fn with_errors(success: (&str, Value)) -> Value {
    let mut responses = error_responses();
    responses
        .as_object_mut()
        .expect("object")
        .insert(success.0.to_owned(), success.1);
    responses
}

fn json_body(schema: &str, description: &str) -> Value {
    json!({
        "description": description,
        "headers": { "x-request-id": { "$ref": "#/components/headers/XRequestId" } },
        "content": { "application/json": { "schema": { "$ref": format!("#/components/schemas/{schema}") } } }
    })
}

/// The schemas of resource `name` (number `index`): its status, limits, network, create and
/// update requests, the resource and its page.
fn schemas_for(name: &str, index: usize) -> Vec<(String, Value)> {
    vec![
        (format!("{name}Status"), status_schema(name)),
        (format!("{name}Limits"), limits_schema()),
        (format!("{name}Network"), network_schema(name)),
        (format!("Create{name}Request"), create_schema(name, index)),
        (format!("Update{name}Request"), update_schema(name)),
        (name.to_owned(), resource_schema(name)),
        (format!("{name}Page"), page_schema(name)),
    ]
}

/// A resource's lifecycle states.
fn status_schema(name: &str) -> Value {
    json!({ "type": "string", "enum": ["pending", "active", "suspended", "deleting", "failed"],
            "description": format!("Lifecycle state of a {name}.") })
}

/// A resource's spending limits.
fn limits_schema() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["max_monthly_spend", "currency"],
        "properties": {
            "max_monthly_spend": { "type": "string", "format": "decimal", "pattern": "^[0-9]+(\\.[0-9]{1,2})?$",
                                    "description": "Spending ceiling." },
            "currency": { "type": "string", "enum": ["EUR", "USD", "GBP"] },
            "alert_at": { "type": ["string", "null"], "format": "decimal" }
        }
    })
}

/// A resource's network, with its limits.
fn network_schema(name: &str) -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["vpc_id"],
        "properties": {
            "vpc_id": { "type": "string", "format": "uuid" },
            "ipv6": { "type": "boolean", "default": false },
            "ports": { "type": "array", "items": { "type": "integer", "minimum": 1, "maximum": 65535 } },
            "limits": { "$ref": format!("#/components/schemas/{name}Limits") }
        }
    })
}

/// The request that creates a resource.
fn create_schema(name: &str, index: usize) -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["name", "region", "plan", "network"],
        "properties": {
            "name": { "type": "string", "minLength": 1, "maxLength": 63, "description": "Display name." },
            "region": { "type": "string", "enum": ["eu-west-1", "eu-central-1", "us-east-2", "ap-south-1"] },
            "plan": { "type": "string", "enum": ["small", "medium", "large", "xlarge"] },
            "project_id": { "type": "string", "format": "uuid" },
            "starts_at": { "type": "string", "format": "date-time" },
            "price_cap": { "type": "string", "format": "decimal" },
            "labels": { "type": "object", "additionalProperties": { "type": "string" } },
            "network": { "$ref": format!("#/components/schemas/{name}Network") },
            "replicas": { "type": "integer", "format": "int32", "minimum": 1, "maximum": 16 },
            "note": { "type": ["string", "null"], "description": format!("Free text for resource {index}.") }
        }
    })
}

/// The request that updates a resource.
fn update_schema(name: &str) -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "name": { "type": "string" },
            "plan": { "type": "string", "enum": ["small", "medium", "large", "xlarge"] },
            "limits": { "$ref": format!("#/components/schemas/{name}Limits") },
            "note": { "type": ["string", "null"] }
        }
    })
}

/// The resource.
fn resource_schema(name: &str) -> Value {
    json!({
        "type": "object",
        "required": ["id", "name", "status", "created_at", "network"],
        "properties": {
            "id": { "type": "string", "format": "uuid" },
            "name": { "type": "string" },
            "status": { "$ref": format!("#/components/schemas/{name}Status") },
            "region": { "type": "string" },
            "plan": { "type": "string" },
            "created_at": { "type": "string", "format": "date-time" },
            "updated_at": { "type": ["string", "null"], "format": "date-time" },
            "monthly_price": { "type": "string", "format": "decimal" },
            "network": { "$ref": format!("#/components/schemas/{name}Network") },
            "labels": { "type": "object", "additionalProperties": { "type": "string" } }
        }
    })
}

/// A page of resources.
fn page_schema(name: &str) -> Value {
    json!({
        "type": "object",
        "required": ["items", "page", "pages"],
        "properties": {
            "items": { "type": "array", "items": { "$ref": format!("#/components/schemas/{name}") } },
            "page": { "type": "integer", "minimum": 1 },
            "pages": { "type": "integer", "minimum": 0 },
            "total": { "type": "integer" }
        }
    })
}

/// An OpenAPI 3.1 document (JSON) with `operations` operations, rounded up to a multiple of
/// [`OPS_PER_RESOURCE`].
pub fn document(operations: usize) -> Value {
    let resources = operations.div_ceil(OPS_PER_RESOURCE);
    let mut paths = Map::new();
    let mut schemas = Map::new();
    let mut tags = Vec::new();
    for r in 0..resources {
        let name = format!("Widget{r}");
        let area = format!("area{}", r / 10);
        if r % 10 == 0 {
            tags.push(json!({ "name": area, "description": format!("API area {}.", r / 10) }));
        }
        let base = format!("/v1/{area}/widgets{r}");
        paths.insert(base.clone(), collection_path(&name, &area));
        paths.insert(format!("{base}/{{widget_id}}"), item_path(&name, &area));
        for (schema_name, schema) in schemas_for(&name, r) {
            schemas.insert(schema_name, schema);
        }
    }
    schemas.insert("Error".into(), error_schema());
    let error = |description: &str| {
        json!({ "description": description, "headers": { "x-request-id": { "$ref": "#/components/headers/XRequestId" } },
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } })
    };
    json!({
        "openapi": "3.1.0",
        "info": { "title": "Synthetic API", "version": "2026-01-01.1" },
        "servers": [{ "url": "https://api.example.com" }],
        "tags": tags,
        "security": [{ "BearerAuth": [] }],
        "paths": paths,
        "components": {
            "securitySchemes": { "BearerAuth": { "type": "http", "scheme": "bearer" } },
            "headers": { "XRequestId": { "description": "Request id.", "schema": { "type": "string" } } },
            "parameters": { "IdempotencyKey": { "name": "Idempotency-Key", "in": "header", "required": false,
                                                "schema": { "type": "string", "maxLength": 255 } } },
            "responses": {
                "BadRequest": error("Invalid request."),
                "NotFound": error("Not found."),
                "TooManyRequests": error("Rate limited."),
                "ServerError": error("Server error.")
            },
            "schemas": schemas
        }
    })
}

/// The security requirements of a resource's reads and of its writes.
fn security(area: &str) -> (Value, Value) {
    (
        json!([{ "BearerAuth": [format!("{area}.read")] }]),
        json!([{ "BearerAuth": [format!("{area}.write")] }]),
    )
}

/// The `Idempotency-Key` parameter.
fn idempotency_key() -> Value {
    json!({ "$ref": "#/components/parameters/IdempotencyKey" })
}

/// The resource collection's path: list (paginated) and create.
fn collection_path(name: &str, area: &str) -> Value {
    let (security, write_security) = security(area);
    let idem = idempotency_key();
    json!({
        "get": {
            "tags": [area], "operationId": format!("list{name}s"), "summary": format!("List {name}s"),
            "security": security,
            "parameters": [
                { "name": "page", "in": "query", "schema": { "type": "integer", "minimum": 1 } },
                { "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": 100 } },
                { "name": "status", "in": "query", "schema": { "$ref": format!("#/components/schemas/{name}Status") } }
            ],
            "x-pagination": { "model": "page", "items": "items", "limit": "limit", "page": "page", "pages": "pages" },
            "responses": with_errors(("200", json_body(&format!("{name}Page"), "A page.")))
        },
        "post": {
            "tags": [area], "operationId": format!("create{name}"), "summary": format!("Create a {name}"),
            "security": write_security,
            "parameters": [idem],
            "x-idempotency-key": "required",
            "requestBody": { "required": true, "content": { "application/json": {
                "schema": { "$ref": format!("#/components/schemas/Create{name}Request") } } } },
            "responses": with_errors(("201", json_body(name, "Created.")))
        }
    })
}

/// One resource's path: get, update and delete.
fn item_path(name: &str, area: &str) -> Value {
    let (security, write_security) = security(area);
    let idem = idempotency_key();
    let id_param = json!({ "name": "widget_id", "in": "path", "required": true,
                           "schema": { "type": "string", "format": "uuid" } });
    json!({
        "get": {
            "tags": [area], "operationId": format!("get{name}"), "summary": format!("Get a {name}"),
            "security": security, "parameters": [id_param],
            "responses": with_errors(("200", json_body(name, "The resource.")))
        },
        "patch": {
            "tags": [area], "operationId": format!("update{name}"), "summary": format!("Update a {name}"),
            "security": write_security, "parameters": [id_param, idem],
            "x-idempotency-key": "optional",
            "requestBody": { "required": true, "content": { "application/json": {
                "schema": { "$ref": format!("#/components/schemas/Update{name}Request") } } } },
            "responses": with_errors(("200", json_body(name, "Updated.")))
        },
        "delete": {
            "tags": [area], "operationId": format!("delete{name}"), "summary": format!("Delete a {name}"),
            "security": write_security, "parameters": [id_param, idem],
            "x-idempotency-key": "optional",
            "responses": with_errors(("204", json!({ "description": "Deleted." })))
        }
    })
}

/// The error body every error response has.
fn error_schema() -> Value {
    json!({
        "type": "object",
        "required": ["error"],
        "properties": { "error": { "type": "object", "required": ["code", "message"], "properties": {
            "code": { "type": "string" }, "message": { "type": "string" },
            "request_id": { "type": "string" },
            "details": { "type": "array", "items": { "type": "object", "properties": {
                "field": { "type": "string" }, "reason": { "type": "string" } } } } } } }
    })
}

/// Writes [`document`]`(operations)` as `synthetic-OPERATIONS.json` into `dir` (created if
/// missing) and returns its path.
pub fn write_document(operations: usize, dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).expect("create the synthetic documents' directory");
    let path = dir.join(format!("synthetic-{operations}.json"));
    let json = serde_json::to_vec_pretty(&document(operations)).expect("json");
    std::fs::write(&path, json).expect("write synthetic spec");
    path
}

#[cfg(test)]
mod tests {
    #[test]
    fn operation_count_and_generator_accepts_it() {
        let doc = super::document(100);
        let ops: usize = doc["paths"]
            .as_object()
            .unwrap()
            .values()
            .map(|p| p.as_object().unwrap().len())
            .sum();
        assert_eq!(ops, 100);
        let text = serde_json::to_string(&doc).unwrap();
        let options = oncegen::emit::Options::workspace_member(
            "customer-cloud-sdk",
            "synthetic-100.json",
            Default::default(),
        );
        let (api, _) = oncegen::generate_str(&text, "synthetic-100.json", &options).unwrap();
        assert_eq!(api.operations.len(), 100);
        assert!(api.skipped.is_empty());
    }
}
