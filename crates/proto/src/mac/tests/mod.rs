//! Tests of the 802.11 MAC, one file per state group, over an in-test ideal channel
//! ([`harness::Net`]).

mod harness;

mod backoff;
mod dup;
mod infra;
mod nav;
mod rate;
mod retry;
mod rts_cts;
mod saturation;
mod timing;
