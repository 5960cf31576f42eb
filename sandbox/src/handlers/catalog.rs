//! Catalog: regions, products (filters before pagination) and dedicated images, offset model.

use serde_json::Value;

use crate::app::{Ctx, Inner, Reply};
use crate::errors::ApiError;
use crate::pagination;

/// `GET /v1/regions`.
pub fn regions(inner: &Inner, ctx: &Ctx) -> Result<Reply, ApiError> {
    let items = inner.state.lock().unwrap().regions.clone();
    Ok(Reply::ok(pagination::offset(&items, &ctx.query)?))
}

/// `GET /v1/products` and `GET /v1/products/{region}`.
pub fn products(inner: &Inner, ctx: &Ctx) -> Result<Reply, ApiError> {
    let path_region = ctx.path.get("region").map(|r| r.to_ascii_uppercase());
    let query_region = ctx.q("region").map(str::to_ascii_uppercase);
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
    let st = inner.state.lock().unwrap();
    if let Some(r) = &region
        && !st.regions.iter().any(|x| x["id"] == r.as_str())
    {
        return Err(ApiError::new(
            400,
            "unsupported_region",
            "The region is not returned by the regions list.",
        ));
    }
    let items: Vec<Value> = st
        .products
        .iter()
        .filter(|p| region.as_ref().is_none_or(|r| p["region"] == r.as_str()))
        .filter(|p| ctx.q("product_code").is_none_or(|c| p["product_code"] == c))
        .filter(|p| ctx.q("type").is_none_or(|t| p["type"] == t))
        .cloned()
        .collect();
    Ok(Reply::ok(pagination::offset(&items, &ctx.query)?))
}

/// `GET /v1/dedicated/images`.
pub fn images(inner: &Inner, ctx: &Ctx) -> Result<Reply, ApiError> {
    let items: Vec<Value> = inner
        .state
        .lock()
        .unwrap()
        .images
        .iter()
        .filter(|i| {
            ctx.q("region").is_none_or(|r| {
                i["region"]
                    .as_str()
                    .is_some_and(|x| x.eq_ignore_ascii_case(r))
            })
        })
        .filter(|i| {
            ctx.q("configuration_code")
                .is_none_or(|c| i["configuration_code"] == c)
        })
        .cloned()
        .collect();
    Ok(Reply::ok(pagination::offset(&items, &ctx.query)?))
}
