//! A bounded fuzz of the file readers: valid files, mutated thousands of
//! times by a seeded generator (bit flips, interesting bytes, digits in the
//! headers, huge length fields, cut, repeated and deleted ranges), must
//! each give `Ok` of consistent tensors or an `Err`: never a panic or an
//! abort (an out-of-bounds slice in safe code would be a panic, caught
//! here; the readers' few `unsafe` blocks copy lengths checked before).
//! This is a mutation fuzzer seeded with valid files, not a
//! coverage-guided one.
//!
//! CI runs `FUZZ_ROUNDS` mutations per reader. A longer run:
//! `SHAPED_FUZZ_ROUNDS=2000000 cargo test --release --test suite io_fuzz`
//! (docs/design.md, "Data in and out"). An input that fails is printed in
//! hex; once fixed, it joins the `crashers` its test passes to `fuzz`.

use shaped::io::npy;
#[cfg(feature = "safetensors")]
use shaped::io::safetensors;
use shaped::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Mutations per reader in a plain `cargo test`.
const FUZZ_ROUNDS: usize = 20_000;

fn rounds() -> usize {
    std::env::var("SHAPED_FUZZ_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(FUZZ_ROUNDS)
}

/// xorshift64: the same mutations on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Bytes worth trying: zero, one, the ends of signed and unsigned bytes,
/// and the characters that matter in JSON and Python-literal headers.
const INTERESTING: &[u8] = b"\x00\x01\x7f\x80\xff0123456789-,:[](){}'\" eTF";

/// One to four mutations of `input`.
fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut b = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        if b.is_empty() {
            b.push(rng.next() as u8);
            continue;
        }
        let at = rng.below(b.len());
        match rng.below(8) {
            0 => b[at] ^= 1 << rng.below(8),
            1 => b[at] = INTERESTING[rng.below(INTERESTING.len())],
            2 => b.truncate(at),
            3 => {
                let end = (at + 1 + rng.below(16)).min(b.len());
                b.drain(at..end);
            }
            4 => {
                let end = (at + 1 + rng.below(16)).min(b.len());
                let piece = b[at..end].to_vec();
                b.splice(at..at, piece);
            }
            5 => {
                let digits = rng.next().to_string();
                let n = 1 + rng.below(digits.len());
                b.splice(at..at, digits.bytes().take(n));
            }
            6 => {
                // A huge or random little-endian length where one may live.
                let value = if rng.below(2) == 0 {
                    u64::MAX - rng.below(4) as u64
                } else {
                    rng.next()
                };
                let at = at.min(b.len().saturating_sub(8));
                for (k, byte) in value.to_le_bytes().iter().enumerate() {
                    if let Some(slot) = b.get_mut(at + k) {
                        *slot = *byte;
                    }
                }
            }
            _ => b[at] = rng.next() as u8,
        }
    }
    b
}

/// A tensor that claims to be read must be whole: its bytes match its
/// dtype and element count.
fn consistent(t: &AnyTensor) {
    assert_eq!(t.bytes().len(), t.numel() * t.dtype().itemsize());
}

/// Runs `read` on `rounds()` mutations of each seed, and on the inputs that
/// once failed; any panic fails the test, printing the input.
fn fuzz(name: &str, seeds: &[Vec<u8>], crashers: &[&[u8]], read: impl Fn(&[u8]) -> Vec<AnyTensor>) {
    let mut rng = Rng(0x5EED_0000_0000_0001 ^ name.len() as u64);
    let mut accepted = 0;
    let inputs = crashers
        .iter()
        .map(|c| c.to_vec())
        .chain((0..rounds()).map(|i| mutate(&mut rng, &seeds[i % seeds.len()])));
    for input in inputs {
        match catch_unwind(AssertUnwindSafe(|| read(&input))) {
            Ok(tensors) => {
                accepted += usize::from(!tensors.is_empty());
                tensors.iter().for_each(consistent);
            }
            Err(_) => {
                let hex: String = input.iter().map(|b| format!("{b:02x}")).collect();
                panic!("{name}: the reader panicked on the input {hex}");
            }
        }
    }
    // The mutations must leave some files valid, or they test only the
    // first check of the header.
    assert!(accepted > 0, "{name}: no mutated file was accepted");
}

fn seed_tensors() -> Vec<AnyTensor> {
    vec![
        AnyTensor::from(
            DynTensor::<f32>::from_vec(vec![1.5, -2.0, f32::NAN, 0.0], &[2, 2]).unwrap(),
        ),
        AnyTensor::from(DynTensor::<bool>::from_vec(vec![true, false, true], &[3]).unwrap()),
        AnyTensor::from(DynTensor::<num_complex::Complex<f64>>::ones(&[1, 2])),
        AnyTensor::from(DynTensor::<i16>::zeros(&[0, 3])),
        AnyTensor::from(DynTensor::<half::bf16>::ones(&[])),
    ]
}

#[cfg(feature = "safetensors")]
#[test]
fn safetensors_reader_survives_mutations() {
    let tensors = seed_tensors();
    let named: Vec<(String, &AnyTensor)> = tensors
        .iter()
        .enumerate()
        .map(|(i, t)| (format!("t{i}"), t))
        .collect();
    let refs: Vec<(&str, &dyn shaped::io::HostTensor)> =
        named.iter().map(|(n, t)| (n.as_str(), *t as _)).collect();
    let seeds = vec![
        safetensors::to_bytes(&refs, None).unwrap(),
        safetensors::to_bytes(&refs[..1], None).unwrap(),
        safetensors::to_bytes(&refs[1..2], None).unwrap(),
    ];
    // Differential: a file this reader accepts, Hugging Face's reference
    // reader accepts too (it may accept more: dtypes without an element
    // type here, bool bytes other than 0 and 1, duplicate JSON keys).
    fuzz("safetensors", &seeds, &[], |b| {
        let ours = safetensors::from_bytes(b);
        if ours.is_ok() {
            assert!(
                ::safetensors::SafeTensors::deserialize(b).is_ok(),
                "accepted a file the reference reader refuses"
            );
        }
        ours.map(|v| v.into_iter().map(|(_, t)| t).collect())
            .unwrap_or_default()
    });
}

#[test]
fn npy_reader_survives_mutations() {
    // bfloat16 has no NumPy dtype: its seed is refused, the others kept.
    let seeds: Vec<Vec<u8>> = seed_tensors()
        .iter()
        .filter_map(|t| npy::npy_bytes(t).ok())
        .collect();
    assert_eq!(seeds.len(), 4);
    // Found by the coverage-guided fuzzer (fuzz/): an empty Fortran-order
    // array whose sizes' row-major strides overflow, accepted and then
    // unreadable once written in C order; now refused.
    let crasher = b"\x93NUMPY\x01\x00v\x00{'descr': '<f8', 'fortran_order': True, 'shape': (0, 111111111131,1111 ,                     11111 ,11 ), }           ";
    fuzz("npy", &seeds, &[crasher], |b| {
        let read: Vec<AnyTensor> = npy::read_npy_bytes(b).into_iter().collect();
        // What is read writes back, and reads back the same.
        for t in &read {
            let written = npy::npy_bytes(t).expect("what was read writes");
            let back = npy::read_npy_bytes(&written).expect("what was written reads");
            assert_eq!((back.dtype(), back.shape()), (t.dtype(), t.shape()));
            assert_eq!(back.bytes(), t.bytes());
        }
        read
    });
}

#[test]
fn npz_reader_survives_mutations() {
    let tensors = seed_tensors();
    let kept: Vec<(String, &AnyTensor)> = tensors
        .iter()
        .enumerate()
        .filter(|(_, t)| t.dtype() != DType::BF16)
        .map(|(i, t)| (format!("t{i}"), t))
        .collect();
    let refs: Vec<(&str, &dyn shaped::io::HostTensor)> =
        kept.iter().map(|(n, t)| (n.as_str(), *t as _)).collect();
    let path = std::env::temp_dir().join(format!("shaped-fuzz-{}.npz", std::process::id()));
    let mut seeds = Vec::new();
    for compressed in [false, true] {
        npy::write_npz(&path, &refs, compressed).unwrap();
        seeds.push(std::fs::read(&path).unwrap());
    }
    // Archives go through a file: a tenth of the rounds.
    let mut rng = Rng(0xA5A5_0000_0000_0003);
    let mut accepted = 0;
    for i in 0..rounds() / 10 {
        let input = mutate(&mut rng, &seeds[i % 2]);
        std::fs::write(&path, &input).unwrap();
        match catch_unwind(AssertUnwindSafe(|| npy::read_npz(&path))) {
            Ok(Ok(tensors)) => {
                accepted += 1;
                tensors.iter().for_each(|(_, t)| consistent(t));
            }
            Ok(Err(_)) => {}
            Err(_) => {
                let hex: String = input.iter().map(|b| format!("{b:02x}")).collect();
                panic!("npz: the reader panicked on the input {hex}");
            }
        }
    }
    std::fs::remove_file(&path).unwrap();
    assert!(accepted > 0, "npz: no mutated archive was accepted");
}

#[cfg(feature = "serde")]
#[test]
fn serde_deserializer_survives_mutations() {
    let seeds: Vec<Vec<u8>> = seed_tensors()
        .iter()
        .map(|t| serde_json::to_vec(t).unwrap())
        .collect();
    fuzz("serde_json", &seeds, &[], |b| {
        serde_json::from_slice::<AnyTensor>(b).into_iter().collect()
    });
}
