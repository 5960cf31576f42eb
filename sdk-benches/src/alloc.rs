//! A counting global allocator: current and peak live heap bytes.
//!
//! Binaries that want peak-memory figures install it with
//! `#[global_allocator] static A: sdk_benches::alloc::Counting = sdk_benches::alloc::Counting;`.
//! It forwards to the system allocator and keeps two relaxed atomics (one `fetch_add` and one
//! `fetch_max` per allocation), so the overhead is small and the same for every figure compared.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

static ENABLED: AtomicBool = AtomicBool::new(true);
static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The counting allocator (forwards to [`System`]).
pub struct Counting;

// SAFETY: every method forwards to `System` with the caller's arguments unchanged; the counters
// are plain atomics and never influence the returned pointers.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded contract of `GlobalAlloc::alloc`.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded contract of `GlobalAlloc::alloc_zeroed`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded contract of `GlobalAlloc::dealloc`.
        unsafe { System.dealloc(ptr, layout) };
        shrink(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded contract of `GlobalAlloc::realloc`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            shrink(layout.size());
            grow(new_size);
        }
        p
    }
}

fn grow(size: usize) {
    if !ENABLED.load(Ordering::Relaxed) {
        return;
    }
    let now = CURRENT.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

fn shrink(size: usize) {
    if ENABLED.load(Ordering::Relaxed) {
        CURRENT.fetch_sub(size, Ordering::Relaxed);
    }
}

/// Switches counting off for the rest of the process (for timing runs: the counters cost two
/// atomic operations per allocation). Call it first thing in `main`; figures are meaningless
/// afterwards.
pub fn disable_counting() {
    ENABLED.store(false, Ordering::Relaxed);
}

/// Live heap bytes now (only meaningful when [`Counting`] is the global allocator).
pub fn current() -> usize {
    CURRENT.load(Ordering::Relaxed)
}

/// Highest live heap bytes since the last [`reset_peak`].
pub fn peak() -> usize {
    PEAK.load(Ordering::Relaxed)
}

/// Sets the peak to the current live bytes; returns the current live bytes.
pub fn reset_peak() -> usize {
    let now = CURRENT.load(Ordering::Relaxed);
    PEAK.store(now, Ordering::Relaxed);
    now
}

/// Peak resident set size of this process in bytes (`VmHWM` of `/proc/self/status`; Linux only).
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// `n` bytes in KiB/MiB for tables.
pub fn human(n: u64) -> String {
    if n >= 1 << 20 {
        format!("{:.1} MiB", n as f64 / (1 << 20) as f64)
    } else {
        format!("{:.1} KiB", n as f64 / 1024.0)
    }
}
