//! The file readers of safetensors (`SafeTensors::open` with `tensor` and
//! `into_tensors`, and `SafeTensors::mmap`) on arbitrary files: never a
//! panic, and each accepts exactly what `from_bytes` accepts, reading the
//! same tensors in the same order. The input goes through a file in
//! `/dev/shm` (the readers take a path).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shaped::io::safetensors::{self, SafeTensors};
use shaped::{AnyTensor, Error};
use shaped_fuzz::{Scratch, assert_same_list, consistent};
use std::path::Path;

type Named = Vec<(String, AnyTensor)>;

/// Every tensor, each copied out by `tensor`, in `names` order.
fn by_name(path: &Path) -> Result<Named, Error> {
    let file = SafeTensors::open(path)?;
    let names: Vec<String> = file.names().into_iter().map(String::from).collect();
    for name in &names {
        let (dtype, shape) = file.dtype_and_shape(name).expect("a listed name");
        let t = file.tensor(name)?;
        assert_eq!(
            (t.dtype(), &t.shape()[..]),
            (dtype, shape),
            "'{name}': header vs tensor"
        );
    }
    names
        .into_iter()
        .map(|n| file.tensor(&n).map(|t| (n, t)))
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let scratch = Scratch::new(".safetensors", data);
    let path = scratch.path();
    let bytes = safetensors::from_bytes(data);
    let opened = SafeTensors::open(path).and_then(SafeTensors::into_tensors);
    let copied = by_name(path);
    // SAFETY: the scratch file is this process's own; nothing changes it
    // while the mapping and its tensors live (they die in this call).
    let mapped = unsafe { SafeTensors::mmap(path) }.and_then(SafeTensors::into_tensors);
    match (&bytes, &opened, &copied, &mapped) {
        (Ok(b), Ok(o), Ok(c), Ok(m)) => {
            b.iter().for_each(|(_, t)| consistent(t));
            m.iter().for_each(|(_, t)| consistent(t));
            assert_same_list(b, o, "from_bytes vs open");
            assert_same_list(b, c, "from_bytes vs tensor");
            assert_same_list(b, m, "from_bytes vs mmap");
        }
        (Err(_), Err(_), Err(_), Err(_)) => {}
        _ => panic!(
            "the readers disagree: from_bytes {:?}, open {:?}, tensor {:?}, mmap {:?}",
            bytes.as_ref().err().map(ToString::to_string),
            opened.as_ref().err().map(ToString::to_string),
            copied.as_ref().err().map(ToString::to_string),
            mapped.as_ref().err().map(ToString::to_string),
        ),
    }
});
