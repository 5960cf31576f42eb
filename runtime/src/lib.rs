//! Runtime for generated SDKs.
