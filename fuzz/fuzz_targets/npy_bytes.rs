//! `npy::read_npy_bytes` on arbitrary bytes: never a panic; what it
//! accepts is whole, and our writer writes it back to the same array.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shaped::io::npy;
use shaped_fuzz::{assert_same, consistent};

fuzz_target!(|data: &[u8]| {
    let Ok(t) = npy::read_npy_bytes(data) else {
        return;
    };
    consistent(&t);
    let written = npy::npy_bytes(&t).unwrap_or_else(|e| panic!("cannot write what was read: {e}"));
    let back = npy::read_npy_bytes(&written)
        .unwrap_or_else(|e| panic!("cannot read what was written: {e}"));
    assert_same(&t, &back, "written and read back");
});
