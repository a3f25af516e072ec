//! The addresses interfaces get when the scenario gives none. They are part of what a
//! scenario means (checks compare written addresses with them, `sctpsim show` lists them), so
//! they live here; `topology` and `wireless::iface` assign them.

use std::net::Ipv4Addr;

/// The default address of end `end` (0 or 1) of link `k`: 10.(k/256).(k%256).(end+1).
pub fn link_default_addr(k: usize, end: usize) -> Ipv4Addr {
    Ipv4Addr::new(10, ((k >> 8) & 0xFF) as u8, (k & 0xFF) as u8, end as u8 + 1)
}

/// The default address of the wireless interface of node `k`: `10.128.0.0 + (k + 1)`, i.e.
/// `10.(128 + (k+1) / 65536).((k+1) / 256 % 256).((k+1) % 256)` — a block the wired links'
/// default addresses (`10.(j/256).(j%256).x`) reach only beyond 32,768 links.
pub fn wireless_default_addr(k: usize) -> Ipv4Addr {
    let v = 0x0A80_0000u32.wrapping_add(k as u32 + 1);
    Ipv4Addr::from(v)
}
