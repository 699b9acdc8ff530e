// In place, a result may be stored in the left-hand side when its category
// is the same or lower (bool < integer < floating < complex); the operation
// computes in the common type and converts back, wrapping integers.
use num_complex::Complex;
use shaped::prelude::*;

fn main() {
    let mut f = Tensor::<f32, shape![3]>::ones();
    f *= &Tensor::<i64, shape![3]>::full(3); // float *= int
    assert_eq!(f.to_vec(), vec![3.0; 3]);
    f += &Tensor::<f64, shape![]>::full(0.5); // computes in float32, stays float32
    assert_eq!(f.to_vec(), vec![3.5; 3]);
    let mut i = Tensor::<i32, shape![2]>::ones();
    i *= &Tensor::<i64, shape![2]>::full(i64::MAX); // int32 *= int64: wraps
    assert_eq!(i.to_vec(), vec![-1, -1]);
    let mut u = tensor![1u8, 2, 3];
    u *= -2; // uint8 *= int: 254, 252, 250
    assert_eq!(u.to_vec(), vec![254, 252, 250]);
    u *= &Tensor::<i32, shape![3]>::full(2);
    assert_eq!(u.to_vec(), vec![252, 248, 244]);
    let mut z = Tensor::<Complex<f64>, shape![2]>::zeros();
    z += &Tensor::<f32, shape![2]>::ones(); // complex takes everything
    z -= 0.5;
    assert_eq!(z.to_vec(), vec![Complex::new(0.5, 0.0); 2]);
    let mut mask = Tensor::<bool, shape![2]>::zeros();
    mask += &tensor![true, false];
    assert_eq!(mask.to_vec(), vec![true, false]);
    let mut h = Tensor::<half::f16, shape![2]>::ones();
    h /= 4i64; // float16 /= int: computed in float16
    assert_eq!(h.to_vec(), vec![half::f16::from_f32(0.25); 2]);
}
