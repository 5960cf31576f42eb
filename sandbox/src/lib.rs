//! Sandbox server.
