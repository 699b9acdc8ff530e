//! `npy::read_npz` on arbitrary archives: never a panic; what it accepts
//! is whole, each member reads as `read_npy_bytes` reads its `npy_bytes`,
//! and `load_npz_tensor` agrees with it on every name. There is no reader
//! of archives in memory: the input goes through a file in `/dev/shm`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shaped::dynamic::AnyElement;
use shaped::io::npy;
use shaped::{AnyTensor, DType, DynTensor, Error};
use shaped_fuzz::{Scratch, assert_same, consistent};
use std::path::Path;

/// `load_npz_tensor` as a `DynTensor` of `dtype`, made an `AnyTensor`.
fn load_any(path: &Path, name: &str, dtype: DType) -> Result<AnyTensor, Error> {
    fn load<T: AnyElement>(path: &Path, name: &str) -> Result<AnyTensor, Error>
    where
        AnyTensor: From<DynTensor<T>>,
    {
        npy::load_npz_tensor::<DynTensor<T>>(path, name).map(AnyTensor::from)
    }
    match dtype {
        DType::Bool => load::<bool>(path, name),
        DType::U8 => load::<u8>(path, name),
        DType::I8 => load::<i8>(path, name),
        DType::I16 => load::<i16>(path, name),
        DType::I32 => load::<i32>(path, name),
        DType::I64 => load::<i64>(path, name),
        DType::F16 => load::<half::f16>(path, name),
        DType::BF16 => load::<half::bf16>(path, name),
        DType::F32 => load::<f32>(path, name),
        DType::F64 => load::<f64>(path, name),
        DType::C64 => load::<num_complex::Complex<f32>>(path, name),
        DType::C128 => load::<num_complex::Complex<f64>>(path, name),
    }
}

fuzz_target!(|data: &[u8]| {
    let scratch = Scratch::new(".npz", data);
    let path = scratch.path();
    let Ok(arrays) = npy::read_npz(path) else {
        return;
    };
    for (name, t) in &arrays {
        consistent(t);
        let written = npy::npy_bytes(t).unwrap_or_else(|e| panic!("cannot write '{name}': {e}"));
        let back = npy::read_npy_bytes(&written)
            .unwrap_or_else(|e| panic!("cannot read '{name}' written: {e}"));
        assert_same(t, &back, &format!("'{name}' written and read back"));
        // A name may repeat (or be another member's with `.npy`): then the
        // lookup finds the first; only a name found once is compared.
        if arrays.iter().filter(|(n, _)| n == name).count() == 1 {
            let one = load_any(path, name, t.dtype()).unwrap_or_else(|e| {
                panic!("'{name}' read by read_npz, not by load_npz_tensor: {e}")
            });
            assert_same(t, &one, &format!("'{name}' by load_npz_tensor"));
        }
    }
});
