//! Peak heap while streaming 100,000 items through `oncegen_runtime::pagination::stream` (1,000 per
//! page), against the heap of one decoded page and of all items collected. A counting global
//! allocator measures live heap bytes; the loopback server runs on the same `current_thread`
//! runtime, so its per-page buffers are counted too (one rendered page at a time).
//!
//! `cargo bench -p sdk-benches --bench pagination_memory`
//! Without `--bench` (as under `cargo test --benches`) it runs a quick 2,000-item smoke pass.

use futures::StreamExt;
use oncegen_runtime::pagination::{Continuation, stream};
use oncegen_runtime::{CallOptions, Client, Config, Error, Request, Response};
use sdk_benches::alloc::{self, Counting, human};
use sdk_benches::fixtures::{Item, ItemPage, LIST_ITEMS};
use sdk_benches::server::{ItemsConfig, current_thread_runtime, start};

#[global_allocator]
static ALLOC: Counting = Counting;

async fn fetch(client: &Client, next: Option<Continuation>) -> Result<Response<ItemPage>, Error> {
    let mut request = Request::new(&LIST_ITEMS);
    if let Some(Continuation::Page(page)) = next {
        request.query("page", &page);
    }
    client
        .execute::<ItemPage>(request, CallOptions::default())
        .await
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let items = if full {
        ItemsConfig::default()
    } else {
        ItemsConfig {
            total: 2_000,
            per_page: 1_000,
        }
    };
    let rt = current_thread_runtime();
    rt.block_on(async {
        let base = start(items, None).await;
        let client = Client::new(Config::new(&base).bearer("ccs_bench01.secret")).expect("client");
        // Warm up the connection pool and lazy statics.
        drop(fetch(&client, None).await.expect("first page"));
        let (page_live, page_peak, page_len) = one_page(&client).await;
        let start_time = std::time::Instant::now();
        let (stream_peak, count) = streamed(&client).await;
        let stream_time = start_time.elapsed();
        assert_eq!(count, items.total);
        let (all_live, all_peak) = collected(&client, items.total).await;

        let serialized_page = items.render(1).len();
        println!(
            "pagination_memory: {} items, {} per page ({} pages), page JSON {}",
            items.total,
            page_len,
            items.pages(),
            human(serialized_page as u64)
        );
        println!("| figure | heap bytes | vs one page held |");
        println!("| --- | ---: | ---: |");
        let row = |name: &str, v: usize| {
            println!(
                "| {name} | {} | {:.2}x |",
                human(v as u64),
                v as f64 / page_live as f64
            )
        };
        row("one page held (decoded `Response<ItemPage>`)", page_live);
        row("peak while fetching one page", page_peak);
        row("**peak while streaming all items**", stream_peak);
        row("all items collected (live)", all_live);
        row("peak while collecting all items", all_peak);
        println!(
            "streaming peak / all items collected = {:.3}; streaming time {:.2?} ({:.2} us/item)",
            stream_peak as f64 / all_live as f64,
            stream_time,
            stream_time.as_secs_f64() * 1e6 / count as f64
        );
    });
}

/// One page: bytes live while it is held, peak while fetching it, and its items.
async fn one_page(client: &Client) -> (usize, usize, usize) {
    let base_live = alloc::reset_peak();
    let page = fetch(client, None).await.expect("first page");
    let page_live = alloc::current() - base_live;
    let page_peak = alloc::peak() - base_live;
    (page_live, page_peak, page.body().items.len())
}

/// Streaming, counting the items and keeping none: the peak, and the items counted.
async fn streamed(client: &Client) -> (usize, u64) {
    let base_live = alloc::reset_peak();
    let mut count = 0u64;
    {
        let mut s = std::pin::pin!(stream::<ItemPage, _, _>(|next| fetch(client, next)));
        while let Some(item) = s.next().await {
            let item = item.expect("item");
            assert_eq!(item.index, count, "items arrive in order");
            count += 1;
        }
    }
    (alloc::peak() - base_live, count)
}

/// All `total` items collected: bytes live while they are held, and peak while collecting.
async fn collected(client: &Client, total: u64) -> (usize, usize) {
    let base_live = alloc::reset_peak();
    let all: Vec<Item> = stream::<ItemPage, _, _>(|next| fetch(client, next))
        .map(|r| r.expect("item"))
        .collect()
        .await;
    let all_live = alloc::current() - base_live;
    let all_peak = alloc::peak() - base_live;
    assert_eq!(all.len() as u64, total);
    (all_live, all_peak)
}
