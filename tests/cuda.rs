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

/// The static views made without the layout engine (`narrow`, `select`,
/// `slice`, `unsqueeze`, `squeeze`, `movedim`, `diagonal`, `expand`, the
/// splits) on a CUDA tensor: the same elements as on the host, and the
/// infallible static `amax_dim`/`argmax_dim` agree too.
#[test]
fn static_views_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("static_views_on_the_device") else {
        return Ok(());
    };
    let x = Tensor::<i64, shape![3, 4, 5]>::from_vec((0..60).collect())?;
    let g = x.to_device(&gpu)?;
    let (gv, xv) = (g.narrow::<2, 3>(1), x.narrow::<2, 3>(1));
    assert_eq!(gv.to_cpu()?.to_vec(), xv.to_vec());
    assert_eq!(
        g.select::<0>(-1).to_cpu()?.to_vec(),
        x.select::<0>(-1).to_vec()
    );
    let (gs, xs) = (
        g.slice(s![1.., ..;2, NewAxis, -2]),
        x.slice(s![1.., ..;2, NewAxis, -2]),
    );
    assert_eq!((gs.shape(), gs.strides()), (xs.shape(), xs.strides()));
    assert_eq!(gs.to_cpu()?.to_vec(), xs.to_vec());
    let gu = gv.unsqueeze::<1>();
    assert_eq!(gu.to_cpu()?.to_vec(), xv.unsqueeze::<1>().to_vec());
    assert_eq!(gu.squeeze().to_cpu()?.to_vec(), xv.to_vec());
    assert_eq!(
        g.movedim::<0, 2>().to_cpu()?.to_vec(),
        x.movedim::<0, 2>().to_vec()
    );
    assert_eq!(g.diagonal().to_cpu()?.to_vec(), x.diagonal().to_vec());
    let row = g.select::<0>(1).select::<0>(2);
    let wide = row.expand::<shape![2, 5]>();
    assert_eq!(
        wide.to_cpu()?.to_vec(),
        x.select::<0>(1)
            .select::<0>(2)
            .expand::<shape![2, 5]>()
            .to_vec()
    );
    let (gfull, glast) = g.chunk::<1, 3>();
    let (xfull, xlast) = x.chunk::<1, 3>();
    for (a, b) in gfull.iter().zip(xfull.iter()) {
        assert_eq!(a.to_cpu()?.to_vec(), b.to_vec());
    }
    assert_eq!(glast.len(), xlast.len());
    assert_eq!(
        g.amax_dim::<2>().to_cpu()?.to_vec(),
        x.amax_dim::<2>().to_vec()
    );
    assert_eq!(
        gv.argmax_dim::<1>().to_cpu()?.to_vec(),
        xv.argmax_dim::<1>().to_vec()
    );
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

/// Values at the edges of the conversions (NaN, infinities, signed zero,
/// halfway cases, out of every integer range), as float64.
const EDGES: [f64; 16] = [
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    -0.0,
    0.0,
    300.7,
    -129.5,
    65520.0,
    65519.0,
    1.0 + 1.0 / 2048.0,
    1.0 + 1.0 / 256.0,
    1e10,
    -1e19,
    3.5e38,
    1e-8,
    -2.5,
];

/// `x.cast::<U>()` on the device against the CPU, contiguous (the
/// vectorized path), transposed and broadcast.
fn check_cast<A: Element, U: Element>(gpu: &Cuda, x: &DynTensor<A>) -> Result<(), Error> {
    let g = x.to_device(gpu)?;
    let case = format!("{} -> {}", A::DTYPE, U::DTYPE);
    assert!(
        same(&g.cast::<U>().to_cpu()?.to_vec(), &x.cast::<U>().to_vec()),
        "{case}"
    );
    let t = g.transpose(0, 1)?;
    assert!(
        same(
            &t.cast::<U>().to_cpu()?.to_vec(),
            &x.transpose(0, 1)?.cast::<U>().to_vec()
        ),
        "{case} transposed"
    );
    let e = g.narrow(0, 1, 1)?.expand(&[3, 16, 64])?;
    let want = x
        .narrow(0, 1, 1)?
        .expand(&[3, 16, 64])?
        .cast::<U>()
        .to_vec();
    assert!(
        same(&e.cast::<U>().to_cpu()?.to_vec(), &want),
        "{case} expanded"
    );
    Ok(())
}

/// A (16, 64) tensor of `A`s: the edge values on the first row, then
/// ordinary ones, all converted from float64 by the CPU.
fn cast_source<A: Element>() -> Result<DynTensor<A>, Error> {
    let mut v: Vec<f64> = EDGES.to_vec();
    v.extend((16..1024).map(|i| (i % 37) as f64 * 0.75 - 13.0));
    let wide = DynTensor::<f64>::from_vec(v, &[1024])?.cast::<A>();
    let x = DynTensor::<A>::from_vec(wide.to_vec(), &[16, 64])?;
    Ok(x)
}

macro_rules! casts_from {
    ($($name:ident: $a:ty;)*) => {$(
        #[test]
        fn $name() -> Result<(), Error> {
            let Some(gpu) = gpu(stringify!($name)) else { return Ok(()) };
            let x = cast_source::<$a>()?;
            check_cast::<$a, half::f16>(&gpu, &x)?;
            check_cast::<$a, half::bf16>(&gpu, &x)?;
            check_cast::<$a, f32>(&gpu, &x)?;
            check_cast::<$a, f64>(&gpu, &x)?;
            check_cast::<$a, num_complex::Complex<f32>>(&gpu, &x)?;
            check_cast::<$a, num_complex::Complex<f64>>(&gpu, &x)?;
            check_cast::<$a, u8>(&gpu, &x)?;
            check_cast::<$a, i8>(&gpu, &x)?;
            check_cast::<$a, i16>(&gpu, &x)?;
            check_cast::<$a, i32>(&gpu, &x)?;
            check_cast::<$a, i64>(&gpu, &x)?;
            check_cast::<$a, bool>(&gpu, &x)?;
            Ok(())
        }
    )*};
}

casts_from! {
    casts_from_f16: half::f16;
    casts_from_bf16: half::bf16;
    casts_from_f32: f32;
    casts_from_f64: f64;
    casts_from_c64: num_complex::Complex<f32>;
    casts_from_c128: num_complex::Complex<f64>;
    casts_from_u8: u8;
    casts_from_i8: i8;
    casts_from_i16: i16;
    casts_from_i32: i32;
    casts_from_i64: i64;
    casts_from_bool: bool;
}

/// Asserts that an expression on CUDA tensors gives, on the host, what the
/// same expression gives on CPU tensors (dtype included).
macro_rules! assert_same_on_both {
    ($what:expr, $gpu:expr, $cpu:expr) => {{
        let (g, c) = ($gpu, $cpu);
        assert_eq!(g.dtype(), c.dtype(), "{}: dtype", $what);
        assert!(same(&g.to_cpu()?.to_vec(), &c.to_vec()), "{}", $what);
    }};
}

/// Every mixed-dtype form for one pair of element types: operators,
/// comparisons, numbers on either side, in place with the cast back, over a
/// broadcast and a transposed operand.
macro_rules! mixed_pair {
    ($gpu:expr, $a:ty, $b:ty) => {{
        let a = DynTensor::<f64>::from_vec(
            (0..24).map(|i| (i % 7) as f64 * 1.5 - 4.0).collect(),
            &[4, 6],
        )?
        .cast::<$a>();
        let b =
            DynTensor::<f64>::from_vec((0..6).map(|i| (i % 4) as f64 * 2.0 - 3.0).collect(), &[6])?
                .cast::<$b>();
        let (ga, gb) = (a.to_device($gpu)?, b.to_device($gpu)?);
        let case = concat!(stringify!($a), " with ", stringify!($b));
        assert_same_on_both!(case, &ga + &gb, &a + &b);
        assert_same_on_both!(case, &ga * &gb, &a * &b);
        assert_same_on_both!(case, &gb / &ga, &b / &a);
        assert_same_on_both!(case, ga.eq(&gb), a.eq(&b));
        assert_same_on_both!(case, ga.ne(&gb), a.ne(&b));
        let (gt, t) = (ga.t()?, a.t()?);
        let (gc, c) = (gb.unsqueeze(1)?, b.unsqueeze(1)?);
        assert_same_on_both!(case, &gt + &gc, &t + &c);
        assert_same_on_both!(case, &ga * 3, &a * 3);
        assert_same_on_both!(case, 2.5 / &gb, 2.5 / &b);
    }};
}

/// The ordered comparisons and subtraction, for pairs that have them.
macro_rules! mixed_ordered_pair {
    ($gpu:expr, $a:ty, $b:ty) => {{
        let a = DynTensor::<f64>::from_vec((0..12).map(|i| i as f64 - 5.5).collect(), &[2, 6])?
            .cast::<$a>();
        let b =
            DynTensor::<f64>::from_vec(vec![-3.0, 0.0, 1.0, 2.5, -7.0, 6.0], &[6])?.cast::<$b>();
        let (ga, gb) = (a.to_device($gpu)?, b.to_device($gpu)?);
        let case = concat!(stringify!($a), " ordered with ", stringify!($b));
        assert_same_on_both!(case, &ga - &gb, &a - &b);
        assert_same_on_both!(case, ga.lt(&gb), a.lt(&b));
        assert_same_on_both!(case, ga.ge(&gb), a.ge(&b));
        assert_same_on_both!(case, gb.gt(0.5), b.gt(0.5));
        assert_same_on_both!(case, 1 - &ga, 1 - &a);
    }};
}

#[test]
fn mixed_dtype_operations() -> Result<(), Error> {
    let Some(gpu) = gpu("mixed_dtype_operations") else {
        return Ok(());
    };
    use half::{bf16, f16};
    use num_complex::Complex;
    mixed_pair!(&gpu, i32, f32);
    mixed_pair!(&gpu, u8, i8);
    mixed_pair!(&gpu, f16, bf16);
    mixed_pair!(&gpu, bool, i64);
    mixed_pair!(&gpu, i16, f64);
    mixed_pair!(&gpu, Complex<f32>, f64);
    mixed_pair!(&gpu, bf16, Complex<f64>);
    mixed_pair!(&gpu, u8, bool);
    mixed_pair!(&gpu, f16, i64);
    mixed_ordered_pair!(&gpu, i32, f32);
    mixed_ordered_pair!(&gpu, u8, i8);
    mixed_ordered_pair!(&gpu, f16, bf16);
    mixed_ordered_pair!(&gpu, i64, f16);
    mixed_ordered_pair!(&gpu, f64, u8);
    Ok(())
}

#[test]
fn mixed_dtype_in_place_operations_cast_back() -> Result<(), Error> {
    let Some(gpu) = gpu("mixed_dtype_in_place_operations_cast_back") else {
        return Ok(());
    };
    let x = DynTensor::<u8>::from_vec((0..12).map(|i| i * 20).collect(), &[3, 4])?;
    let y = DynTensor::<i32>::from_vec(vec![7, -1, 300, 2], &[4])?;
    let (mut cx, mut gx) = (x.clone(), x.to_device(&gpu)?);
    cx *= &y;
    gx *= &y.to_device(&gpu)?;
    assert_eq!(gx.to_cpu()?.to_vec(), cx.to_vec());
    let h = DynTensor::<half::f16>::from_vec(
        (0..12)
            .map(|i| half::f16::from_f32(i as f32 * 0.3))
            .collect(),
        &[3, 4],
    )?;
    let d = DynTensor::<f64>::from_vec(vec![0.1, 1e-4, 3.0], &[3, 1])?;
    let (mut ch, mut gh) = (h.clone(), h.to_device(&gpu)?);
    ch += &d;
    gh += &d.to_device(&gpu)?;
    assert_eq!(gh.to_cpu()?.to_vec(), ch.to_vec());
    // Into a transposed view.
    let (mut ct, mut gt) = (h.clone(), h.to_device(&gpu)?);
    ct.transpose_mut(0, 1)?.try_sub_assign(&d.t()?)?;
    gt.transpose_mut(0, 1)?
        .try_sub_assign(&d.t()?.to_device(&gpu)?)?;
    assert_eq!(gt.to_cpu()?.to_vec(), ct.to_vec());
    let z = DynTensor::<num_complex::Complex<f32>>::from_vec(
        vec![num_complex::Complex::new(1.0, 2.0); 4],
        &[4],
    )?;
    let (mut cz, mut gz) = (z.clone(), z.to_device(&gpu)?);
    cz /= &y;
    gz /= &y.to_device(&gpu)?;
    assert_eq!(gz.to_cpu()?.to_vec(), cz.to_vec());
    let mut gi = DynTensor::<i16>::ones(&[5]).to_device(&gpu)?;
    gi += 70000;
    assert_eq!(gi.to_cpu()?.to_vec(), vec![4465i16; 5]);
    Ok(())
}

#[test]
fn conj_and_bool_arithmetic() -> Result<(), Error> {
    let Some(gpu) = gpu("conj_and_bool_arithmetic") else {
        return Ok(());
    };
    use num_complex::Complex;
    let z = DynTensor::<num_complex::Complex<f64>>::from_vec(
        (0..12)
            .map(|i| Complex::new(i as f64, 1.5 - i as f64))
            .collect(),
        &[3, 4],
    )?;
    let g = z.to_device(&gpu)?;
    assert_eq!(g.conj().to_cpu()?.to_vec(), z.conj().to_vec());
    assert_eq!(g.t()?.conj().to_cpu()?.to_vec(), z.t()?.conj().to_vec());
    let z32 = z.cast::<Complex<f32>>();
    assert_eq!(
        z32.to_device(&gpu)?.conj().to_cpu()?.to_vec(),
        z32.conj().to_vec()
    );
    let r = DynTensor::<f32>::arange(5);
    assert_eq!(r.to_device(&gpu)?.conj().to_cpu()?.to_vec(), r.to_vec());
    let a = DynTensor::<bool>::from_vec(vec![true, false, true, false], &[2, 2])?;
    let b = DynTensor::<bool>::from_vec(vec![true, false], &[2, 1])?;
    let (ga, gb) = (a.to_device(&gpu)?, b.to_device(&gpu)?);
    assert_eq!((&ga + &gb).to_cpu()?.to_vec(), (&a + &b).to_vec());
    assert_eq!((&ga * &gb).to_cpu()?.to_vec(), (&a * &b).to_vec());
    assert_eq!(
        (&ga + &gb).to_cpu()?.to_vec(),
        vec![true, true, true, false]
    );
    assert_eq!(
        (&ga * &gb).to_cpu()?.to_vec(),
        vec![true, false, false, false]
    );
    let mut gm = ga.clone();
    gm *= &gb;
    gm += true;
    assert_eq!(gm.to_cpu()?.to_vec(), vec![true; 4]);
    Ok(())
}

#[test]
fn rank_zero_cpu_operands_are_promoted() -> Result<(), Error> {
    let Some(gpu) = gpu("rank_zero_cpu_operands_are_promoted") else {
        return Ok(());
    };
    let x = Tensor::<i32, shape![2, 3]>::from_vec(vec![-3, -1, 0, 1, 2, 200])?;
    let g = x.to_device(&gpu)?;
    let half = Tensor::<f64, shape![]>::full(0.5);
    let y: Tensor<f64, shape![2, 3], Cuda> = &g * &half;
    assert_eq!(y.to_cpu()?.to_vec(), (&x * &half).to_vec());
    let wide = Tensor::<i64, shape![]>::full(1 << 40);
    let z: Tensor<i32, shape![2, 3], Cuda> = &g + &wide;
    assert_eq!(z.to_cpu()?.to_vec(), (&x + &wide).to_vec());
    let small = Tensor::<i8, shape![]>::full(-2);
    let w: Tensor<f32, shape![2, 3], Cuda> = &small / &g;
    assert_eq!(w.to_cpu()?.to_vec(), (&small / &x).to_vec());
    let b = x.cast::<u8>().to_device(&gpu)?;
    let limit = Tensor::<f32, shape![]>::full(1.5);
    assert_eq!(
        b.lt(&limit).to_cpu()?.to_vec(),
        x.cast::<u8>().lt(&limit).to_vec()
    );
    let mut f = x.cast::<f32>().to_device(&gpu)?;
    f *= &wide;
    let mut cf = x.cast::<f32>();
    cf *= &wide;
    assert_eq!(f.to_cpu()?.to_vec(), cf.to_vec());
    let yes = Tensor::<bool, shape![]>::full(true);
    let s: Tensor<i32, shape![2, 3], Cuda> = &yes + &g;
    assert_eq!(s.to_cpu()?.to_vec(), (&yes + &x).to_vec());
    Ok(())
}

/// Every dtype: `contiguous()` of transposed, narrowed and expanded views,
/// channels-last copies and back, and views copied to and from the host.
fn check_copies<A: Element>(gpu: &Cuda) -> Result<(), Error> {
    let x = DynTensor::<f64>::from_vec((0..120).map(|i| i as f64 - 60.0).collect(), &[2, 3, 4, 5])?
        .cast::<A>();
    let g = x.to_device(gpu)?;
    let case = A::DTYPE;
    let t = g.transpose(1, 3)?;
    assert!(!t.is_contiguous());
    assert_eq!(
        t.contiguous().to_cpu()?.to_vec(),
        x.transpose(1, 3)?.to_vec(),
        "{case}"
    );
    assert_eq!(t.to_cpu()?.to_vec(), x.transpose(1, 3)?.to_vec(), "{case}");
    let n = g.narrow(3, 1, 3)?;
    assert_eq!(
        n.contiguous().to_cpu()?.to_vec(),
        x.narrow(3, 1, 3)?.to_vec(),
        "{case}"
    );
    let e = g.select(0, 1)?.unsqueeze(0)?.expand(&[4, 3, 4, 5])?;
    let ce = x.select(0, 1)?.unsqueeze(0)?.expand(&[4, 3, 4, 5])?;
    assert_eq!(e.contiguous().to_cpu()?.to_vec(), ce.to_vec(), "{case}");
    let nhwc = g.contiguous_in(MemoryFormat::ChannelsLast);
    assert_eq!(
        nhwc.strides(),
        x.contiguous_in(MemoryFormat::ChannelsLast).strides()
    );
    assert_eq!(nhwc.to_cpu()?.to_vec(), x.to_vec(), "{case}");
    assert_eq!(nhwc.contiguous().to_cpu()?.to_vec(), x.to_vec(), "{case}");
    let from_view = x.permute(&[3, 1, 0, 2])?.to_device(gpu)?;
    assert!(from_view.is_contiguous());
    assert_eq!(
        from_view.to_cpu()?.to_vec(),
        x.permute(&[3, 1, 0, 2])?.to_vec(),
        "{case}"
    );
    Ok(())
}

#[test]
fn copies_and_memory_formats_every_dtype() -> Result<(), Error> {
    let Some(gpu) = gpu("copies_and_memory_formats_every_dtype") else {
        return Ok(());
    };
    check_copies::<half::f16>(&gpu)?;
    check_copies::<half::bf16>(&gpu)?;
    check_copies::<f32>(&gpu)?;
    check_copies::<f64>(&gpu)?;
    check_copies::<num_complex::Complex<f32>>(&gpu)?;
    check_copies::<num_complex::Complex<f64>>(&gpu)?;
    check_copies::<u8>(&gpu)?;
    check_copies::<i8>(&gpu)?;
    check_copies::<i16>(&gpu)?;
    check_copies::<i32>(&gpu)?;
    check_copies::<i64>(&gpu)?;
    check_copies::<bool>(&gpu)?;
    Ok(())
}

#[test]
fn copies_between_two_devices() -> Result<(), Error> {
    let Some(gpu0) = gpu("copies_between_two_devices") else {
        return Ok(());
    };
    let x = DynTensor::<f32>::from_vec((0..60).map(|i| i as f32).collect(), &[3, 4, 5])?;
    let g0 = x.to_device(&gpu0)?;
    // The same device: a contiguous copy there.
    let same_device = g0.transpose(0, 2)?.to_device(&gpu0)?;
    assert_eq!(same_device.device(), Device::Cuda(0));
    assert!(same_device.is_contiguous());
    assert_eq!(same_device.to_cpu()?.to_vec(), x.transpose(0, 2)?.to_vec());
    let gpu1 = match Cuda::new(1) {
        Ok(gpu1) => gpu1,
        Err(e) => {
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED cuda::copies_between_two_devices (cuda:1 part): no second CUDA device ({e})"
            );
            return Ok(());
        }
    };
    let g1 = g0.to_device(&gpu1)?;
    assert_eq!(g1.device(), Device::Cuda(1));
    assert_eq!(g1.to_cpu()?.to_vec(), x.to_vec());
    let strided = g0.permute(&[2, 0, 1])?.to_device(&gpu1)?;
    assert_eq!(strided.to_cpu()?.to_vec(), x.permute(&[2, 0, 1])?.to_vec());
    let back = (&g1 * 2.0).to_device(&gpu0)?;
    assert_eq!(back.to_cpu()?.to_vec(), (&x * 2.0).to_vec());
    Ok(())
}

/// Within `tol` of each other (relative to the larger part of the expected
/// value, at least 1), both NaN, or equal: the device's math library may
/// differ from the host's libm by a few ULP. Dtypes and shapes must match.
fn close(got: &AnyTensor, want: &AnyTensor, tol: f64) -> bool {
    use shaped::dtype::Scalar;
    let parts = |s: Scalar| match s {
        Scalar::Float(x) => (x, 0.0),
        Scalar::Complex(re, im) => (re, im),
        Scalar::Int(i) => (i as f64, 0.0),
        Scalar::Bool(b) => (f64::from(u8::from(b)), 0.0),
    };
    got.dtype() == want.dtype()
        && got.shape() == want.shape()
        && got
            .to_scalars()
            .into_iter()
            .zip(want.to_scalars())
            .all(|(g, w)| {
                let ((gr, gi), (wr, wi)) = (parts(g), parts(w));
                let scale = wr.abs().max(wi.abs()).max(1.0);
                let near = |x: f64, y: f64| {
                    x == y || (x.is_nan() && y.is_nan()) || (x - y).abs() <= tol * scale
                };
                near(gr, wr) && near(gi, wi)
            })
}

/// Asserts that a math expression on a CUDA tensor gives what it gives on
/// the CPU, within the dtype's tolerance (exactly for integer results).
macro_rules! assert_close_on_both {
    ($what:expr, $tol:expr, $gpu:expr, $cpu:expr) => {{
        let (got, want) = (AnyTensor::from($gpu.to_cpu()?), AnyTensor::from($cpu));
        if !close(&got, &want, $tol) {
            let message = format!(
                "{}: got {:?}, want {:?}",
                $what,
                got.to_scalars(),
                want.to_scalars()
            );
            // On a lent device, one run lists every difference.
            if std::env::var_os("SHAPED_CUDA_REPORT_ALL").is_some() {
                let _ = writeln!(std::io::stderr(), "MISMATCH {message}");
            } else {
                panic!("{message}");
            }
        }
    }};
}

/// Sample values for the math functions: both signs, zero, fractions,
/// halfway cases, and the edges (NaN, infinities, huge, tiny), as `(4, 10)`.
fn math_source<T: shaped::dynamic::AnyElement>() -> Result<DynTensor<T>, Error> {
    let mut v: Vec<f64> = (0..24).map(|i| i as f64 * 0.625 - 7.5).collect();
    v.extend_from_slice(&EDGES);
    let x = AnyTensor::from(DynTensor::<f64>::from_vec(v, &[4, 10])?).to_dtype(T::DTYPE);
    x.downcast::<T>()
}

/// The relative tolerance of the math functions per dtype: a few ULP of
/// the result type (float16 and bfloat16 round once from float32).
fn math_tol(dtype: DType) -> f64 {
    match dtype {
        DType::F16 => 1e-3,
        DType::BF16 => 8e-3,
        DType::F64 | DType::C128 => 1e-13,
        _ => 2e-6,
    }
}

/// The functions every dtype has (integers and bool compute in float32),
/// on one operand pair: a CUDA tensor and its CPU twin.
macro_rules! float_functions_on {
    ($case:expr, $gx:expr, $cx:expr) => {{
        let (gx, cx) = ($gx, $cx);
        let tol = math_tol(cx.exp().dtype());
        let case = |f: &str| format!("{f} of {}", $case);
        assert_close_on_both!(case("exp"), tol, gx.exp(), cx.exp());
        assert_close_on_both!(case("ln"), tol, gx.ln(), cx.ln());
        assert_close_on_both!(case("log2"), tol, gx.log2(), cx.log2());
        assert_close_on_both!(case("sqrt"), tol, gx.sqrt(), cx.sqrt());
        assert_close_on_both!(case("sin"), tol, gx.sin(), cx.sin());
        assert_close_on_both!(case("cos"), tol, gx.cos(), cx.cos());
        assert_close_on_both!(case("tanh"), tol, gx.tanh(), cx.tanh());
        assert_close_on_both!(case("sigmoid"), tol, gx.sigmoid(), cx.sigmoid());
        assert_close_on_both!(case("recip"), tol, gx.recip(), cx.recip());
        assert_close_on_both!(case("tan"), tol, gx.tan(), cx.tan());
        assert_close_on_both!(case("asin"), tol, gx.asin(), cx.asin());
        assert_close_on_both!(case("acos"), tol, gx.acos(), cx.acos());
        assert_close_on_both!(case("atan"), tol, gx.atan(), cx.atan());
        assert_close_on_both!(case("sinh"), tol, gx.sinh(), cx.sinh());
        assert_close_on_both!(case("cosh"), tol, gx.cosh(), cx.cosh());
        assert_close_on_both!(case("asinh"), tol, gx.asinh(), cx.asinh());
        assert_close_on_both!(case("acosh"), tol, gx.acosh(), cx.acosh());
        assert_close_on_both!(case("atanh"), tol, gx.atanh(), cx.atanh());
        assert_close_on_both!(case("exp2"), tol, gx.exp2(), cx.exp2());
        assert_close_on_both!(case("expm1"), tol, gx.expm1(), cx.expm1());
        assert_close_on_both!(case("log10"), tol, gx.log10(), cx.log10());
        assert_close_on_both!(case("log1p"), tol, gx.log1p(), cx.log1p());
        assert_close_on_both!(case("rsqrt"), tol, gx.rsqrt(), cx.rsqrt());
    }};
}

/// [`float_functions_on`] a contiguous (vectorized) and a transposed
/// tensor of `$t`.
macro_rules! float_functions {
    ($gpu:expr, $t:ty) => {{
        let x = math_source::<$t>()?;
        let g = x.to_device($gpu)?;
        float_functions_on!(stringify!($t), &g, &x);
        float_functions_on!(concat!(stringify!($t), ", transposed"), &g.t()?, &x.t()?);
    }};
}

/// The functions of real, non-bool dtypes (abs, rounding, relu, clamp,
/// maximum, minimum, pow with a tensor and a number; exact but for `pow`)
/// on a CUDA tensor and a second operand, and their CPU twins.
macro_rules! real_functions_on {
    ($case:expr, $t:ty, $gx:expr, $cx:expr, $gy:expr, $cy:expr) => {{
        let (gx, cx, gy, cy) = ($gx, $cx, $gy, $cy);
        let tol = math_tol(<$t as Element>::DTYPE);
        let case = |f: &str| format!("{f} of {}", $case);
        assert_same_on_both!(case("abs"), gx.abs(), cx.abs());
        assert_same_on_both!(case("floor"), gx.floor(), cx.floor());
        assert_same_on_both!(case("ceil"), gx.ceil(), cx.ceil());
        assert_same_on_both!(case("round"), gx.round(), cx.round());
        assert_same_on_both!(case("relu"), gx.relu(), cx.relu());
        assert_same_on_both!(case("clamp"), gx.clamp(1, 3), cx.clamp(1, 3));
        assert_same_on_both!(
            case("clamp, float bounds"),
            gx.clamp(0.5, 2.5),
            cx.clamp(0.5, 2.5)
        );
        assert_same_on_both!(case("maximum"), gx.maximum(gy), cx.maximum(cy));
        assert_same_on_both!(case("minimum"), gy.minimum(gx), cy.minimum(cx));
        let (gw, cw) = (gy.cast::<f64>(), cy.cast::<f64>());
        assert_same_on_both!(case("maximum with f64"), gx.maximum(&gw), cx.maximum(&cw));
        assert_close_on_both!(case("pow"), tol, gx.pow(gy), cx.pow(cy));
        assert_close_on_both!(case("powf(2)"), tol, gx.powf(2.0), cx.powf(2.0));
        assert_close_on_both!(case("powf(-0.5)"), tol, gx.powf(-0.5), cx.powf(-0.5));
    }};
}

/// [`real_functions_on`] a contiguous tensor with a broadcast row, and a
/// transposed one with a broadcast column.
macro_rules! real_functions {
    ($gpu:expr, $t:ty) => {{
        let x = math_source::<$t>()?;
        let y = DynTensor::<f64>::from_vec((0..10).map(|i| i as f64 * 0.5 - 2.0).collect(), &[10])?
            .cast::<$t>();
        let (g, gy) = (x.to_device($gpu)?, y.to_device($gpu)?);
        real_functions_on!(stringify!($t), $t, &g, &x, &gy, &y);
        let (gt, t) = (g.t()?, x.t()?);
        let (gc, c) = (gy.unsqueeze(1)?, y.unsqueeze(1)?);
        real_functions_on!(
            concat!(stringify!($t), ", transposed"),
            $t,
            &gt,
            &t,
            &gc,
            &c
        );
    }};
}

#[test]
fn math_functions_every_dtype() -> Result<(), Error> {
    let Some(gpu) = gpu("math_functions_every_dtype") else {
        return Ok(());
    };
    use half::{bf16, f16};
    use num_complex::Complex;
    float_functions!(&gpu, f16);
    float_functions!(&gpu, bf16);
    float_functions!(&gpu, f32);
    float_functions!(&gpu, f64);
    float_functions!(&gpu, Complex<f32>);
    float_functions!(&gpu, Complex<f64>);
    float_functions!(&gpu, u8);
    float_functions!(&gpu, i8);
    float_functions!(&gpu, i16);
    float_functions!(&gpu, i32);
    float_functions!(&gpu, i64);
    float_functions!(&gpu, bool);
    real_functions!(&gpu, f16);
    real_functions!(&gpu, bf16);
    real_functions!(&gpu, f32);
    real_functions!(&gpu, f64);
    real_functions!(&gpu, u8);
    real_functions!(&gpu, i8);
    real_functions!(&gpu, i16);
    real_functions!(&gpu, i32);
    real_functions!(&gpu, i64);
    // Complex values: their magnitude, and powers.
    complex_and_bool_math(&gpu)?;
    Ok(())
}

fn complex_and_bool_math(gpu: &Cuda) -> Result<(), Error> {
    use num_complex::Complex;
    let z = DynTensor::<num_complex::Complex<f64>>::from_vec(
        (0..12)
            .map(|i| Complex::new(i as f64 * 0.75 - 4.0, 3.0 - i as f64 * 0.5))
            .collect(),
        &[3, 4],
    )?;
    let g = z.to_device(gpu)?;
    assert_close_on_both!("abs of complex128", 1e-13, g.abs(), z.abs());
    assert_close_on_both!("pow of complex128", 1e-12, g.pow(&g), z.pow(&z));
    assert_close_on_both!("powf of complex128", 1e-12, g.powf(0.5), z.powf(0.5));
    let (g32, z32) = (g.cast::<Complex<f32>>(), z.cast::<Complex<f32>>());
    assert_close_on_both!("abs of complex64", 2e-6, g32.abs(), z32.abs());
    assert_close_on_both!("powf of complex64", 1e-5, g32.powf(3.0), z32.powf(3.0));
    // bool: maximum and minimum only.
    let b = DynTensor::<bool>::from_vec(vec![true, false, true, false], &[2, 2])?;
    let c = DynTensor::<bool>::from_vec(vec![false, false], &[2])?;
    let (gb, gc) = (b.to_device(gpu)?, c.to_device(gpu)?);
    assert_same_on_both!("maximum of bool", gb.maximum(&gc), b.maximum(&c));
    assert_same_on_both!("minimum of bool", gb.minimum(&gc), b.minimum(&c));
    Ok(())
}

/// `cat` and `stack` of CUDA tensors, static and dynamic, with a
/// transposed part: the same tensors as on the CPU, on the device.
#[test]
fn cat_and_stack_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("cat_and_stack_on_the_device") else {
        return Ok(());
    };
    let a = Tensor::<f32, shape![2, 3]>::from_vec((0..6).map(|i| i as f32).collect())?;
    let b = Tensor::<f32, shape![2, 5]>::from_vec((0..10).map(|i| -(i as f32)).collect())?;
    let (ga, gb) = (a.to_device(&gpu)?, b.to_device(&gpu)?);
    let c: Tensor<f32, shape![2, 8], Cuda> = (&ga, &gb).cat::<1>();
    assert_eq!(c.device(), Device::Cuda(0));
    assert_eq!(c.to_cpu()?.to_vec(), (&a, &b).cat::<1>().to_vec());
    let s: Tensor<f32, shape![2, 2, 3], Cuda> = [&ga, &ga].stack::<1>();
    assert_eq!(s.to_cpu()?.to_vec(), [&a, &a].stack::<1>().to_vec());
    let x = DynTensor::<i64>::from_vec((0..12).collect(), &[3, 4])?;
    let gx = x.to_device(&gpu)?;
    let (gt, t) = (gx.t()?, x.t()?);
    assert_eq!(
        Tensor::cat(&[&gt, &gt], 0)?.to_cpu()?.to_vec(),
        DynTensor::cat(&[&t, &t], 0)?.to_vec()
    );
    assert_eq!(
        Tensor::stack(&[&gx, &gx, &gx], -1)?.to_cpu()?.to_vec(),
        DynTensor::stack(&[&x, &x, &x], -1)?.to_vec()
    );
    let (g4, g2) = (gx.narrow(1, 0, 4)?, gx.narrow(1, 0, 2)?);
    let (x4, x2) = (x.narrow(1, 0, 4)?, x.narrow(1, 0, 2)?);
    let err = Tensor::cat(&[&g4, &g2], 0).err().expect("sizes differ");
    let want = DynTensor::cat(&[&x4, &x2], 0).unwrap_err();
    assert_eq!(err.to_string(), want.to_string());
    Ok(())
}

/// The reductions of one dtype on the device and on the CPU: along every
/// subset of dims of a `(4, 300, 5)` tensor and of its transpose (rows,
/// columns and strided plans), and whole (the split into chunks).
macro_rules! reductions_of {
    ($gpu:expr, $t:ty, $tol:expr) => {{
        let x = DynTensor::<$t>::from_vec(values::<$t>(6000, 3), &[4, 300, 5])?;
        let g = x.to_device($gpu)?;
        let (gt, xt) = (g.transpose(0, 2)?, x.transpose(0, 2)?);
        let what = stringify!($t);
        for (g, x) in [(g.as_view(), x.as_view()), (gt, xt)] {
            for dims in [&[][..], &[0], &[1], &[2], &[0, 2], &[-1, 1], &[0, 1, 2]] {
                let keep = dims.len() == 1;
                assert_close_on_both!(
                    format!("sum{dims:?} of {what}"),
                    $tol,
                    g.sum(dims, keep)?,
                    x.sum(dims, keep)?
                );
                assert_close_on_both!(
                    format!("all{dims:?} of {what}"),
                    0.0,
                    g.all(dims, keep)?,
                    x.all(dims, keep)?
                );
                assert_close_on_both!(
                    format!("any{dims:?} of {what}"),
                    0.0,
                    g.any(dims, keep)?,
                    x.any(dims, keep)?
                );
            }
            for dim in [0, 1, 2] {
                assert_close_on_both!(
                    format!("prod({dim}) of {what}"),
                    $tol,
                    g.prod(dim, false)?,
                    x.prod(dim, false)?
                );
            }
            assert_close_on_both!(
                format!("sum_all of {what}"),
                $tol,
                g.sum_all().into_dyn(),
                x.sum_all().into_dyn()
            );
        }
    }};
}

/// `mean`, for floating and complex dtypes.
macro_rules! means_of {
    ($gpu:expr, $t:ty, $tol:expr) => {{
        let x = DynTensor::<$t>::from_vec(values::<$t>(6000, 5), &[4, 300, 5])?;
        let g = x.to_device($gpu)?;
        for dims in [&[][..], &[1], &[0, 2]] {
            assert_close_on_both!(
                format!("mean{dims:?}"),
                $tol,
                g.mean(dims, false)?,
                x.mean(dims, false)?
            );
        }
        assert_close_on_both!(
            "mean_all",
            $tol,
            g.mean_all()?.into_dyn(),
            x.mean_all()?.into_dyn()
        );
    }};
}

/// The order-based reductions, for real dtypes: exact, indices included.
macro_rules! extremes_of {
    ($gpu:expr, $t:ty) => {{
        let x = DynTensor::<$t>::from_vec(values::<$t>(6000, 7), &[4, 300, 5])?;
        let g = x.to_device($gpu)?;
        let (gt, xt) = (g.transpose(0, 1)?, x.transpose(0, 1)?);
        for (g, x) in [(g.as_view(), x.as_view()), (gt, xt)] {
            for dims in [&[][..], &[1], &[0, 2]] {
                assert_close_on_both!("amax", 0.0, g.amax(dims, false)?, x.amax(dims, false)?);
                assert_close_on_both!("amin", 0.0, g.amin(dims, true)?, x.amin(dims, true)?);
            }
            for dim in [0, 1, 2] {
                let ((gv, gi), (xv, xi)) = (g.max(dim, false)?, x.max(dim, false)?);
                assert_close_on_both!("max values", 0.0, gv, xv);
                assert_close_on_both!("max indices", 0.0, gi, xi);
                assert_close_on_both!("argmin", 0.0, g.argmin(dim, true)?, x.argmin(dim, true)?);
            }
            assert_close_on_both!(
                "max_all",
                0.0,
                g.max_all()?.into_dyn(),
                x.max_all()?.into_dyn()
            );
            assert_close_on_both!(
                "argmax_all",
                0.0,
                g.argmax_all()?.into_dyn(),
                x.argmax_all()?.into_dyn()
            );
            assert_close_on_both!(
                "argmin_all",
                0.0,
                g.argmin_all()?.into_dyn(),
                x.argmin_all()?.into_dyn()
            );
        }
    }};
}

#[test]
fn reductions_every_dtype() -> Result<(), Error> {
    let Some(gpu) = gpu("reductions_every_dtype") else {
        return Ok(());
    };
    use half::{bf16, f16};
    use num_complex::Complex;
    reductions_of!(&gpu, f16, 2e-3);
    reductions_of!(&gpu, bf16, 1e-2);
    reductions_of!(&gpu, f32, 1e-5);
    reductions_of!(&gpu, f64, 1e-12);
    reductions_of!(&gpu, Complex<f32>, 1e-5);
    reductions_of!(&gpu, Complex<f64>, 1e-12);
    reductions_of!(&gpu, u8, 0.0);
    reductions_of!(&gpu, i8, 0.0);
    reductions_of!(&gpu, i16, 0.0);
    reductions_of!(&gpu, i32, 0.0);
    reductions_of!(&gpu, i64, 0.0);
    means_of!(&gpu, f16, 2e-3);
    means_of!(&gpu, bf16, 1e-2);
    means_of!(&gpu, f32, 1e-5);
    means_of!(&gpu, f64, 1e-12);
    means_of!(&gpu, Complex<f32>, 1e-5);
    means_of!(&gpu, Complex<f64>, 1e-12);
    extremes_of!(&gpu, f16);
    extremes_of!(&gpu, bf16);
    extremes_of!(&gpu, f32);
    extremes_of!(&gpu, f64);
    extremes_of!(&gpu, u8);
    extremes_of!(&gpu, i8);
    extremes_of!(&gpu, i16);
    extremes_of!(&gpu, i32);
    extremes_of!(&gpu, i64);
    // bool: sums and products in int64, truth, order.
    let b = DynTensor::<bool>::from_vec((0..600).map(|i| i % 3 != 0).collect(), &[20, 30])?;
    let gb = b.to_device(&gpu)?;
    assert_close_on_both!(
        "sum of bool",
        0.0,
        gb.sum(&[0], false)?,
        b.sum(&[0], false)?
    );
    assert_close_on_both!("prod of bool", 0.0, gb.prod(1, false)?, b.prod(1, false)?);
    assert_close_on_both!(
        "all of bool",
        0.0,
        gb.all(&[1], false)?,
        b.all(&[1], false)?
    );
    assert_close_on_both!(
        "amax of bool",
        0.0,
        gb.amax(&[0], false)?,
        b.amax(&[0], false)?
    );
    // A long whole-tensor sum (the two-pass plan on a real grid), NaN
    // propagating to `amax`, and an empty reduction.
    let long = DynTensor::<f32>::from_vec(
        (0..1 << 22).map(|i| (i % 17) as f32 * 0.25).collect(),
        &[1 << 22],
    )?;
    let gl = long.to_device(&gpu)?;
    assert_close_on_both!(
        "sum of 4M",
        1e-5,
        gl.sum_all().into_dyn(),
        long.sum_all().into_dyn()
    );
    let mut v = vec![1.0f32; 1000];
    v[777] = f32::NAN;
    let nan = DynTensor::<f32>::from_vec(v, &[1000])?;
    assert_close_on_both!(
        "amax with NaN",
        0.0,
        nan.to_device(&gpu)?.amax(&[], false)?,
        nan.amax(&[], false)?
    );
    assert_close_on_both!(
        "argmax with NaN",
        0.0,
        nan.to_device(&gpu)?.argmax_all()?.into_dyn(),
        nan.argmax_all()?.into_dyn()
    );
    let empty = DynTensor::<f32>::zeros(&[3, 0]);
    assert_close_on_both!(
        "mean of nothing",
        0.0,
        empty.to_device(&gpu)?.mean(&[1], false)?,
        empty.mean(&[1], false)?
    );
    // The static forms on the device.
    let s = Tensor::<f32, shape![4, 6]>::from_vec((0..24).map(|i| i as f32).collect())?;
    let gs = s.to_device(&gpu)?;
    let rows: Tensor<f32, shape![4], Cuda> = gs.sum_dim::<1>();
    assert_eq!(rows.to_cpu()?.to_vec(), s.sum_dim::<1>().to_vec());
    let (values, indices) = gs.max_dim::<0>();
    assert_eq!(values.to_cpu()?.to_vec(), s.max_dim::<0>().0.to_vec());
    assert_eq!(indices.to_cpu()?.to_vec(), s.max_dim::<0>().1.to_vec());
    Ok(())
}

/// Empty inputs whose other sizes are huge (views of no elements may have
/// them): the kept sizes decide first, as on the CPU, so a size-0 kept
/// dimension gives no outputs, kept sizes past `isize::MAX` give PyTorch's
/// overflow error, and an output too large for the device is an `Err`.
#[test]
fn reductions_of_empty_inputs_with_huge_sizes() -> Result<(), Error> {
    let Some(gpu) = gpu("reductions_of_empty_inputs_with_huge_sizes") else {
        return Ok(());
    };
    let zero = DynTensor::<f32>::zeros(&[0, 1, 1]);
    let cpu = zero.expand(&[0, 1 << 62, 4])?;
    let on_gpu = zero.to_device(&gpu)?;
    let x = on_gpu.expand(&[0, 1 << 62, 4])?;
    assert_eq!(x.sum(&[], false)?.to_cpu()?.to_vec(), vec![0.0]);
    assert_eq!(x.sum(&[1, 2], false)?.shape(), [0]);
    assert_eq!(x.amax(&[1, 2], false)?.shape(), [0]);
    let overflow = cpu.sum(&[0], false).err().map(|e| e.to_string());
    assert!(overflow.is_some(), "the CPU refuses 2^62 * 4 outputs");
    assert_eq!(x.sum(&[0], false).err().map(|e| e.to_string()), overflow);
    // 2^58 outputs of no elements each: 2^60 bytes, more than any device.
    let wide = DynTensor::<f32>::zeros(&[0, 1 << 58]).to_device(&gpu)?;
    assert!(wide.sum(&[0], false).is_err());
    // Outputs that fit are the result of no elements.
    let some = DynTensor::<f32>::zeros(&[0, 5]).to_device(&gpu)?;
    assert_eq!(some.sum(&[0], false)?.to_cpu()?.to_vec(), vec![0.0; 5]);
    assert_eq!(some.prod(0, true)?.to_cpu()?.to_vec(), vec![1.0; 5]);
    Ok(())
}

#[test]
fn where_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("where_on_the_device") else {
        return Ok(());
    };
    // Broadcast together, mixed dtypes promoted, a transposed operand.
    let cond = DynTensor::<bool>::from_vec((0..12).map(|i| i % 3 == 0).collect(), &[3, 4])?;
    let a = DynTensor::<i32>::from_vec((0..4).collect(), &[4])?;
    let b = DynTensor::<f64>::from_vec((0..12).map(|i| i as f64 * -0.5).collect(), &[4, 3])?;
    let (gc, ga, gb) = (
        cond.to_device(&gpu)?,
        a.to_device(&gpu)?,
        b.to_device(&gpu)?,
    );
    let (gbt, bt) = (gb.t()?, b.t()?);
    let got = shaped::ops::math::try_where(&gc, &ga, &gbt)?;
    let want = shaped::ops::math::try_where(&cond, &a, &bt)?;
    assert_eq!(got.shape(), want.shape());
    assert_eq!(got.to_cpu()?.to_vec(), want.to_vec());
    // Static shapes: the result's shape computed at compile time.
    let c = Tensor::<bool, shape![2, 1]>::from_vec(vec![true, false])?;
    let x = Tensor::<f32, shape![3]>::from_vec(vec![1.0, 2.0, 3.0])?;
    let y = Tensor::<half::f16, shape![1]>::from_vec(vec![half::f16::from_f32(-1.0)])?;
    let w: Tensor<f32, shape![2, 3], Cuda> = shaped::where_(
        &c.to_device(&gpu)?,
        &x.to_device(&gpu)?,
        &y.to_device(&gpu)?,
    );
    assert_eq!(w.to_cpu()?.to_vec(), shaped::where_(&c, &x, &y).to_vec());
    // A rank-0 CPU operand joins CUDA tensors, promoted as a rank-0 operand:
    // an int32 CUDA tensor with a float64 CPU number gives float64.
    let zero = Tensor::<f64, shape![]>::full(-0.25);
    let xi = x.cast::<i32>();
    let v: Tensor<f64, shape![2, 3], Cuda> =
        shaped::where_(&c.to_device(&gpu)?, &xi.to_device(&gpu)?, &zero);
    assert_eq!(
        v.to_cpu()?.to_vec(),
        shaped::where_(&c, &xi, &zero).to_vec()
    );
    // A rank-0 CPU condition too (PyTorch's `where(True, a, b)` with CUDA
    // `a`, `b`), with true and false.
    for truth in [true, false] {
        let cond = Tensor::<bool, shape![]>::full(truth);
        let u: Tensor<f32, shape![3], Cuda> =
            shaped::where_(&cond, &x.to_device(&gpu)?, &y.to_device(&gpu)?);
        assert_eq!(u.to_cpu()?.to_vec(), shaped::where_(&cond, &x, &y).to_vec());
    }
    Ok(())
}

/// Products of one dtype on the device and on the CPU: tiles whole and
/// partial, a transposed operand, a broadcast batch, vectors.
macro_rules! products_of {
    ($gpu:expr, $t:ty, $tol:expr) => {{
        let a = DynTensor::<$t>::from_vec(values::<$t>(3 * 70 * 45, 1), &[3, 70, 45])?;
        let b = DynTensor::<$t>::from_vec(values::<$t>(45 * 33, 2), &[45, 33])?;
        let v = DynTensor::<$t>::from_vec(values::<$t>(45, 3), &[45])?;
        let (ga, gb, gv) = (a.to_device($gpu)?, b.to_device($gpu)?, v.to_device($gpu)?);
        let what = stringify!($t);
        assert_close_on_both!(
            format!("batch x matrix of {what}"),
            $tol,
            ga.matmul(&gb)?,
            a.matmul(&b)?
        );
        let (gat, at) = (ga.transpose(1, 2)?, a.transpose(1, 2)?);
        assert_close_on_both!(
            format!("transposed batch of {what}"),
            $tol,
            gat.matmul(&ga)?,
            at.matmul(&a)?
        );
        assert_close_on_both!(
            format!("matrix x vector of {what}"),
            $tol,
            ga.matmul(&gv)?,
            a.matmul(&v)?
        );
        assert_close_on_both!(
            format!("vector . vector of {what}"),
            $tol,
            gv.matmul(&gv)?,
            v.matmul(&v)?
        );
        // Layouts cuBLAS cannot read (stepped columns, a broadcast row) are
        // copied first; a broadcast batch and a permuted one are read in
        // place (one strided call, one call per outer element).
        assert_close_on_both!(
            format!("stepped slices of {what}"),
            $tol,
            ga.slice(s![.., .., ..;2])?.matmul(&gb.slice(s![..;2, ..])?)?,
            a.slice(s![.., .., ..;2])?.matmul(&b.slice(s![..;2, ..])?)?
        );
        let (grow, row) = (
            gb.narrow(0, 3, 1)?.expand(&[45, 33])?,
            b.narrow(0, 3, 1)?.expand(&[45, 33])?,
        );
        assert_close_on_both!(
            format!("a broadcast row of {what}"),
            $tol,
            ga.matmul(&grow)?,
            a.matmul(&row)?
        );
        let (gbb, bb) = (
            gb.unsqueeze(0)?.expand(&[3, 45, 33])?,
            b.unsqueeze(0)?.expand(&[3, 45, 33])?,
        );
        assert_close_on_both!(
            format!("a broadcast batch of {what}"),
            $tol,
            ga.matmul(&gbb)?,
            a.matmul(&bb)?
        );
        let p = DynTensor::<$t>::from_vec(values::<$t>(3 * 2 * 20 * 45, 4), &[3, 2, 20, 45])?;
        let q = DynTensor::<$t>::from_vec(values::<$t>(2 * 3 * 45 * 7, 5), &[2, 3, 45, 7])?;
        let (gp, gq) = (p.to_device($gpu)?, q.to_device($gpu)?);
        assert_close_on_both!(
            format!("a permuted batch of {what}"),
            $tol,
            gp.permute(&[1, 0, 2, 3])?.matmul(&gq)?,
            p.permute(&[1, 0, 2, 3])?.matmul(&q)?
        );
        let (e, f) = (
            DynTensor::<$t>::from_vec(vec![], &[4, 0])?,
            DynTensor::<$t>::from_vec(vec![], &[0, 5])?,
        );
        assert_close_on_both!(
            format!("an empty inner dimension of {what}"),
            0.0,
            e.to_device($gpu)?.matmul(&f.to_device($gpu)?)?,
            e.matmul(&f)?
        );
    }};
}

/// `index_select`, `gather`, `take`, `take_along_dim`, `masked_fill`,
/// `copy_`, `scatter`, `scatter_add`, `scatter_reduce`, `index_add` and
/// `put` on the device give the CPU's results and errors: typed and
/// dynamic forms, int64 and
/// int32 indices, a transposed source, a stretched index, bad indices (the
/// error names the first in row-major order, and the device goes on
/// working), an empty source checked for its indices, and a large gather.
#[test]
fn indexing_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("indexing_on_the_device") else {
        return Ok(());
    };
    let x = DynTensor::<f32>::from_vec(values(60, 1), &[5, 12])?;
    let g = x.to_device(&gpu)?;
    let (xt, gt) = (x.t()?, g.t()?);
    let rows = DynTensor::<i64>::from_vec(vec![4, 0, 2, 2, 3], &[5])?;
    let cols = DynTensor::<i32>::from_vec(vec![11, 0, 5], &[3])?;
    let (grows, gcols) = (rows.to_device(&gpu)?, cols.to_device(&gpu)?);
    for dim in [0, -1] {
        let want = x.index_select(dim, &rows.narrow(0, 0, 5)?)?;
        let got = g.index_select(dim, &grows.narrow(0, 0, 5)?)?;
        assert_eq!(got.to_cpu()?.to_vec(), want.to_vec(), "index_select({dim})");
    }
    assert_eq!(
        gt.index_select(0, &gcols)?.to_cpu()?.to_vec(),
        xt.index_select(0, &cols)?.to_vec()
    );
    let idx = DynTensor::<i64>::from_vec((0..24).map(|k| (k * 7) % 12).collect(), &[4, 6])?;
    let gidx = idx.to_device(&gpu)?;
    assert_eq!(
        g.gather(1, &gidx)?.to_cpu()?.to_vec(),
        x.gather(1, &idx)?.to_vec()
    );
    let flat = DynTensor::<i64>::from_vec(vec![-1, 0, 59, -60, 7], &[5])?;
    let gflat = flat.to_device(&gpu)?;
    assert_eq!(
        gt.take(&gflat)?.to_cpu()?.to_vec(),
        xt.take(&flat)?.to_vec()
    );
    let along = DynTensor::<i64>::from_vec(vec![-1, 13, i64::MIN], &[1, 3])?;
    let galong = along.to_device(&gpu)?;
    assert_eq!(
        g.take_along_dim(&galong, Some(1))?.to_cpu()?.to_vec(),
        x.take_along_dim(&along, Some(1))?.to_vec()
    );
    // Bad indices: the same text, and the device still works.
    let bad = DynTensor::<i64>::from_vec(vec![0, 3, 12, -1, 99, 0], &[2, 3])?;
    let gbad = bad.to_device(&gpu)?;
    let want = x.gather(1, &bad).unwrap_err().to_string();
    assert_eq!(
        g.gather(1, &gbad).err().map(|e| e.to_string()),
        Some(want.clone())
    );
    assert_eq!(
        want,
        "index 12 is out of bounds for dimension 1 with size 12"
    );
    assert_eq!(
        g.index_select(0, &gbad.view(&[-1])?)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
        x.index_select(0, &bad.view(&[-1])?)
            .unwrap_err()
            .to_string()
    );
    let empty = DynTensor::<f32>::zeros(&[0, 4]).to_device(&gpu)?;
    let four = DynTensor::<i64>::from_vec(vec![1, 4], &[2])?.to_device(&gpu)?;
    assert_eq!(
        empty
            .index_select(1, &four)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
        "INDICES element is out of DATA bounds, id=4 axis_dim=4"
    );
    // masked_fill through where's kernel, and copy_ through the cast kernel
    // into a strided view, from another dtype, broadcast.
    let mask = x.gt(0.0);
    let gmask = mask.to_device(&gpu)?;
    assert_eq!(
        g.masked_fill(&gmask, -1.0)?.to_cpu()?.to_vec(),
        x.masked_fill(&mask, -1.0)?.to_vec()
    );
    let mut host = Tensor::<f32, shape![4, 6]>::zeros();
    let mut device = host.to_device(&gpu)?;
    let row = Tensor::<i32, shape![3]>::from_vec(vec![7, -8, 9])?;
    let grow = row.to_device(&gpu)?;
    host.slice_mut(s![1.., ..;2]).copy_from(&row);
    device.slice_mut(s![1.., ..;2]).copy_from(&grow);
    assert_eq!(device.to_cpu()?.to_vec(), host.to_vec());
    // Scatters: sums of repeated indices (exact here: small integers), a
    // maximum, plain writes without repeats, put with accumulation.
    let ints = DynTensor::<f32>::from_vec((0..24).map(|v| (v % 5) as f32).collect(), &[4, 6])?;
    let gints = ints.to_device(&gpu)?;
    let zeros = DynTensor::<f32>::zeros(&[4, 12]);
    let gzeros = zeros.to_device(&gpu)?;
    assert_eq!(
        gzeros.scatter_add(1, &gidx, &gints)?.to_cpu()?.to_vec(),
        zeros.scatter_add(1, &idx, &ints)?.to_vec()
    );
    assert_eq!(
        gzeros
            .scatter_reduce(1, &gidx, &gints, Reduce::Amax, false)?
            .to_cpu()?
            .to_vec(),
        zeros
            .scatter_reduce(1, &idx, &ints, Reduce::Amax, false)?
            .to_vec()
    );
    // `mean`: sums over counts where anything arrived, with and without
    // the target's own value; float32 (exact sums of small integers) and
    // int64 (negative sums, divided toward -inf).
    let base = DynTensor::<f32>::from_vec(values(48, 3), &[4, 12])?;
    let gbase = base.to_device(&gpu)?;
    let (long_base, long_ints) = (base.cast::<i64>(), -ints.cast::<i64>());
    let (glong_base, glong_ints) = (long_base.to_device(&gpu)?, long_ints.to_device(&gpu)?);
    for include_self in [true, false] {
        assert_eq!(
            gbase
                .scatter_reduce(1, &gidx, &gints, Reduce::Mean, include_self)?
                .to_cpu()?
                .to_vec(),
            base.scatter_reduce(1, &idx, &ints, Reduce::Mean, include_self)?
                .to_vec()
        );
        assert_eq!(
            glong_base
                .scatter_reduce(1, &gidx, &glong_ints, Reduce::Mean, include_self)?
                .to_cpu()?
                .to_vec(),
            long_base
                .scatter_reduce(1, &idx, &long_ints, Reduce::Mean, include_self)?
                .to_vec()
        );
    }
    let distinct = DynTensor::<i64>::from_vec((0..24).map(|k| k % 6 * 2).collect(), &[4, 6])?;
    let gdistinct = distinct.to_device(&gpu)?;
    assert_eq!(
        gzeros.scatter(1, &gdistinct, &gints)?.to_cpu()?.to_vec(),
        zeros.scatter(1, &distinct, &ints)?.to_vec()
    );
    let flat = DynTensor::<i64>::from_vec(vec![-1, 0, 47, -48, 47], &[5])?;
    let five = DynTensor::<f32>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0], &[5])?;
    let (gflat5, gfive) = (flat.to_device(&gpu)?, five.to_device(&gpu)?);
    assert_eq!(
        gzeros.put(&gflat5, &gfive, true)?.to_cpu()?.to_vec(),
        zeros.put(&flat, &five, true)?.to_vec()
    );
    let rows2 = DynTensor::<i64>::from_vec(vec![3, 1, 3], &[3])?;
    let src3 = DynTensor::<f32>::from_vec((0..36).map(|v| (v % 7) as f32).collect(), &[3, 12])?;
    let (grows2, gsrc3) = (rows2.to_device(&gpu)?, src3.to_device(&gpu)?);
    assert_eq!(
        gzeros
            .index_add(0, &grows2, &gsrc3, 2.0)?
            .to_cpu()?
            .to_vec(),
        zeros.index_add(0, &rows2, &src3, 2.0)?.to_vec()
    );
    // Typed forms, and a gather large enough for many blocks.
    let s = Tensor::<f32, shape![256, 512]>::from_vec(values(256 * 512, 3))?;
    let si = Tensor::<i64, shape![256, 512]>::from_vec(
        (0..256 * 512).map(|k| (k * 31) % 512).collect(),
    )?;
    let (gs, gsi) = (s.to_device(&gpu)?, si.to_device(&gpu)?);
    assert_eq!(
        gs.gather::<1>(&gsi).to_cpu()?.to_vec(),
        s.gather::<1>(&si).to_vec()
    );
    assert_eq!(
        gs.index_select::<1>(&gsi.select::<0>(0).narrow::<0, 100>(0))
            .to_cpu()?
            .to_vec(),
        s.index_select::<1>(&si.select::<0>(0).narrow::<0, 100>(0))
            .to_vec()
    );
    Ok(())
}

#[test]
fn masks_and_advanced_indexing_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("masks_and_advanced_indexing_on_the_device") else {
        return Ok(());
    };
    // Several chunks of several rounds: 300,000 elements, a third picked.
    let n = 300_000;
    let x = DynTensor::<f32>::from_vec(values(n, 3), &[600, 500])?;
    let g = x.to_device(&gpu)?;
    let mask =
        DynTensor::<i64>::from_vec((0..n as i64).map(|k| k % 3).collect(), &[600, 500])?.eq(1);
    let gmask = mask.to_device(&gpu)?;
    assert_eq!(
        g.masked_select(&gmask)?.to_cpu()?.to_vec(),
        x.masked_select(&mask)?.to_vec()
    );
    // index_put_ of runtime dtypes with one mask and one value: PyTorch
    // fills with the value's item(), read back from the device and checked.
    let small = DynTensor::<u8>::from_vec(vec![4, 7, 5], &[3])?;
    let pick = DynTensor::<bool>::from_vec(vec![true, false, true], &[3])?;
    let mut gsmall = AnyTensor::from(small.to_device(&gpu)?);
    let gpick = pick.to_device(&gpu)?;
    let far = AnyTensor::from(DynTensor::<i64>::from_vec(vec![300], &[])?.to_device(&gpu)?);
    assert_eq!(
        gsmall
            .index_put_(&[&gpick], &far, false)
            .unwrap_err()
            .to_string(),
        "value cannot be converted to type uint8_t without overflow"
    );
    let wraps = AnyTensor::from(DynTensor::<i64>::from_vec(vec![-1], &[])?.to_device(&gpu)?);
    gsmall.index_put_(&[&gpick], &wraps, false)?;
    assert_eq!(
        gsmall.to_cpu()?.to_scalars(),
        DynTensor::<u8>::from_vec(vec![255, 7, 255], &[3])?
            .into_any()
            .to_scalars()
    );
    // nonzero of a transposed view, coordinates column after column.
    let (xt, gt) = (x.t()?, g.t()?);
    let gnz = gt.nonzero();
    assert_eq!(gnz.shape(), xt.nonzero().shape());
    assert_eq!(gnz.to_cpu()?.to_vec(), xt.nonzero().to_vec());
    // masked_scatter with a mask broadcast over the rows.
    let row_mask = DynTensor::<bool>::from_vec((0..500).map(|k| k % 7 == 2).collect(), &[500])?;
    let source = DynTensor::<f32>::from_vec(values(n, 11), &[n])?;
    let (grow_mask, gsource) = (row_mask.to_device(&gpu)?, source.to_device(&gpu)?);
    let mut host = x.clone();
    let mut device = g.clone();
    host.masked_scatter_(&row_mask, &source)?;
    device.masked_scatter_(&grow_mask, &gsource)?;
    assert_eq!(device.to_cpu()?.to_vec(), host.to_vec());
    let few = DynTensor::<f32>::zeros(&[3]).to_device(&gpu)?;
    assert_eq!(
        device
            .masked_scatter_(&grow_mask, &few)
            .err()
            .map(|e| e.to_string()),
        Some("Number of elements of source < number of ones in mask".to_string())
    );
    // Advanced indexing: rows, pairs, a mask, index_put_ with repeats.
    let rows = DynTensor::<i64>::from_vec(vec![599, 0, -1, 7, 7], &[5])?;
    let cols = DynTensor::<i32>::from_vec(vec![3, -2, 0, 499, 3], &[5])?;
    let (grows, gcols) = (rows.to_device(&gpu)?, cols.to_device(&gpu)?);
    assert_eq!(
        g.index(&[Index::Tensor(&grows)])?.to_cpu()?.to_vec(),
        x.index(&[Index::Tensor(&rows)])?.to_vec()
    );
    assert_eq!(
        g.index(&[Index::Tensor(&grows), Index::Tensor(&gcols)])?
            .to_cpu()?
            .to_vec(),
        x.index(&[Index::Tensor(&rows), Index::Tensor(&cols)])?
            .to_vec()
    );
    let picked = g.index(&[Index::Slice(..), Index::Tensor(&grow_mask)])?;
    assert_eq!(
        picked.to_cpu()?.to_vec(),
        x.index(&[Index::Slice(..), Index::Tensor(&row_mask)])?
            .to_vec()
    );
    let five = DynTensor::<f32>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0], &[5])?;
    let gfive = five.to_device(&gpu)?;
    let mut host = x.clone();
    let mut device = g.clone();
    host.index_put_(&[&rows, &cols], &five, true)?;
    device.index_put_(&[&grows, &gcols], &gfive, true)?;
    assert_eq!(device.to_cpu()?.to_vec(), host.to_vec());
    let bad = DynTensor::<i64>::from_vec(vec![600], &[1])?.to_device(&gpu)?;
    assert_eq!(
        g.index(&[Index::Tensor(&bad)]).err().map(|e| e.to_string()),
        Some("index 600 is out of bounds for dimension 0 with size 600".to_string())
    );
    Ok(())
}

#[test]
fn matmul_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("matmul_on_the_device") else {
        return Ok(());
    };
    use half::{bf16, f16};
    use num_complex::Complex;
    products_of!(&gpu, f32, 1e-5);
    products_of!(&gpu, f64, 1e-12);
    products_of!(&gpu, f16, 2e-3);
    products_of!(&gpu, bf16, 1e-2);
    products_of!(&gpu, Complex<f32>, 1e-5);
    products_of!(&gpu, Complex<f64>, 1e-12);
    products_of!(&gpu, u8, 0.0);
    products_of!(&gpu, i32, 0.0);
    products_of!(&gpu, i64, 0.0);
    // The float products ran through cuBLAS when the device has it (the
    // machines lent so far do).
    let library = gpu.blas_library();
    let _ = writeln!(std::io::stderr(), "matmul_on_the_device: {library:?}");
    if std::env::var_os("SHAPED_CUDA_EXPECT_CUBLAS").is_some() {
        assert!(library.is_ok(), "{library:?}");
    }
    // The static form: the product's shape computed at compile time.
    let a = Tensor::<f32, shape![2, 3]>::from_vec((0..6).map(|i| i as f32).collect())?;
    let b = Tensor::<f32, shape![4, 3, 5]>::from_vec((0..60).map(|i| i as f32 * 0.5).collect())?;
    let c: Tensor<f32, shape![4, 2, 5], Cuda> = a.to_device(&gpu)?.matmul(&b.to_device(&gpu)?);
    assert_eq!(c.to_cpu()?.to_vec(), a.matmul(&b).to_vec());
    Ok(())
}

/// PyTorch's CUDA kernel names where its "`kernel` not implemented for
/// 'Type'" texts differ from its CPU ones (`tests/fixtures/cuda_errors.json`,
/// recorded on a GPU): the CPU kernel's name and the CUDA kernel's.
fn cuda_kernel_names() -> Vec<(String, String)> {
    let json: serde_json::Value =
        serde_json::from_str(include_str!("fixtures/cuda_errors.json")).expect("fixture");
    let kernel = |text: &str| -> Option<String> {
        let rest = text.strip_prefix('"')?;
        let (name, tail) = rest.split_once('"')?;
        tail.starts_with(" not implemented for")
            .then(|| name.to_string())
    };
    json["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter_map(|case| {
            Some((
                kernel(case["cpu"].as_str()?)?,
                kernel(case["cuda"].as_str()?)?,
            ))
        })
        .collect()
}

/// PyTorch's text on a GPU for what is `cpu_text` on the CPU: the kernel's
/// name replaced by the CUDA kernel's.
fn on_cuda(cpu_text: &str, names: &[(String, String)]) -> String {
    for (cpu, cuda) in names {
        let quoted = format!("\"{cpu}\" not implemented for");
        if let Some(rest) = cpu_text.strip_prefix(&quoted) {
            return format!("\"{cuda}\" not implemented for{rest}");
        }
    }
    cpu_text.to_string()
}

/// A runtime-dtype result on the GPU agrees with the CPU's: the same dtype,
/// shape and values (floats within the math tolerance where `approx`), or
/// the same error in PyTorch's CUDA words.
fn agree(
    what: &str,
    got: Result<AnyTensor<Cuda>, Error>,
    want: Result<AnyTensor, Error>,
    approx: bool,
    texts: &[(String, String)],
) -> Result<(), Error> {
    match (got, want) {
        (Ok(got), Ok(want)) => {
            let got = got.to_cpu()?;
            let exact = !approx || !(want.dtype().is_floating_point() || want.dtype().is_complex());
            let tol = if exact { 0.0 } else { math_tol(want.dtype()) };
            assert!(
                close(&got, &want, tol),
                "{what}: got {:?} {:?}, want {:?} {:?}",
                got.dtype(),
                got.to_scalars(),
                want.dtype(),
                want.to_scalars()
            );
        }
        (Err(got), Err(want)) => {
            assert_eq!(got.to_string(), on_cuda(&want.to_string(), texts), "{what}");
        }
        (got, want) => panic!(
            "{what}: got {:?}, want {:?}",
            got.map(|x| x.dtype()),
            want.map(|x| x.dtype())
        ),
    }
    Ok(())
}

/// A tensor of `dtype` and `sizes` holding small values of both signs,
/// zeros and (for floats) fractions.
fn any_source(dtype: DType, sizes: &[usize], seed: usize) -> Result<AnyTensor, Error> {
    let n = sizes.iter().product();
    let v = (0..n)
        .map(|i| ((i * 5 + seed) % 9) as f64 * 0.75 - 3.0)
        .collect();
    Ok(AnyTensor::from(DynTensor::<f64>::from_vec(v, sizes)?).to_dtype(dtype))
}

#[test]
fn any_tensors_on_the_device() -> Result<(), Error> {
    use shaped::dtype::Scalar;
    let Some(gpu) = gpu("any_tensors_on_the_device") else {
        return Ok(());
    };
    let texts = cuda_kernel_names();
    let numbers = [
        Scalar::Bool(true),
        Scalar::Int(-2),
        Scalar::Float(0.5),
        Scalar::Complex(1.0, -1.0),
    ];
    // The typed reductions' texts name the device's kernel too.
    let z = DynTensor::<num_complex::Complex<f32>>::ones(&[2]);
    let gz = z.to_device(&gpu)?;
    let text = |r: Result<(), Error>| r.expect_err("complex values have no order").to_string();
    let want = on_cuda(&text(z.amax(&[], false).map(drop)), &texts);
    assert_eq!(text(gz.amax(&[], false).map(drop)), want);
    let want = on_cuda(&text(z.min_all().map(drop)), &texts);
    assert_eq!(text(gz.min_all().map(drop)), want);
    for &da in &DType::ALL {
        let a = any_source(da, &[3, 4], 1)?;
        let ga = a.to_device(&gpu)?;
        assert_eq!(ga.device(), Device::Cuda(0));
        let case = |f: &str| format!("{f} of {}", da.name());
        agree(
            &case("to_cpu"),
            Ok(ga.to_device(&gpu)?),
            Ok(a.clone()),
            false,
            &texts,
        )?;
        agree(&case("exp"), ga.exp(), a.exp(), true, &texts)?;
        agree(&case("sqrt"), ga.sqrt(), a.sqrt(), true, &texts)?;
        if da == DType::Bool {
            // PyTorch's CUDA abs takes bool (a copy); its CPU one refuses.
            agree(&case("abs"), ga.abs(), Ok(a.clone()), false, &texts)?;
            assert!(a.abs().is_err());
        } else {
            agree(&case("abs"), ga.abs(), a.abs(), false, &texts)?;
        }
        agree(&case("floor"), ga.floor(), a.floor(), false, &texts)?;
        agree(&case("round"), ga.round(), a.round(), false, &texts)?;
        agree(&case("relu"), ga.relu(), a.relu(), false, &texts)?;
        let bounds = [
            (Scalar::Int(-1), Scalar::Float(1.5)),
            (Scalar::Bool(false), Scalar::Bool(true)),
        ];
        for (lo, hi) in bounds {
            let what = case(&format!("clamp({lo:?}, {hi:?})"));
            agree(&what, ga.clamp(lo, hi), a.clamp(lo, hi), false, &texts)?;
        }
        agree(&case("powf"), ga.powf(2.0), a.powf(2.0), true, &texts)?;
        for &s in &numbers {
            let case = |f: &str| format!("{f} of {} and {s:?}", da.name());
            agree(&case("+"), ga.try_add(s), a.try_add(s), false, &texts)?;
            agree(&case("-"), ga.try_sub(s), a.try_sub(s), false, &texts)?;
            agree(&case("*"), ga.try_mul(s), a.try_mul(s), false, &texts)?;
            agree(&case("/"), ga.try_div(s), a.try_div(s), true, &texts)?;
            agree(&case("=="), ga.try_eq(s), a.try_eq(s), false, &texts)?;
            agree(&case("<"), ga.try_lt(s), a.try_lt(s), false, &texts)?;
            agree(&case("pow"), ga.try_pow(s), a.try_pow(s), true, &texts)?;
            let (mut gx, mut x) = (ga.to_device(&gpu)?, a.clone());
            let (g, c) = (gx.try_mul_assign(s), x.try_mul_assign(s));
            agree(&case("*="), g.map(|()| gx), c.map(|()| x), false, &texts)?;
        }
        for &db in &DType::ALL {
            // A broadcast row and a rank-0 operand (which only widens
            // across categories).
            for sizes in [&[4][..], &[]] {
                let b = any_source(db, sizes, 2)?;
                let gb = b.to_device(&gpu)?;
                let case = |f: &str| format!("{f} of {} and {} {sizes:?}", da.name(), db.name());
                agree(&case("+"), ga.try_add(&gb), a.try_add(&b), false, &texts)?;
                agree(&case("-"), ga.try_sub(&gb), a.try_sub(&b), false, &texts)?;
                agree(&case("*"), ga.try_mul(&gb), a.try_mul(&b), false, &texts)?;
                agree(&case("/"), ga.try_div(&gb), a.try_div(&b), true, &texts)?;
                agree(&case("!="), ga.try_ne(&gb), a.try_ne(&b), false, &texts)?;
                agree(&case(">="), ga.try_ge(&gb), a.try_ge(&b), false, &texts)?;
                agree(
                    &case("maximum"),
                    ga.try_maximum(&gb),
                    a.try_maximum(&b),
                    false,
                    &texts,
                )?;
                agree(&case("pow"), ga.try_pow(&gb), a.try_pow(&b), true, &texts)?;
                let (mut gx, mut x) = (ga.to_device(&gpu)?, a.clone());
                let (g, c) = (gx.try_add_assign(&gb), x.try_add_assign(&b));
                agree(&case("+="), g.map(|()| gx), c.map(|()| x), false, &texts)?;
                let cond = any_source(DType::Bool, &[3, 1], 3)?;
                let gcond = cond.to_device(&gpu)?;
                let (g, c) = (
                    AnyTensor::where_(&gcond, &ga, &gb),
                    AnyTensor::where_(&cond, &a, &b),
                );
                agree(&case("where"), g, c, false, &texts)?;
            }
            let case = |f: &str| format!("{f} of {} and {}", da.name(), db.name());
            let (b, c) = (any_source(db, &[2, 4], 2)?, any_source(db, &[3, 4], 3)?);
            let (gb, gc) = (b.to_device(&gpu)?, c.to_device(&gpu)?);
            let (g, want) = (AnyTensor::cat(&[&ga, &gb], 0), AnyTensor::cat(&[&a, &b], 0));
            agree(&case("cat"), g, want, false, &texts)?;
            let (g, want) = (
                AnyTensor::stack(&[&ga, &gc], 1),
                AnyTensor::stack(&[&a, &c], 1),
            );
            agree(&case("stack"), g, want, false, &texts)?;
        }
    }
    Ok(())
}

/// `softmax` and `log_softmax` on the device (one launch of the reduction
/// kernel) against the CPU's fused kernel: float32
/// along each dim of a transposed view, float16 through float32, a NaN
/// row, PyTorch's error for an integer tensor, the `dtype` argument on
/// runtime dtypes; `logsumexp` over several dims, one, and all.
#[test]
fn softmax_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("softmax_on_the_device") else {
        return Ok(());
    };
    // Relative to the magnitude, at least `floor`: probabilities at least
    // 1e-2, log-probabilities (whose error is absolute near 0) at least 1.
    let within = |a: &[f32], b: &[f32], floor: f32| {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                (x.is_nan() && y.is_nan()) || (x - y).abs() <= 1e-5 * y.abs().max(floor)
            })
    };
    let close = |a: &[f32], b: &[f32]| within(a, b, 1e-2);
    let mut data: Vec<f32> = values(105, 5);
    data[7] = f32::NAN;
    let x = DynTensor::<f32>::from_vec(data, &[7, 5, 3])?
        .permute(&[2, 1, 0])?
        .to_owned();
    let g = x.to_device(&gpu)?;
    for dim in [0, 1, 2, -1] {
        assert!(close(
            &g.softmax(dim)?.to_cpu()?.to_vec(),
            &x.softmax(dim)?.to_vec()
        ));
        let (on_device, on_host) = (
            g.log_softmax(dim)?.to_cpu()?.to_vec(),
            x.log_softmax(dim)?.to_vec(),
        );
        assert!(
            within(&on_device, &on_host, 1.0),
            "log_softmax along {dim}: {on_device:?} on the device, {on_host:?} on the CPU"
        );
    }
    for (dims, keepdim) in [(&[0, 2][..], true), (&[1][..], false), (&[][..], true)] {
        assert!(close(
            &g.logsumexp(dims, keepdim)?.to_cpu()?.to_vec(),
            &x.logsumexp(dims, keepdim)?.to_vec()
        ));
    }
    let z = x.cast::<num_complex::Complex<f32>>();
    let (on_device, on_host) = (
        z.to_device(&gpu)?.logsumexp(&[1], true)?.to_cpu()?.to_vec(),
        z.logsumexp(&[1], true)?.to_vec(),
    );
    assert!(on_device.iter().zip(&on_host).all(|(a, b)| {
        (a.re.is_nan() && b.re.is_nan()) || (a - b).norm() <= 1e-5 * b.norm().max(1e-2)
    }));
    let h = x.cast::<half::f16>();
    let gh = h.to_device(&gpu)?;
    let (on_device, on_host) = (gh.softmax(1)?.to_cpu()?.to_vec(), h.softmax(1)?.to_vec());
    assert!(
        on_device
            .iter()
            .zip(&on_host)
            .all(|(a, b)| (a.is_nan() && b.is_nan()) || (a.to_f32() - b.to_f32()).abs() <= 1e-3)
    );
    let n = DynTensor::<i64>::from_vec(vec![1, 2, 3], &[3])?.to_device(&gpu)?;
    assert_eq!(
        n.softmax(0)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
        "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'"
    );
    let any = AnyTensor::from(n);
    let p = any.softmax(0, Some(DType::F64))?.to_cpu()?;
    let p = p.downcast::<f64>().expect("float64").to_vec();
    assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12 && p[2] > p[1]);
    // Long rows (16-byte vectors), a view that starts one element in (its
    // rows misaligned), columns, and a float64 matrix; logsumexp of all.
    let wide = DynTensor::<f32>::from_vec(values(64 * 1001, 2), &[64, 1001])?;
    let view = wide.narrow(1, 1, 1000)?;
    let on_gpu = wide.to_device(&gpu)?;
    let gview = on_gpu.narrow(1, 1, 1000)?;
    for dim in [1, 0] {
        assert!(close(
            &gview.softmax(dim)?.to_cpu()?.to_vec(),
            &view.softmax(dim)?.to_vec()
        ));
        let (on_device, on_host) = (
            on_gpu.log_softmax(dim)?.to_cpu()?.to_vec(),
            wide.log_softmax(dim)?.to_vec(),
        );
        assert!(within(&on_device, &on_host, 1.0));
    }
    assert!(close(
        &on_gpu.logsumexp(&[0, 1], false)?.to_cpu()?.to_vec(),
        &wide.logsumexp(&[0, 1], false)?.to_vec()
    ));
    let w64 = wide.cast::<f64>();
    let (on_device, on_host) = (
        w64.to_device(&gpu)?.softmax(-1)?.to_cpu()?.to_vec(),
        w64.softmax(-1)?.to_vec(),
    );
    assert!(
        on_device
            .iter()
            .zip(&on_host)
            .all(|(a, b)| (a - b).abs() <= 1e-12 * b.abs().max(1e-2))
    );
    Ok(())
}

/// `var`, `std`, `var_mean` and `std_mean` on the device (Welford's
/// updates in the reduction kernel) against the CPU's two passes: float32
/// along one dim, several and all, corrections 0 and 1, chunks combined, a
/// complex tensor, an integer tensor's error.
#[test]
fn moments_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("moments_on_the_device") else {
        return Ok(());
    };
    let close = |a: &[f32], b: &[f32]| {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                (x.is_nan() && y.is_nan()) || (x - y).abs() <= 1e-5 * y.abs().max(1.0)
            })
    };
    let x = DynTensor::<f32>::from_vec(values(105, 3), &[7, 5, 3])?
        .permute(&[1, 0, 2])?
        .to_owned();
    let g = x.to_device(&gpu)?;
    for (dims, correction, keepdim) in [
        (&[0][..], 1, false),
        (&[0, 2][..], 0, true),
        (&[][..], 1, false),
    ] {
        assert!(close(
            &g.var(dims, correction, keepdim)?.to_cpu()?.to_vec(),
            &x.var(dims, correction, keepdim)?.to_vec()
        ));
        let (gs, gm) = g.std_mean(dims, correction, keepdim)?;
        let (s, m) = x.std_mean(dims, correction, keepdim)?;
        assert!(close(&gs.to_cpu()?.to_vec(), &s.to_vec()));
        assert!(close(&gm.to_cpu()?.to_vec(), &m.to_vec()));
    }
    // Enough elements per output for chunks combined in a second pass
    // (Chan's formula), along the rows, the columns and all.
    let big = DynTensor::<f32>::from_vec(values(4 * 300_000, 4), &[4, 300_000])?;
    let gbig = big.to_device(&gpu)?;
    for dims in [&[1][..], &[0][..], &[][..]] {
        let (gv, gm) = gbig.var_mean(dims, 1, false)?;
        let (v, m) = big.var_mean(dims, 1, false)?;
        assert!(close(&gv.to_cpu()?.to_vec(), &v.to_vec()));
        assert!(close(&gm.to_cpu()?.to_vec(), &m.to_vec()));
    }
    let z = x.cast::<num_complex::Complex<f32>>();
    assert!(close(
        &z.to_device(&gpu)?.var(&[1], 1, false)?.to_cpu()?.to_vec(),
        &z.var(&[1], 1, false)?.to_vec()
    ));
    let n = DynTensor::<i64>::zeros(&[3]).to_device(&gpu)?;
    assert_eq!(
        n.var(&[0], 1, false)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
        "std and var only support floating point and complex dtypes"
    );
    Ok(())
}

/// Norms and the NaN-aware and counting reductions on the device (the
/// reduction and elementwise kernels composed) against the CPU.
#[test]
fn norms_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("norms_on_the_device") else {
        return Ok(());
    };
    let close = |a: &[f32], b: &[f32]| {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                (x.is_nan() && y.is_nan()) || (x - y).abs() <= 1e-5 * y.abs().max(1.0)
            })
    };
    let mut data: Vec<f32> = values(60, 7);
    data[5] = f32::NAN;
    let x = DynTensor::<f32>::from_vec(data, &[6, 10])?;
    let g = x.to_device(&gpu)?;
    for ord in [0.0, 1.0, 2.0, 3.0, -1.5, f64::INFINITY, f64::NEG_INFINITY] {
        assert!(close(
            &g.vector_norm(ord, &[1], false)?.to_cpu()?.to_vec(),
            &x.vector_norm(ord, &[1], false)?.to_vec()
        ));
    }
    assert!(close(
        &g.nansum(&[0], true)?.to_cpu()?.to_vec(),
        &x.nansum(&[0], true)?.to_vec()
    ));
    assert!(close(
        &g.nanmean(&[], false)?.to_cpu()?.to_vec(),
        &x.nanmean(&[], false)?.to_vec()
    ));
    assert_eq!(
        g.count_nonzero(&[1])?.to_cpu()?.to_vec(),
        x.count_nonzero(&[1])?.to_vec()
    );
    let (glo, ghi) = g.aminmax(Some(0), false)?;
    let (lo, hi) = x.aminmax(Some(0), false)?;
    assert!(
        close(&glo.to_cpu()?.to_vec(), &lo.to_vec())
            && close(&ghi.to_cpu()?.to_vec(), &hi.to_vec())
    );
    let y = DynTensor::<f32>::from_vec(values(10, 2), &[10])?;
    assert!(close(
        &g.dist(&y.to_device(&gpu)?, 2.0)?.to_cpu()?.to_vec(),
        &x.dist(&y, 2.0)?.to_vec()
    ));
    Ok(())
}

/// The scans on the device (`kernels/scan.cuh`) against the CPU: rows and
/// columns, one launch and three (a long line cut into chunks), every scan,
/// ties and NaN for the extremes' indices.
#[test]
fn scans_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("scans_on_the_device") else {
        return Ok(());
    };
    let close = |a: &[f32], b: &[f32]| {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                (x.is_nan() && y.is_nan()) || x == y || (x - y).abs() <= 1e-5 * y.abs().max(1.0)
            })
    };
    let mut data: Vec<f32> = values(6 * 5 * 7, 3);
    data[11] = f32::NAN;
    let x = DynTensor::<f32>::from_vec(data, &[6, 5, 7])?
        .permute(&[2, 0, 1])?
        .to_owned();
    let g = x.to_device(&gpu)?;
    for dim in [0, 1, 2, -1] {
        assert!(close(
            &g.cumsum(dim)?.to_cpu()?.to_vec(),
            &x.cumsum(dim)?.to_vec()
        ));
        assert!(close(
            &g.cumprod(dim)?.to_cpu()?.to_vec(),
            &x.cumprod(dim)?.to_vec()
        ));
        assert!(close(
            &g.logcumsumexp(dim)?.to_cpu()?.to_vec(),
            &x.logcumsumexp(dim)?.to_vec()
        ));
        let (gv, gi) = g.cummax(dim)?;
        let (v, i) = x.cummax(dim)?;
        assert!(same(&gv.to_cpu()?.to_vec(), &v.to_vec()));
        assert_eq!(gi.to_cpu()?.to_vec(), i.to_vec());
        let (gv, gi) = g.cummin(dim)?;
        let (v, i) = x.cummin(dim)?;
        assert!(same(&gv.to_cpu()?.to_vec(), &v.to_vec()));
        assert_eq!(gi.to_cpu()?.to_vec(), i.to_vec());
    }
    // One long line and a tall matrix: several chunks per line.
    let n = 1 << 22;
    let ints = DynTensor::<i32>::from_vec((0..n).map(|i| (i % 7) as i32 - 3).collect(), &[n])?;
    assert_eq!(
        ints.to_device(&gpu)?.cumsum(0)?.to_cpu()?.to_vec(),
        ints.cumsum(0)?.to_vec()
    );
    let tall = ints.reshape(&[1 << 20, 4])?;
    let (gv, gi) = tall.to_device(&gpu)?.cummax(0)?;
    let (v, i) = tall.cummax(0)?;
    assert_eq!(
        (gv.to_cpu()?.to_vec(), gi.to_cpu()?.to_vec()),
        (v.to_vec(), i.to_vec())
    );
    let halves = x.cast::<half::f16>();
    let gh = halves.to_device(&gpu)?;
    assert!(same(
        &gh.cumsum(1)?.to_cpu()?.to_vec(),
        &halves.cumsum(1)?.to_vec()
    ));
    Ok(())
}

/// `sort`, `argsort`, `msort` and `topk` of one dtype on the device against
/// the CPU (exactly, `-0.0` apart from `0.0`): a permuted view along every
/// dim, both directions, k = 0, 1, some and all; many short lines.
fn check_sorts<T: Numeric + shaped::ops::sorting::SortInput>(gpu: &Cuda) -> Result<(), Error> {
    let exact = |a: &[T], b: &[T]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| format!("{x:?}") == format!("{y:?}"))
    };
    let owned = DynTensor::<T>::from_vec(values(6 * 5 * 70, 3), &[6, 5, 70])?;
    let on_device = owned.to_device(gpu)?;
    let (x, g) = (owned.permute(&[2, 0, 1])?, on_device.permute(&[2, 0, 1])?);
    for (dim, n) in [(0, 70), (1, 6), (2, 5), (-1, 5)] {
        for descending in [false, true] {
            let (gv, gi) = g.sort(dim, descending, true)?;
            let (v, i) = x.sort(dim, descending, true)?;
            assert!(
                exact(&gv.to_cpu()?.to_vec(), &v.to_vec()),
                "{dim} {descending}"
            );
            assert_eq!(gi.to_cpu()?.to_vec(), i.to_vec(), "{dim} {descending}");
            let ga = g.argsort(dim, descending, false)?;
            assert_eq!(ga.to_cpu()?.to_vec(), i.to_vec());
        }
        for k in [0, 1, n / 2, n] {
            for largest in [true, false] {
                let (gv, gi) = g.topk(k, dim, largest, true)?;
                let (v, i) = x.topk(k, dim, largest, true)?;
                assert_eq!(gv.shape(), v.shape());
                assert!(exact(&gv.to_cpu()?.to_vec(), &v.to_vec()), "topk {k} {dim}");
                assert_eq!(gi.to_cpu()?.to_vec(), i.to_vec(), "topk {k} {dim}");
            }
        }
    }
    assert!(exact(&g.msort()?.to_cpu()?.to_vec(), &x.msort()?.to_vec()));
    let short = DynTensor::<T>::from_vec(values(30_000 * 3, 1), &[30_000, 3])?;
    let (gv, gi) = short.to_device(gpu)?.sort(1, true, true)?;
    let (v, i) = short.sort(1, true, true)?;
    assert!(exact(&gv.to_cpu()?.to_vec(), &v.to_vec()));
    assert_eq!(gi.to_cpu()?.to_vec(), i.to_vec());
    Ok(())
}

/// The sort kernels (`kernels/sort.cuh`) against the CPU: every sortable
/// dtype; NaNs (a payload, a negative one), `-0.0` and ties bit for bit;
/// a line of 2^20 (tiles, then nine merge launches) and 16-byte items
/// (int64, float64) over several merges; columns; empty tensors.
#[test]
fn sorts_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("sorts_on_the_device") else {
        return Ok(());
    };
    check_sorts::<f32>(&gpu)?;
    check_sorts::<f64>(&gpu)?;
    check_sorts::<half::f16>(&gpu)?;
    check_sorts::<half::bf16>(&gpu)?;
    check_sorts::<u8>(&gpu)?;
    check_sorts::<i8>(&gpu)?;
    check_sorts::<i16>(&gpu)?;
    check_sorts::<i32>(&gpu)?;
    check_sorts::<i64>(&gpu)?;
    let flags = DynTensor::<bool>::from_vec((0..5000).map(|i| i % 3 == 0).collect(), &[5000])?;
    let (gv, gi) = flags.to_device(&gpu)?.sort(0, true, true)?;
    let (v, i) = flags.sort(0, true, true)?;
    assert_eq!(
        (gv.to_cpu()?.to_vec(), gi.to_cpu()?.to_vec()),
        (v.to_vec(), i.to_vec())
    );
    // The edge values, bit for bit.
    let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
    let mut data: Vec<f32> = values(3 * 3000, 2);
    for (at, v) in [
        (11, f32::NAN),
        (12, -0.0),
        (40, 0.0),
        (41, f32::from_bits(0xffc0_1234)),
        (50, f32::NEG_INFINITY),
        (2999, f32::INFINITY),
        (4000, f32::from_bits(0x7fc0_0042)),
        (4001, -0.0),
    ] {
        data[at] = v;
    }
    let x = DynTensor::<f32>::from_vec(data, &[3, 3000])?;
    let g = x.to_device(&gpu)?;
    for dim in [0, 1] {
        for descending in [false, true] {
            let (gv, gi) = g.sort(dim, descending, true)?;
            let (v, i) = x.sort(dim, descending, true)?;
            assert_eq!(bits(gv.to_cpu()?.to_vec()), bits(v.to_vec()));
            assert_eq!(gi.to_cpu()?.to_vec(), i.to_vec());
        }
        let (gv, gi) = g.topk(3, dim, true, true)?;
        let (v, i) = x.topk(3, dim, true, true)?;
        assert_eq!(bits(gv.to_cpu()?.to_vec()), bits(v.to_vec()));
        assert_eq!(gi.to_cpu()?.to_vec(), i.to_vec());
    }
    // Long lines: many merge launches, 8- and 16-byte items.
    let n = 1 << 20;
    let ints =
        DynTensor::<i32>::from_vec((0..n).map(|i| ((i * 7919) % 1013) as i32).collect(), &[n])?;
    for descending in [false, true] {
        let (gv, gi) = ints.to_device(&gpu)?.sort(0, descending, true)?;
        let (v, i) = ints.sort(0, descending, true)?;
        assert_eq!(
            (gv.to_cpu()?.to_vec(), gi.to_cpu()?.to_vec()),
            (v.to_vec(), i.to_vec())
        );
    }
    let longs = ints.cast::<i64>();
    let wide = longs.reshape(&[4, -1])?;
    let (gv, gi) = wide.to_device(&gpu)?.sort(1, false, true)?;
    let (v, i) = wide.sort(1, false, true)?;
    assert_eq!(
        (gv.to_cpu()?.to_vec(), gi.to_cpu()?.to_vec()),
        (v.to_vec(), i.to_vec())
    );
    let (gv, gi) = wide
        .cast::<f64>()
        .to_device(&gpu)?
        .topk(10, 1, true, true)?;
    let (v, i) = wide.cast::<f64>().topk(10, 1, true, true)?;
    assert_eq!(
        (gv.to_cpu()?.to_vec(), gi.to_cpu()?.to_vec()),
        (v.to_vec(), i.to_vec())
    );
    // Empty.
    let empty = DynTensor::<f32>::zeros(&[0, 4]).to_device(&gpu)?;
    assert_eq!(empty.sort(1, false, true)?.1.shape(), [0, 4]);
    assert_eq!(empty.topk(0, 0, true, true)?.0.shape(), [0, 4]);
    let none = DynTensor::<f32>::zeros(&[3, 0]).to_device(&gpu)?;
    assert_eq!(
        none.argsort(1, true, true)?.to_cpu()?.to_vec(),
        Vec::<i64>::new()
    );
    Ok(())
}

/// Element bits as text (`Debug` tells `-0.0` from `0.0` and shows NaN),
/// for exact comparisons of any dtype.
fn texts<T: Element>(v: Vec<T>) -> Vec<String> {
    v.into_iter().map(|x| format!("{x:?}")).collect()
}

/// `kthvalue`, `median`, `nanmedian` and `mode` of one dtype on the device
/// against the CPU: a permuted view along every dim, with and without
/// `keepdim`.
fn check_order_statistics<T: Numeric + shaped::ops::sorting::OrderInput>(
    gpu: &Cuda,
) -> Result<(), Error> {
    let owned = DynTensor::<T>::from_vec(values(6 * 5 * 70, 3), &[6, 5, 70])?;
    let on_device = owned.to_device(gpu)?;
    let (x, g) = (owned.permute(&[2, 0, 1])?, on_device.permute(&[2, 0, 1])?);
    type Pair<T> = (DynTensor<T>, DynTensor<i64>);
    let same_pair = |got: (DynTensor<T, Cuda>, DynTensor<i64, Cuda>),
                     want: Pair<T>,
                     what: &str|
     -> Result<(), Error> {
        assert_eq!(got.0.shape(), want.0.shape(), "{what}");
        assert_eq!(
            texts(got.0.to_cpu()?.to_vec()),
            texts(want.0.to_vec()),
            "{what}"
        );
        assert_eq!(got.1.to_cpu()?.to_vec(), want.1.to_vec(), "{what}");
        Ok(())
    };
    for (dim, n) in [(0, 70), (1, 6), (2, 5), (-1, 5)] {
        for keepdim in [false, true] {
            for k in [1, n / 2 + 1, n] {
                same_pair(
                    g.kthvalue(k, dim, keepdim)?,
                    x.kthvalue(k, dim, keepdim)?,
                    &format!("kthvalue {k} {dim}"),
                )?;
            }
            let what = format!("{dim} {keepdim}");
            same_pair(
                g.median_dim(dim, keepdim)?,
                x.median_dim(dim, keepdim)?,
                &what,
            )?;
            same_pair(
                g.nanmedian_dim(dim, keepdim)?,
                x.nanmedian_dim(dim, keepdim)?,
                &what,
            )?;
            same_pair(g.mode(dim, keepdim)?, x.mode(dim, keepdim)?, &what)?;
        }
    }
    assert_eq!(
        texts(g.median()?.to_cpu()?.to_vec()),
        texts(x.median()?.to_vec())
    );
    Ok(())
}

/// The quantiles of one float dtype on the device against the CPU: every
/// interpolation, both NaN rules, several `q`, along a dim and flattened.
fn check_quantiles<
    T: Numeric + shaped::ops::sorting::QuantileFloat + shaped::ops::sorting::OrderInput,
>(
    gpu: &Cuda,
    data: Vec<T>,
) -> Result<(), Error> {
    let owned = DynTensor::<T>::from_vec(data, &[40, 3, 7])?;
    let on_device = owned.to_device(gpu)?;
    let (x, g) = (owned.permute(&[1, 0, 2])?, on_device.permute(&[1, 0, 2])?);
    let q = DynTensor::<f64>::from_vec(vec![0.0, 0.25, 0.5, 0.7, 1.0], &[5])?.cast::<T>();
    let gq = q.to_device(gpu)?;
    for how in [
        Interpolation::Linear,
        Interpolation::Lower,
        Interpolation::Higher,
        Interpolation::Midpoint,
        Interpolation::Nearest,
    ] {
        for dim in [Some(0), Some(1), Some(-1), None] {
            let what = format!("{how:?} {dim:?}");
            assert_eq!(
                texts(g.quantiles(&gq, dim, false, how)?.to_cpu()?.to_vec()),
                texts(x.quantiles(&q, dim, false, how)?.to_vec()),
                "{what}"
            );
            assert_eq!(
                texts(g.nanquantiles(&gq, dim, true, how)?.to_cpu()?.to_vec()),
                texts(x.nanquantiles(&q, dim, true, how)?.to_vec()),
                "{what}"
            );
            assert_eq!(
                texts(g.quantile(0.3, dim, false, how)?.to_cpu()?.to_vec()),
                texts(x.quantile(0.3, dim, false, how)?.to_vec()),
                "{what}"
            );
        }
    }
    Ok(())
}

/// The order statistics (the sort kernels' pick and quantile phases,
/// `kernels/sort.cuh`) against the CPU: every dtype that has them; NaNs
/// (a payload, a negative one), `-0.0`, infinities and ties bit for bit;
/// a line of 2^20 (several merge launches); the median along an empty dim (refused) and of no elements.
#[test]
fn order_statistics_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("order_statistics_on_the_device") else {
        return Ok(());
    };
    check_order_statistics::<f32>(&gpu)?;
    check_order_statistics::<f64>(&gpu)?;
    check_order_statistics::<half::f16>(&gpu)?;
    check_order_statistics::<half::bf16>(&gpu)?;
    check_order_statistics::<u8>(&gpu)?;
    check_order_statistics::<i8>(&gpu)?;
    check_order_statistics::<i16>(&gpu)?;
    check_order_statistics::<i32>(&gpu)?;
    check_order_statistics::<i64>(&gpu)?;
    let flags = DynTensor::<bool>::from_vec((0..600).map(|i| i % 3 == 0).collect(), &[20, 30])?;
    let (gv, gi) = flags.to_device(&gpu)?.mode(1, false)?;
    let (v, i) = flags.mode(1, false)?;
    assert_eq!(
        (gv.to_cpu()?.to_vec(), gi.to_cpu()?.to_vec()),
        (v.to_vec(), i.to_vec())
    );
    // The edge values, bit for bit.
    let mut data: Vec<f32> = values(40 * 3 * 7, 2);
    for (at, v) in [
        (11, f32::NAN),
        (12, -0.0),
        (40, 0.0),
        (41, f32::from_bits(0xffc0_1234)),
        (50, f32::NEG_INFINITY),
        (99, f32::INFINITY),
        (400, f32::from_bits(0x7fc0_0042)),
        (401, -0.0),
        (402, f32::from_bits(0x7fc0_0042)),
    ] {
        data[at] = v;
    }
    let x = DynTensor::<f32>::from_vec(data.clone(), &[40, 21])?;
    let g = x.to_device(&gpu)?;
    let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
    for dim in [0, 1] {
        for (got, want) in [
            (g.median_dim(dim, false)?, x.median_dim(dim, false)?),
            (g.nanmedian_dim(dim, false)?, x.nanmedian_dim(dim, false)?),
            (g.mode(dim, false)?, x.mode(dim, false)?),
            (g.kthvalue(3, dim, false)?, x.kthvalue(3, dim, false)?),
        ] {
            assert_eq!(bits(got.0.to_cpu()?.to_vec()), bits(want.0.to_vec()));
            assert_eq!(got.1.to_cpu()?.to_vec(), want.1.to_vec());
        }
    }
    check_quantiles::<f32>(&gpu, values(40 * 3 * 7, 4))?;
    check_quantiles::<f32>(&gpu, data.clone())?;
    check_quantiles::<f64>(&gpu, data.iter().map(|&v| f64::from(v)).collect())?;
    // A line of NaNs only.
    let nans = DynTensor::<f64>::from_vec(vec![f64::NAN; 12], &[3, 4])?;
    let gn = nans.to_device(&gpu)?;
    let (v, i) = gn.nanmedian_dim(1, false)?;
    assert!(v.to_cpu()?.to_vec().iter().all(|v| v.is_nan()));
    assert_eq!(i.to_cpu()?.to_vec(), [0, 0, 0]);
    // A long line: several merge launches.
    let n = 1 << 20;
    let ints =
        DynTensor::<i32>::from_vec((0..n).map(|i| ((i * 7919) % 1013) as i32).collect(), &[n])?;
    let gi = ints.to_device(&gpu)?;
    for k in [1, 1000, n as isize] {
        let (gv, gix) = gi.kthvalue(k, 0, false)?;
        let (v, ix) = ints.kthvalue(k, 0, false)?;
        assert_eq!(
            (gv.to_cpu()?.to_vec(), gix.to_cpu()?.to_vec()),
            (v.to_vec(), ix.to_vec())
        );
    }
    let (gv, gix) = gi.mode(0, false)?;
    let (v, ix) = ints.mode(0, false)?;
    assert_eq!(
        (gv.to_cpu()?.to_vec(), gix.to_cpu()?.to_vec()),
        (v.to_vec(), ix.to_vec())
    );
    let floats = ints.cast::<f32>();
    assert_eq!(
        bits(
            floats
                .to_device(&gpu)?
                .quantile(0.37, None, false, Interpolation::Linear)?
                .to_cpu()?
                .to_vec()
        ),
        bits(
            floats
                .quantile(0.37, None, false, Interpolation::Linear)?
                .to_vec()
        )
    );
    // An empty dim: PyTorch refuses the median along it (as on the CPU);
    // the median of no elements at all is NaN.
    let empty = DynTensor::<f32>::zeros(&[3, 0]).to_device(&gpu)?;
    assert_eq!(
        empty.median_dim(1, false).err().map(|e| e.to_string()),
        Some("median(): Expected reduction dim 1 to have non-zero size.".to_string())
    );
    assert!(empty.median()?.to_cpu()?.to_vec()[0].is_nan());
    Ok(())
}

/// The device's `unique` (flat, consecutive, along a dim), `searchsorted`
/// and `bucketize`, `bincount` and `histc` against the CPU's, exactly.
#[test]
fn sets_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("sets_on_the_device") else {
        return Ok(());
    };
    type Parts<T> = (Vec<T>, Option<Vec<i64>>, Option<Vec<i64>>);
    fn parts<T: Element>((v, i, c): shaped::ops::sets::UniqueResult<T, Cpu>) -> Parts<T> {
        (v.to_vec(), i.map(|i| i.to_vec()), c.map(|c| c.to_vec()))
    }
    fn gpu_parts<T: Element>(
        (v, i, c): shaped::ops::sets::UniqueResult<T, Cuda>,
    ) -> Result<Parts<T>, Error> {
        let cpu = |t: DynTensor<i64, Cuda>| t.to_cpu().map(|t| t.to_vec());
        Ok((
            v.to_cpu()?.to_vec(),
            i.map(cpu).transpose()?,
            c.map(cpu).transpose()?,
        ))
    }
    // Counted (a small range), sorted (a wide one), and floats with NaNs
    // and both zeros; a transposed view.
    let n = 1 << 20;
    let small =
        DynTensor::<i64>::from_vec((0..n).map(|i| ((i * 7919) % 65536) as i64).collect(), &[n])?;
    let wide = DynTensor::<i32>::from_vec(
        (0..n)
            .map(|i| ((i * 7919) % 100_003) as i32 * 20_011)
            .collect(),
        &[1024, 1024],
    )?;
    let mut floats: Vec<f32> = values(6000, 3);
    floats[5] = f32::NAN;
    floats[9] = -0.0;
    floats[70] = f32::NAN;
    let floats = DynTensor::<f32>::from_vec(floats, &[60, 100])?;
    for flag in [false, true] {
        let g = small.to_device(&gpu)?;
        assert_eq!(
            gpu_parts(g.unique(true, flag, true)?)?,
            parts(small.unique(true, flag, true)?)
        );
        let t = wide.transpose(0, 1)?;
        let g = t.to_device(&gpu)?;
        assert_eq!(
            gpu_parts(g.unique(true, true, flag)?)?,
            parts(t.unique(true, true, flag)?)
        );
        let g = floats.to_device(&gpu)?;
        let (gv, gi, gc) = gpu_parts(g.unique(true, true, true)?)?;
        let (v, i, c) = parts(floats.unique(true, true, true)?);
        assert!(same(&gv, &v) && gi == i && gc == c);
        let (gv, gi, gc) = gpu_parts(g.unique_consecutive(true, true, Some(1))?)?;
        let (v, i, c) = parts(floats.unique_consecutive(true, true, Some(1))?);
        assert!(same(&gv, &v) && gi == i && gc == c);
    }
    let rows = DynTensor::<i16>::from_vec(
        (0..3000).map(|i| ((i / 3) % 7 + i % 3) as i16).collect(),
        &[1000, 3],
    )?;
    let g = rows.to_device(&gpu)?;
    for dim in [0, 1] {
        assert_eq!(
            gpu_parts(g.unique_dim(dim, true, true, true)?)?,
            parts(rows.unique_dim(dim, true, true, true)?)
        );
    }
    // searchsorted: one line, and a line per row through a sorter.
    let line =
        DynTensor::<f64>::from_vec((0..1000).map(|i| (i / 2) as f64 * 0.5).collect(), &[1000])?;
    let queries = DynTensor::<f64>::from_vec(values(4000, 1), &[40, 100])?;
    let (gl, gq) = (line.to_device(&gpu)?, queries.to_device(&gpu)?);
    for right in [false, true] {
        assert_eq!(
            gl.searchsorted(&gq, right)?.to_cpu()?.to_vec(),
            line.searchsorted(&queries, right)?.to_vec()
        );
        assert_eq!(
            gq.bucketize(&gl, right)?.to_cpu()?.to_vec(),
            queries.bucketize(&line, right)?.to_vec()
        );
    }
    let lines = DynTensor::<f64>::from_vec(values(40 * 16, 5), &[40, 16])?;
    let sorter = lines.argsort(1, false, true)?;
    let (gs, gsorter) = (lines.to_device(&gpu)?, sorter.to_device(&gpu)?);
    let on_gpu = shaped::ops::sets::SearchSorted {
        sorter: Some(&gsorter),
        ..Default::default()
    };
    let on_cpu = shaped::ops::sets::SearchSorted {
        sorter: Some(&sorter),
        ..Default::default()
    };
    assert_eq!(
        gs.searchsorted_with::<i64, _, _>(&gq, &on_gpu)?
            .to_cpu()?
            .to_vec(),
        lines
            .searchsorted_with::<i64, _, _>(&queries, &on_cpu)?
            .to_vec()
    );
    // bincount (with weights whose sums are exact in any order), histc.
    let counts =
        DynTensor::<i32>::from_vec((0..n).map(|i| ((i * 31) % 977) as i32).collect(), &[n])?;
    let weights = DynTensor::<f32>::from_vec((0..n).map(|i| (i % 5) as f32 * 0.5).collect(), &[n])?;
    let gc = counts.to_device(&gpu)?;
    assert_eq!(
        gc.bincount(1000)?.to_cpu()?.to_vec(),
        counts.bincount(1000)?.to_vec()
    );
    let gw = weights.to_device(&gpu)?;
    assert_eq!(
        gc.bincount_weighted(&gw, 0)?
            .to_cpu()?
            .downcast::<f32>()
            .unwrap()
            .to_vec(),
        counts
            .bincount_weighted(&weights, 0)?
            .downcast::<f32>()
            .unwrap()
            .to_vec()
    );
    let negative = DynTensor::<i64>::from_vec(vec![3, -1], &[2])?.to_device(&gpu)?;
    assert_eq!(
        negative.bincount(0).err().map(|e| e.to_string()).as_deref(),
        Some("bincount only supports 1-d non-negative integral inputs.")
    );
    let xs = DynTensor::<f32>::from_vec(values(n, 7), &[n])?;
    let g = xs.to_device(&gpu)?;
    for (bins, lo, hi) in [(10, 0.0, 0.0), (100, -3.0, 4.5), (1, -1.0, 1.0)] {
        assert_eq!(
            g.histc(bins, lo, hi)?.to_cpu()?.to_vec(),
            xs.histc(bins, lo, hi)?.to_vec()
        );
    }
    // Static shapes keep their types on the device.
    let t = Tensor::<f32, shape![2, 3]>::from_vec(vec![1.0, 3.0, 1.0, 2.0, 3.0, 3.0])?
        .to_device(&gpu)?;
    let (values, inverse, counts) = t.unique(true, true, true);
    assert_eq!(values.to_cpu()?.to_vec(), [1.0, 2.0, 3.0]);
    assert_eq!(
        inverse
            .map(|i| i.to_cpu().map(|i| i.to_vec()))
            .transpose()?,
        Some(vec![0, 2, 0, 1, 2, 2])
    );
    assert_eq!(
        counts.map(|c| c.to_cpu().map(|c| c.to_vec())).transpose()?,
        Some(vec![2, 1, 3])
    );
    let h: Tensor<f32, shape![4], Cuda> = t.histc::<4>(0.0, 4.0)?;
    assert_eq!(h.to_cpu()?.to_vec(), [0.0, 2.0, 1.0, 3.0]);
    Ok(())
}

/// The predicates, logic and bits (`kernels/elementwise.cuh`) on the device
/// against the CPU: every shift amount of every integer type (negative and
/// past the width), mixed dtypes, a transposed operand, numbers, in place,
/// and the predicates of NaN, infinities, zeros and complex parts.
#[test]
fn logic_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("logic_on_the_device") else {
        return Ok(());
    };
    macro_rules! shifts {
        ($($t:ty),*) => {$(
            let a = DynTensor::<$t>::from_vec((0..40).map(|i| (i * 37 % 256) as $t).collect(), &[40, 1])?;
            let n = DynTensor::<$t>::from_vec((0..70).map(|i| (i as i64 - 3) as $t).collect(), &[1, 70])?;
            let (ga, gn) = (a.to_device(&gpu)?, n.to_device(&gpu)?);
            assert_eq!((&ga << &gn).to_cpu()?.to_vec(), (&a << &n).to_vec());
            assert_eq!((&ga >> &gn).to_cpu()?.to_vec(), (&a >> &n).to_vec());
            assert_eq!(
                (&ga.t()? & &gn.narrow(1, 0, 40)?).to_cpu()?.to_vec(),
                (&a.t()? & &n.narrow(1, 0, 40)?).to_vec()
            );
            assert_eq!((&ga ^ 5).to_cpu()?.to_vec(), (&a ^ 5).to_vec());
            assert_eq!((!&ga).to_cpu()?.to_vec(), (!&a).to_vec());
            let (mut gx, mut x) = (ga.try_clone()?, a.try_clone()?);
            gx |= &gn.narrow(1, 0, 1)?;
            x |= &n.narrow(1, 0, 1)?;
            assert_eq!(gx.to_cpu()?.to_vec(), x.to_vec());
        )*};
    }
    shifts!(u8, i8, i16, i32, i64);
    // Mixed dtypes: int32 & bool, uint8 << int8 (int16), logic of float
    // and complex.
    let m = DynTensor::<bool>::from_vec(vec![true, false, true], &[3])?;
    let i = DynTensor::<i32>::from_vec(vec![6, 7, -1], &[3])?;
    let b = DynTensor::<u8>::from_vec(vec![1, 200, 3], &[3])?;
    let s = DynTensor::<i8>::from_vec(vec![7, -1, 9], &[3])?;
    let (gm, gi, gb, gs) = (
        m.to_device(&gpu)?,
        i.to_device(&gpu)?,
        b.to_device(&gpu)?,
        s.to_device(&gpu)?,
    );
    assert_eq!((&gi & &gm).to_cpu()?.to_vec(), (&i & &m).to_vec());
    assert_eq!((&gb << &gs).to_cpu()?.to_vec(), (&b << &s).to_vec());
    let specials = [
        0.0f32,
        -0.0,
        1.5,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1e-40,
        -2.0,
    ];
    let f = DynTensor::<f32>::from_vec(specials.to_vec(), &[8])?;
    let z = DynTensor::<num_complex::Complex<f64>>::from_vec(
        specials
            .iter()
            .flat_map(|&re| {
                specials
                    .iter()
                    .map(move |&im| num_complex::Complex::new(f64::from(re), f64::from(im)))
            })
            .collect(),
        &[8, 8],
    )?;
    let (gf, gz) = (f.to_device(&gpu)?, z.to_device(&gpu)?);
    for (got, want) in [
        (gf.isnan(), f.isnan()),
        (gf.isinf(), f.isinf()),
        (gf.isposinf(), f.isposinf()),
        (gf.isneginf(), f.isneginf()),
        (gf.isfinite(), f.isfinite()),
        (gf.logical_not(), f.logical_not()),
        (
            gf.logical_and(&gm.narrow(0, 0, 1)?),
            f.logical_and(&m.narrow(0, 0, 1)?),
        ),
        (gz.isnan(), z.isnan()),
        (gz.isinf(), z.isinf()),
        (gz.isfinite(), z.isfinite()),
        (gz.isreal(), z.isreal()),
        (gz.logical_xor(&gf), z.logical_xor(&f)),
        (gz.logical_or(0.0), z.logical_or(0.0)),
    ] {
        assert_eq!(got.to_cpu()?.to_vec(), want.to_vec());
    }
    // isclose, allclose and equal, composed of the operations above.
    let f2 = DynTensor::<f32>::from_vec(specials.iter().map(|v| v * 1.000001).collect(), &[8])?;
    let gf2 = f2.to_device(&gpu)?;
    for (rtol, atol, equal_nan) in [(1e-5, 1e-8, true), (0.0, 0.0, false), (1e-7, 0.0, false)] {
        assert_eq!(
            gf.isclose(&gf2, rtol, atol, equal_nan).to_cpu()?.to_vec(),
            f.isclose(&f2, rtol, atol, equal_nan).to_vec()
        );
        assert_eq!(
            gf.allclose(&gf2, rtol, atol, equal_nan),
            f.allclose(&f2, rtol, atol, equal_nan)
        );
    }
    assert!(gi.equal(&gi) && !gi.equal(&gm) && !gf.equal(&gf));
    Ok(())
}

/// float16 and bfloat16 `*` and `/` by a number, a rank-0 CPU tensor and
/// one element of another type on the device: the number kept in float32,
/// as on the CPU (and PyTorch's CPU kernels); `+` rounds it first.
#[test]
fn half_numbers_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("half_numbers_on_the_device") else {
        return Ok(());
    };
    let values = [1.0f32, 3.0, 1000.0, 0.1, 7.0, 65504.0, -5.5, 6e-8];
    let x = DynTensor::<half::f16>::from_vec(values.map(half::f16::from_f32).to_vec(), &[8])?;
    let y = DynTensor::<half::bf16>::from_vec(values.map(half::bf16::from_f32).to_vec(), &[8])?;
    let (gx, gy) = (x.to_device(&gpu)?, y.to_device(&gpu)?);
    for n in [1e-5f64, 0.1, 1.0 / 3.0, 70000.0] {
        assert_eq!((&gx * n).to_cpu()?.to_vec(), (&x * n).to_vec());
        assert_eq!((&gy / n).to_cpu()?.to_vec(), (&y / n).to_vec());
        assert_eq!((n / &gx).to_cpu()?.to_vec(), (n / &x).to_vec());
        assert_eq!((&gx + n).to_cpu()?.to_vec(), (&x + n).to_vec());
        let (mut g, mut c) = (gy.try_clone()?, y.try_clone()?);
        g *= n;
        c *= n;
        assert_eq!(g.to_cpu()?.to_vec(), c.to_vec());
    }
    let r = Tensor::<f32, shape![]>::full(1e-5);
    assert_eq!((&gx * &r).to_cpu()?.to_vec(), (&x * &r).to_vec());
    let one = DynTensor::<i64>::from_vec(vec![70000], &[1])?;
    let g_one = one.to_device(&gpu)?;
    assert_eq!((&gx * &g_one).to_cpu()?.to_vec(), (&x * &one).to_vec());
    assert_eq!((&x * 1e-5).to_vec()[1], half::f16::from_f32(3.0 * 1e-5));
    Ok(())
}

/// `%`, `fmod` and `floor_divide` on the device: every integer and real
/// floating dtype against the CPU, a broadcast transposed operand, numbers
/// on either side, in place, and `ZeroDivisionError` found by the device's
/// check before anything is written.
#[test]
fn division_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("division_on_the_device") else {
        return Ok(());
    };
    macro_rules! each {
        ($($t:ty),*) => {$(
            let a = DynTensor::<$t>::from_vec((0..60).map(|i| ((i * 37 % 23) as i64 - 11) as $t).collect(), &[6, 10])?;
            let b = DynTensor::<$t>::from_vec((0..10).map(|i| [3, -4, 7, 1, 2, 9, -3, 5, 6, -2][i] as $t).collect(), &[10, 1])?;
            let (ga, gb) = (a.to_device(&gpu)?, b.to_device(&gpu)?);
            assert_eq!((&ga.t()? % &gb).to_cpu()?.to_vec(), (&a.t()? % &b).to_vec());
            assert_eq!(ga.fmod(&gb.t()?).to_cpu()?.to_vec(), a.fmod(&b.t()?).to_vec());
            assert_eq!(ga.floor_divide(3i64).to_cpu()?.to_vec(), a.floor_divide(3i64).to_vec());
            assert_eq!((7i64 % &gb).to_cpu()?.to_vec(), (7i64 % &b).to_vec());
            let (mut gx, mut x) = (ga.try_clone()?, a.try_clone()?);
            gx.floor_divide_(&gb.t()?)?;
            x.floor_divide_(&b.t()?)?;
            assert_eq!(gx.to_cpu()?.to_vec(), x.to_vec());
        )*};
    }
    each!(i8, i16, i32, i64, f32, f64);
    let u = DynTensor::<u8>::from_vec(vec![200, 7, 0, 255], &[4])?;
    let gu = u.to_device(&gpu)?;
    assert_eq!((&gu % 7i64).to_cpu()?.to_vec(), (&u % 7i64).to_vec());
    let h = DynTensor::<half::f16>::from_vec(
        [5.5f32, -5.5, 1e-3, 65504.0]
            .map(half::f16::from_f32)
            .to_vec(),
        &[4],
    )?;
    let gh = h.to_device(&gpu)?;
    assert_eq!(
        gh.floor_divide(-0.75f64).to_cpu()?.to_vec(),
        h.floor_divide(-0.75f64).to_vec()
    );
    assert_eq!((&gh % 2.5f64).to_cpu()?.to_vec(), (&h % 2.5f64).to_vec());
    // A zero divisor: found on the device, nothing written.
    let z = DynTensor::<i32>::from_vec(vec![1, 2, 0, 4], &[4])?;
    let (gz, mut gw) = (z.to_device(&gpu)?, z.to_device(&gpu)?);
    assert_eq!(
        gz.try_remainder(&gz).err().unwrap().to_string(),
        "ZeroDivisionError"
    );
    assert_eq!(gw.fmod_(&gz).unwrap_err().to_string(), "ZeroDivisionError");
    assert_eq!(gw.to_cpu()?.to_vec(), z.to_vec());
    Ok(())
}

/// The activations on the device: the four floating dtypes against the CPU
/// (the half types computed in float32), parameters included, and `silu`
/// of complex values.
#[test]
fn activations_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("activations_on_the_device") else {
        return Ok(());
    };
    macro_rules! each {
        ($($t:ty),*) => {$(
            let x = math_source::<$t>()?;
            let g = x.to_device(&gpu)?;
            let tol = math_tol(<$t as shaped::dtype::Element>::DTYPE);
            let what = stringify!($t);
            assert_close_on_both!(format!("gelu {what}"), tol, g.gelu(), x.gelu());
            assert_close_on_both!(format!("gelu_tanh {what}"), tol, g.gelu_tanh(), x.gelu_tanh());
            assert_close_on_both!(format!("silu {what}"), tol, g.silu(), x.silu());
            assert_close_on_both!(format!("softplus {what}"), tol, g.softplus(2.0, 5.0), x.softplus(2.0, 5.0));
            assert_close_on_both!(format!("mish {what}"), tol, g.mish(), x.mish());
            assert_close_on_both!(format!("elu {what}"), tol, g.elu(0.5), x.elu(0.5));
            assert_close_on_both!(format!("leaky_relu {what}"), tol, g.t()?.leaky_relu(0.2), x.t()?.leaky_relu(0.2));
            assert_close_on_both!(format!("hardtanh {what}"), tol, g.hardtanh(-1.0, 2.0), x.hardtanh(-1.0, 2.0));
            assert_close_on_both!(format!("hardsigmoid {what}"), tol, g.hardsigmoid(), x.hardsigmoid());
            assert_close_on_both!(format!("hardswish {what}"), tol, g.hardswish(), x.hardswish());
            assert_close_on_both!(format!("logsigmoid {what}"), tol, g.logsigmoid(), x.logsigmoid());
        )*};
    }
    each!(half::f16, half::bf16, f32, f64);
    let z = math_source::<num_complex::Complex<f64>>()?;
    let gz = z.to_device(&gpu)?;
    assert_close_on_both!("silu c128", 1e-13, gz.silu(), z.silu());
    Ok(())
}

/// The rest of the catalogue's functions of one tensor on the device
/// against the CPU: the special functions (CUDA's `erf`, `erfc`, `lgamma`;
/// `erfinv` and `digamma` as the CPU computes them), `sinc`, the angle
/// conversions, `trunc`, `frac`, `sign`, `sgn`, `signbit`, `square` and
/// `nan_to_num`, on every floating dtype, integers and bool where they
/// take them, and complex values for `sgn`, `sinc`, `square`, `nan_to_num`;
/// `float_power` (the promoted `pow` kernels in float64).
#[test]
fn pointwise_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("pointwise_on_the_device") else {
        return Ok(());
    };
    macro_rules! each {
        ($($t:ty),*) => {$(
            let x = math_source::<$t>()?;
            let g = x.to_device(&gpu)?;
            let tol = math_tol(<$t as shaped::dtype::Element>::DTYPE);
            let what = stringify!($t);
            assert_close_on_both!(format!("erf {what}"), tol, g.erf(), x.erf());
            assert_close_on_both!(format!("erfc {what}"), tol, g.erfc(), x.erfc());
            assert_close_on_both!(format!("erfinv {what}"), tol, g.erfinv(), x.erfinv());
            assert_close_on_both!(format!("lgamma {what}"), tol, g.lgamma(), x.lgamma());
            assert_close_on_both!(format!("digamma {what}"), tol, g.digamma(), x.digamma());
            assert_close_on_both!(format!("sinc {what}"), tol, g.t()?.sinc(), x.t()?.sinc());
            assert_close_on_both!(format!("deg2rad {what}"), tol, g.deg2rad(), x.deg2rad());
            assert_close_on_both!(format!("rad2deg {what}"), tol, g.rad2deg(), x.rad2deg());
            assert_close_on_both!(format!("trunc {what}"), 0.0, g.trunc(), x.trunc());
            assert_close_on_both!(format!("frac {what}"), 0.0, g.frac(), x.frac());
            assert_close_on_both!(format!("sign {what}"), 0.0, g.sign(), x.sign());
            assert_close_on_both!(format!("sgn {what}"), 0.0, g.sgn(), x.sgn());
            assert_close_on_both!(format!("signbit {what}"), 0.0, g.signbit(), x.signbit());
            assert_close_on_both!(format!("square {what}"), 0.0, g.square(), x.square());
            assert_close_on_both!(
                format!("nan_to_num {what}"),
                0.0,
                g.nan_to_num(1.5, Some(1e10), None),
                x.nan_to_num(1.5, Some(1e10), None)
            );
        )*};
    }
    each!(half::f16, half::bf16, f32, f64);
    let n = math_source::<i32>()?;
    let gn = n.to_device(&gpu)?;
    assert_close_on_both!("lgamma i32", 2e-6, gn.lgamma(), n.lgamma());
    let h = math_source::<half::f16>()?;
    let gh = h.to_device(&gpu)?;
    assert_close_on_both!(
        "float_power i32 f16",
        1e-13,
        gn.float_power(&gh),
        n.float_power(&h)
    );
    assert_close_on_both!(
        "float_powf i32",
        1e-13,
        gn.float_powf(0.5),
        n.float_powf(0.5)
    );
    assert_close_on_both!("sign i32", 0.0, gn.sign(), n.sign());
    assert_close_on_both!("square i32", 0.0, gn.square(), n.square());
    let m = math_source::<bool>()?;
    let gm = m.to_device(&gpu)?;
    assert_close_on_both!("square bool", 0.0, gm.square(), m.square());
    let z = math_source::<num_complex::Complex<f64>>()?;
    let gz = z.to_device(&gpu)?;
    assert_close_on_both!("sgn c128", 1e-15, gz.sgn(), z.sgn());
    assert_close_on_both!("sinc c128", 1e-13, gz.sinc(), z.sinc());
    assert_close_on_both!("square c128", 0.0, gz.square(), z.square());
    assert_close_on_both!(
        "nan_to_num c128",
        0.0,
        gz.nan_to_num(0.0, None, Some(-2.0)),
        z.nan_to_num(0.0, None, Some(-2.0))
    );
    Ok(())
}

/// The functions of two tensors (`atan2`, `hypot`, `copysign`,
/// `nextafter`, `logaddexp`, `logaddexp2`, `xlogy`) by the special family's
/// kernels, with a broadcast row, on every floating dtype; integer and
/// float16 operands by the promoted kernels (in float16), integers in
/// float32, and complex `logaddexp`.
#[test]
fn pairs_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("pairs_on_the_device") else {
        return Ok(());
    };
    macro_rules! each {
        ($($t:ty),*) => {$(
            let x = math_source::<$t>()?;
            let g = x.to_device(&gpu)?;
            let (row, grow) = (x.slice(s![3..4, ..])?, g.slice(s![3..4, ..])?);
            let tol = math_tol(<$t as shaped::dtype::Element>::DTYPE);
            let what = stringify!($t);
            assert_close_on_both!(format!("atan2 {what}"), tol, g.atan2(&grow), x.atan2(&row));
            assert_close_on_both!(format!("hypot {what}"), tol, g.hypot(&grow), x.hypot(&row));
            assert_close_on_both!(format!("copysign {what}"), 0.0, g.copysign(&grow), x.copysign(&row));
            assert_close_on_both!(format!("nextafter {what}"), 0.0, g.nextafter(&grow), x.nextafter(&row));
            assert_close_on_both!(format!("logaddexp {what}"), tol, g.logaddexp(&grow), x.logaddexp(&row));
            assert_close_on_both!(format!("logaddexp2 {what}"), tol, g.logaddexp2(&grow), x.logaddexp2(&row));
            assert_close_on_both!(format!("xlogy {what}"), tol, g.t()?.xlogy(&g.t()?), x.t()?.xlogy(&x.t()?));
        )*};
    }
    each!(half::f16, half::bf16, f32, f64);
    let (n, h) = (math_source::<i32>()?, math_source::<half::f16>()?);
    let (gn, gh) = (n.to_device(&gpu)?, h.to_device(&gpu)?);
    let tol = math_tol(DType::F16);
    assert_close_on_both!("atan2 i32 f16", tol, gn.atan2(&gh), n.atan2(&h));
    assert_close_on_both!("nextafter i32 f16", 0.0, gn.nextafter(&gh), n.nextafter(&h));
    assert_close_on_both!("xlogy i32", 2e-6, gn.xlogy(&gn), n.xlogy(&n));
    let z = math_source::<num_complex::Complex<f64>>()?;
    let gz = z.to_device(&gpu)?;
    assert_close_on_both!("logaddexp c128", 1e-13, gz.logaddexp(&gz), z.logaddexp(&z));
    Ok(())
}

/// `lerp` (weight tensor and number), `addcmul` and `addcdiv` on the
/// device: one dtype and mixed (converted as loaded), broadcast, a
/// transposed operand, and in place on a writable view. The kernels compute
/// with the CPU's fused multiply-adds, so real results are exact.
#[test]
fn ternary_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("ternary_on_the_device") else {
        return Ok(());
    };
    macro_rules! each {
        ($($t:ty),*) => {$(
            let x = math_source::<$t>()?;
            let g = x.to_device(&gpu)?;
            let (row, grow) = (x.slice(s![3..4, ..])?, g.slice(s![3..4, ..])?);
            // The same values, laid out column by column.
            let (xc, gc) = (x.t()?.contiguous(), g.t()?.contiguous());
            let (xt, gt) = (xc.t()?, gc.t()?);
            let what = stringify!($t);
            assert_close_on_both!(format!("lerp {what}"), 0.0, g.lerp(&grow, &gt), x.lerp(&row, &xt));
            assert_close_on_both!(format!("lerp number {what}"), 0.0, g.lerp(&grow, 0.3), x.lerp(&row, 0.3));
            assert_close_on_both!(format!("addcmul {what}"), 0.0, g.addcmul(&grow, &gt, 0.5), x.addcmul(&row, &xt, 0.5));
            assert_close_on_both!(format!("addcdiv {what}"), 0.0, g.addcdiv(&grow, &gt, -2.0), x.addcdiv(&row, &xt, -2.0));
            let (mut xc, mut gc) = (x.clone(), g.clone());
            xc.addcmul_(&row, &row, 2.0)?;
            gc.addcmul_(&grow, &grow, 2.0)?;
            assert_close_on_both!(format!("addcmul_ {what}"), 0.0, gc, xc);
        )*};
    }
    each!(half::f16, half::bf16, f32, f64);
    let (n, h) = (math_source::<i32>()?, math_source::<f32>()?);
    let (gn, gh) = (n.to_device(&gpu)?, h.to_device(&gpu)?);
    assert_close_on_both!(
        "addcmul i32",
        0.0,
        gn.addcmul(&gn, &gn, 3.0),
        n.addcmul(&n, &n, 3.0)
    );
    assert_close_on_both!(
        "addcdiv i32 f32",
        0.0,
        gn.addcdiv(&gn, &gh, 0.5),
        n.addcdiv(&n, &h, 0.5)
    );
    let z = math_source::<num_complex::Complex<f64>>()?;
    let gz = z.to_device(&gpu)?;
    assert_close_on_both!("lerp c128", 1e-15, gz.lerp(&gz, 0.7), z.lerp(&z, 0.7));
    assert_close_on_both!(
        "addcdiv c128",
        1e-15,
        gz.addcdiv(&gz, &gz, 1.0),
        z.addcdiv(&z, &z, 1.0)
    );
    Ok(())
}

/// Random fills on the device give the CPU's bits for the same seed
/// (Philox by element index; the samplers' own `ln`, `sin`, `cos`): every
/// floating dtype, both distributions, a stepped view, a partial last block
/// and an offset past 2^32 blocks.
#[test]
fn random_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("random_on_the_device") else {
        return Ok(());
    };
    use shaped::random::Generator;
    macro_rules! each {
        ($($t:ty),*) => {$(
            for (seed, offset) in [(0u64, 0u64), (99, (1u64 << 32) - 1)] {
                let mut on_cpu = DynTensor::<$t>::zeros(&[1001]);
                let mut on_gpu = on_cpu.to_device(&gpu)?;
                let mut g = Generator::new(seed);
                g.set_offset(offset);
                let mut h = g.clone();
                on_cpu.uniform_(-2.0, 3.0, &mut g)?;
                on_gpu.uniform_(-2.0, 3.0, &mut h)?;
                assert_close_on_both!(format!("uniform_ {}", stringify!($t)), 0.0, on_gpu, on_cpu.clone());
                on_cpu.normal_(1.0, 0.5, &mut g)?;
                on_gpu.normal_(1.0, 0.5, &mut h)?;
                assert_close_on_both!(format!("normal_ {}", stringify!($t)), 0.0, on_gpu, on_cpu.clone());
                on_cpu.exponential_(1.5, &mut g)?;
                on_gpu.exponential_(1.5, &mut h)?;
                assert_close_on_both!(format!("exponential_ {}", stringify!($t)), 0.0, on_gpu, on_cpu.clone());
                on_cpu.cauchy_(-1.0, 0.75, &mut g)?;
                on_gpu.cauchy_(-1.0, 0.75, &mut h)?;
                assert_close_on_both!(format!("cauchy_ {}", stringify!($t)), 0.0, on_gpu, on_cpu.clone());
                on_cpu.geometric_(0.3, &mut g)?;
                on_gpu.geometric_(0.3, &mut h)?;
                assert_close_on_both!(format!("geometric_ {}", stringify!($t)), 0.0, on_gpu, on_cpu.clone());
                on_cpu.log_normal_(0.5, 2.0, &mut g)?;
                on_gpu.log_normal_(0.5, 2.0, &mut h)?;
                assert_close_on_both!(format!("log_normal_ {}", stringify!($t)), 0.0, on_gpu, on_cpu.clone());
                assert_eq!(g, h, "the generators advance alike");
            }
        )*};
    }
    each!(f32, f64, half::f16, half::bf16);
    let mut base = DynTensor::<f32>::zeros(&[64, 48]);
    let mut gbase = base.to_device(&gpu)?;
    base.slice_mut(s![.., ..;3])?
        .normal_(0.0, 1.0, &mut Generator::new(4))?;
    gbase
        .slice_mut(s![.., ..;3])?
        .normal_(0.0, 1.0, &mut Generator::new(4))?;
    assert_close_on_both!("normal_ on a stepped view", 0.0, gbase, base);
    Ok(())
}

/// The whole-number draws (`random_`, `randint_like`, `bernoulli_`) of
/// every real dtype and the samplers built on the kernels (`bernoulli`,
/// `bernoulli_tensor_`, `normal` with tensors, `multinomial`): the CPU's
/// values for the same seed.
#[test]
fn sampling_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("sampling_on_the_device") else {
        return Ok(());
    };
    use shaped::random::Generator;
    macro_rules! each {
        ($($t:ty),*) => {$(
            let mut on_cpu = DynTensor::<$t>::zeros(&[1001]);
            let mut on_gpu = on_cpu.to_device(&gpu)?;
            let (mut g, mut h) = (Generator::new(3), Generator::new(3));
            on_cpu.random_(&mut g)?;
            on_gpu.random_(&mut h)?;
            assert_close_on_both!(format!("random_ {}", stringify!($t)), 0.0, on_gpu, on_cpu.clone());
            on_cpu.random_from_(0, Some(2), &mut g)?;
            on_gpu.random_from_(0, Some(2), &mut h)?;
            assert_close_on_both!(format!("random_from_ {}", stringify!($t)), 0.0, on_gpu, on_cpu.clone());
            on_cpu.bernoulli_(0.3, &mut g)?;
            on_gpu.bernoulli_(0.3, &mut h)?;
            assert_close_on_both!(format!("bernoulli_ {}", stringify!($t)), 0.0, on_gpu, on_cpu.clone());
            let (r, gr) = (on_cpu.randint_like(0, 2, &mut g)?, on_gpu.randint_like(0, 2, &mut h)?);
            assert_close_on_both!(format!("randint_like {}", stringify!($t)), 0.0, gr, r);
            assert_eq!(g, h, "the generators advance alike");
        )*};
    }
    each!(f32, f64, half::f16, half::bf16, u8, i8, i16, i32, i64, bool);
    macro_rules! geometric {
        ($($t:ty),*) => {$(
            let mut on_cpu = DynTensor::<$t>::zeros(&[1001]);
            let mut on_gpu = on_cpu.to_device(&gpu)?;
            on_cpu.geometric_(0.2, &mut Generator::new(10))?;
            on_gpu.geometric_(0.2, &mut Generator::new(10))?;
            assert_close_on_both!(format!("geometric_ {}", stringify!($t)), 0.0, on_gpu, on_cpu);
        )*};
    }
    geometric!(u8, i8, i16, i32, i64);
    let mut z = DynTensor::<num_complex::Complex<f32>>::zeros(&[333]);
    let mut gz = z.to_device(&gpu)?;
    z.normal_(1.0, 2.0, &mut Generator::new(11))?;
    gz.normal_(1.0, 2.0, &mut Generator::new(11))?;
    assert_close_on_both!("complex normal_", 0.0, gz, z);
    let mut all = DynTensor::<i64>::zeros(&[101]);
    let mut gall = all.to_device(&gpu)?;
    all.random_from_(i64::MIN, None, &mut Generator::new(4))?;
    gall.random_from_(i64::MIN, None, &mut Generator::new(4))?;
    assert_close_on_both!("random_ of every int64", 0.0, gall, all);
    let probs = DynTensor::<f32>::from_vec([0.1f32, 0.5, 0.9, 0.0].repeat(250), &[250, 4])?;
    let gprobs = probs.to_device(&gpu)?;
    let (b, gb) = (
        probs.bernoulli(&mut Generator::new(5))?,
        gprobs.bernoulli(&mut Generator::new(5))?,
    );
    assert_close_on_both!("bernoulli", 0.0, gb, b);
    let mut x = DynTensor::<i32>::zeros(&[3, 250, 4]);
    let mut gx = x.to_device(&gpu)?;
    x.bernoulli_tensor_(&probs, &mut Generator::new(6))?;
    gx.bernoulli_tensor_(&gprobs, &mut Generator::new(6))?;
    assert_close_on_both!("bernoulli_tensor_", 0.0, gx, x);
    let std = DynTensor::<f64>::full(&[7, 1], 2.0);
    let gstd = std.to_device(&gpu)?;
    let mean = DynTensor::<f64>::arange(5).to_owned();
    let gmean = mean.to_device(&gpu)?;
    let (n, gn) = (
        DynTensor::normal_tensor_tensor(&mean, &std, &mut Generator::new(7))?,
        DynTensor::normal_tensor_tensor(&gmean, &gstd, &mut Generator::new(7))?,
    );
    assert_close_on_both!("normal_tensor_tensor", 0.0, gn, n);
    let cmean = DynTensor::<num_complex::Complex<f64>>::ones(&[5]);
    let (n, gn) = (
        DynTensor::normal_tensor_tensor(&cmean, &std, &mut Generator::new(12))?,
        DynTensor::normal_tensor_tensor(&cmean.to_device(&gpu)?, &gstd, &mut Generator::new(12))?,
    );
    assert_close_on_both!("normal_tensor_tensor, complex mean", 0.0, gn, n);
    for replacement in [false, true] {
        let (m, gm) = (
            probs.multinomial(3, replacement, &mut Generator::new(8))?,
            gprobs.multinomial(3, replacement, &mut Generator::new(8))?,
        );
        assert_close_on_both!(format!("multinomial {replacement}"), 0.0, gm, m);
    }
    let rates = DynTensor::<f64>::from_vec(
        [0.0, 0.5, 3.0, 9.99, 10.0, 57.0, 1e6, f64::INFINITY].repeat(40),
        &[8, 40],
    )?;
    let grates = rates.to_device(&gpu)?;
    let (k, gk) = (
        rates.t()?.poisson(&mut Generator::new(9))?,
        grates.t()?.poisson(&mut Generator::new(9))?,
    );
    assert_close_on_both!("poisson", 0.0, gk, k);
    let bad = DynTensor::<f32>::from_vec(vec![0.5, 1.5], &[2])?.to_device(&gpu)?;
    assert!(bad.bernoulli(&mut Generator::new(0)).is_err());
    Ok(())
}

/// The `*_like` constructors of a CUDA view: the view's shape and PyTorch's
/// layout (a transpose keeps its strides), on the device, with the CPU's
/// values (`rand_like`/`randn_like` the CPU's bits for the same seed).
#[test]
fn like_constructors_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("like_constructors_on_the_device") else {
        return Ok(());
    };
    use shaped::random::Generator;
    let base = DynTensor::<f32>::arange(24).reshape(&[4, 6])?.to_owned();
    let gbase = base.to_device(&gpu)?;
    let (x, gx) = (base.t()?, gbase.t()?);
    let (z, gz) = (x.full_like(2.5), gx.full_like(2.5));
    assert_eq!(gz.strides(), z.strides());
    assert_close_on_both!("full_like", 0.0, gz, z);
    let (r, gr) = (
        x.rand_like(&mut Generator::new(8)),
        gx.rand_like(&mut Generator::new(8)),
    );
    assert_close_on_both!("rand_like", 0.0, gr, r);
    let (n, gn) = (
        x.randn_like(&mut Generator::new(8)),
        gx.randn_like(&mut Generator::new(8)),
    );
    assert_close_on_both!("randn_like", 0.0, gn, n);
    let any = AnyTensor::<Cuda>::from(gbase.clone());
    assert_eq!(any.ones_like()?.device(), any.device());
    Ok(())
}

/// The in-place functions (`exp_`, `erf_`, `sign_` on a stepped writable
/// view, `nan_to_num_`) update a CUDA tensor through the kernels of their
/// out-of-place forms.
#[test]
fn in_place_functions_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("in_place_functions_on_the_device") else {
        return Ok(());
    };
    let x = math_source::<f32>()?;
    let tol = math_tol(DType::F32);
    let mut g = x.to_device(&gpu)?;
    g.exp_();
    assert_close_on_both!("exp_", tol, g, x.exp());
    let mut g = x.to_device(&gpu)?;
    g.erf_();
    assert_close_on_both!("erf_", tol, g, x.erf());
    let mut g = x.to_device(&gpu)?;
    g.slice_mut(s![.., ..;2])?.sign_();
    let mut c = x.clone();
    c.slice_mut(s![.., ..;2])?.sign_();
    assert_close_on_both!("sign_ on a view", 0.0, g, c);
    let mut g = x.to_device(&gpu)?;
    g.nan_to_num_(0.0, None, None);
    assert_close_on_both!("nan_to_num_", 0.0, g, x.nan_to_num(0.0, None, None));
    Ok(())
}

/// The rearrangements and diagonals on the device against the CPU: flips,
/// rolls, rot90, the four paddings, tril/triu, repeat and tile, diag and
/// diag_embed of a transposed view (PyTorch's layouts: a flip keeps the
/// transpose's order), and f16 and complex elements (the 2- and 16-byte
/// kernels).
#[test]
fn rearrangements_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("rearrangements_on_the_device") else {
        return Ok(());
    };
    let base = DynTensor::<f32>::arange(60).reshape(&[3, 4, 5])?.to_owned();
    let gbase = base.to_device(&gpu)?;
    let (x, gx) = (base.transpose(1, 2)?, gbase.transpose(1, 2)?);
    let flipped = (x.flip(&[0, 2])?, gx.flip(&[0, 2])?);
    assert_eq!(flipped.1.strides(), flipped.0.strides());
    assert_close_on_both!("flip", 0.0, flipped.1, flipped.0);
    let (r, gr) = (x.roll(&[2, -1], &[1, 2])?, gx.roll(&[2, -1], &[1, 2])?);
    assert_close_on_both!("roll", 0.0, gr, r);
    let counts = DynTensor::<i64>::from_vec(vec![2, 0, 1, 3, 1], &[5])?;
    let gcounts = counts.to_device(&gpu)?;
    let (r, gr) = (
        x.repeat_interleave_by(&counts, Some(1))?,
        gx.repeat_interleave_by(&gcounts, Some(1))?,
    );
    assert_close_on_both!("repeat_interleave_by", 0.0, gr, r);
    let one = DynTensor::<i32>::from_vec(vec![2], &[1])?;
    let (r, gr) = (
        x.repeat_interleave_by(&one, None)?,
        gx.repeat_interleave_by(&one.to_device(&gpu)?, None)?,
    );
    assert_close_on_both!("repeat_interleave_by, flattened", 0.0, gr, r);
    assert!(gx.repeat_interleave_by(&gcounts, Some(0)).is_err());
    let (r, gr) = (x.rot90(1, &[1, 2])?, gx.rot90(1, &[1, 2])?);
    assert_eq!(gr.strides(), r.strides());
    assert_close_on_both!("rot90", 0.0, gr, r);
    for mode in [
        PadMode::Constant,
        PadMode::Reflect,
        PadMode::Replicate,
        PadMode::Circular,
    ] {
        let (p, gp) = (
            x.pad(&[2, 1, -1, 3], mode, None)?,
            gx.pad(&[2, 1, -1, 3], mode, None)?,
        );
        assert_close_on_both!("pad", 0.0, gp, p);
    }
    for d in [-2, 0, 3] {
        let (t, gt) = (x.tril(d)?, gx.tril(d)?);
        assert_close_on_both!("tril", 0.0, gt, t);
        let (t, gt) = (x.triu(d)?, gx.triu(d)?);
        assert_close_on_both!("triu", 0.0, gt, t);
    }
    let (t, gt) = (x.repeat(&[2, 1, 1, 2])?, gx.repeat(&[2, 1, 1, 2])?);
    assert_close_on_both!("repeat", 0.0, gt, t);
    let (t, gt) = (
        x.repeat_interleave(3, Some(1))?,
        gx.repeat_interleave(3, Some(1))?,
    );
    assert_close_on_both!("repeat_interleave", 0.0, gt, t);
    let (e, ge) = (x.diag_embed(1, 0, 2)?, gx.diag_embed(1, 0, 2)?);
    assert_close_on_both!("diag_embed", 0.0, ge, e);
    let half = DynTensor::<half::f16>::ones(&[5, 3]);
    let ghalf = half.to_device(&gpu)?;
    assert_eq!(
        ghalf.flip(&[1])?.to_cpu()?.to_vec(),
        half.flip(&[1])?.to_vec()
    );
    let c = DynTensor::<num_complex::Complex<f64>>::ones(&[4]);
    let gc = c.to_device(&gpu)?;
    assert_eq!(gc.diag(-1)?.to_cpu()?.to_vec(), c.diag(-1)?.to_vec());
    Ok(())
}

/// `AnyTensor<Cuda>` views as operands (a transposed one beside a narrowed
/// one of another dtype), in lists and as indices, and writable views that
/// the in-place forms and `fill_` write through: the CPU's results.
#[test]
fn any_tensor_views_on_the_device() -> Result<(), Error> {
    let Some(gpu) = gpu("any_tensor_views_on_the_device") else {
        return Ok(());
    };
    use shaped::dtype::Scalar;
    let f = AnyTensor::from(DynTensor::<f32>::from_vec(values(24, 1), &[4, 6])?);
    let i = AnyTensor::from(DynTensor::<i64>::from_vec(vec![3, 0, 2, 1, 5, 4], &[6])?);
    let (gf, gi) = (f.to_device(&gpu)?, i.to_device(&gpu)?);
    let both =
        |cpu: Result<AnyTensor, Error>, dev: Result<AnyTensor<Cuda>, Error>, what: &str| match (
            cpu, dev,
        ) {
            (Ok(c), Ok(d)) => {
                assert_eq!(c.to_scalars(), d.to_cpu().unwrap().to_scalars(), "{what}")
            }
            (Err(c), Err(d)) => assert_eq!(c.to_string(), d.to_string(), "{what}"),
            (c, d) => panic!(
                "{what}: {:?} vs {:?}",
                c.map(|t| t.dtype()),
                d.map(|t| t.dtype())
            ),
        };
    let (ft, gft) = (f.t()?, gf.t()?);
    let (row, grow) = (i.narrow(0, 1, 4)?, gi.narrow(0, 1, 4)?);
    both(ft.try_mul(&row), gft.try_mul(&grow), "mul");
    both(
        row.try_add(&ft.select(0, 2)?),
        grow.try_add(&gft.select(0, 2)?),
        "add",
    );
    both(ft.try_maximum(&row), gft.try_maximum(&grow), "maximum");
    both(
        AnyTensor::cat(&[&ft, &f.narrow(1, 0, 4)?.t()?], 0),
        AnyTensor::cat(&[&gft, &gf.narrow(1, 0, 4)?.t()?], 0),
        "cat",
    );
    both(
        ft.index_select(1, &i.narrow(0, 1, 3)?),
        gft.index_select(1, &gi.narrow(0, 1, 3)?),
        "index_select",
    );
    both(
        AnyTensor::where_(&ft.try_gt(Scalar::Int(0))?, &ft, &row),
        AnyTensor::where_(&gft.try_gt(Scalar::Int(0))?, &gft, &grow),
        "where",
    );
    let (mut x, mut gx) = (f.clone(), f.to_device(&gpu)?);
    x.narrow_mut(1, 1, 4)?.try_add_assign(&row)?;
    gx.narrow_mut(1, 1, 4)?.try_add_assign(&grow)?;
    x.slice_mut(s![..;2, ..])?.fill_(Scalar::Float(-0.5))?;
    gx.slice_mut(s![..;2, ..])?.fill_(Scalar::Float(-0.5))?;
    x.diagonal_mut(0, 0, 1)?.square_()?;
    gx.diagonal_mut(0, 0, 1)?.square_()?;
    both(Ok(x), Ok(gx), "through writable views");
    Ok(())
}
