//! Probable renames: a removed and an added item of the same shape in the same place are one
//! change, when the match is unambiguous.

use std::collections::BTreeMap;

/// Removed key → added key, for removed and added entries that `same` matches one to one: a
/// removed entry is paired when exactly one added entry matches it and that entry matches no
/// other removed one.
pub(super) fn pairs<'a, V>(
    old: &'a BTreeMap<String, V>,
    new: &'a BTreeMap<String, V>,
    same: impl Fn(&V, &V) -> bool,
) -> BTreeMap<&'a str, &'a str> {
    let removed: Vec<(&str, &V)> = old
        .iter()
        .filter(|(k, _)| !new.contains_key(*k))
        .map(|(k, v)| (k.as_str(), v))
        .collect();
    let added: Vec<(&str, &V)> = new
        .iter()
        .filter(|(k, _)| !old.contains_key(*k))
        .map(|(k, v)| (k.as_str(), v))
        .collect();
    let matches = |r: &V| -> Vec<&str> {
        added
            .iter()
            .filter(|(_, a)| same(r, a))
            .map(|(k, _)| *k)
            .collect()
    };
    removed
        .iter()
        .filter_map(|(old_key, r)| match matches(r).as_slice() {
            [new_key] => {
                let target = &new[*new_key];
                let rivals = removed
                    .iter()
                    .filter(|(_, other)| same(other, target))
                    .count();
                (rivals == 1).then_some((*old_key, *new_key))
            }
            _ => None,
        })
        .collect()
}

/// The one removed and the one added value of a list, when exactly one of each changed.
pub(super) fn single<'a>(old: &'a [String], new: &'a [String]) -> Option<(&'a str, &'a str)> {
    let removed: Vec<&String> = old.iter().filter(|v| !new.contains(v)).collect();
    let added: Vec<&String> = new.iter().filter(|v| !old.contains(v)).collect();
    match (removed.as_slice(), added.as_slice()) {
        ([r], [a]) => Some((r.as_str(), a.as_str())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(entries: &[(&str, &str)]) -> BTreeMap<String, String> {
        entries
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn only_one_to_one_matches_pair() {
        let same = |a: &String, b: &String| a == b;
        let old = map(&[("public_key", "String"), ("size", "i64"), ("kept", "bool")]);
        let new = map(&[("openssh_key", "String"), ("bits", "u32"), ("kept", "bool")]);
        assert_eq!(
            pairs(&old, &new, same),
            BTreeMap::from([("public_key", "openssh_key")])
        );
        // Two removed strings and one added: which one was renamed is not known.
        let old = map(&[("a", "String"), ("b", "String")]);
        let new = map(&[("c", "String")]);
        assert!(pairs(&old, &new, same).is_empty());
        // One removed string and two added.
        let old = map(&[("a", "String")]);
        let new = map(&[("b", "String"), ("c", "String")]);
        assert!(pairs(&old, &new, same).is_empty());
    }

    #[test]
    fn a_single_value_swapped_is_one_rename() {
        let list = |items: &[&str]| items.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            single(
                &list(&["active", "revoked"]),
                &list(&["active", "disabled"])
            ),
            Some(("revoked", "disabled"))
        );
        assert_eq!(single(&list(&["a"]), &list(&["b", "c"])), None);
        assert_eq!(single(&list(&["a"]), &list(&["a", "b"])), None);
    }
}
