//! The `test-util` feature: applications build response values in their own tests.

use cloud_sdk::types::{Operation, OperationEnvelope, OperationResult, OperationStatus};

#[test]
fn response_types_can_be_built_and_filled_in_tests() {
    let mut result = OperationResult::new();
    result.service_ids = Some(vec![uuid::Uuid::nil()]);
    let mut operation = Operation::new("op_1", OperationStatus::Succeeded, true);
    operation.result = Some(result);
    let envelope = OperationEnvelope::new(true, operation);
    let json = serde_json::to_value(&envelope).expect("serializes");
    assert_eq!(json["operation"]["status"], "succeeded");
    assert_eq!(
        json["operation"]["result"]["service_ids"][0],
        "00000000-0000-0000-0000-000000000000"
    );
    let back: OperationEnvelope = serde_json::from_value(json).expect("round-trips");
    assert_eq!(back, envelope);
}
