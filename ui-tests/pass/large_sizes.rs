// Static sizes are decimal, up to 10 digits (9999999999): a GPT-2 sized
// (50257, 768) weight broadcasts like any other shape, and the broadcast of
// 10-digit sizes is still computed by the compiler.
use core::marker::PhantomData;
use shaped::prelude::*;
use shaped::shape::{Broadcast, FixedShape};

fn main() {
    // (50257, 768) + (768,) = (50257, 768): a bias row added to every token.
    let w = Tensor::<f32, shape![50257, 768]>::zeros();
    let bias = Tensor::<f32, shape![768]>::ones();
    let r: Tensor<f32, shape![50257, 768]> = &w + &bias;
    assert_eq!(r.shape(), [50257, 768]);
    assert_eq!(r[[50256, 767]], 1.0);

    // (50257, 1) with (1, 768): both stretch.
    type Logits = Broadcast<shape![50257, 1], shape![1, 768]>;
    assert_eq!(<Logits as FixedShape>::SIZES, [50257, 768]);

    // Equal large sizes are recognised digit by digit, up to 10 digits.
    let _: PhantomData<shape![4294967296, 7]> =
        PhantomData::<Broadcast<shape![4294967296, 1], shape![4294967296, 7]>>;
    let _: PhantomData<shape![9999999999, 3]> =
        PhantomData::<Broadcast<shape![9999999999, 1], shape![3]>>;
    assert_eq!(
        <Broadcast<shape![1, 9999999999], shape![2, 1]> as FixedShape>::SIZES,
        [2, 9_999_999_999]
    );
}
