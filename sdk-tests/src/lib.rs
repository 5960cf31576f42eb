//! Workspace-level tests live under `sdk-tests/tests/`; this library only anchors the package.
