// The copying rearrangements on static shapes: every result's shape is
// computed by the compiler, written out here.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<i32, shape![2, 3]>::from_vec((0..6).collect()).unwrap();
    let _: Tensor<i32, shape![2, 3]> = x.flip::<axes![0, 1]>();
    let _: Tensor<i32, shape![2, 3]> = x.fliplr();
    let _: Tensor<i32, shape![2, 3]> = x.roll::<1>(-4);
    let r: Tensor<i32, shape![3, 2]> = x.rot90::<1, 0, 1>();
    assert_eq!(r.to_vec(), [2, 5, 1, 4, 0, 3]);
    let _: Tensor<i32, shape![2, 3]> = x.rot90::<-2, 1, 0>();
    let _: Tensor<i32, shape![3, 2]> = x.rot90::<3, 1, 0>();
    let p: Tensor<i32, shape![4, 6]> = x.pad::<shape![1, 2, 0, 2]>(-1);
    assert_eq!(p.to_vec()[..6], [-1, 0, 1, 2, -1, -1]);
    let _: Tensor<i32, shape![2, 7]> = x.try_pad_mode::<shape![2, 2]>(PadMode::Reflect, None).unwrap();
    let _: Tensor<i32, shape![4, 2, 9]> = x.repeat::<shape![4, 1, 3]>();
    let _: Tensor<i32, shape![4, 6]> = x.tile::<shape![2, 2]>();
    let _: Tensor<i32, shape![2, 6]> = x.tile::<shape![2]>();
    let _: Tensor<i32, shape![2, 9]> = x.repeat_interleave::<3, 1>();
    let t: Tensor<i32, shape![2, 3]> = x.triu(1);
    assert_eq!(t.to_vec(), [0, 1, 2, 0, 0, 5]);
    let e: Tensor<i32, shape![2, 3, 3]> = x.diag_embed();
    assert_eq!(e.to_vec()[..9], [0, 0, 0, 0, 1, 0, 0, 0, 2]);
    // Runtime sizes stay runtime sizes.
    let d = Tensor::<i32, shape![Dyn, 3]>::zeros_with(&[2, 3]);
    let _: Tensor<i32, shape![Dyn, 6]> = d.repeat::<shape![2, 2]>();
    let _: Tensor<i32, shape![Dyn, 3]> = d.pad::<shape![0, 0, 1, 1]>(0);
}
