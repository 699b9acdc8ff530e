//! Tensors of no elements whose other sizes are huge, in an order whose
//! product, taken left to right, overflows before it reaches the 0:
//! `[huge, huge, 0]`, a permuted view of `[0, huge, huge]`. (Sizes are
//! checked in their own order when a tensor is made, as in PyTorch; PyTorch
//! also refuses such a permuted view, `shaped` makes it.) Nothing may
//! multiply these sizes in order: unary and binary operations, copies and
//! printing all see a tensor of no elements.

use shaped::prelude::*;

const HUGE: usize = 1 << 40;

/// Runs `f` on `[HUGE, HUGE, 0]` (stride 0 but for the last dimension).
fn with_zero_last(f: impl FnOnce(TensorView<'_, f32, DynShape>)) {
    let x = DynTensor::<f32>::zeros(&[0, 1, 1]);
    let e = x.expand(&[0, HUGE as isize, HUGE as isize]).unwrap();
    assert_eq!(e.shape(), [0, HUGE, HUGE]);
    let p = e.permute(&[1, 2, 0]).unwrap();
    assert_eq!(p.shape(), [HUGE, HUGE, 0]);
    f(p)
}

#[test]
fn element_count() {
    with_zero_last(|p| {
        assert_eq!(p.numel(), 0);
        assert!(p.is_contiguous());
        assert!(p.to_vec().is_empty());
        assert_eq!(
            format!("{p}"),
            format!("tensor([], size=({HUGE}, {HUGE}, 0))")
        );
    });
}

#[test]
fn unary_op() {
    with_zero_last(|p| {
        let n = -&p;
        assert_eq!(n.shape(), [HUGE, HUGE, 0]);
        assert_eq!(n.numel(), 0);
        assert!(n.to_vec().is_empty());
        let owned = p.to_owned();
        assert_eq!(owned.shape(), [HUGE, HUGE, 0]);
        assert!(owned.to_vec().is_empty());
    });
}

#[test]
fn binary_op() {
    with_zero_last(|p| {
        // A new output of these sizes is refused with PyTorch's text for
        // allocating it (`torch.empty` multiplies the sizes in order), not
        // with an arithmetic overflow.
        let refused = format!("Storage size calculation overflowed with sizes=[{HUGE}, {HUGE}, 0]");
        let sum = p.try_add(&p).map(|t| t.shape());
        assert_eq!(sum.map_err(|e| e.to_string()), Err(refused.clone()));
        let one = DynTensor::<f32>::zeros(&[1]);
        let product = p.try_mul(&one).map(|t| t.shape());
        assert_eq!(product.map_err(|e| e.to_string()), Err(refused.clone()));
        let less = p.try_lt(&one).map(|t| t.shape());
        assert_eq!(less.map_err(|e| e.to_string()), Err(refused));
        // In place there is no output to make: the kernel runs on them.
        let mut z = DynTensor::<f32>::zeros(&[0]);
        let mut x = z.view_mut_as(&[HUGE as isize, HUGE as isize, 0]).unwrap();
        x += &p;
        x.try_mul_assign(&one).unwrap();
        x.fill(1.0);
        assert_eq!(x.shape(), [HUGE, HUGE, 0]);
        assert!(x.to_vec().is_empty());
    });
}

#[test]
fn contiguous_and_copies() {
    with_zero_last(|p| {
        let c = p.contiguous();
        assert_eq!(c.shape(), [HUGE, HUGE, 0]);
        assert!(c.to_vec().is_empty());
        let c = p.try_contiguous_in(MemoryFormat::Contiguous).unwrap();
        assert_eq!(c.shape(), [HUGE, HUGE, 0]);
        let k = p.clone();
        assert_eq!(k.shape(), [HUGE, HUGE, 0]);
        assert_eq!(k.strides(), p.strides());
        assert!(k.to_vec().is_empty());
        let r = p.reshape(&[0]).unwrap();
        assert_eq!(r.shape(), [0]);
    });
    // Channels-last copies walk the dimensions in yet another order.
    let x = DynTensor::<f32>::zeros(&[0, 1, 1, 1]);
    let e = x.expand(&[0, HUGE as isize, HUGE as isize, 2]).unwrap();
    let e = e.permute(&[1, 2, 0, 3]).unwrap();
    assert_eq!(e.shape(), [HUGE, HUGE, 0, 2]);
    for format in [MemoryFormat::Contiguous, MemoryFormat::ChannelsLast] {
        let c = e.try_contiguous_in(format).unwrap();
        assert_eq!(c.shape(), [HUGE, HUGE, 0, 2]);
        assert!(c.to_vec().is_empty());
    }
    assert!(e.clone().to_vec().is_empty());
}
