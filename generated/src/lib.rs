//! Typed SDK for the Customer Cloud Services API.
