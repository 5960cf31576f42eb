//! Catalog: regions, products (filters before pagination) and dedicated images, offset model.

use serde_json::Value;

use super::{Ctx, Reply};
use crate::errors::ApiError;
use crate::state::State;

/// `GET /v1/regions`.
pub fn regions(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    ctx.list(st.regions.clone())
}

/// `GET /v1/products` and `GET /v1/products/{region}`.
pub fn products(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
    let path_region = ctx.path.get("region").map(|r| r.to_ascii_uppercase());
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
    let items: Vec<Value> = st
        .products
        .iter()
        .filter(|p| region.as_ref().is_none_or(|r| p["region"] == r.as_str()))
        .filter(|p| {
            ctx.query_param("product_code")
                .is_none_or(|c| p["product_code"] == c)
        })
        .filter(|p| ctx.query_param("type").is_none_or(|t| p["type"] == t))
        .cloned()
        .collect();
    ctx.list(items)
}

/// `GET /v1/dedicated/images`.
pub fn images(st: &mut State, ctx: &Ctx) -> Result<Reply, ApiError> {
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
