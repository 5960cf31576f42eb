//! Pagination: the three models of reference 4.0 (page, cursor, offset) behind one abstraction,
//! and a lazy `Stream` of items across pages.

use std::collections::VecDeque;
use std::fmt;
use std::future::Future;

use futures::Stream;

use crate::error::Error;
use crate::response::Response;

/// Where the next page starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Continuation {
    /// Page model: request this `page`.
    Page(u64),
    /// Cursor model: pass this `cursor` unchanged.
    Cursor(String),
    /// Offset model: request this `offset`.
    Offset(u64),
}

impl fmt::Display for Continuation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Continuation::Page(p) => write!(f, "page={p}"),
            Continuation::Cursor(c) => write!(f, "cursor={c}"),
            Continuation::Offset(o) => write!(f, "offset={o}"),
        }
    }
}

/// A page of a paginated list response.
pub trait Paginated {
    /// The item type.
    type Item;
    /// Where the next page starts; `None` when this was the last page.
    fn next_continuation(&self) -> Option<Continuation>;
    /// The items of this page.
    fn into_items(self) -> Vec<Self::Item>;
}

/// Page model: `Some(Page(page + 1))` unless `page >= pages` or the page was empty.
/// A missing `page` counts as page 1; a missing `pages` means "until an empty page".
pub fn next_page(page: Option<u64>, pages: Option<u64>, items_empty: bool) -> Option<Continuation> {
    if items_empty {
        return None;
    }
    let page = page.unwrap_or(1);
    match pages {
        Some(pages) if page >= pages => None,
        _ => page.checked_add(1).map(Continuation::Page),
    }
}

/// Cursor model: pass `next_cursor` unchanged; `null` (or an empty string) means finished.
pub fn next_cursor(next_cursor: Option<&str>) -> Option<Continuation> {
    next_cursor
        .filter(|c| !c.is_empty())
        .map(|c| Continuation::Cursor(c.to_owned()))
}

/// Offset model: use `next_offset`; `null` means finished.
pub fn next_offset(next_offset: Option<u64>) -> Option<Continuation> {
    next_offset.map(Continuation::Offset)
}

enum Next {
    First,
    Then(Continuation),
    Done,
}

/// Lazily fetches one page at a time and yields its items; `fetch(None)` is the first page.
///
/// The stream ends when a page has no continuation (rules of [`next_page`], [`next_cursor`],
/// [`next_offset`]), after the first error, or when the server repeats the continuation it was
/// just given (a guard against endless loops).
pub fn stream<'a, P, F, Fut>(fetch: F) -> impl Stream<Item = Result<P::Item, Error>> + 'a
where
    P: Paginated + 'a,
    P::Item: 'a,
    F: FnMut(Option<Continuation>) -> Fut + 'a,
    Fut: Future<Output = Result<Response<P>, Error>> + 'a,
{
    let state = (fetch, Next::First, VecDeque::<P::Item>::new());
    futures::stream::unfold(state, |(mut fetch, mut next, mut buffer)| async move {
        loop {
            if let Some(item) = buffer.pop_front() {
                return Some((Ok(item), (fetch, next, buffer)));
            }
            // Release the drained page's allocation before fetching the next one, so at most
            // one page is held in memory.
            buffer = VecDeque::new();
            let current = match next {
                Next::Done => return None,
                Next::First => None,
                Next::Then(c) => Some(c),
            };
            match fetch(current.clone()).await {
                Err(e) => return Some((Err(e), (fetch, Next::Done, buffer))),
                Ok(response) => {
                    let page = response.into_body();
                    next = match page.next_continuation() {
                        Some(c) if Some(&c) != current.as_ref() => Next::Then(c),
                        _ => Next::Done,
                    };
                    buffer = page.into_items().into();
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_rules() {
        assert_eq!(
            next_page(Some(1), Some(3), false),
            Some(Continuation::Page(2))
        );
        assert_eq!(next_page(Some(3), Some(3), false), None);
        assert_eq!(next_page(Some(4), Some(3), false), None);
        assert_eq!(next_page(Some(1), Some(3), true), None);
        assert_eq!(next_page(None, None, false), Some(Continuation::Page(2)));
        assert_eq!(next_page(Some(1), Some(0), false), None);
    }

    #[test]
    fn cursor_and_offset_rules() {
        assert_eq!(next_cursor(None), None);
        assert_eq!(next_cursor(Some("")), None);
        assert_eq!(
            next_cursor(Some("abc")),
            Some(Continuation::Cursor("abc".into()))
        );
        assert_eq!(next_offset(None), None);
        assert_eq!(next_offset(Some(50)), Some(Continuation::Offset(50)));
    }
}
