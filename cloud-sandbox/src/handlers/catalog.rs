//! Catalog: regions, products (filters before pagination) and dedicated images, in the
//! operations' pagination model. They follow the catalog backend's health
//! ([`CatalogHealth`]): an outage is a 503, never an empty catalog; a degraded backend leaves
//! out the types it cannot read and says so.

use serde_json::{Value, json};

use super::{Ctx, Reply};
use crate::errors::ApiError;
use crate::state::{CatalogHealth, State};

/// `GET /v1/regions`.
pub fn regions(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    readable(st, "catalog_unavailable")?;
    ctx.list(st.regions.clone())
}

/// `GET /v1/products` and `GET /v1/products/{region}`.
pub fn products(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    readable(st, "catalog_unavailable")?;
    let path_region = Some(ctx.path_arg(0))
        .filter(|r| !r.is_empty())
        .map(str::to_ascii_uppercase);
    let query_region = ctx.query_param("region").map(str::to_ascii_uppercase);
    if let (Some(p), Some(q)) = (&path_region, &query_region)
        && p != "ALL"
        && p != q
    {
        return Err(ApiError::invalid_field(
            "query.region",
            "conflicts with the path region",
        ));
    }
    let region = path_region.filter(|r| r != "ALL").or(query_region);
    if let Some(r) = &region
        && !st.regions.iter().any(|x| x["id"] == r.as_str())
    {
        return Err(ApiError::new(
            400,
            "unsupported_region",
            "The region is not returned by the regions list.",
        ));
    }
    let unavailable = match &st.catalog {
        CatalogHealth::Degraded(types) => types.clone(),
        _ => Vec::new(),
    };
    let items: Vec<Value> = st
        .products
        .iter()
        .filter(|p| region.as_ref().is_none_or(|r| p["region"] == r.as_str()))
        .filter(|p| {
            ctx.query_param("product_code")
                .is_none_or(|c| p["product_code"] == c)
        })
        .filter(|p| ctx.query_param("type").is_none_or(|t| p["type"] == t))
        .filter(|p| !unavailable.iter().any(|t| p["type"] == t.as_str()))
        .cloned()
        .collect();
    let mut reply = ctx.list(items)?;
    if !unavailable.is_empty() {
        reply.body["partial"] = json!(true);
        reply.body["unavailable_types"] = json!(unavailable);
        reply.body["availability"] = json!("unknown");
    }
    Ok(reply)
}

/// 503 with `code` while the catalog backend is down.
pub(super) fn readable(st: &State, code: &str) -> Result<(), ApiError> {
    if st.catalog == CatalogHealth::Unavailable {
        let msg = "The catalog could not be read safely; retry with backoff. Never infer stock from an outage.";
        return Err(ApiError::new(503, code, msg));
    }
    Ok(())
}

/// `GET /v1/dedicated/images`.
pub fn images(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    readable(st, "dedicated_catalog_unavailable")?;
    let items: Vec<Value> = st
        .images
        .iter()
        .filter(|i| {
            ctx.query_param("region").is_none_or(|r| {
                i["region"]
                    .as_str()
                    .is_some_and(|x| x.eq_ignore_ascii_case(r))
            })
        })
        .filter(|i| {
            ctx.query_param("configuration_code")
                .is_none_or(|c| i["configuration_code"] == c)
        })
        .cloned()
        .collect();
    ctx.list(items)
}
