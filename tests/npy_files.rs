//! NumPy's own `.npy` and `.npz` files (`tests/fixtures/npy/`, written by
//! `scripts/fixtures/npy_files.py` with numpy 2.4.6) read by
//! `shaped::io::npy`: dtype, shape, strides (Fortran-order files are
//! column-major views of their buffer) and values bit for bit. Each is
//! written back and read again; a C-order little-endian `.npy` written
//! back is NumPy's file byte for byte. The files written back stay in
//! `$SHAPED_KEEP_NPY_DIR` when it is set, for NumPy to check them:
//!
//! ```text
//! SHAPED_KEEP_NPY_DIR=target/npy-check cargo test --test suite npy_files
//! python3 scripts/fixtures/npy_files.py --check target/npy-check
//! ```

use crate::common;

use common::tensors::any_of;
use serde_json::{Value, json};
use shaped::io::HostTensor;
use shaped::io::npy::{
    load_npy, load_npz_tensor, npy_bytes, read_npy, read_npy_bytes, read_npz, write_npy, write_npz,
};
use shaped::prelude::*;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/npy")
        .join(name)
}

/// The manifest's files, in its order.
fn files() -> Vec<(String, Value)> {
    let text = std::fs::read_to_string(fixture("manifest.json")).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    let files = manifest["files"].as_object().unwrap();
    files.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// The strides and the storage offset of any tensor.
fn strides(x: &AnyTensor) -> Vec<usize> {
    macro_rules! each {
        ($($t:ty),*) => {
            $(if let Some(t) = x.downcast_ref::<$t>() {
                return t.strides().to_vec();
            })*
        };
    }
    each!(
        half::f16,
        f32,
        f64,
        num_complex::Complex<f32>,
        num_complex::Complex<f64>
    );
    each!(u8, i8, i16, i32, i64, bool);
    unreachable!("a dtype NumPy has")
}

/// Row-major (or, `fortran`, column-major) strides of `shape`, size-0
/// and size-1 dimensions stepping as size 1.
fn expected_strides(shape: &[usize], fortran: bool) -> Vec<usize> {
    let mut out = vec![0; shape.len()];
    let mut step = 1;
    let order: Vec<usize> = if fortran {
        (0..shape.len()).collect()
    } else {
        (0..shape.len()).rev().collect()
    };
    for d in order {
        out[d] = step;
        step *= shape[d].max(1);
    }
    out
}

/// `x` against a manifest entry: dtype, shape, strides and the elements'
/// bytes (NaN as NumPy's `np.nan`, zeros with their sign).
fn check_array(what: &str, x: &AnyTensor, entry: &Value) {
    let shape: Vec<usize> = serde_json::from_value(entry["shape"].clone()).unwrap();
    let fortran = entry["fortran"].as_bool().unwrap();
    assert_eq!(x.dtype().name(), entry["dtype"].as_str().unwrap(), "{what}");
    assert_eq!(x.shape(), shape, "{what}");
    if shape.len() > 1 && !shape.contains(&0) {
        assert_eq!(strides(x), expected_strides(&shape, fortran), "{what}");
    }
    let want = any_of(&json!({"dtype": entry["dtype"], "sizes": shape, "values": entry["values"]}));
    assert_eq!(x.bytes(), want.bytes(), "{what}: values");
}

/// Where the files written back go: `$SHAPED_KEEP_NPY_DIR`, kept, or a
/// fresh temporary folder, removed at the end.
fn out_dir() -> (PathBuf, bool) {
    match std::env::var_os("SHAPED_KEEP_NPY_DIR") {
        Some(dir) => (PathBuf::from(dir), true),
        None => {
            let dir = std::env::temp_dir().join(format!("shaped-npy-{}", std::process::id()));
            (dir, false)
        }
    }
}

#[test]
fn numpy_files_are_read() {
    let mut checked = 0;
    for (name, entry) in files() {
        if entry.get("unsupported").is_some() {
            continue;
        }
        if name.ends_with(".npy") {
            let x = read_npy(fixture(&name)).unwrap_or_else(|e| panic!("{e}"));
            check_array(&name, &x, &entry);
            let from_bytes = read_npy_bytes(&std::fs::read(fixture(&name)).unwrap()).unwrap();
            assert_eq!(
                (from_bytes.shape(), from_bytes.bytes()),
                (x.shape(), x.bytes())
            );
            checked += 1;
            continue;
        }
        let arrays = read_npz(fixture(&name)).unwrap_or_else(|e| panic!("{e}"));
        let members = entry["arrays"].as_array().unwrap();
        assert_eq!(arrays.len(), members.len(), "{name}");
        for ((key, x), member) in arrays.iter().zip(members) {
            assert_eq!(key, member["name"].as_str().unwrap(), "{name}");
            check_array(&format!("{name}/{key}"), x, member);
            checked += 1;
        }
    }
    assert_eq!(checked, 29);
}

#[test]
fn files_written_back_read_the_same() {
    let (dir, keep) = out_dir();
    std::fs::create_dir_all(&dir).unwrap();
    for (name, entry) in files() {
        if entry.get("unsupported").is_some() {
            continue;
        }
        let (from, to) = (fixture(&name), dir.join(&name));
        if name.ends_with(".npy") {
            let x = read_npy(&from).unwrap();
            write_npy(&to, &x).unwrap();
            let y = read_npy(&to).unwrap();
            assert_eq!(
                (y.dtype(), y.shape(), y.bytes()),
                (x.dtype(), x.shape(), x.bytes()),
                "{name}"
            );
            assert_eq!(
                npy_bytes(&x).unwrap(),
                std::fs::read(&to).unwrap(),
                "{name}"
            );
            // Fortran-order files too: a column-major tensor is written so.
            let as_numpy = entry["version"] == json!([1, 0])
                && !entry["descr"].as_str().unwrap().starts_with('>');
            if as_numpy {
                let numpy = std::fs::read(&from).unwrap();
                assert_eq!(
                    std::fs::read(&to).unwrap(),
                    numpy,
                    "{name}: not NumPy's bytes"
                );
            }
            continue;
        }
        let arrays = read_npz(&from).unwrap();
        let refs: Vec<(&str, &dyn HostTensor)> = arrays
            .iter()
            .map(|(k, x)| (k.as_str(), x as &dyn HostTensor))
            .collect();
        write_npz(&to, &refs, entry["compressed"].as_bool().unwrap()).unwrap();
        let again = read_npz(&to).unwrap();
        assert_eq!(again.len(), arrays.len(), "{name}");
        for ((k, x), (k2, y)) in arrays.iter().zip(&again) {
            assert_eq!(
                (k2, y.dtype(), y.shape(), y.bytes()),
                (k, x.dtype(), x.shape(), x.bytes())
            );
        }
    }
    std::fs::copy(fixture("manifest.json"), dir.join("manifest.json")).unwrap();
    if keep {
        println!(
            "wrote {}: check with python3 scripts/fixtures/npy_files.py --check {0}",
            dir.display()
        );
    } else {
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn typed_loads_check_dtype_and_shape() {
    let path = fixture("float64.npy");
    let x = load_npy::<Tensor<f64, shape![2, 3]>>(&path).unwrap();
    assert_eq!(x.to_vec()[4..], [1e300, 5e-324]);
    let err = load_npy::<Tensor<f64, shape![3, 2]>>(&path).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: expected a float64 tensor of shape [3, 2], got a float64 tensor of shape [2, 3] (shape differs)",
            path.display()
        )
    );
    let w = load_npz_tensor::<Tensor<f32, shape![Dyn, 3]>>(fixture("stored.npz"), "w").unwrap();
    assert_eq!(w.to_vec(), [0., 1., 2., 3., 4., 5.]);
    let f =
        load_npz_tensor::<Tensor<i16, shape![3, 2]>>(fixture("compressed.npz"), "fortran").unwrap();
    assert_eq!((f.strides(), f.to_vec()), ([1, 3], vec![0, 1, 2, 3, 4, 5]));
    let err = load_npz_tensor::<Tensor<i64, shape![2]>>(fixture("stored.npz"), "b").unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: member 'b.npy': expected an int64 tensor of shape [2], got a bool tensor of shape [2] (dtype differs)",
            fixture("stored.npz").display()
        )
    );
}

#[test]
fn files_numpy_can_write_and_shaped_cannot_read_say_why() {
    let takes = "this reader takes '<f2', '<f4', '<f8', '<c8', '<c16', '|u1', '|i1', '<i2', '<i4', \
                 '<i8' and '|b1' (either byte order)";
    let problem = |name: &str| {
        let path = fixture(name);
        let err = read_npy(&path).unwrap_err().to_string();
        let prefix = format!("{}: ", path.display());
        err.strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{err}"))
            .to_string()
    };
    assert_eq!(
        problem("unsupported_uint16.npy"),
        format!("unsupported dtype '<u2'; {takes}")
    );
    assert_eq!(
        problem("unsupported_unicode.npy"),
        format!("unsupported dtype '<U2'; {takes}")
    );
    assert_eq!(
        problem("unsupported_structured.npy"),
        "invalid header \"{'descr': [('a', '<f4'), ('b', '<i2')], 'fortran_order': False, \
         'shape': (2,), }\": structured dtypes ('descr' a list) are not supported"
    );
    assert_eq!(
        problem("no_such_file.npy"),
        "No such file or directory (os error 2)"
    );

    let good = std::fs::read(fixture("float32.npy")).unwrap();
    let bytes_problem = |bytes: &[u8]| read_npy_bytes(bytes).unwrap_err().to_string();
    assert_eq!(
        bytes_problem(&good[..good.len() - 4]),
        "<bytes>: the data is 20 bytes, expected 24 for a float32 array of shape [2, 3]"
    );
    assert_eq!(
        bytes_problem(&[&good[..], b"\n"].concat()),
        "<bytes>: the data is 25 bytes, expected 24 for a float32 array of shape [2, 3]"
    );
    assert_eq!(
        bytes_problem(&good[..60]),
        "<bytes>: the header's length 118 runs past the end of the file (60 bytes)"
    );
    let mut bools = std::fs::read(fixture("bool.npy")).unwrap();
    let last = bools.len() - 1;
    bools[last] = 2;
    assert_eq!(
        bytes_problem(&bools),
        "<bytes>: bool element 5 is the byte 2, not 0 or 1"
    );
}

#[test]
fn corrupt_archives_name_the_member() {
    let dir = std::env::temp_dir().join(format!("shaped-npz-corrupt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A byte of the stored member w.npy's data changed: its checksum fails.
    let mut zip = std::fs::read(fixture("stored.npz")).unwrap();
    let data = zip
        .windows(4)
        .position(|w| w == 2.0f32.to_le_bytes())
        .unwrap();
    zip[data] ^= 1;
    let path = dir.join("corrupt.npz");
    std::fs::write(&path, &zip).unwrap();
    let err = read_npz(&path).unwrap_err().to_string();
    assert_eq!(
        err,
        format!("{}: member 'w.npy': Invalid checksum", path.display())
    );
    std::fs::write(&path, &zip[..zip.len() / 2]).unwrap();
    let err = read_npz(&path).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!(
            "{}: not a valid .npz (zip) archive: ",
            path.display()
        )),
        "{err}"
    );
    let bf16 = Tensor::<half::bf16, shape![2]>::zeros();
    let err = write_npz(&path, &[("h", &bf16)], false)
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        format!(
            "{}: member 'h.npy': NumPy has no bfloat16 dtype: convert with `to_dtype(DType::F32)` \
             (exact) first, or use safetensors",
            path.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
