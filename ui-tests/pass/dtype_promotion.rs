// Mixed element types promote by PyTorch's rules, computed by the compiler:
// dimensioned tensors by `promote_types`, rank-0 tensors and plain numbers
// only when their category is higher.
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let i = Tensor::<i32, shape![2, 3]>::ones();
    let f = Tensor::<f32, shape![3]>::ones();
    let r: Tensor<f32, shape![2, 3]> = &i + &f; // int32 + float32 = float32
    assert_eq!(r.dtype(), DType::F32);
    let r: Tensor<i64, shape![2, 3]> = &i * &Tensor::<i64, shape![3]>::ones();
    assert_eq!(r.to_vec(), vec![1; 6]);
    let r: Tensor<i16, shape![1]> = &tensor![1u8] - &tensor![1i8];
    assert_eq!(r.to_vec(), vec![0]);
    // A rank-0 tensor of the same category does not widen ...
    let r: Tensor<i32, shape![2, 3]> = &i + &Tensor::<i64, shape![]>::full(7);
    assert_eq!(r.to_vec(), vec![8; 6]);
    // ... one of a higher category does, to its own type ...
    let r: Tensor<f64, shape![2, 3]> = &i + &Tensor::<f64, shape![]>::full(0.5);
    assert_eq!(r.to_vec(), vec![1.5; 6]);
    // ... and a number of a higher category to the category's default.
    let r: Tensor<f32, shape![2, 3]> = &i * 2.5;
    assert_eq!(r.to_vec(), vec![2.5; 6]);
    let r: Tensor<u8, shape![1]> = &tensor![1u8] + 1000; // values wrap
    assert_eq!(r.to_vec(), vec![233]);
    let r: Tensor<Complex<f32>, shape![3]> = &f * Complex::new(0.0f64, 1.0);
    assert_eq!(r.to_vec()[0], Complex::new(0.0, 1.0));
    // Integer and bool division is true division, in float32.
    let r: Tensor<f32, shape![2, 3]> = &i / &i;
    assert_eq!(r.to_vec(), vec![1.0; 6]);
    // Comparisons compare in the common type.
    let m: Tensor<bool, shape![2, 3]> = i.lt(&f);
    assert_eq!(m.to_vec(), vec![false; 6]);
    assert_eq!(f.eq(1i64).to_vec(), vec![true; 3]);
    // bool + bool is logical or, bool * bool logical and.
    assert_eq!((&tensor![true, false] + &tensor![false, false]).to_vec(), vec![true, false]);
    // Numbers on the left promote the same way.
    let r: Tensor<f32, shape![3]> = 1i64 - &f;
    assert_eq!(r.to_vec(), vec![0.0; 3]);
}
