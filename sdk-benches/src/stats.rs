//! Summary statistics of repeated measurements.

/// The median of `values` (sorts them in place); NaN for none.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// Times `n` sequential calls of `f` (each awaited, its output kept from the optimizer) and
/// returns microseconds per call.
pub async fn per_call<F, Fut>(n: u32, mut f: F) -> f64
where
    F: FnMut() -> Fut,
    Fut: std::future::Future,
{
    let start = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(f().await);
    }
    start.elapsed().as_secs_f64() * 1e6 / f64::from(n)
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&mut []).is_nan());
    }
}
