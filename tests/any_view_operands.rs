//! The functions of several `AnyTensor`s take views as well as owned
//! tensors, in every position: each function is run on strided views
//! (transposed, narrowed, expanded, offset) and on their owned copies, and
//! must give the same dtype, shape and values, or the same error text. The
//! in-place forms write through `view_mut()` as they write into an owned
//! tensor, and leave the elements unchanged on error.

use num_complex::Complex;
use shaped::dtype::Scalar;
use shaped::dynamic::Operand;
use shaped::ops::indexing::{Index, Reduce};
use shaped::prelude::*;
use shaped::storage::View;

/// What a result shows: dtype, shape and elements (formatted, so that NaN
/// equals NaN), or the error text.
type Shown = Result<(DType, Vec<usize>, Vec<String>), String>;

fn show(r: Result<AnyTensor, shaped::Error>) -> Shown {
    r.map(|t| {
        let values = t.to_scalars().iter().map(|s| format!("{s:?}")).collect();
        (t.dtype(), t.shape(), values)
    })
    .map_err(|e| e.to_string())
}

fn owned<T: Element>(values: Vec<T>, sizes: &[usize]) -> AnyTensor
where
    AnyTensor: From<DynTensor<T>>,
{
    AnyTensor::from(DynTensor::from_vec(values, sizes).unwrap())
}

/// Runs each body twice, on the views and on their owned copies, and
/// checks that both give the same; at least one must succeed per list.
macro_rules! same_on_views {
    ($views:expr, $copies:expr; $(|$($x:ident),*| $body:expr;)*) => {{
        let mut ok = 0;
        $({
            #[allow(unused_variables)]
            let ($($x),*) = $views;
            let on_views: Shown = show($body);
            #[allow(unused_variables)]
            let ($($x),*) = $copies;
            let on_copies: Shown = show($body);
            assert_eq!(on_views, on_copies, "{}", stringify!($body));
            ok += usize::from(on_views.is_ok());
        })*
        assert!(ok > 0, "every case failed");
    }};
}

/// A float32 (3, 4) view with strides (1, 3), of 12 values with no zero.
fn float_view(base: &AnyTensor) -> AnyTensor<Cpu, View<'_>> {
    base.t().unwrap()
}

#[test]
fn operators_take_views_on_either_side() {
    let fbase = owned((0..12).map(|i| i as f32 * 0.75 - 4.1).collect(), &[4, 3]);
    let ibase = owned(
        (0..8).map(|i| [3i64, -2, 5, 7][i % 4] + i as i64).collect(),
        &[2, 4],
    );
    let bbase = owned((0..12).map(|i| i % 3 == 0).collect::<Vec<bool>>(), &[3, 4]);
    let a = float_view(&fbase);
    let b = ibase.narrow(0, 1, 1).unwrap(); // (1, 4), offset 4
    let m = bbase.t().unwrap().t().unwrap(); // a view of the whole
    let (ao, bo, mo) = (a.to_owned(), b.to_owned(), m.to_owned());
    same_on_views!((&a, &b, &m), (&ao, &bo, &mo);
        |x, y, _m| x.try_add(y);
        |x, y, _m| y.try_sub(x);
        |x, y, _m| x.try_mul(y);
        |x, y, _m| y.try_div(x);
        |x, y, _m| x.try_eq(y);
        |x, y, _m| y.try_ge(x);
        |_x, y, m| y.try_bitwise_and(m);
        |_x, y, m| y.try_bitwise_left_shift(m);
        |x, _y, m| x.try_bitwise_or(m);
        |_x, _y, m| m.try_sub(m);
        |x, y, _m| x.try_logical_xor(y);
        |x, y, _m| x.try_maximum(y);
        |x, y, _m| y.try_minimum(x);
        |x, y, _m| x.try_pow(y);
        |x, y, _m| y.try_float_power(x);
        |x, y, _m| x.try_remainder(y);
        |x, y, _m| y.try_fmod(x);
        |x, y, _m| y.try_floor_divide(y);
        |x, y, _m| x.try_atan2(y);
        |x, y, _m| x.try_hypot(y);
        |x, y, _m| y.try_copysign(x);
        |x, y, _m| x.try_xlogy(y);
        |x, _y, _m| x.try_logaddexp(x);
        |x, y, _m| x.try_nextafter(y);
        |x, y, _m| x.isclose(y, 0.5, 0.5, false);
        |x, _y, _m| x.isclose(&x.flip(&[0]).unwrap(), 0.5, 0.5, true);
        |x, y, m| AnyTensor::where_(m, x, y);
        |x, y, m| AnyTensor::where_(y, x, m);
    );
    let flipped = a.flip(&[1]).unwrap();
    assert_eq!(
        a.allclose(
            &a.flip(&[1]).unwrap().t().unwrap().t().unwrap(),
            0.0,
            2.0,
            false
        )
        .unwrap(),
        ao.allclose(&flipped, 0.0, 2.0, false).unwrap()
    );
    assert!(a.allclose(&ao, 0.0, 0.0, false).unwrap());
    assert!(!a.allclose(&flipped, 0.0, 0.5, false).unwrap());
    assert!(a.equal(&ao).unwrap() && ao.equal(&a).unwrap());
    assert!(!a.equal(&a.narrow(0, 0, 2).unwrap()).unwrap());
}

#[test]
fn half_types_read_a_one_element_view_in_float32() {
    // A float16 tensor times one float32 element reads it in float32
    // (PyTorch's rule), whether the element is a tensor or a view of one.
    let h = AnyTensor::from(DynTensor::<half::f16>::full(&[3], half::f16::from_f32(3.0)));
    let f = owned(vec![0.1f32, 1.0 / 3.0, 7.0], &[3]);
    let one = f.narrow(0, 1, 1).unwrap();
    let copy = one.to_owned();
    same_on_views!((&h, &one), (&h, &copy);
        |x, y| x.try_mul(y);
        |x, y| x.try_div(y);
    );
}

#[test]
fn functions_of_three_and_of_lists_take_views() {
    let base = owned((0..24).map(|i| i as f64 / 4.0 - 2.0).collect(), &[2, 3, 4]);
    let a = base.select(0, 1).unwrap(); // (3, 4), offset 12
    let b = base.select(2, 3).unwrap().t().unwrap(); // (3, 2), strides (4, 12)
    let w = base.narrow(2, 0, 1).unwrap().select(0, 0).unwrap(); // (3, 1)
    let z = AnyTensor::from(DynTensor::<Complex<f32>>::full(
        &[2, 2],
        Complex::new(1.0, -1.0),
    ));
    let zv = z.t().unwrap();
    let (ao, bo, wo, zo) = (a.to_owned(), b.to_owned(), w.to_owned(), zv.to_owned());
    same_on_views!((&a, &b, &w, &zv), (&ao, &bo, &wo, &zo);
        |x, _y, w, _z| x.try_lerp(w, w);
        |x, _y, w, z| x.dist(w, 2.0).and_then(|_| z.dist(w, 1.0));
        |x, _y, w, _z| x.try_lerp(w, Scalar::Float(0.25));
        |x, _y, w, _z| x.try_addcmul(w, x, Scalar::Int(2));
        |x, _y, w, _z| w.try_addcdiv(x, x, Scalar::Float(-0.5));
        |x, _y, w, _z| AnyTensor::cat(&[x, w], 1);
        |x, _y, w, _z| AnyTensor::cat(&[x, x], 0);
        |x, _y, _w, _z| AnyTensor::stack(&[x, x], -1);
        |x, y, _w, _z| AnyTensor::block_diag(&[x, y]);
        |_x, y, _w, z| AnyTensor::block_diag(&[y, z]);
        |x, _y, _w, _z| AnyTensor::cartesian_prod(&[&x.select(0, 0).unwrap(), &x.select(1, 2).unwrap()]);
        |x, _y, _w, _z| AnyTensor::meshgrid(&[&x.select(0, 1).unwrap(), &x.select(1, 0).unwrap()], MeshIndexing::Xy).map(|g| g[1].clone());
    );
}

#[test]
fn indexing_scatters_and_sets_take_view_operands() {
    let base = owned((0..20).map(|i| (i * 7 % 20) as f32).collect(), &[4, 5]);
    let x = base.t().unwrap(); // (5, 4)
    let ibase = owned(vec![3i64, 0, 1, 4, 2, 0, 1, 1, 3, 2], &[2, 5]);
    let index = ibase.select(0, 0).unwrap().narrow(0, 0, 4).unwrap(); // [3, 0, 1, 4]
    let index2 = ibase.t().unwrap().narrow(0, 0, 4).unwrap(); // (4, 2)
    let mbase = owned((0..20).map(|i| i % 3 == 1).collect::<Vec<bool>>(), &[4, 5]);
    let mask = mbase.t().unwrap();
    let src = base.narrow(0, 1, 3).unwrap(); // (3, 5)
    let sorted = owned(vec![0.0f32, 2.0, 4.0, 8.0, 16.0, 32.0], &[6]);
    let bounds = sorted.narrow(0, 1, 4).unwrap();
    let counts = owned(vec![2i32, 0, 1, 3, 1, 9], &[6]);
    let reps = counts.narrow(0, 0, 5).unwrap();
    let copies = (
        x.to_owned(),
        index.to_owned(),
        index2.to_owned(),
        mask.to_owned(),
        src.to_owned(),
        bounds.to_owned(),
        reps.to_owned(),
    );
    same_on_views!((&x, &index, &index2, &mask, &src, &bounds, &reps), (&copies.0, &copies.1, &copies.2, &copies.3, &copies.4, &copies.5, &copies.6);
        |x, i, _i2, _m, _s, _b, _r| x.index_select(0, i);
        |x, i, _i2, _m, _s, _b, _r| x.index_select(1, i);
        |x, _i, i2, _m, _s, _b, _r| x.gather(0, i2);
        |x, i, _i2, _m, _s, _b, _r| x.take(i);
        |x, _i, i2, _m, _s, _b, _r| x.take_along_dim(i2, Some(0));
        |x, _i, _i2, m, _s, _b, _r| x.masked_fill(m, Scalar::Float(-1.0));
        |x, _i, _i2, m, _s, _b, _r| x.masked_select(m);
        |x, _i, _i2, m, s, _b, _r| x.masked_scatter(m, s);
        |x, _i, i2, _m, s, _b, _r| x.scatter(0, i2, s);
        |x, _i, i2, _m, s, _b, _r| x.scatter_add(0, i2, s);
        |x, _i, i2, _m, s, _b, _r| x.scatter_reduce(0, i2, s, Reduce::Amax, false);
        |x, _i, i2, _m, _s, _b, _r| x.scatter_value(1, i2, Scalar::Int(9));
        |x, i, _i2, _m, s, _b, _r| x.t().unwrap().index_add(1, i, &s.narrow(1, 0, 4).unwrap(), Scalar::Int(2));
        |x, i, _i2, _m, s, _b, _r| x.index_copy(1, &i.narrow(0, 0, 3).unwrap(), &s.t().unwrap());
        |x, i, _i2, _m, _s, _b, _r| x.index_fill(0, i, Scalar::Float(0.5));
        |x, i, _i2, _m, s, _b, _r| x.put(i, &s.narrow(0, 0, 1).unwrap().narrow(1, 0, 4).unwrap(), true);
        |x, i, _i2, _m, _s, _b, _r| x.index(&[Index::Slice(..), Index::Tensor(i)]);
        |x, _i, i2, m, _s, _b, _r| x.index(&[Index::Tensor(m)]).and_then(|_| x.index(&[Index::Tensor(i2)]));
        |x, i, _i2, _m, s, _b, _r| x.index_put(&[&i.narrow(0, 0, 3).unwrap()], &s.select(1, 0).unwrap().narrow(0, 0, 1).unwrap().expand(&[3, 4]).unwrap(), true);
        |_x, _i, _i2, _m, s, b, _r| b.searchsorted(s, false);
        |_x, _i, _i2, _m, s, b, _r| s.bucketize(b, true, true);
        |x, _i, _i2, _m, _s, _b, r| x.repeat_interleave_by(r, Some(0));
        |_x, i, _i2, _m, s, _b, _r| i.bincount_weighted(&s.select(0, 0).unwrap().narrow(0, 0, 4).unwrap(), 2);
        |x, _i, _i2, _m, s, _b, _r| x.t().unwrap().narrow(0, 0, 3).unwrap().matmul(&s.t().unwrap());
    );
}

#[test]
fn refusals_are_the_same_on_views() {
    let base = owned((0..6).map(|i| i as f32).collect(), &[2, 3]);
    let f = base.t().unwrap();
    let ibase = owned(vec![1i32, 2, 3, 4, 5, 6], &[3, 2]);
    let i = ibase.narrow(0, 1, 2).unwrap();
    let (fo, io) = (f.to_owned(), i.to_owned());
    same_on_views!((&f, &i), (&fo, &io);
        |f, i| f.try_add(i);
        |f, i| f.index_select(0, f).and_then(|_| f.index_select(0, i));
        |f, i| f.gather(0, f).and_then(|_| i.take(i));
        |f, i| f.masked_fill(i, Scalar::Int(1));
        |f, i| f.isclose(i, 1e-5, 1e-8, false);
        |f, i| f.try_lerp(i, Scalar::Float(0.5));
        |f, i| i.try_addcdiv(i, i, Scalar::Int(1)).and_then(|_| f.try_bitwise_and(i));
        |f, i| AnyTensor::where_(f, f, i);
        |f, i| f.scatter(0, &i.narrow(0, 0, 1).unwrap(), f);
        |f, i| AnyTensor::block_diag(&[&f.as_view(), &i.unsqueeze(0).unwrap()]);
        |f, i| f.try_add(&i.narrow(0, 0, 1).unwrap());
        |f, i| f.try_maximum(&i.to_dtype(DType::C64));
        |f, _i| f.try_lt(Scalar::Complex(0.0, 1.0));
    );
}

#[test]
fn in_place_forms_take_view_operands_and_write_through_view_mut() {
    let fbase = owned((0..12).map(|i| i as f32 - 6.0).collect(), &[4, 3]);
    let rhs = fbase.t().unwrap().narrow(0, 1, 1).unwrap(); // (1, 4)
    let rhs_copy = rhs.to_owned();
    let start = owned((0..12).map(|i| (i * 5 % 12) as f32).collect(), &[3, 4]);
    let ibase = owned(vec![2i64, 0, 1, 1, 0, 2], &[2, 3]);
    let index = ibase.t().unwrap().narrow(1, 0, 1).unwrap().t().unwrap(); // (1, 3)
    let index_copy = index.to_owned();
    /// The same in-place calls on an owned tensor with owned operands, on
    /// an owned tensor with view operands, and through `view_mut()` with
    /// view operands: the same outcome and the same elements after.
    macro_rules! three_ways {
        ($(|$x:ident, $r:ident, $i:ident| $call:expr;)*) => {let mut ok = 0; $({
            let mut plain = start.clone();
            let plain_result = {
                let ($x, $r, $i) = (&mut plain, &rhs_copy, &index_copy);
                $call.map_err(|e| e.to_string())
            };
            let mut with_views = start.clone();
            let views_result = {
                let ($x, $r, $i) = (&mut with_views, &rhs, &index);
                $call.map_err(|e| e.to_string())
            };
            let mut through = start.clone();
            let through_result = {
                let mut v = through.view_mut();
                let ($x, $r, $i) = (&mut v, &rhs, &index);
                $call.map_err(|e| e.to_string())
            };
            let what = stringify!($call);
            assert_eq!(plain_result, views_result, "{what}");
            assert_eq!(plain_result, through_result, "{what}");
            assert_eq!(show(Ok(plain.clone())), show(Ok(with_views)), "{what}");
            assert_eq!(show(Ok(plain.clone())), show(Ok(through.clone())), "{what}");
            if plain_result.is_err() {
                assert_eq!(show(Ok(through)), show(Ok(start.clone())), "{what} changed the elements");
            } else {
                assert_ne!(show(Ok(plain)), show(Ok(start.clone())), "{what} changed nothing");
                ok += 1;
            }
        })* assert!(ok > 10, "only {ok} calls succeeded");};
    }
    three_ways!(
        |x, r, _i| x.try_add_assign(r);
        |x, r, _i| x.try_mul_assign(Operand::from(r));
        |x, r, _i| x.try_div_assign(r);
        |x, r, _i| x.try_remainder_assign(r);
        |x, r, _i| x.try_floor_divide_assign(r);
        |x, r, _i| x.try_bitwise_and_assign(r);
        |x, _r, _i| x.try_sub_assign(Scalar::Float(0.5));
        |x, r, _i| x.try_lerp_(r, Scalar::Float(0.5));
        |x, r, _i| x.try_addcmul_(r, r, Scalar::Int(3));
        |x, r, _i| x.try_addcdiv_(r, r, Scalar::Int(-1));
        |x, r, _i| x.copy_(r);
        |x, _r, i| x.scatter_value_(1, i, Scalar::Float(-9.0));
        |x, r, i| x.scatter_(1, i, r);
        |x, r, i| x.scatter_reduce_(1, i, r, Reduce::Prod, true);
        |x, r, i| x.index_add_(1, &i.select(0, 0).unwrap(), &r.narrow(1, 0, 3).unwrap().expand(&[3, 3]).unwrap(), Scalar::Int(1));
        |x, r, _i| x.masked_fill_(&r.try_gt(Scalar::Int(0)).unwrap(), Scalar::Int(7));
        |x, r, i| x.index_put_(&[&i.select(0, 0).unwrap()], &r.narrow(1, 0, 1).unwrap(), false);
        |x, _r, _i| x.exp_();
        |x, _r, _i| x.sigmoid_();
        |x, r, _i| x.try_bitwise_left_shift_assign(r);
        |x, r, _i| x.try_add_assign(&r.t().unwrap());
    );
}

#[test]
fn views_of_other_element_types_convert_as_owned_ones() {
    // A bool view, an int8 view and a complex view beside float tensors:
    // promotion reads the views' dtypes, never their owners'.
    let b = owned(vec![true, false, true, true], &[2, 2]);
    let i = owned(vec![-3i8, 100, 7, -128], &[2, 2]);
    let z = AnyTensor::from(
        DynTensor::<Complex<f64>>::from_vec(
            vec![
                Complex::new(1.0, 2.0),
                Complex::new(-0.5, 0.0),
                Complex::new(0.0, -1.0),
                Complex::new(2.0, 2.0),
            ],
            &[2, 2],
        )
        .unwrap(),
    );
    let (bv, iv, zv) = (b.t().unwrap(), i.t().unwrap(), z.t().unwrap());
    let (bo, io, zo) = (bv.to_owned(), iv.to_owned(), zv.to_owned());
    same_on_views!((&bv, &iv, &zv), (&bo, &io, &zo);
        |b, i, _z| b.try_add(i);
        |b, i, _z| i.try_mul(b);
        |_b, i, z| z.try_sub(i);
        |b, _i, z| z.try_div(b);
        |_b, i, z| i.try_eq(z);
        |_b, i, _z| i.try_add(Scalar::Int(100));
        |_b, i, z| z.try_pow(i);
        |b, i, z| AnyTensor::cat(&[b, i, z], 0);
        |b, i, _z| AnyTensor::where_(b, i, b);
    );
}

#[test]
fn writable_views_write_where_the_typed_ones_do() {
    // Each writable view of an `AnyTensor`, scaled in place through it, must
    // change the same elements as the typed tensor's view of that name.
    let values: Vec<f32> = (0..24).map(|i| i as f32).collect();
    let typed = DynTensor::from_vec(values, &[2, 3, 4]).unwrap();
    let two = DynTensor::<f32>::full(&[], 2.0);
    macro_rules! each_view {
        ($($name:ident($($arg:expr),*);)*) => {$({
            let mut x = AnyTensor::from(typed.clone());
            x.$name($($arg),*).unwrap().try_mul_assign(Scalar::Int(2)).unwrap();
            let mut t = typed.clone();
            t.$name($($arg),*).unwrap().try_mul_assign(&two).unwrap();
            assert_eq!(x.downcast::<f32>().unwrap().to_vec(), t.to_vec(), stringify!($name));
            assert_ne!(t.to_vec(), typed.to_vec(), stringify!($name));
        })*};
    }
    each_view! {
        view_mut_as(&[6, 4]);
        transpose_mut(0, 2);
        permute_mut(&[2, 0, 1]);
        narrow_mut(2, 1, 2);
        slice_mut(s![.., 1.., ..;3]);
        select_mut(1, -1);
        squeeze_mut();
        unsqueeze_mut(1);
        diagonal_mut(1, 1, 2);
    }
    // Refusals are the typed views' texts, and nothing is written.
    let mut x = AnyTensor::from(typed.clone());
    assert_eq!(
        x.narrow_mut(3, 0, 1).unwrap_err().to_string(),
        typed.clone().narrow_mut(3, 0, 1).unwrap_err().to_string()
    );
    let mut v = x.narrow_mut(0, 1, 1).unwrap();
    assert_eq!(
        v.fill_(Scalar::Float(1e39)).unwrap_err().to_string(),
        "value cannot be converted to type float without overflow"
    );
    v.zero_().unwrap();
    let after = x.downcast::<f32>().unwrap().to_vec();
    assert_eq!(after[..12], typed.to_vec()[..12]);
    assert!(after[12..].iter().all(|&e| e == 0.0));
}

#[test]
fn nonzero_and_conjugates_of_views_match_the_typed_forms() {
    let values: Vec<Complex<f64>> = (0..12)
        .map(|i| Complex::new((i % 3) as f64, -((i % 4) as f64)))
        .collect();
    let typed = DynTensor::from_vec(values, &[3, 4]).unwrap();
    let any = AnyTensor::from(typed.clone());
    let (tv, av) = (typed.t().unwrap(), any.t().unwrap());
    assert_eq!(
        av.nonzero().downcast::<i64>().unwrap().to_vec(),
        tv.nonzero().to_vec()
    );
    assert_eq!(av.argwhere().shape(), tv.argwhere().shape().to_vec());
    let tuple: Vec<Vec<i64>> = av
        .nonzero_as_tuple()
        .into_iter()
        .map(|t| t.downcast::<i64>().unwrap().to_vec())
        .collect();
    let want: Vec<Vec<i64>> = tv.nonzero_as_tuple().iter().map(|t| t.to_vec()).collect();
    assert_eq!(tuple, want);
    assert!(!want[0].is_empty());
    let conj = av.conj().unwrap().downcast::<Complex<f64>>().unwrap();
    assert_eq!(conj.to_vec(), tv.conj().to_vec());
    let mh = av.mh().unwrap().downcast::<Complex<f64>>().unwrap();
    assert_eq!(
        (mh.shape().to_vec(), mh.to_vec()),
        (vec![3, 4], typed.conj().to_vec())
    );
    assert_eq!(show(av.adjoint()), show(av.mh()),);
    // A real tensor is its own conjugate; below two dims PyTorch's texts.
    let real = AnyTensor::from(DynTensor::<i16>::from_vec(vec![0, -3, 5], &[3]).unwrap());
    assert_eq!(show(real.conj()), show(Ok(real.clone())));
    assert_eq!(
        show(real.mh()).unwrap_err(),
        "tensor.mH is only supported on matrices or batches of matrices. Got 1-D tensor."
    );
    assert_eq!(
        show(real.adjoint()).unwrap_err(),
        "tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor."
    );
    let scalar = AnyTensor::from(DynTensor::<f32>::full(&[], 0.0));
    assert_eq!(scalar.nonzero().shape(), [0, 0]);
    assert_eq!(scalar.nonzero_as_tuple().len(), 1);
}
