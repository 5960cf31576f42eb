//! The resources the shown operations create, change and delete, read back through the other
//! operations and the sandbox handle, with the refusals the reference (or, where it is silent,
//! the sandbox README) gives: webhooks, VPS backups and snapshots, firewall policies, storage
//! volumes, SSH keys, DNS templates, domain contacts, checkouts, grouped services.

mod common;

use common::Env;
use serde_json::json;

/// An `Idempotency-Key` header (keys are 8 to 128 characters).
fn key(k: &str) -> [(&'static str, &'static str); 1] {
    [("idempotency-key", String::leak(format!("stateful-{k}")))]
}

#[tokio::test]
async fn webhooks_are_changed_and_deleted_once() {
    let env = Env::new().await;
    let id = env
        .sb
        .resources(|r| r.webhooks[0]["id"].as_str().unwrap().to_owned());
    let path = format!("/v1/webhooks/{id}");
    let r = env
        .bearer(
            "PATCH",
            &path,
            Some(&json!({"enabled": false})),
            &key("hook-1"),
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
        env.bearer("DELETE", &path, None, &key("hook-del-1"))
            .await
            .status,
        200
    );
    assert_eq!(
        env.bearer("DELETE", &path, None, &key("hook-del-2"))
            .await
            .code(),
        "not_found"
    );
    let r = env
        .bearer(
            "PATCH",
            &path,
            Some(&json!({"enabled": true})),
            &key("hook-2"),
        )
        .await;
    assert_eq!(r.code(), "not_found");
    assert_eq!(env.sb.resources(|r| r.webhooks.len()), 2);
}

#[tokio::test]
async fn vps_backups_snapshots_and_firewall_policies_follow_state() {
    let env = Env::new().await;
    let vps = env.sb.service_of_kind("vps").unwrap().id;
    let at = |p: &str| format!("/v1/vps/{vps}/{p}");
    let r = env
        .bearer(
            "POST",
            &at("backup/restore"),
            Some(&json!({"file": "nope.tar.gz"})),
            &key("restore-1"),
        )
        .await;
    assert_eq!(r.code(), "not_found", "an unknown backup");
    let r = env
        .bearer("POST", &at("backup/run"), None, &key("backup-1"))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = env
        .bearer(
            "POST",
            &at("backup/restore"),
            Some(&json!({"file": "backup-2.tar.gz", "auto_start": false})),
            &key("restore-2"),
        )
        .await;
    assert_eq!(r.status, 200, "the new backup restores: {}", r.text);
    let state = env.sb.resources(|r| r.vps[&vps].clone());
    assert_eq!(
        (state.restored_from.as_deref(), state.power_state.as_str()),
        (Some("backup-2.tar.gz"), "stopped")
    );
    let r = env
        .bearer(
            "POST",
            &at("snapshots/weekly/rollback"),
            None,
            &key("rollback-1"),
        )
        .await;
    assert_eq!(r.code(), "not_found", "an unknown snapshot");
    let r = env
        .bearer(
            "POST",
            &at("firewall/policy/apply"),
            Some(&json!({})),
            &key("apply-0"),
        )
        .await;
    assert_eq!(r.code(), "not_found", "no policy yet");
    let policy = |name: &str, primary: bool| json!({"name": name, "is_primary": primary, "rules": [{"action": "ACCEPT", "proto": "tcp", "dport": 22}]});
    let a = env
        .bearer(
            "POST",
            "/v1/firewall/policies",
            Some(&policy("a", true)),
            &key("fw-a"),
        )
        .await;
    let b = env
        .bearer(
            "POST",
            "/v1/firewall/policies",
            Some(&policy("b", true)),
            &key("fw-b"),
        )
        .await;
    assert_eq!(b.body["policy"]["isPrimary"], true, "{}", b.text);
    assert_eq!(
        env.sb
            .resources(|r| r.firewall_policies[0]["isPrimary"].clone()),
        json!(false),
        "one primary"
    );
    let r = env
        .bearer(
            "POST",
            &at("firewall/policy/apply"),
            Some(&json!({})),
            &key("apply-1"),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let applied = env
        .sb
        .resources(|r| r.vps[&vps].firewall_policy.clone().unwrap());
    assert_eq!(applied["id"], b.body["policy"]["id"], "the primary policy");
    let chosen = json!({"policy_id": a.body["policy"]["id"]});
    env.bearer(
        "POST",
        &at("firewall/policy/apply"),
        Some(&chosen),
        &key("apply-2"),
    )
    .await;
    let applied = env
        .sb
        .resources(|r| r.vps[&vps].firewall_policy.clone().unwrap());
    assert_eq!(applied["name"], "a");
    let dedicated = env.sb.service_of_kind("dedicated").unwrap().id;
    let r = env
        .bearer("POST", &format!("/v1/vps/{dedicated}/reboot"), None, &[])
        .await;
    assert_eq!(r.code(), "not_found", "not a VPS");
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
    let r = env
        .bearer("POST", &path, Some(&attach(domain)), &key("att-0"))
        .await;
    assert_eq!(r.code(), "validation_error", "a domain is not a server");
    assert_eq!(
        env.bearer("POST", &path, Some(&attach(vps)), &key("att-1"))
            .await
            .status,
        200
    );
    let r = env
        .bearer("POST", &path, Some(&attach(other)), &key("att-2"))
        .await;
    assert_eq!(r.code(), "validation_error", "detach first: {}", r.text);
    let detach = format!("/v1/storage/volumes/{volume}/detach");
    assert_eq!(
        env.bearer("POST", &detach, None, &key("det-1"))
            .await
            .status,
        200
    );
    assert_eq!(
        env.bearer("POST", &path, Some(&attach(other)), &key("att-3"))
            .await
            .status,
        200
    );
    assert_eq!(env.sb.resources(|r| r.volume_attachments[&volume]), other);
    let r = env
        .bearer(
            "POST",
            &format!("/v1/storage/volumes/{vps}/detach"),
            None,
            &key("det-2"),
        )
        .await;
    assert_eq!(r.code(), "not_found", "a VPS is not a volume");
}

#[tokio::test]
async fn ssh_keys_templates_and_contacts_are_kept() {
    let env = Env::new().await;
    let public_key =
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me";
    let r = env
        .bearer(
            "POST",
            "/v1/ssh/keys",
            Some(&json!({"name": "laptop", "public_key": public_key})),
            &key("ssh-1"),
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
    let bad = env
        .bearer(
            "POST",
            "/v1/ssh/keys",
            Some(&json!({"name": "x", "public_key": "not a key"})),
            &key("ssh-2"),
        )
        .await;
    assert_eq!(bad.code(), "validation_error");
    assert_eq!(env.sb.ssh_keys().len(), 1);

    let template = |name: &str| json!({"name": name, "zone_file": "@ 3600 IN A 192.0.2.1\n"});
    env.bearer(
        "POST",
        "/v1/dns/templates",
        Some(&template("Web")),
        &key("tpl-1"),
    )
    .await;
    let r = env.bearer("GET", "/v1/dns/templates/web", None, &[]).await;
    assert_eq!(
        (r.status, &r.body["template"]["name"]),
        (200, &json!("Web")),
        "case-insensitive"
    );
    let r = env
        .bearer("GET", "/v1/dns/templates/DEFAULT", None, &[])
        .await;
    assert_eq!(
        r.body["template"]["system"], true,
        "system templates after own ones"
    );
    env.bearer(
        "POST",
        "/v1/dns/templates",
        Some(&template("web")),
        &key("tpl-2"),
    )
    .await;
    let r = env.bearer("GET", "/v1/dns/templates/web", None, &[]).await;
    assert_eq!(r.code(), "template_identifier_ambiguous");
    let list = env.bearer("GET", "/v1/dns/templates", None, &[]).await;
    let items = list.body["templates"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert!(
        items
            .iter()
            .all(|t| t.get("zoneFile").is_none() && t["isHidden"] == false)
    );

    let domain = env.sb.service_of_kind("domain").unwrap().hostname;
    let assign = |id: &serde_json::Value| json!({"contact_ids": {"registrant": id}});
    let path = format!("/v1/domains/{domain}/contacts");
    let r = env
        .bearer(
            "PUT",
            &path,
            Some(&assign(&json!(uuid::Uuid::new_v4()))),
            &key("assign-0"),
        )
        .await;
    assert_eq!(r.code(), "not_found", "an unknown contact");
    let contact = json!({"first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.com", "phone": "+44.1",
        "address": {"street": "S", "number": "1", "city": "London", "zipcode": "N1", "country": "GB"}});
    let c = env
        .bearer(
            "POST",
            "/v1/domains/contacts",
            Some(&contact),
            &key("contact-1"),
        )
        .await;
    assert_eq!(c.body["contact"]["country"], "GB", "{}", c.text);
    let r = env
        .bearer(
            "PUT",
            &path,
            Some(&assign(&c.body["contact"]["id"])),
            &key("assign-1"),
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
    let cycle = json!({"unit": "QUARTAL", "count": 2});
    let r = env
        .bearer(
            "POST",
            &format!("/v1/services/{}/billing/change/checkout", vps.id),
            Some(&cycle),
            &key("chg-1"),
        )
        .await;
    assert_eq!(
        (r.status, &r.body["applied"]),
        (200, &json!(true)),
        "{}",
        r.text
    );
    let changed = env
        .sb
        .services()
        .into_iter()
        .find(|s| s.id == vps.id)
        .unwrap();
    assert_eq!(
        (changed.billing_unit.as_str(), changed.billing_count),
        ("QUARTAL", 2)
    );
    let r = env
        .bearer(
            "POST",
            &format!("/v1/services/{}/billing/change/checkout", vps.id),
            Some(&json!({"unit": "DECADE", "count": 1})),
            &key("chg-2"),
        )
        .await;
    assert_eq!(r.code(), "validation_error");

    let before = env.sb.balance();
    let renew = json!({"unit": "MONTH", "count": 1});
    let r = env
        .bearer(
            "POST",
            &format!("/v1/services/{}/renewal/checkout", vps.id),
            Some(&renew),
            &key("renew-1"),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let paid: rust_decimal::Decimal = r.body["payNow"].as_str().unwrap().parse().unwrap();
    assert!(paid > rust_decimal::Decimal::ZERO);
    assert_eq!(env.sb.balance(), before - paid, "paid from balance");
    let terminated = env.sb.add_service("vps", "old.example.net", "terminated");
    let r = env
        .bearer(
            "POST",
            &format!("/v1/services/{terminated}/renewal/checkout"),
            Some(&renew),
            &key("renew-2"),
        )
        .await;
    assert_eq!(r.code(), "service_not_renewable");

    let grouped = env
        .bearer("GET", "/v1/services/grouped?status=all", None, &[])
        .await;
    let total: usize = grouped.body["groups"]
        .as_object()
        .unwrap()
        .values()
        .map(|g| g.as_array().unwrap().len())
        .sum();
    assert_eq!(total, env.sb.services().len());
    let active = env
        .bearer("GET", "/v1/services/grouped?type=vps", None, &[])
        .await;
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
