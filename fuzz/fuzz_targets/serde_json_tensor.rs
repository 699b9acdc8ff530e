//! `serde_json::from_slice::<AnyTensor>` (the `serde` feature) on
//! arbitrary bytes: never a panic; what it accepts is whole, and
//! serializing it reads back to the same tensor.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shaped::AnyTensor;
use shaped_fuzz::{assert_same, consistent};

fuzz_target!(|data: &[u8]| {
    let Ok(t) = serde_json::from_slice::<AnyTensor>(data) else {
        return;
    };
    consistent(&t);
    let json = serde_json::to_vec(&t).unwrap_or_else(|e| panic!("cannot write what was read: {e}"));
    let back = serde_json::from_slice::<AnyTensor>(&json)
        .unwrap_or_else(|e| panic!("cannot read what was written: {e}"));
    assert_same(&t, &back, "written and read back");
});
