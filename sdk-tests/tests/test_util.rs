//! The `test-util` feature: applications build response values in their own tests with struct
//! literals (response types are `non_exhaustive` only without it).

use customer_cloud_sdk::types::{Operation, OperationEnvelope, OperationResult, OperationStatus};

#[test]
fn response_types_can_be_built_in_tests() {
    let envelope = OperationEnvelope {
        ok: true,
        operation: Operation {
            id: "op_1".to_owned(),
            status: OperationStatus::Succeeded,
            done: true,
            progress: None,
            stage: customer_cloud_sdk::Nullable::Absent,
            result: Some(OperationResult {
                service_ids: Some(vec![uuid::Uuid::nil()]),
                order_id: None,
                invoice_id: None,
                service_id: None,
                power_state: None,
                additional_properties: Default::default(),
            }),
            links: None,
            additional_properties: Default::default(),
        },
    };
    let json = serde_json::to_value(&envelope).expect("serializes");
    assert_eq!(json["operation"]["status"], "succeeded");
    assert_eq!(
        json["operation"]["result"]["service_ids"][0],
        "00000000-0000-0000-0000-000000000000"
    );
    let back: OperationEnvelope = serde_json::from_value(json).expect("round-trips");
    assert_eq!(back, envelope);
}
