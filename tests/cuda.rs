//! The CUDA backend on a real device: every operation on CUDA tensors gives
//! what the CPU backend gives. Each test prints a `SKIPPED` line (straight
//! to stderr, past the test harness's capture) and returns when no device
//! answers, so a machine without a GPU never passes them silently.
#![cfg(feature = "cuda")]

use shaped::dtype::Numeric;
use shaped::prelude::*;
use std::io::Write;

/// Device 0, or `None` after printing why the test is skipped.
fn gpu(test: &str) -> Option<Cuda> {
    match Cuda::new(0) {
        Ok(gpu) => Some(gpu),
        Err(e) => {
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED cuda::{test}: no CUDA device answered ({e})"
            );
            None
        }
    }
}

fn values<T: Numeric>(n: usize, seed: usize) -> Vec<T> {
    (0..n)
        .map(|i| T::sub(T::from_index((i * 7 + seed) % 13), T::from_index(6)))
        .collect()
}

/// Equal, or both NaN.
fn same<T: Element>(x: &[T], y: &[T]) -> bool {
    #[allow(clippy::eq_op)]
    let nan = |v: &T| v != v;
    x.len() == y.len() && x.iter().zip(y).all(|(a, b)| a == b || (nan(a) && nan(b)))
}

/// Operand shapes from the PyTorch fixtures: broadcasts, size 0, rank 0.
const SHAPES: &[(&[usize], &[usize])] = &[
    (&[5, 7, 3], &[5, 7, 3]),
    (&[5, 3, 4, 1], &[3, 1, 1]),
    (&[5, 1, 4, 1], &[3, 1, 1]),
    (&[1], &[3, 1, 7]),
    (&[3, 3], &[3]),
    (&[3, 1], &[1, 4]),
    (&[2, 3, 4], &[4]),
    (&[1, 0], &[3, 1]),
    (&[], &[2, 3]),
    (&[], &[]),
    (&[1 << 16], &[1 << 16]),
    (&[256, 512], &[1, 512]),
];

fn check_arith<T: Numeric + shaped::dtype::TrueDiv>(gpu: &Cuda) -> Result<(), Error> {
    for &(sa, sb) in SHAPES {
        let na: usize = sa.iter().product();
        let nb: usize = sb.iter().product();
        let a = DynTensor::<T>::from_vec(values(na, 1), sa)?;
        let b = DynTensor::<T>::from_vec(values(nb, 4), sb)?;
        let (ga, gb) = (a.to_device(gpu)?, b.to_device(gpu)?);
        let case = format!("{} {sa:?} {sb:?}", T::DTYPE);
        assert!(
            same(&(&ga + &gb).to_cpu()?.to_vec(), &(&a + &b).to_vec()),
            "+ {case}"
        );
        assert!(
            same(&(&gb - &ga).to_cpu()?.to_vec(), &(&b - &a).to_vec()),
            "- {case}"
        );
        assert!(
            same(&(&ga * &gb).to_cpu()?.to_vec(), &(&a * &b).to_vec()),
            "* {case}"
        );
        assert!(
            same(&(&ga / &gb).to_cpu()?.to_vec(), &(&a / &b).to_vec()),
            "/ {case}"
        );
        assert!(
            same(&ga.eq(&gb).to_cpu()?.to_vec(), &a.eq(&b).to_vec()),
            "eq {case}"
        );
        assert!(
            same(&ga.ne(&gb).to_cpu()?.to_vec(), &a.ne(&b).to_vec()),
            "ne {case}"
        );
        assert!(
            same(&(-&ga).to_cpu()?.to_vec(), &(-&a).to_vec()),
            "neg {case}"
        );
        // A number of the tensor's type: a rank-0 CPU tensor, which joins
        // a CUDA operation as the kernel's fixed operand.
        let s = Tensor::<T, shape![]>::full(T::from_index(3));
        assert!(
            same(&(&ga * &s).to_cpu()?.to_vec(), &(&a * &s).to_vec()),
            "* s {case}"
        );
        assert!(
            same(&(&ga - &s).to_cpu()?.to_vec(), &(&a - &s).to_vec()),
            "- s {case}"
        );
        // Views stay views on the device, and copies of them are exact.
        if sa.len() >= 2 {
            let t = ga.transpose(0, -1)?;
            assert!(t.shares_storage_with(&ga));
            let c = t.contiguous();
            assert!(!c.shares_storage_with(&ga) || t.is_contiguous());
            assert_eq!(
                c.to_cpu()?.to_vec(),
                a.transpose(0, -1)?.to_vec(),
                "T {case}"
            );
            assert_eq!(t.clone().strides(), a.transpose(0, -1)?.clone().strides());
        }
        // In place, with the right-hand side broadcast.
        if a.clone().try_add_assign(&b).is_ok() {
            let (mut x, mut gx) = (a.clone(), ga.clone());
            x.try_add_assign(&b)?;
            gx.try_add_assign(&gb)?;
            let two = Tensor::<T, shape![]>::full(T::from_index(2));
            gx *= &two;
            x *= &two;
            assert!(same(&gx.to_cpu()?.to_vec(), &x.to_vec()), "+= {case}");
        }
    }
    Ok(())
}

fn check_ordered<T: Numeric + shaped::dtype::Ordered>(gpu: &Cuda) -> Result<(), Error> {
    for &(sa, sb) in SHAPES {
        let na: usize = sa.iter().product();
        let nb: usize = sb.iter().product();
        let a = DynTensor::<T>::from_vec(values(na, 2), sa)?;
        let b = DynTensor::<T>::from_vec(values(nb, 5), sb)?;
        let (ga, gb) = (a.to_device(gpu)?, b.to_device(gpu)?);
        assert_eq!(ga.lt(&gb).to_cpu()?.to_vec(), a.lt(&b).to_vec());
        assert_eq!(ga.le(&gb).to_cpu()?.to_vec(), a.le(&b).to_vec());
        assert_eq!(gb.gt(&ga).to_cpu()?.to_vec(), b.gt(&a).to_vec());
        assert_eq!(
            ga.ge(&Tensor::<T, shape![]>::full(T::from_index(1)))
                .to_cpu()?
                .to_vec(),
            a.ge(&Tensor::<T, shape![]>::full(T::from_index(1)))
                .to_vec()
        );
    }
    Ok(())
}

macro_rules! dtype_tests {
    ($($name:ident: $t:ty => [$($check:ident),*];)*) => {$(
        #[test]
        fn $name() -> Result<(), Error> {
            let Some(gpu) = gpu(stringify!($name)) else { return Ok(()) };
            $($check::<$t>(&gpu)?;)*
            Ok(())
        }
    )*};
}

dtype_tests! {
    ops_f16: half::f16 => [check_arith, check_ordered];
    ops_bf16: half::bf16 => [check_arith, check_ordered];
    ops_f32: f32 => [check_arith, check_ordered];
    ops_f64: f64 => [check_arith, check_ordered];
    ops_c64: num_complex::Complex<f32> => [check_arith];
    ops_c128: num_complex::Complex<f64> => [check_arith];
    ops_u8: u8 => [check_arith, check_ordered];
    ops_i8: i8 => [check_arith, check_ordered];
    ops_i16: i16 => [check_arith, check_ordered];
    ops_i32: i32 => [check_arith, check_ordered];
    ops_i64: i64 => [check_arith, check_ordered];
}

#[test]
fn bool_tensors() -> Result<(), Error> {
    let Some(gpu) = gpu("bool_tensors") else {
        return Ok(());
    };
    let a = DynTensor::<bool>::from_vec(vec![true, false, true, true, false, false], &[2, 3])?;
    let b = DynTensor::<bool>::from_vec(vec![true, false, false], &[3])?;
    let (ga, gb) = (a.to_device(&gpu)?, b.to_device(&gpu)?);
    assert_eq!(ga.eq(&gb).to_cpu()?.to_vec(), a.eq(&b).to_vec());
    assert_eq!(ga.lt(&gb).to_cpu()?.to_vec(), a.lt(&b).to_vec());
    assert!(same(&(&ga / &gb).to_cpu()?.to_vec(), &(&a / &b).to_vec()));
    let mut f = ga.clone();
    f.fill(true);
    assert_eq!(f.to_cpu()?.to_vec(), vec![true; 6]);
    Ok(())
}

#[test]
fn transfers_keep_every_view() -> Result<(), Error> {
    let Some(gpu) = gpu("transfers_keep_every_view") else {
        return Ok(());
    };
    let x = DynTensor::<i64>::from_vec((0..60).collect(), &[3, 4, 5])?;
    let g = x.to_device(&gpu)?;
    assert_eq!(g.device(), Device::Cuda(0));
    assert_eq!(g.to_cpu()?.to_vec(), x.to_vec());
    let narrowed = g.narrow(2, 1, 3)?;
    assert_eq!(narrowed.storage_offset(), 1);
    assert_eq!(narrowed.to_cpu()?.to_vec(), x.narrow(2, 1, 3)?.to_vec());
    let permuted = g.permute(&[2, 0, 1])?;
    assert_eq!(permuted.to_cpu()?.to_vec(), x.permute(&[2, 0, 1])?.to_vec());
    let expanded = g.select(0, 1)?.unsqueeze(0)?;
    let expanded = expanded.expand(&[3, 4, 5])?;
    assert_eq!(
        expanded.to_cpu()?.to_vec(),
        x.select(0, 1)?.unsqueeze(0)?.expand(&[3, 4, 5])?.to_vec()
    );
    // A CPU view goes over as its elements.
    let t = x.transpose(0, 2)?.to_device(&gpu)?;
    assert_eq!(t.to_cpu()?.to_vec(), x.transpose(0, 2)?.to_vec());
    let empty = DynTensor::<f32>::zeros(&[0, 4]).to_device(&gpu)?;
    assert_eq!(empty.to_cpu()?.shape().as_ref(), &[0, 4]);
    Ok(())
}

#[test]
fn memory_formats_and_fill() -> Result<(), Error> {
    let Some(gpu) = gpu("memory_formats_and_fill") else {
        return Ok(());
    };
    let x = Tensor::<f32, shape![2, 3, 4, 5]>::from_vec(values(120, 0))?;
    let g = x.to_device(&gpu)?;
    let nhwc = g.contiguous_in(MemoryFormat::ChannelsLast);
    assert_eq!(nhwc.strides(), [60, 1, 15, 3]);
    assert_eq!(nhwc.to_cpu()?.to_vec(), x.to_vec());
    let back = nhwc.contiguous();
    assert_eq!(back.to_cpu()?.to_vec(), x.to_vec());
    let mut y = Tensor::<f32, shape![4, 4]>::zeros().to_device(&gpu)?;
    y.fill(2.5);
    y += &Tensor::<f32, shape![4]>::arange().to_device(&gpu)?;
    y -= 0.5;
    let want: Vec<f32> = (0..16).map(|i| 2.0 + (i % 4) as f32).collect();
    assert_eq!(y.to_cpu()?.to_vec(), want);
    let full = DynTensor::<half::bf16, Cuda>::full_on(&gpu, &[3, 1000], half::bf16::ONE)?;
    assert_eq!(full.to_cpu()?.to_vec(), vec![half::bf16::ONE; 3000]);
    Ok(())
}

#[test]
fn a_rank_zero_cpu_tensor_joins_a_cuda_operation() -> Result<(), Error> {
    let Some(gpu) = gpu("a_rank_zero_cpu_tensor_joins_a_cuda_operation") else {
        return Ok(());
    };
    let x = Tensor::<f32, shape![2, 3]>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0])?;
    let g = x.to_device(&gpu)?;
    let two = Tensor::<f32, shape![]>::full(2.0);
    assert_eq!((&g * &two).to_cpu()?.to_vec(), (&x * 2.0).to_vec());
    assert_eq!((&two - &g).to_cpu()?.to_vec(), (2.0 - &x).to_vec());
    assert_eq!(g.gt(&two).to_cpu()?.to_vec(), x.gt(2.0).to_vec());
    let mut h = g.clone();
    h /= &two;
    assert_eq!(h.to_cpu()?.to_vec(), (&x / 2.0).to_vec());
    Ok(())
}

#[test]
fn errors_are_shaped_errors() {
    let Some(_gpu) = gpu("errors_are_shaped_errors") else {
        return;
    };
    let err = Cuda::new(4096).unwrap_err();
    assert!(matches!(err, Error::Cuda { .. }), "{err:?}");
    assert!(err.to_string().starts_with("CUDA error: "), "{err}");
    assert!(Cuda::open(&Device::Cpu).is_err());
}
