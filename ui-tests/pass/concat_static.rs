// `cat` and `stack` on static shapes: the result's size is computed at
// compile time. A tuple's parts may differ along the axis (their sizes
// add up); an array's parts share one shape (the size times the count).
// `stack` inserts a new dimension of the number of parts. Views (a
// transposed tensor) join like owned tensors, and `Dyn` sizes make a `Dyn`
// result, checked at run time.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<i32, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    let b = Tensor::<i32, shape![2, 5]>::from_vec((0..10).collect()).unwrap();
    let c = Tensor::<i32, shape![4, 3]>::from_vec((0..12).collect()).unwrap();

    let ab: Tensor<i32, shape![2, 8]> = (&a, &b).cat::<1>();
    assert_eq!(ab.to_vec()[..8], [0, 1, 2, 0, 1, 2, 3, 4]);
    let ac: Tensor<i32, shape![6, 3]> = (&a, &c).cat::<0>();
    assert_eq!(ac[[2, 0]], 0);
    let abb: Tensor<i32, shape![2, 13]> = (&a, &b, &b).cat::<1>();
    assert_eq!(abb.shape(), [2, 13]);
    let aaa: Tensor<i32, shape![6, 3]> = [&a, &a, &a].cat::<0>();
    assert_eq!(aaa.shape(), [6, 3]);

    // A transposed view of (3, 2) is a (2, 3) part.
    let t = Tensor::<i32, shape![3, 2]>::from_vec((0..6).collect()).unwrap();
    let at: Tensor<i32, shape![2, 6]> = (&a, &t.t()).cat::<1>();
    assert_eq!(at.to_vec()[3..6], [0, 2, 4]);

    let s0: Tensor<i32, shape![2, 2, 3]> = [&a, &a].stack::<0>();
    assert_eq!(s0.shape(), [2, 2, 3]);
    let s2: Tensor<i32, shape![2, 3, 3]> = [&a, &a, &a].stack::<2>();
    assert_eq!(s2[[1, 2, 0]], 5);
    let st: Tensor<i32, shape![2, 2, 3]> = (&a, &t.t()).stack::<1>();
    assert_eq!(st.shape(), [2, 2, 3]);

    // Dyn along the axis gives a Dyn result; Dyn elsewhere is checked at run time.
    let d = Tensor::<i32, shape![2, Dyn]>::zeros_with(&[2, 4]);
    let ad: Tensor<i32, shape![2, Dyn]> = (&a, &d).cat::<1>();
    assert_eq!(ad.shape(), [2, 7]);
    let r = Tensor::<i32, shape![Dyn, 3]>::zeros_with(&[5, 3]);
    let rr: Tensor<i32, shape![Dyn, 6]> = [&r, &r].cat::<1>();
    assert_eq!(rr.shape(), [5, 6]);
    assert!((&a, &r).try_cat::<1>().is_err());

    // Runtime lists.
    let x = a.clone().into_dyn();
    let y = c.clone().into_dyn();
    assert_eq!(DynTensor::cat(&[&x, &y], 0).unwrap().shape(), [6, 3]);
    assert_eq!(DynTensor::stack(&[&x, &x], -1).unwrap().shape(), [2, 3, 2]);
}
