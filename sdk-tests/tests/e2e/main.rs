//! End-to-end tests of the generated SDK (`customer-cloud-sdk`) as a user calls it, against the in-process
//! sandbox (`cloud-sandbox`) or, when `CUSTOMER_CLOUD_API_BASE_URL` is set, against a real deployment
//! (tests that need the sandbox's seeding, faults or ledger then skip themselves).
//!
//! One test binary with one module per concern keeps link time low:
//!
//! * `coverage`: every operation of `spec/openapi.yaml` gets a real round trip, and the test fails
//!   when one has none (checked against the sandbox's request log);
//! * `flows`: catalog → draft order → invoice payment (partial, full) → service; atomic deploy
//!   with `max_total` → wait → service; DNS zone dry run → create; TCP proxy update;
//! * `auth`: signed and bearer mode, typed scope / IP / credential errors with code and request id;
//! * `exactly_once`: 1,200 writes under a seeded fault schedule, checked on the ledger;
//! * `settle`: 1,200 writes under issue 12's fault mix settle in one SDK call (≥ 99.5%, printed);
//! * `crash`: writer processes with a file journal killed with SIGKILL at every step of the
//!   journal protocol (writing and recovering) and at 220 random points, checked on the ledger
//!   (every intent once, under one key); a journal torn or corrupted by a crash; the same with
//!   four writers sharing a PostgreSQL journal (a throwaway cluster), 316 kills and a database
//!   restart, and the PostgreSQL journal's rules for a fleet;
//! * `writes`: the money-moving writes and the ledger check the three above share;
//! * `failure_modes`: service_disabled, operation_expired, 24-hour expiry of stored answers,
//!   degraded and unavailable catalog, documented errors after commit, undocumented answers;
//! * `rate_limit`: a 429 storm from concurrent tasks, checked on the request log timestamps;
//! * `real_target`: read-only calls that also run against a real deployment.

mod auth;
mod coverage;
mod crash;
mod exactly_once;
mod failure_modes;
mod flows;
mod harness;
mod rate_limit;
mod real_target;
mod settle;
mod writes;
