//! usrsctp's clock and random numbers, made virtual: the harness's [`SimTime`] and a seeded
//! stream instead of the wall clock and the kernel's entropy.
//!
//! usrsctp (user space) reads the time with `gettimeofday` (`SCTP_GETTIME_TIMEVAL`,
//! `netinet/sctp_constants.h`) for RTT samples and, decisively, when a T3-rtx timer expires:
//! `sctp_mark_all_for_resend` (`netinet/sctp_timer.c`) marks for retransmission only the chunks
//! sent at least one RTO ago *by that clock*. Driven in virtual time, where a 3 s RTO passes in
//! microseconds of real time, no chunk ever qualifies: the timer fires, backs off and
//! retransmits nothing, and the association stalls for minutes (2.3 % of 8,000 lossy runs did,
//! before this module). It takes random numbers (verification tags, initial TSNs, cookie
//! secrets) from `read_random`, which calls the `getrandom` system call: a run could not be
//! repeated from its seed.
//!
//! Both are reached through the dynamic linker (`libusrsctp.so.2` imports `gettimeofday` from
//! libc and calls its own exported `read_random` through its PLT), so definitions in the
//! executable take precedence once it exports its symbols (`build.rs`:
//! `-Wl,--export-dynamic` for this package's binaries and tests). Rust's standard library
//! reads time with `clock_gettime`, so nothing else in the process is affected.
//!
//! [`SimTime`]: sctpsim_kernel::SimTime

#![allow(unsafe_code)]

use core::ffi::{c_int, c_long, c_void};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use sctpsim_kernel::{Rng, SimTime};

/// Where the virtual clock starts, s since the epoch: far enough from 0 that usrsctp's
/// "now − RTO" never goes below zero (it then marks every chunk, `sctp_mark_all_for_resend`).
pub const EPOCH_S: u64 = 1_000_000;

/// Virtual time, ns since [`EPOCH_S`]: the run's offset plus its [`SimTime`].
static NOW_NS: AtomicU64 = AtomicU64::new(0);
/// Where the current run's time 0 lies on that clock: each run starts 1 s after the last
/// instant of the previous one, so usrsctp's clock never goes back between runs.
static RUN_OFFSET_NS: AtomicU64 = AtomicU64::new(0);
/// usrsctp's random stream (`None` until the first run seeds it).
static RANDOM: Mutex<Option<Rng>> = Mutex::new(None);

/// Starts a run at virtual time 0 with usrsctp's random numbers seeded from `seed`.
pub fn begin_run(seed: u64) {
    // The interposers must be linked into the executable for the dynamic linker to find them.
    let gtod: unsafe extern "C" fn(*mut Timeval, *mut c_void) -> c_int = gettimeofday;
    let rr: unsafe extern "C" fn(*mut c_void, usize) = read_random;
    std::hint::black_box((gtod, rr));
    let start = NOW_NS.load(Ordering::Relaxed) + 1_000_000_000;
    RUN_OFFSET_NS.store(start, Ordering::Relaxed);
    NOW_NS.store(start, Ordering::Relaxed);
    *RANDOM.lock().unwrap_or_else(|e| e.into_inner()) = Some(Rng::from_seed(seed));
}

/// Sets usrsctp's clock to the run's `now` (the harness calls it before every call into
/// usrsctp).
pub fn set_now(now: SimTime) {
    let t = RUN_OFFSET_NS.load(Ordering::Relaxed) + now.as_nanos();
    NOW_NS.store(t, Ordering::Relaxed);
}

/// `struct timeval` on Linux (x86-64 and aarch64: two longs).
#[repr(C)]
pub struct Timeval {
    tv_sec: c_long,
    tv_usec: c_long,
}

/// The virtual clock in place of libc's `gettimeofday` (POSIX.1-2008). Never fails.
///
/// # Safety
/// `tv` is null or points to a writable `struct timeval`, as for libc's.
#[no_mangle]
pub unsafe extern "C" fn gettimeofday(tv: *mut Timeval, _tz: *mut c_void) -> c_int {
    if !tv.is_null() {
        let ns = NOW_NS.load(Ordering::Relaxed);
        let us = ns / 1_000;
        // SAFETY: the caller passes a valid timeval (checked non-null).
        unsafe {
            (*tv).tv_sec = (EPOCH_S + us / 1_000_000) as c_long;
            (*tv).tv_usec = (us % 1_000_000) as c_long;
        }
    }
    0
}

/// Seeded bytes in place of usrsctp's `read_random` (`user_environment.c`).
///
/// # Safety
/// `buf` points to `size` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn read_random(buf: *mut c_void, size: usize) {
    if buf.is_null() || size == 0 {
        return;
    }
    let mut guard = RANDOM.lock().unwrap_or_else(|e| e.into_inner());
    let rng = guard.get_or_insert_with(|| Rng::from_seed(0));
    // SAFETY: the caller passes `size` writable bytes.
    let out = unsafe { std::slice::from_raw_parts_mut(buf as *mut u8, size) };
    for chunk in out.chunks_mut(8) {
        let v = rng.next_u64().to_le_bytes();
        chunk.copy_from_slice(&v[..chunk.len()]);
    }
}

/// Whether usrsctp reads the virtual clock (the executable exports [`gettimeofday`]): asks
/// libc's resolution of the symbol, as usrsctp's PLT would, through `dlsym(RTLD_DEFAULT, ...)`.
pub fn interposed() -> bool {
    extern "C" {
        fn dlsym(handle: *mut c_void, symbol: *const core::ffi::c_char) -> *mut c_void;
    }
    // SAFETY: RTLD_DEFAULT (null) and a NUL-terminated name.
    let p = unsafe { dlsym(core::ptr::null_mut(), c"gettimeofday".as_ptr()) };
    let ours: unsafe extern "C" fn(*mut Timeval, *mut c_void) -> c_int = gettimeofday;
    p as usize == ours as usize
}
