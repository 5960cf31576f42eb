//! Request and response types shared by the SDK path and the hand-written baseline, shaped like
//! generated models (serde derives, `uuid` ids, an enum, optional fields).

use oncegen_runtime::pagination::{Continuation, Paginated, next_page};
use oncegen_runtime::{Idempotency, Method, OperationSpec};
use serde::{Deserialize, Serialize};

/// `GET /v1/products/{id}` as a generated crate would declare it.
pub static GET_PRODUCT: OperationSpec = OperationSpec {
    operation_id: "getProduct",
    method: Method::Get,
    path: "/v1/products/{id}",
    idempotency: Idempotency::None,
    operation_envelope: false,
};

/// `POST /v1/dns/zones` (idempotency key required).
pub static CREATE_ZONE: OperationSpec = OperationSpec {
    operation_id: "createDnsZone",
    method: Method::Post,
    path: "/v1/dns/zones",
    idempotency: Idempotency::Required,
    operation_envelope: false,
};

/// `GET /v1/items` (page model).
pub static LIST_ITEMS: OperationSpec = OperationSpec {
    operation_id: "listItems",
    method: Method::Get,
    path: "/v1/items",
    idempotency: Idempotency::None,
    operation_envelope: false,
};

/// The product id the GET benchmarks ask for.
pub const PRODUCT_ID: &str = "7f9c2a4e-3b1d-4c8e-9a6f-2d5e8b0c1f34";

/// Product status (closed set in the spec; unknown values kept).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProductStatus {
    /// Sellable.
    Active,
    /// No longer sold.
    Retired,
    /// A value this SDK does not know.
    #[serde(other)]
    Unknown,
}

/// A product (the small GET response; 325 bytes of JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Product {
    /// Id.
    pub id: uuid::Uuid,
    /// Name.
    pub name: String,
    /// Stock keeping unit.
    pub sku: String,
    /// Monthly price, a decimal string.
    pub price: String,
    /// ISO currency.
    pub currency: String,
    /// Status.
    pub status: ProductStatus,
    /// Region ids.
    pub regions: Vec<String>,
    /// RFC 3339 creation time.
    pub created_at: String,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// The fixed product served by the loopback server.
pub fn product() -> Product {
    Product {
        id: PRODUCT_ID.parse().expect("uuid"),
        name: "Managed PostgreSQL 4 vCPU".into(),
        sku: "db-pg-4c-16g-eu".into(),
        price: "129.50".into(),
        currency: "EUR".into(),
        status: ProductStatus::Active,
        regions: vec![
            "eu-west-1".into(),
            "eu-central-1".into(),
            "us-east-2".into(),
        ],
        created_at: "2026-03-14T09:26:53Z".into(),
        description: Some(
            "Highly available PostgreSQL cluster with daily backups and PITR.".into(),
        ),
    }
}

/// DNS zone kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZoneKind {
    /// Authoritative primary.
    Primary,
    /// Secondary (AXFR).
    Secondary,
}

/// Body of `POST /v1/dns/zones`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CreateZoneRequest {
    /// Zone apex.
    pub name: String,
    /// Kind.
    pub kind: ZoneKind,
    /// Project id.
    pub project_id: uuid::Uuid,
    /// Default TTL.
    pub ttl: u32,
    /// Primary servers for secondaries.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub masters: Vec<String>,
    /// Free-form labels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// The request body both paths send.
pub fn create_zone_request() -> CreateZoneRequest {
    CreateZoneRequest {
        name: "bench.example.com".into(),
        kind: ZoneKind::Primary,
        project_id: "0d6f3c2b-8e4a-4b7d-9c1e-5a2f7b3d9e60"
            .parse()
            .expect("uuid"),
        ttl: 3600,
        masters: Vec::new(),
        description: Some("zone created by the sdk-benches signed POST benchmark".into()),
    }
}

/// Response of `POST /v1/dns/zones`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    /// Id.
    pub id: uuid::Uuid,
    /// Zone apex.
    pub name: String,
    /// Kind.
    pub kind: ZoneKind,
    /// Status.
    pub status: String,
    /// Default TTL.
    pub ttl: u32,
    /// Authoritative name servers.
    pub nameservers: Vec<String>,
    /// RFC 3339 creation time.
    pub created_at: String,
}

/// The zone the server answers with.
pub fn zone() -> Zone {
    Zone {
        id: "3c1a9e7f-2b4d-4e8a-b6c0-9d1f5e7a3b28"
            .parse()
            .expect("uuid"),
        name: "bench.example.com".into(),
        kind: ZoneKind::Primary,
        status: "pending".into(),
        ttl: 3600,
        nameservers: vec!["ns1.cloud.example".into(), "ns2.cloud.example".into()],
        created_at: "2026-03-14T09:26:53Z".into(),
    }
}

/// One item of `GET /v1/items` (about 150 bytes of JSON, a few heap strings once decoded).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// Id.
    pub id: uuid::Uuid,
    /// Index across all pages.
    pub index: u64,
    /// Name.
    pub name: String,
    /// Region.
    pub region: String,
    /// RFC 3339 creation time.
    pub created_at: String,
}

/// Item number `index` as the server renders it.
pub fn item(index: u64) -> Item {
    Item {
        id: uuid::Uuid::from_u128(0x5e1f_0000_0000_4000_8000_0000_0000_0000 | u128::from(index)),
        index,
        name: format!("instance-{index:08}"),
        region: "eu-west-1".into(),
        created_at: "2026-03-14T09:26:53Z".into(),
    }
}

/// A page of `GET /v1/items` (page model).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ItemPage {
    /// Items.
    pub items: Vec<Item>,
    /// This page (1-based).
    pub page: Option<u64>,
    /// Number of pages.
    pub pages: Option<u64>,
}

impl Paginated for ItemPage {
    type Item = Item;

    fn next_continuation(&self) -> Option<Continuation> {
        next_page(self.page, self.pages, self.items.is_empty())
    }

    fn into_items(self) -> Vec<Item> {
        self.items
    }
}
