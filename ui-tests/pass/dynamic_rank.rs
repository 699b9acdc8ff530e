// Runtime rank (`DynTensor`) mixes with static and `Dyn` shapes: any
// dynamic-rank operand makes the result dynamic-rank, and every check the
// compiler cannot make happens at run time with PyTorch's texts.
use shaped::prelude::*;

fn main() {
    let d = DynTensor::<f32>::ones(&[2, 3]);
    let s = Tensor::<f32, shape![3]>::arange();
    let m = Tensor::<f32, shape![Dyn, 3]>::zeros_with(&[2, 3]);

    // Dynamic with static, mixed and dynamic: DynShape results.
    let ds: DynTensor<f32> = &d + &s;
    let sd: DynTensor<f32> = &s * &d;
    let md: DynTensor<f32> = &m - &d;
    let dd: DynTensor<f32> = &d / &d;
    assert_eq!(ds.shape(), [2, 3]);
    assert_eq!(sd.to_vec(), vec![0.0, 1.0, 2.0, 0.0, 1.0, 2.0]);
    assert_eq!(md.shape(), [2, 3]);
    assert_eq!(dd.to_vec(), vec![1.0; 6]);
    let cmp: Tensor<bool, DynShape> = d.lt(&s);
    assert_eq!(cmp.to_vec(), vec![false, false, true, false, false, true]);

    // In place, both ways: checked at run time.
    let mut acc = DynTensor::<f32>::zeros(&[2, 3]);
    acc += &s;
    acc += &m;
    let mut fixed = Tensor::<f32, shape![2, 3]>::zeros();
    fixed += &d;
    assert_eq!(fixed.to_vec(), vec![1.0; 6]);

    // The fallible forms report what the operators would panic with.
    let bad = DynTensor::<f32>::ones(&[4]);
    assert_eq!(
        d.try_add(&bad).unwrap_err().to_string(),
        "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"
    );
    assert!(fixed.try_add_assign(&bad).is_err());

    // Conversions are free and checked.
    let back: Tensor<f32, shape![2, 3]> = ds.into_static().unwrap();
    let again: DynTensor<f32> = back.into_dyn();
    assert!(again.into_static::<shape![3, 2]>().is_err());
}
