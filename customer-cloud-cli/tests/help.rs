//! The help texts users read, as snapshots reviewed in the repository
//! (`tests/snapshots/`; `SNAPSHOTS=overwrite cargo test -p customer-cloud-cli --test help` updates them).

use snapbox::cmd::Command;

fn help(args: &[&str]) -> snapbox::cmd::OutputAssert {
    Command::new(snapbox::cmd::cargo_bin!("customer-cloud"))
        .args(args)
        .env_remove("COLUMNS")
        .assert()
        .success()
}

#[test]
fn the_tool_lists_its_areas_flags_and_exit_codes() {
    help(&["--help"]).stdout_eq(snapbox::file!["snapshots/help.txt"]);
}

#[test]
fn an_area_lists_its_operations() {
    help(&["dns", "--help"]).stdout_eq(snapbox::file!["snapshots/dns-help.txt"]);
}

#[test]
fn an_operation_shows_its_description_arguments_and_enum_values() {
    help(&["catalog", "get-products", "--help"])
        .stdout_eq(snapbox::file!["snapshots/catalog-get-products-help.txt"]);
}

#[test]
fn a_purchase_requires_its_ceiling() {
    help(&["deployments", "product-variant-deploy", "--help"]).stdout_eq(snapbox::file![
        "snapshots/deployments-product-variant-deploy-help.txt"
    ]);
}
