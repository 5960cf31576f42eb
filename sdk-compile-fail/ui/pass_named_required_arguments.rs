//! Required values named at the call site compile in any order, and each lands in its field.

use customer_cloud_sdk::Client;
use customer_cloud_sdk::dedicated_servers::DedicatedTaskArgs;
use uuid::Uuid;

pub fn named(client: &Client, service_id: Uuid, task_id: Uuid) {
    let _ = client.dedicated_task(DedicatedTaskArgs { task_id, service_id });
}

fn main() {
    let (service_id, task_id) = (Uuid::nil(), Uuid::max());
    let args = DedicatedTaskArgs { task_id, service_id };
    assert_eq!((args.service_id, args.task_id), (service_id, task_id));
}
