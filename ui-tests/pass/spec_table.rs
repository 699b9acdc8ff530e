// Every row of the broadcasting table whose shapes
// broadcast. Each block is one row; the annotated result type is what the
// compiler computes from the two operand shapes.
use shaped::prelude::*;

fn main() {
    // Row (5,7,3) + (5,7,3) = (5,7,3): equal shapes broadcast trivially.
    {
        let a = Tensor::<f32, shape![5, 7, 3]>::ones();
        let b = Tensor::<f32, shape![5, 7, 3]>::ones();
        let r: Tensor<f32, shape![5, 7, 3]> = &a + &b;
        assert_eq!(r.shape(), [5, 7, 3]);
        assert_eq!(r.to_vec(), vec![2.0; 5 * 7 * 3]);
    }

    // Row (5,3,4,1) + (3,1,1) = (5,3,4,1): b is padded to (1,3,1,1); every
    // pair is equal or has a 1.
    {
        let a = Tensor::<f32, shape![5, 3, 4, 1]>::zeros();
        let b = Tensor::<f32, shape![3, 1, 1]>::ones();
        let r: Tensor<f32, shape![5, 3, 4, 1]> = &a + &b;
        assert_eq!(r.shape(), [5, 3, 4, 1]);
    }

    // Row (5,1,4,1) + (3,1,1) = (5,3,4,1): a's 1 at dimension 1 stretches to 3.
    {
        let a = Tensor::<f32, shape![5, 1, 4, 1]>::zeros();
        let b = Tensor::<f32, shape![3, 1, 1]>::ones();
        let r: Tensor<f32, shape![5, 3, 4, 1]> = &a + &b;
        assert_eq!(r.shape(), [5, 3, 4, 1]);
    }

    // Row (1,) + (3,1,7) = (3,1,7): a lone 1 stretches to anything.
    {
        let a = Tensor::<f32, shape![1]>::ones();
        let b = Tensor::<f32, shape![3, 1, 7]>::zeros();
        let r: Tensor<f32, shape![3, 1, 7]> = &a + &b;
        assert_eq!(r.shape(), [3, 1, 7]);
    }

    // Row (3,3) + (3,) = (3,3): b repeats along the rows.
    {
        let a = Tensor::<i64, shape![3, 3]>::zeros();
        let b = Tensor::<i64, shape![3]>::arange();
        let r: Tensor<i64, shape![3, 3]> = &a + &b;
        assert_eq!(r.shape(), [3, 3]);
        assert_eq!(r.to_vec(), vec![0, 1, 2, 0, 1, 2, 0, 1, 2]);
    }

    // Row (3,1) + (1,4) = (3,4): both operands stretch.
    {
        let a = Tensor::<i64, shape![3, 1]>::from_vec(vec![0, 10, 20]).unwrap();
        let b = Tensor::<i64, shape![1, 4]>::from_vec(vec![0, 1, 2, 3]).unwrap();
        let r: Tensor<i64, shape![3, 4]> = &a + &b;
        assert_eq!(r.shape(), [3, 4]);
        assert_eq!(r.to_vec(), vec![0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23]);
    }

    // Row (2,3,4) + (4,) = (2,3,4): the shorter shape gets leading 1s.
    {
        let a = Tensor::<f32, shape![2, 3, 4]>::zeros();
        let b = Tensor::<f32, shape![4]>::ones();
        let r: Tensor<f32, shape![2, 3, 4]> = &a + &b;
        assert_eq!(r.shape(), [2, 3, 4]);
    }

    // Backwards compatibility: (4,1) + (4,) is (4,4), never a 1-d sum of two
    // tensors that happen to have 4 elements each.
    {
        let a = Tensor::<f32, shape![4, 1]>::ones();
        let b = Tensor::<f32, shape![4]>::ones();
        let r: Tensor<f32, shape![4, 4]> = &a + &b;
        assert_eq!(r.shape(), [4, 4]);
    }
}
