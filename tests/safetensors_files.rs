//! The safetensors files PyTorch and NumPy wrote
//! (`scripts/fixtures/safetensors_files.py`), read bit-exactly every way in
//! (loaded, opened lazily, memory-mapped, from bytes), then every tensor
//! written back and re-read identical. With `SHAPED_IO_OUT=DIR` the written
//! files and their manifest stay in `DIR`, for the script's `--check DIR`,
//! which reads them with Python's safetensors.

use serde_json::{Value, json};
use shaped::io::safetensors::{self, SafeTensors};
use shaped::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/safetensors")
}

fn manifest() -> serde_json::Map<String, Value> {
    let text = std::fs::read_to_string(fixtures().join("manifest.json")).unwrap();
    serde_json::from_str::<Value>(&text)
        .unwrap()
        .as_object()
        .unwrap()
        .clone()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The manifest's entry of a tensor: PyTorch's dtype name, sizes, bytes.
fn entry(t: &AnyTensor) -> Value {
    json!({"dtype": t.dtype().name(), "sizes": t.shape(), "hex": hex(&t.bytes())})
}

fn metadata_of(want: &Value) -> Option<HashMap<String, String>> {
    want.as_object().map(|m| {
        m.iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
            .collect()
    })
}

#[test]
fn files_written_by_pytorch_and_numpy_read_bit_exactly() {
    let mut checked = 0;
    for (file, want) in manifest() {
        let path = fixtures().join(&file);
        let tensors = want["tensors"].as_object().unwrap();
        let all: HashMap<String, AnyTensor> =
            safetensors::load_all(&path).unwrap().into_iter().collect();
        assert_eq!(all.len(), tensors.len(), "{file}");
        let lazy = SafeTensors::open(&path).unwrap();
        assert_eq!(
            lazy.metadata().cloned(),
            metadata_of(&want["metadata"]),
            "{file}"
        );
        // SAFETY: a committed fixture that nothing writes during the test.
        let mut mapped = unsafe { SafeTensors::mmap(&path).unwrap() };
        let bytes = std::fs::read(&path).unwrap();
        let from_bytes: HashMap<String, AnyTensor> = safetensors::from_bytes(&bytes)
            .unwrap()
            .into_iter()
            .collect();
        for (name, w) in tensors {
            for (how, t) in [
                ("load_all", all[name].clone()),
                ("open", lazy.tensor(name).unwrap()),
                ("mmap", mapped.take(name).unwrap()),
                ("from_bytes", from_bytes[name].clone()),
            ] {
                assert_eq!(&entry(&t), w, "{file}/{name} by {how}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 4 * 16);
}

#[test]
fn typed_loads_check_dtype_and_shape() {
    let path = fixtures().join("torch.safetensors");
    let w = safetensors::load::<Tensor<f32, shape![2, 3]>>(&path, "weight.f32").unwrap();
    assert_eq!(w.shape(), [2, 3]);
    assert!(w[[0, 0]].is_nan() && w[[0, 1]] == f32::INFINITY);
    let z: Tensor<num_complex::Complex<f64>, shape![2, Dyn]> =
        safetensors::load(&path, "z").unwrap();
    assert_eq!(z[[0, 1]], num_complex::Complex::new(2.0, -3.0));
    let t: DynTensor<f32> = safetensors::load(&path, "transposed").unwrap();
    assert_eq!(t.shape(), [4, 3]);
    let err = safetensors::load::<Tensor<f32, shape![768, 3072]>>(&path, "half").unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: tensor 'half': expected a float32 tensor of shape [768, 3072], got a float16 tensor of shape [5] (dtype and shape differ)",
            path.display()
        )
    );
    let err = safetensors::load::<Tensor<i64, shape![Dyn]>>(&path, "mask").unwrap_err();
    assert!(err.to_string().ends_with(
        "tensor 'mask': expected an int64 tensor of shape [Dyn], got a bool tensor of shape [5] (dtype differs)"
    ));
}

#[test]
fn every_tensor_written_back_reads_identically() {
    let out = std::env::var_os("SHAPED_IO_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            std::env::temp_dir().join(format!("shaped-safetensors-out-{}", std::process::id()))
        });
    std::fs::create_dir_all(&out).unwrap();
    let mut written = serde_json::Map::new();
    for (file, want) in manifest() {
        let path = fixtures().join(&file);
        let tensors = safetensors::load_all(&path).unwrap();
        let metadata = metadata_of(&want["metadata"]);
        let refs: Vec<(&str, &dyn shaped::io::HostTensor)> =
            tensors.iter().map(|(n, t)| (n.as_str(), t as _)).collect();
        let target = out.join(&file);
        safetensors::save(&target, &refs, metadata.as_ref()).unwrap();
        let back: HashMap<String, AnyTensor> = safetensors::load_all(&target)
            .unwrap()
            .into_iter()
            .collect();
        for (name, t) in &tensors {
            assert_eq!(entry(&back[name]), entry(t), "{file}/{name}");
        }
        let bytes = safetensors::to_bytes(&refs, metadata.as_ref()).unwrap();
        assert_eq!(
            bytes,
            std::fs::read(&target).unwrap(),
            "to_bytes and save write the same file"
        );
        // Hugging Face's reader reads what was written, the same bytes.
        let reference = ::safetensors::SafeTensors::deserialize(&bytes).unwrap();
        assert_eq!(reference.len(), tensors.len());
        for (name, t) in &tensors {
            let view = reference.tensor(name).unwrap();
            assert_eq!(view.data(), &t.bytes()[..], "{file}/{name}");
        }
        written.insert(file, want);
    }
    std::fs::write(
        out.join("manifest.json"),
        Value::Object(written).to_string(),
    )
    .unwrap();
    if std::env::var_os("SHAPED_IO_OUT").is_none() {
        std::fs::remove_dir_all(&out).unwrap();
    }
}
