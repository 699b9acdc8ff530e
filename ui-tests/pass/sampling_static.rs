// The samplers on static shapes: `normal` with two tensors has the
// broadcast shape, the others their input's; whole-number fills take every
// real dtype, `uniform_` and `normal_` complex ones too.
use num_complex::Complex;
use shaped::prelude::*;
use shaped::random::Generator;

fn main() {
    let mut g = Generator::new(0);
    let mean = Tensor::<f64, shape![3, 1]>::zeros();
    let std = Tensor::<f32, shape![4]>::ones();
    let x: Tensor<f64, shape![3, 4]> = Tensor::normal_tensor_tensor(&mean, &std, &mut g).unwrap();
    assert!(x.iter().all(|v| v.is_finite()));
    let p = Tensor::<f32, shape![2, 2]>::full(1.0);
    let b: Tensor<f32, shape![2, 2]> = p.bernoulli(&mut g).unwrap();
    assert_eq!(b.to_vec(), vec![1.0; 4]);
    let k: Tensor<f32, shape![2, 2]> = p.poisson(&mut g).unwrap();
    assert!(k.iter().all(|v| v.fract() == 0.0));
    let mut flags = Tensor::<bool, shape![5]>::zeros();
    flags.bernoulli_(1.0, &mut g).unwrap();
    assert!(flags.iter().all(|&f| f));
    let mut bytes = Tensor::<u8, shape![4]>::zeros();
    bytes.random_to_(3, &mut g).unwrap();
    bytes.geometric_(0.5, &mut g).unwrap();
    let mut z = Tensor::<Complex<f64>, shape![2]>::zeros();
    z.normal_(1.0, 0.0, &mut g).unwrap();
    assert_eq!(z.to_vec(), vec![Complex::new(1.0, 1.0); 2]);
    let _: Tensor<Complex<f32>, shape![3]> = Tensor::randn(&mut g);
}
