//! Exit codes, by class of failure: the one table scripts rely on (shown by `--help`).

/// The command succeeded.
pub const OK: u8 = 0;
/// Any other failure: the network, a timeout of a read, the journal, an answer that did not
/// decode.
pub const OTHER: u8 = 1;
/// Bad usage: an unknown command or flag, a value or `--json` body that does not decode, a
/// missing configuration (clap's own code for usage errors).
pub const USAGE: u8 = 2;
/// The API rejected the request (400, 422 and other 4xx not listed below).
pub const REJECTED: u8 = 3;
/// Not authenticated or not allowed (401, 403).
pub const AUTH: u8 = 4;
/// Not found (404, 410).
pub const NOT_FOUND: u8 = 5;
/// Conflict (409, 412).
pub const CONFLICT: u8 = 6;
/// Rate limited (429) after the SDK's own waits.
pub const RATE_LIMITED: u8 = 7;
/// A write's outcome is unknown: it may have been applied. Do not re-run it with a new
/// idempotency key; its entry is in the write journal.
pub const OUTCOME_UNKNOWN: u8 = 8;
/// The server failed (5xx).
pub const SERVER: u8 = 9;

/// The table as `--help` shows it.
pub const TABLE: &str = "\
Exit codes:
  0  success
  1  other failure (network, timeout of a read, journal, undecodable answer)
  2  usage: unknown command or flag, bad value or --json body, missing configuration
  3  rejected by the API (400, 422, other 4xx)
  4  authentication or permission (401, 403)
  5  not found (404, 410)
  6  conflict (409, 412)
  7  rate limited (429)
  8  outcome unknown: a write may have been applied; do not re-run it under a new key
  9  server error (5xx)";

/// The class of an HTTP error status.
pub fn of_status(status: u16) -> u8 {
    match status {
        401 | 403 => AUTH,
        404 | 410 => NOT_FOUND,
        409 | 412 => CONFLICT,
        429 => RATE_LIMITED,
        500.. => SERVER,
        _ => REJECTED,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_every_code_once() {
        for code in [
            OK,
            OTHER,
            USAGE,
            REJECTED,
            AUTH,
            NOT_FOUND,
            CONFLICT,
            RATE_LIMITED,
            OUTCOME_UNKNOWN,
            SERVER,
        ] {
            let line = format!("\n  {code}  ");
            assert_eq!(TABLE.matches(&line).count(), 1, "code {code}");
        }
    }

    #[test]
    fn statuses_fall_in_their_class() {
        assert_eq!(of_status(400), REJECTED);
        assert_eq!(of_status(422), REJECTED);
        assert_eq!(of_status(403), AUTH);
        assert_eq!(of_status(404), NOT_FOUND);
        assert_eq!(of_status(409), CONFLICT);
        assert_eq!(of_status(429), RATE_LIMITED);
        assert_eq!(of_status(503), SERVER);
    }
}
