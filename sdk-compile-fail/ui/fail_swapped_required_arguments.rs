//! Two required values of one type cannot be passed crossed: `dedicated_task` takes its two
//! uuids named, in one struct, so a positional call (here with the values in the wrong order)
//! does not compile; nor does the struct with one of them left out.

use customer_cloud_sdk::Client;
use customer_cloud_sdk::dedicated_servers::DedicatedTaskArgs;
use uuid::Uuid;

pub fn crossed(client: &Client, service_id: Uuid, task_id: Uuid) {
    let _ = client.dedicated_task(task_id, service_id);
    let _ = client.dedicated_task(DedicatedTaskArgs { service_id });
}

fn main() {}
