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
