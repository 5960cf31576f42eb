//! Workspace-level tests live under `tests/tests/`; this library only anchors the package.
