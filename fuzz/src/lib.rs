//! What every fuzz target asserts of the tensors a reader accepts.

use shaped::io::HostTensor;
use shaped::{AnyTensor, DType};

/// A tensor a reader hands out must be whole: its sizes multiply to its
/// element count, its bytes are exactly its elements, its strides match its
/// rank, and its bools are 0 or 1.
pub fn consistent(t: &AnyTensor) {
    let shape = t.shape();
    let numel = shape.iter().try_fold(1usize, |n, &s| n.checked_mul(s));
    assert_eq!(numel, Some(t.numel()), "shape {shape:?} vs numel");
    assert_eq!(t.strides().len(), shape.len(), "strides vs rank");
    let bytes = t.bytes();
    assert_eq!(
        bytes.len(),
        t.numel() * t.dtype().itemsize(),
        "bytes of a {:?} tensor of shape {shape:?}",
        t.dtype()
    );
    if t.dtype() == DType::Bool {
        assert!(bytes.iter().all(|&b| b <= 1), "a bool byte not 0 or 1");
    }
}

/// Two tensors are the same: dtype, shape, and every byte (NaNs included).
pub fn assert_same(a: &AnyTensor, b: &AnyTensor, what: &str) {
    assert_eq!(a.dtype(), b.dtype(), "{what}: dtype");
    assert_eq!(a.shape(), b.shape(), "{what}: shape");
    assert!(a.bytes() == b.bytes(), "{what}: bytes differ");
}

/// Two lists of named tensors are the same, in the same order.
pub fn assert_same_list(a: &[(String, AnyTensor)], b: &[(String, AnyTensor)], what: &str) {
    let names = |l: &[(String, AnyTensor)]| l.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(a), names(b), "{what}: names");
    for ((name, x), (_, y)) in a.iter().zip(b) {
        assert_same(x, y, &format!("{what}: tensor '{name}'"));
    }
}

/// The same tensors by name, whatever the order (writers reorder them).
pub fn assert_same_set(a: &[(String, AnyTensor)], b: &[(String, AnyTensor)], what: &str) {
    let mut a: Vec<&(String, AnyTensor)> = a.iter().collect();
    let mut b: Vec<&(String, AnyTensor)> = b.iter().collect();
    a.sort_by(|x, y| x.0.cmp(&y.0));
    b.sort_by(|x, y| x.0.cmp(&y.0));
    let a: Vec<(String, AnyTensor)> = a.into_iter().cloned().collect();
    let b: Vec<(String, AnyTensor)> = b.into_iter().cloned().collect();
    assert_same_list(&a, &b, what);
}

/// Named tensors as the writers take them.
pub fn as_refs(list: &[(String, AnyTensor)]) -> Vec<(&str, &dyn HostTensor)> {
    list.iter()
        .map(|(n, t)| (n.as_str(), t as &dyn HostTensor))
        .collect()
}

/// This process's scratch file in memory (`/dev/shm` where it exists,
/// else the temporary directory), holding one input: the readers that take
/// only a path read it from there. Removed when dropped (a crash leaves it).
pub struct Scratch(std::path::PathBuf);

impl Scratch {
    pub fn new(suffix: &str, data: &[u8]) -> Scratch {
        let dir = std::path::Path::new("/dev/shm");
        let dir = if dir.is_dir() {
            dir.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        let path = dir.join(format!("shaped-fuzz-{}{suffix}", std::process::id()));
        std::fs::write(&path, data).expect("the scratch file");
        Scratch(path)
    }

    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
