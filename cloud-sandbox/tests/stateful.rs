//! The resources the shown operations create, change and delete, read back through the other
//! operations and the sandbox handle, with the refusals the reference (or, where it is silent,
//! the sandbox README) gives: webhooks, VPS backups and snapshots, firewall policies, storage
//! volumes, SSH keys, DNS templates, domain contacts, checkouts, grouped services.

mod common;

use common::{Answer, Env};
use serde_json::{Value, json};

/// A bearer request under the `Idempotency-Key` `stateful-{k}` (keys are 8 to 128
/// characters).
async fn write(env: &Env, method: &str, pq: &str, body: Option<&Value>, k: &str) -> Answer {
    env.keyed(method, pq, body, &format!("stateful-{k}")).await
}

#[tokio::test]
async fn webhooks_are_changed_and_deleted_once() {
    let env = Env::new().await;
    let id = env
        .sb
        .resources(|r| r.webhooks[0]["id"].as_str().unwrap().to_owned());
    let path = format!("/v1/webhooks/{id}");
    let r = write(
        &env,
        "PATCH",
        &path,
        Some(&json!({"enabled": false})),
        "hook-1",
    )
    .await;
    assert_eq!(
        (r.status, &r.body["item"]["enabled"]),
        (200, &json!(false)),
        "{}",
        r.text
    );
    assert_eq!(
        env.sb.resources(|r| r.webhooks[0]["enabled"].clone()),
        json!(false)
    );
    assert_eq!(
        write(&env, "DELETE", &path, None, "hook-del-1")
            .await
            .status,
        200
    );
    assert_eq!(
        write(&env, "DELETE", &path, None, "hook-del-2")
            .await
            .code(),
        "not_found"
    );
    let r = write(
        &env,
        "PATCH",
        &path,
        Some(&json!({"enabled": true})),
        "hook-2",
    )
    .await;
    assert_eq!(r.code(), "not_found");
    assert_eq!(env.sb.resources(|r| r.webhooks.len()), 2);
}

#[tokio::test]
async fn vps_backups_and_snapshots_follow_state() {
    let env = Env::new().await;
    let vps = env.sb.service_of_kind("vps").unwrap().id;
    let at = |p: &str| format!("/v1/vps/{vps}/{p}");
    let r = write(
        &env,
        "POST",
        &at("backup/restore"),
        Some(&json!({"file": "nope.tar.gz"})),
        "restore-1",
    )
    .await;
    assert_eq!(r.code(), "not_found", "an unknown backup");
    let r = write(&env, "POST", &at("backup/run"), None, "backup-1").await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = write(
        &env,
        "POST",
        &at("backup/restore"),
        Some(&json!({"file": "backup-2.tar.gz", "auto_start": false})),
        "restore-2",
    )
    .await;
    assert_eq!(r.status, 200, "the new backup restores: {}", r.text);
    let state = env.sb.resources(|r| r.vps[&vps].clone());
    assert_eq!(
        (state.restored_from.as_deref(), state.power_state.as_str()),
        (Some("backup-2.tar.gz"), "stopped")
    );
    let r = write(
        &env,
        "POST",
        &at("snapshots/weekly/rollback"),
        None,
        "rollback-1",
    )
    .await;
    assert_eq!(r.code(), "not_found", "an unknown snapshot");
    let dedicated = env.sb.service_of_kind("dedicated").unwrap().id;
    let r = env
        .bearer("POST", &format!("/v1/vps/{dedicated}/reboot"), None, &[])
        .await;
    assert_eq!(r.code(), "not_found", "not a VPS");
}

#[tokio::test]
async fn firewall_policies_follow_state() {
    let env = Env::new().await;
    let vps = env.sb.service_of_kind("vps").unwrap().id;
    let apply = |body: Value, k: &'static str| {
        let (env, path) = (&env, format!("/v1/vps/{vps}/firewall/policy/apply"));
        async move { write(env, "POST", &path, Some(&body), k).await }
    };
    let r = apply(json!({}), "apply-0").await;
    assert_eq!(r.code(), "not_found", "no policy yet");
    let policy = |name: &str, primary: bool| json!({"name": name, "is_primary": primary, "rules": [{"action": "ACCEPT", "proto": "tcp", "dport": 22}]});
    let a = write(
        &env,
        "POST",
        "/v1/firewall/policies",
        Some(&policy("a", true)),
        "fw-a",
    )
    .await;
    let b = write(
        &env,
        "POST",
        "/v1/firewall/policies",
        Some(&policy("b", true)),
        "fw-b",
    )
    .await;
    assert_eq!(b.body["policy"]["isPrimary"], true, "{}", b.text);
    assert_eq!(
        env.sb
            .resources(|r| r.firewall_policies[0]["isPrimary"].clone()),
        json!(false),
        "one primary"
    );
    let r = apply(json!({}), "apply-1").await;
    assert_eq!(r.status, 200, "{}", r.text);
    let applied = env
        .sb
        .resources(|r| r.vps[&vps].firewall_policy.clone().unwrap());
    assert_eq!(applied["id"], b.body["policy"]["id"], "the primary policy");
    apply(json!({"policy_id": a.body["policy"]["id"]}), "apply-2").await;
    let applied = env
        .sb
        .resources(|r| r.vps[&vps].firewall_policy.clone().unwrap());
    assert_eq!(applied["name"], "a");
}

#[tokio::test]
async fn a_volume_attaches_to_one_eligible_server_at_a_time() {
    let env = Env::new().await;
    let volume = env.sb.add_service("storage", "vol-1", "active");
    let vps = env.sb.service_of_kind("vps").unwrap().id;
    let other = env.sb.add_service("vps", "vps-other.example.net", "active");
    let domain = env.sb.service_of_kind("domain").unwrap().id;
    let attach = |target: uuid::Uuid| json!({"target_service_id": target});
    let path = format!("/v1/storage/volumes/{volume}/attach");
    let r = write(&env, "POST", &path, Some(&attach(domain)), "att-0").await;
    assert_eq!(r.code(), "validation_error", "a domain is not a server");
    assert_eq!(
        write(&env, "POST", &path, Some(&attach(vps)), "att-1")
            .await
            .status,
        200
    );
    let r = write(&env, "POST", &path, Some(&attach(other)), "att-2").await;
    assert_eq!(r.code(), "validation_error", "detach first: {}", r.text);
    let detach = format!("/v1/storage/volumes/{volume}/detach");
    assert_eq!(
        write(&env, "POST", &detach, None, "det-1").await.status,
        200
    );
    assert_eq!(
        write(&env, "POST", &path, Some(&attach(other)), "att-3")
            .await
            .status,
        200
    );
    assert_eq!(env.sb.resources(|r| r.volume_attachments[&volume]), other);
    let r = write(
        &env,
        "POST",
        &format!("/v1/storage/volumes/{vps}/detach"),
        None,
        "det-2",
    )
    .await;
    assert_eq!(r.code(), "not_found", "a VPS is not a volume");
}

#[tokio::test]
async fn ssh_keys_are_kept_with_their_fingerprint() {
    let env = Env::new().await;
    let public_key =
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me";
    let r = write(
        &env,
        "POST",
        "/v1/ssh/keys",
        Some(&json!({"name": "laptop", "public_key": public_key})),
        "ssh-1",
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.body["key"]["algorithm"], "ed25519");
    assert!(
        r.body["key"]["fingerprint"]
            .as_str()
            .unwrap()
            .starts_with("SHA256:")
    );
    let bad = write(
        &env,
        "POST",
        "/v1/ssh/keys",
        Some(&json!({"name": "x", "public_key": "not a key"})),
        "ssh-2",
    )
    .await;
    assert_eq!(bad.code(), "validation_error");
    assert_eq!(env.sb.ssh_keys().len(), 1);
}

#[tokio::test]
async fn dns_templates_are_found_by_a_case_insensitive_name() {
    let env = Env::new().await;
    let template = |name: &str| json!({"name": name, "zone_file": "@ 3600 IN A 192.0.2.1\n"});
    write(
        &env,
        "POST",
        "/v1/dns/templates",
        Some(&template("Web")),
        "tpl-1",
    )
    .await;
    let r = env.get("/v1/dns/templates/web").await;
    assert_eq!(
        (r.status, &r.body["template"]["name"]),
        (200, &json!("Web")),
        "case-insensitive"
    );
    let r = env.get("/v1/dns/templates/DEFAULT").await;
    assert_eq!(
        r.body["template"]["system"], true,
        "system templates after own ones"
    );
    write(
        &env,
        "POST",
        "/v1/dns/templates",
        Some(&template("web")),
        "tpl-2",
    )
    .await;
    let r = env.get("/v1/dns/templates/web").await;
    assert_eq!(r.code(), "template_identifier_ambiguous");
    let list = env.get("/v1/dns/templates").await;
    let items = list.body["templates"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert!(
        items
            .iter()
            .all(|t| t.get("zoneFile").is_none() && t["isHidden"] == false)
    );
}

#[tokio::test]
async fn domain_contacts_are_kept_and_assigned() {
    let env = Env::new().await;
    let domain = env.sb.service_of_kind("domain").unwrap().hostname;
    let assign = |id: &serde_json::Value| json!({"contact_ids": {"registrant": id}});
    let path = format!("/v1/domains/{domain}/contacts");
    let r = write(
        &env,
        "PUT",
        &path,
        Some(&assign(&json!(uuid::Uuid::new_v4()))),
        "assign-0",
    )
    .await;
    assert_eq!(r.code(), "not_found", "an unknown contact");
    let contact = json!({"first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.com", "phone": "+44.1",
        "address": {"street": "S", "number": "1", "city": "London", "zipcode": "N1", "country": "GB"}});
    let c = write(
        &env,
        "POST",
        "/v1/domains/contacts",
        Some(&contact),
        "contact-1",
    )
    .await;
    assert_eq!(c.body["contact"]["country"], "GB", "{}", c.text);
    let r = write(
        &env,
        "PUT",
        &path,
        Some(&assign(&c.body["contact"]["id"])),
        "assign-1",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let assigned = env.sb.resources(|r| r.domain_contacts[&domain].clone());
    assert_eq!(assigned["registrant"], c.body["contact"]["id"]);
}

#[tokio::test]
async fn checkouts_and_the_grouped_inventory_follow_the_services() {
    let env = Env::new().await;
    let vps = env.sb.service_of_kind("vps").unwrap();
    billing_change_checkout(&env, vps.id).await;
    renewal_checkout(&env, vps.id).await;
    grouped_inventory(&env).await;
}

/// A billing-cycle change of the service `vps` is applied at once; an unknown unit is refused.
async fn billing_change_checkout(env: &Env, vps: uuid::Uuid) {
    let cycle = json!({"unit": "QUARTAL", "count": 2});
    let r = write(
        env,
        "POST",
        &format!("/v1/services/{}/billing/change/checkout", vps),
        Some(&cycle),
        "chg-1",
    )
    .await;
    assert_eq!(
        (r.status, &r.body["applied"]),
        (200, &json!(true)),
        "{}",
        r.text
    );
    let changed = env.sb.services().into_iter().find(|s| s.id == vps).unwrap();
    assert_eq!(
        (changed.billing_unit.as_str(), changed.billing_count),
        ("QUARTAL", 2)
    );
    let r = write(
        env,
        "POST",
        &format!("/v1/services/{}/billing/change/checkout", vps),
        Some(&json!({"unit": "DECADE", "count": 1})),
        "chg-2",
    )
    .await;
    assert_eq!(r.code(), "validation_error");
}

/// A renewal of the service `vps` is paid from the balance; a terminated service is not renewable.
async fn renewal_checkout(env: &Env, vps: uuid::Uuid) {
    let before = env.sb.balance();
    let renew = json!({"unit": "MONTH", "count": 1});
    let r = write(
        env,
        "POST",
        &format!("/v1/services/{}/renewal/checkout", vps),
        Some(&renew),
        "renew-1",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let paid: rust_decimal::Decimal = r.body["payNow"].as_str().unwrap().parse().unwrap();
    assert!(paid > rust_decimal::Decimal::ZERO);
    assert_eq!(env.sb.balance(), before - paid, "paid from balance");
    let terminated = env.sb.add_service("vps", "old.example.net", "terminated");
    let r = write(
        env,
        "POST",
        &format!("/v1/services/{terminated}/renewal/checkout"),
        Some(&renew),
        "renew-2",
    )
    .await;
    assert_eq!(r.code(), "service_not_renewable");
}

/// The grouped inventory lists every service, and by default the active ones of a type.
async fn grouped_inventory(env: &Env) {
    let grouped = env.get("/v1/services/grouped?status=all").await;
    let total: usize = grouped.body["groups"]
        .as_object()
        .unwrap()
        .values()
        .map(|g| g.as_array().unwrap().len())
        .sum();
    assert_eq!(total, env.sb.services().len());
    let active = env.get("/v1/services/grouped?type=vps").await;
    let groups = active.body["groups"].as_object().unwrap();
    assert_eq!(groups.keys().collect::<Vec<_>>(), ["vps"]);
    assert!(
        groups["vps"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["status"] == "active")
    );
    assert!(env.sb.schema_violations().is_empty());
}
