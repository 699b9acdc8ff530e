//! `safetensors::from_bytes` on arbitrary bytes: never a panic; what it
//! accepts is whole, Hugging Face's reader accepts too and reads as the
//! same tensors (names, dtypes, shapes, bytes), and our writer writes back
//! to the same tensors.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shaped::io::safetensors;
use shaped::{AnyTensor, DType};
use shaped_fuzz::{as_refs, assert_same_set, consistent};

/// The reference crate's name of the dtype a tensor is stored as (the
/// check's own table, not the library's private one that it checks).
fn stored_dtype(t: &AnyTensor) -> &'static str {
    match t.dtype() {
        DType::Bool => "BOOL",
        DType::U8 => "U8",
        DType::I8 => "I8",
        DType::I16 => "I16",
        DType::I32 => "I32",
        DType::I64 => "I64",
        DType::F16 => "F16",
        DType::BF16 => "BF16",
        DType::F32 => "F32",
        DType::F64 | DType::C128 => "F64",
        DType::C64 => "C64",
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(ours) = safetensors::from_bytes(data) else {
        return;
    };
    let reference = ::safetensors::SafeTensors::deserialize(data)
        .unwrap_or_else(|e| panic!("accepted a file the reference reader refuses: {e}"));
    assert_eq!(ours.len(), reference.len(), "tensor count vs the reference");
    for (name, t) in &ours {
        consistent(t);
        let r = reference
            .tensor(name)
            .unwrap_or_else(|e| panic!("tensor '{name}' is not the reference's: {e}"));
        // complex128 is stored as float64 pairs: a trailing 2.
        let mut shape = t.shape();
        if t.dtype() == DType::C128 {
            shape.push(2);
        }
        assert_eq!(
            format!("{:?}", r.dtype()),
            stored_dtype(t),
            "'{name}': dtype"
        );
        assert_eq!(r.shape(), &shape[..], "'{name}': shape");
        assert!(r.data() == &*t.bytes(), "'{name}': bytes differ");
    }
    let written = safetensors::to_bytes(&as_refs(&ours), None)
        .unwrap_or_else(|e| panic!("cannot write what was read: {e}"));
    let back = safetensors::from_bytes(&written)
        .unwrap_or_else(|e| panic!("cannot read what was written: {e}"));
    assert_same_set(&ours, &back, "written and read back");
});
