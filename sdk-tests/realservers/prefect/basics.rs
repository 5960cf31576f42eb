//! Prefect through the generated SDK: what works with the generator as it is (JSON bodies, path
//! and query parameters, optional bodies, maps and unions). Every call goes to the real server.

use prefect_driver::{Context, check, ensure, ensure_eq, env, unique};
use sdk::flows::{Flow, FlowCreate, FlowCreateLabelsValue};
use serde_json::json;

#[tokio::main]
async fn main() {
    let client = sdk::Client::new(sdk::Config::new(env("SERVER_URL"))).expect("client");
    let flow_name = unique("flow");
    check("health_and_version", health_and_version(&client)).await;
    let flow = create_flow(&client, &flow_name).await;
    let read = create_and_read_flow_by_id_and_name(&client, &flow, &flow_name);
    check("create_and_read_flow_by_id_and_name", read).await;
    check(
        "filter_and_count_flows",
        filter_and_count_flows(&client, &flow),
    )
    .await;
    check("update_flow_tags", update_flow_tags(&client, &flow)).await;
    let states = flow_run_states_by_query_parameter(&client, &flow);
    check("flow_run_states_by_query_parameter", states).await;
    check("create_and_filter_logs", create_and_filter_logs(&client)).await;
    let variables = variables_round_trip_values_with_nulls_inside(&client);
    check("variables_round_trip_values_with_nulls_inside", variables).await;
    check("delete_flow", async {
        client
            .delete_flow_flows_id_delete(flow.id)
            .send()
            .await
            .ctx("delete_flow")?;
        Ok(())
    })
    .await;
}

async fn health_and_version(client: &sdk::Client) -> Result<(), String> {
    let healthy = client
        .health_check_health_get()
        .send()
        .await
        .ctx("health")?
        .into_body();
    ensure(format!("{healthy:?}").contains("true"), || {
        format!("health: {healthy:?}")
    })?;
    let version = client
        .server_version_version_get()
        .send()
        .await
        .ctx("version")?
        .into_body();
    ensure(!format!("{version:?}").is_empty(), || "no version".into())
}

/// The flow `name`, tagged `a` and `b` and labelled with a string and an integer; every later
/// check needs it, so failing to create it ends the program.
async fn create_flow(client: &sdk::Client, name: &str) -> Flow {
    let labels = std::collections::BTreeMap::from([
        (
            "team".to_owned(),
            FlowCreateLabelsValue::String("data".into()),
        ),
        ("tier".to_owned(), FlowCreateLabelsValue::Integer(2)),
    ]);
    client
        .create_flow_flows_post(
            FlowCreate::new(name)
                .tags(vec!["a".to_owned(), "b".into()])
                .labels(labels),
        )
        .send()
        .await
        .expect("create_flow")
        .into_body()
}

async fn create_and_read_flow_by_id_and_name(
    client: &sdk::Client,
    flow: &Flow,
    flow_name: &str,
) -> Result<(), String> {
    ensure_eq("name", flow.name.as_str(), flow_name)?;
    ensure_eq(
        "tags",
        flow.tags.clone(),
        Some(vec!["a".to_owned(), "b".into()]),
    )?;
    let by_id = client
        .read_flow_flows_id_get(flow.id)
        .send()
        .await
        .ctx("read_flow")?
        .into_body();
    ensure_eq("id", by_id.id, flow.id)?;
    let labels = format!("{:?}", by_id.labels);
    ensure(labels.contains("data") && labels.contains('2'), || {
        format!("labels {labels}")
    })?;
    let by_name = client
        .read_flow_by_name_flows_name_name_get(flow_name)
        .send()
        .await
        .ctx("read_flow_by_name")?
        .into_body();
    ensure_eq("id by name", by_name.id, flow.id)
}

async fn filter_and_count_flows(client: &sdk::Client, flow: &Flow) -> Result<(), String> {
    let flows = client
        .read_flows_flows_filter_post()
        .body(sdk::flows::BodyReadFlowsFlowsFilterPost::new().limit(200))
        .send()
        .await
        .ctx("read_flows")?
        .into_body();
    ensure(flows.iter().any(|f| f.id == flow.id), || {
        "created flow not listed".into()
    })?;
    let count = client
        .count_flows_flows_count_post()
        .send()
        .await
        .ctx("count_flows")?
        .into_body();
    ensure(count >= 1, || format!("count {count}"))
}

async fn update_flow_tags(client: &sdk::Client, flow: &Flow) -> Result<(), String> {
    client
        .update_flow_flows_id_patch(
            flow.id,
            sdk::flows::FlowUpdate::new().tags(vec!["c".to_owned()]),
        )
        .send()
        .await
        .ctx("update_flow")?;
    let read = client
        .read_flow_flows_id_get(flow.id)
        .send()
        .await
        .ctx("read_flow")?
        .into_body();
    ensure_eq("tags", read.tags, Some(vec!["c".to_owned()]))
}

async fn flow_run_states_by_query_parameter(
    client: &sdk::Client,
    flow: &Flow,
) -> Result<(), String> {
    let run = client
        .create_flow_run_flow_runs_post(sdk::flow_runs::FlowRunCreate::new(flow.id))
        .send()
        .await
        .ctx("create_flow_run")?
        .into_body();
    let read = client
        .read_flow_run_flow_runs_id_get(run.id)
        .send()
        .await
        .ctx("read_flow_run")?
        .into_body();
    ensure_eq("flow id", read.flow_id, flow.id)?;
    let states = client
        .read_flow_run_states_flow_run_states_get(run.id)
        .send()
        .await
        .ctx("read_flow_run_states")?
        .into_body();
    ensure(states.len() <= 1, || format!("{} states", states.len()))
}

async fn create_and_filter_logs(client: &sdk::Client) -> Result<(), String> {
    let message = unique("log line");
    client
        .create_logs_logs_post(vec![sdk::logs::LogCreate::new(sdk::logs::LogCreateArgs {
            level: 20,
            message: message.clone(),
            name: "driver".to_owned(),
            timestamp: serde_json::from_value(json!("2026-01-02T03:04:05Z")).expect("timestamp"),
        })])
        .send()
        .await
        .ctx("create_logs")?;
    let logs = client
        .read_logs_logs_filter_post()
        .body(sdk::logs::BodyReadLogsLogsFilterPost::new().limit(200))
        .send()
        .await
        .ctx("read_logs")?
        .into_body();
    ensure(logs.iter().any(|l| l.message == message), || {
        "log not found".into()
    })
}

async fn variables_round_trip_values_with_nulls_inside(client: &sdk::Client) -> Result<(), String> {
    let name = unique("var").replace('-', "_");
    let value = sdk::variables::VariableCreateValue::List(vec![json!(1), json!(null), json!("x")]);
    let created = client
        .create_variable_variables_post(sdk::variables::VariableCreate::new(
            sdk::variables::VariableCreateArgs {
                name: name.clone(),
                value: Some(value),
            },
        ))
        .send()
        .await
        .ctx("create_variable")?
        .into_body();
    let read = client
        .read_variable_by_name_variables_name_name_get(&name)
        .send()
        .await
        .ctx("read_variable_by_name")?
        .into_body();
    ensure_eq("id", read.id, created.id)?;
    ensure_eq(
        "value",
        serde_json::to_value(&read.value).ctx("encode")?,
        json!([1, null, "x"]),
    )?;
    client
        .delete_variable_by_name_variables_name_name_delete(&name)
        .send()
        .await
        .ctx("delete_variable_by_name")?;
    Ok(())
}
