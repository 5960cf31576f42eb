//! Every public name of the generated SDK reads as the spec says it: no collision suffix
//! (`Foo2`, `page_size_2`, `DedicatedTaskCall`) is ever needed for this contract.

use std::path::Path;

use oncegen::ir::{Api, TypeKind};

fn api() -> Api {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/openapi.yaml");
    let doc = oncegen::read::load(&spec).expect("the spec reads");
    oncegen::lower::lower(&doc).expect("the spec lowers")
}

/// A name carries a collision suffix when it ends in digits its wire name does not end in.
fn suffixed(rust: &str, wire: &str) -> bool {
    let digits = |s: &str| s.chars().rev().take_while(char::is_ascii_digit).count();
    digits(rust) > digits(wire)
}

#[test]
fn no_generated_name_has_a_collision_suffix() {
    let api = api();
    let mut bad = Vec::new();
    let mut check = |what: &str, rust: &str, wire: &str| {
        if suffixed(rust, wire) || rust.ends_with("Call") && !wire.ends_with("Call") {
            bad.push(format!("{what} `{rust}` (spec: `{wire}`)"));
        }
    };
    for op in &api.operations {
        check("method", &op.fn_name, &op.operation_id);
        check("builder", &op.builder_name, &op.operation_id);
        for p in &op.params {
            check("parameter", &p.rust_name, &p.name);
        }
    }
    for t in &api.types {
        let wire = t.pointer.rsplit('/').next().unwrap_or_default();
        check("type", &t.name, wire);
        match &t.kind {
            TypeKind::Struct { fields, .. } => {
                for f in fields {
                    check("field", &f.rust_name, &f.name);
                }
            }
            TypeKind::Enum { variants, .. } => {
                for v in variants {
                    check("variant", &v.rust_name, &v.value);
                }
            }
            _ => {}
        }
    }
    for code in &api.error_codes {
        check("error code", &code.variant, &code.code);
    }
    assert!(bad.is_empty(), "suffixed names:\n{}", bad.join("\n"));
}

#[test]
fn the_suffix_check_sees_suffixes() {
    assert!(suffixed("page_size_2", "pageSize"));
    assert!(suffixed("Tcp2", "TCP"));
    assert!(!suffixed("ProxyProtocolV2", "proxy_protocol_v2"));
    assert!(!suffixed("Ipv4", "ipv4"));
}
