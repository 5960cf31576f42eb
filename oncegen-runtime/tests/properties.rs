//! Property tests: signing, key and header validation, backoff bounds, pagination termination.

use std::time::Duration;

use futures::StreamExt;
use oncegen_runtime::idempotency::{is_valid_client_request_id, is_valid_idempotency_key};
use oncegen_runtime::pagination::{self, Continuation, Paginated};
use oncegen_runtime::signing::{
    DefaultSigner, Signer, SigningInput, canonical_string, content_sha256,
};
use oncegen_runtime::{Error, Response, ResponseMeta, RetryPolicy};
use proptest::prelude::*;

proptest! {
    #[test]
    fn valid_keys_accepted(key in "[A-Za-z0-9._:-]{8,128}") {
        prop_assert!(is_valid_idempotency_key(&key));
    }

    #[test]
    fn keys_with_other_chars_rejected(prefix in "[A-Za-z0-9]{8}", bad in "[^A-Za-z0-9._:-]") {
        let key = format!("{prefix}{bad}");
        prop_assert!(!is_valid_idempotency_key(&key));
    }

    #[test]
    fn short_or_long_keys_rejected(len in prop_oneof![0usize..8, 129usize..300]) {
        prop_assert!(!is_valid_idempotency_key(&"a".repeat(len)));
    }

    #[test]
    fn client_request_ids(id in "[A-Za-z0-9][A-Za-z0-9._:-]{0,119}") {
        prop_assert!(is_valid_client_request_id(&id));
        let bad_first = format!("-{id}");
        prop_assert!(!is_valid_client_request_id(&bad_first));
    }

    #[test]
    fn signature_binds_every_field(
        method in "(GET|POST|PUT|PATCH|DELETE)",
        target in "/v1/[a-z0-9/]{0,30}(\\?[a-z]=[0-9]{1,3})?",
        ts in 1_000_000_000u64..3_000_000_000,
        nonce in "[A-Za-z0-9_-]{8,40}",
        body in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        let hash = content_sha256(&body);
        let ts = ts.to_string();
        let input = SigningInput { method: &method, path_and_query: &target, timestamp: &ts, nonce: &nonce, content_sha256: &hash, body: &body };
        let sig = DefaultSigner.sign(b"secret", &input);
        prop_assert_eq!(&sig, &DefaultSigner.sign(b"secret", &input));
        prop_assert!((10..=300).contains(&sig.len()));
        prop_assert_eq!(canonical_string(&input).lines().count(), 6);
        let other_nonce = format!("{nonce}x");
        let changed = SigningInput { nonce: &other_nonce, ..input };
        prop_assert_ne!(&sig, &DefaultSigner.sign(b"secret", &changed));
        prop_assert_ne!(&sig, &DefaultSigner.sign(b"other", &input));
        let mut other_body = body.clone();
        other_body.push(0);
        prop_assert_ne!(hash, content_sha256(&other_body));
    }

    #[test]
    fn backoff_is_bounded(initial_ms in 1u64..1000, max_ms in 1u64..10_000, retry in 0u32..100) {
        let p = RetryPolicy {
            initial_backoff: Duration::from_millis(initial_ms),
            max_backoff: Duration::from_millis(max_ms),
            ..RetryPolicy::default()
        };
        let ceiling = p.backoff_ceiling(retry);
        prop_assert!(ceiling <= Duration::from_millis(max_ms));
        prop_assert!(p.backoff(retry) <= ceiling);
        prop_assert!(p.backoff_ceiling(retry) <= p.backoff_ceiling(retry + 1));
    }

    #[test]
    fn next_page_terminates(page in 1u64..1000, pages in 0u64..1000, empty in any::<bool>()) {
        match pagination::next_page(Some(page), Some(pages), empty) {
            Some(Continuation::Page(n)) => prop_assert!(!empty && page < pages && n == page + 1),
            None => prop_assert!(empty || page >= pages),
            Some(other) => prop_assert!(false, "unexpected {:?}", other),
        }
    }

    #[test]
    fn offset_stream_yields_every_item_once(total in 0u64..120, limit in 1u64..30) {
        struct OffsetBody { items: Vec<u64>, next_offset: Option<u64> }
        impl Paginated for OffsetBody {
            type Item = u64;
            fn next_continuation(&self) -> Option<Continuation> { pagination::next_offset(self.next_offset) }
            fn into_items(self) -> Vec<u64> { self.items }
        }
        let stream = pagination::stream::<OffsetBody, _, _>(move |cont| {
            let offset = match cont { None => 0, Some(Continuation::Offset(o)) => o, _ => unreachable!() };
            let end = (offset + limit).min(total);
            let body = OffsetBody { items: (offset..end).collect(), next_offset: (end < total).then_some(end) };
            async move { Ok::<_, Error>(Response::new(body, 200, ResponseMeta::default())) }
        });
        let items: Vec<u64> = futures::executor::block_on(stream.map(Result::unwrap).collect());
        prop_assert_eq!(items, (0..total).collect::<Vec<_>>());
    }

    #[test]
    fn page_stream_terminates(pages in 0u64..20, per_page in 0usize..5) {
        struct PageBody { page: u64, pages: u64, items: Vec<u64> }
        impl Paginated for PageBody {
            type Item = u64;
            fn next_continuation(&self) -> Option<Continuation> { pagination::next_page(Some(self.page), Some(self.pages), self.items.is_empty()) }
            fn into_items(self) -> Vec<u64> { self.items }
        }
        let stream = pagination::stream::<PageBody, _, _>(move |cont| {
            let page = match cont { None => 1, Some(Continuation::Page(p)) => p, _ => unreachable!() };
            let items = if page <= pages { vec![page; per_page] } else { vec![] };
            async move { Ok::<_, Error>(Response::new(PageBody { page, pages, items }, 200, ResponseMeta::default())) }
        });
        let items: Vec<u64> = futures::executor::block_on(stream.map(Result::unwrap).collect());
        let expected = if per_page == 0 { 0 } else { pages.max(if pages == 0 { 0 } else { 1 }) as usize * per_page };
        prop_assert_eq!(items.len(), expected);
    }
}
