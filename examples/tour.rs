//! A guided tour of `shaped`: `cargo run --release --example tour`.
//!
//! It walks through the examples of PyTorch's broadcasting notes with their
//! results, computed here, and shows the compile errors `shaped` gives where
//! PyTorch would fail at run time.

use shaped::prelude::*;

fn section(title: &str) {
    println!("\n== {title}");
}

/// The first line of a compile error, as recorded in the UI tests.
fn compile_error(stderr: &str) -> &str {
    stderr.lines().next().unwrap_or_default()
}

fn main() {
    section("Shapes are types; the compiler broadcasts them");
    let x = Tensor::<f32, shape![5, 1, 4, 1]>::zeros();
    let y: Tensor<f32, shape![3, 1, 1]> = Tensor::ones();
    let z = &x + &y; // Tensor<f32, shape![5, 3, 4, 1]>, computed by trait resolution
    println!("(5, 1, 4, 1) + (3, 1, 1) -> {:?}", z.shape());
    let r = &Tensor::<f32, shape![1]>::zeros() + &Tensor::<f32, shape![3, 1, 7]>::zeros();
    println!("(1,) + (3, 1, 7)         -> {:?}", r.shape());
    let e = &Tensor::<f32, shape![1, 0]>::zeros() + &Tensor::<f32, shape![3, 1]>::zeros();
    println!(
        "(1, 0) + (3, 1)          -> {:?}  (1 against 0 gives 0)",
        e.shape()
    );
    let s = &Tensor::<f32, shape![]>::full(2.0) + &Tensor::<f32, shape![2, 3]>::ones();
    println!(
        "() + (2, 3)              -> {:?}  (a scalar broadcasts with everything)",
        s.shape()
    );
    println!("\n(5, 2, 4, 1) + (3, 1, 1) does not compile:");
    println!(
        "  {}",
        compile_error(include_str!(
            "../ui-tests/fail/broadcast_spec_5x2x4x1_vs_3x1x1.stderr"
        ))
    );

    section("Example 1: a row vector repeats along the rows");
    let a = Tensor::<i64, shape![3, 3]>::from_vec((0..9).collect()).expect("9 elements");
    let b = Tensor::<i64, shape![3]>::arange();
    println!("A =\n{a}\nB = {b}\nA + B =\n{}", &a + &b);
    println!("B.expand_as(A), a stride-0 view sharing B's storage:");
    let bx = b.expand_as(&a);
    println!(
        "{bx}\n  strides {:?}, shares storage with B: {}",
        bx.strides(),
        bx.shares_storage_with(&b)
    );
    let column = Tensor::<i64, shape![3, 1]>::from_vec((0..3).collect()).expect("3 elements");
    println!(
        "B as a column (3, 1), expanded to A's shape:\n{}",
        column.expand_as(&a)
    );

    section("Example 2: both operands stretch");
    let col = Tensor::<i64, shape![3, 1]>::from_vec((0..3).collect()).expect("3 elements");
    let row = Tensor::<i64, shape![1, 4]>::from_vec((0..4).collect()).expect("4 elements");
    println!("{col}\n+\n{row}\n=\n{}", &col + &row);

    section("Example 3: (3, 2) + (1, 5) is caught by the compiler");
    println!(
        "  {}",
        compile_error(include_str!(
            "../ui-tests/fail/broadcast_spec_3x2_vs_1x5.stderr"
        ))
    );

    section("Comparisons broadcast a scalar");
    let v = tensor![1i64, 2, 3, 4];
    println!("{v} == 1 -> {}", v.eq(1));

    section("In-place operations may not grow their output");
    let mut acc = Tensor::<f32, shape![5, 3, 4, 1]>::zeros();
    acc += &y;
    println!(
        "(5, 3, 4, 1) += (3, 1, 1): fine, shape stays {:?}",
        acc.shape()
    );
    println!("(1, 3, 1) += (3, 1, 7) does not compile:");
    println!(
        "  {}",
        compile_error(include_str!("../ui-tests/fail/in_place_grow_add.stderr"))
    );

    section("No reinterpretation by element count");
    let ones41 = Tensor::<f32, shape![4, 1]>::ones();
    let ones4 = Tensor::<f32, shape![4]>::ones();
    println!("ones(4, 1) + ones(4) -> {:?}", (&ones41 + &ones4).shape());

    section("Sizes known only at run time");
    let n = 2 + std::env::args().count(); // a size the compiler cannot know
    let rows = Tensor::<f32, shape![Dyn, 3]>::ones_with(&[n, 3]);
    let sum = &rows + &Tensor::<f32, shape![3]>::arange();
    println!("(Dyn = {n}, 3) + (3,) -> {:?}\n{sum}", sum.shape());
    let a = DynTensor::<f32>::zeros(&[5, 2, 4, 1]); // rank known at run time too
    let b = DynTensor::<f32>::zeros(&[3, 1, 1]);
    match a.try_add(&b) {
        Ok(c) => println!("{:?}", c.shape()),
        Err(e) => println!("DynTensor (5, 2, 4, 1) + (3, 1, 1), caught at run time:\n  {e}"),
    }
    let mut x = DynTensor::<f32>::zeros(&[1, 3, 1]);
    if let Err(e) = x.try_add_assign(&DynTensor::<f32>::ones(&[3, 1, 7])) {
        println!("in place (1, 3, 1) += (3, 1, 7), caught, x unchanged:\n  {e}");
    }
    let s: Tensor<f32, shape![5, 2, 4, 1]> = a.into_static().expect("the sizes match");
    println!("checked conversion back to a static shape: {:?}", s.shape());

    views();
    dtypes();
    operations();
    files();
}

/// Views share storage and move no data; on static shapes the compiler
/// computes every result shape.
fn views() {
    section("Views share storage");
    let mut t = Tensor::<f32, shape![4, 4]>::zeros();
    {
        let v = t
            .view::<shape![2, 8]>()
            .expect("a contiguous tensor can be viewed");
        println!(
            "t.view::<shape![2, 8]>(): shape {:?}, strides {:?}, shares t's storage: {}",
            v.shape(),
            v.strides(),
            v.shares_storage_with(&t)
        );
    }
    let mut b = t.view_mut_as::<shape![2, 8]>().expect("contiguous");
    b[[0, 0]] = 3.5; // PyTorch: b = t.view(2, 8); b[0, 0] = 3.5
    t.slice_mut(s![1.., 1..;2]).fill(1.0); // a writable view: writes land in t
    println!("after writing through views of t:\n{t}");
    println!(
        "t.view::<shape![3, 5]>() does not compile:\n  {}",
        compile_error(include_str!("../ui-tests/fail/view_element_count.stderr"))
    );

    section("A transposed view, made contiguous");
    let m = Tensor::<i64, shape![2, 3]>::from_vec((0..6).collect()).expect("6 elements");
    let mt = m.t();
    println!(
        "m.t(): shape {:?}, strides {:?}, contiguous: {}",
        mt.shape(),
        mt.strides(),
        mt.is_contiguous()
    );
    let c = mt.contiguous();
    println!(
        "m.t().contiguous(): strides {:?}, copied: {}, values {:?}",
        c.strides(),
        !c.is_borrowed(),
        c.to_vec()
    );
    println!(
        "m.contiguous() copies nothing: {}",
        m.contiguous().is_borrowed()
    );

    section("Slicing, narrowing, selecting: shapes computed at compile time");
    let x = Tensor::<i64, shape![4, 6, 5]>::from_vec((0..120).collect()).expect("120 elements");
    let a: TensorView<'_, i64, shape![2, 2, 5]> = x.slice(s![1..3, ..;4]);
    let b: TensorView<'_, i64, shape![6, 1]> = x.slice(s![-1, .., 2, NewAxis]);
    let n: TensorView<'_, i64, shape![4, 2, 5]> = x.narrow::<1, 2>(3);
    let p: TensorView<'_, i64, shape![5, 4, 6]> = x.permute::<axes![2, 0, 1]>();
    println!(
        "x[1:3, ::4]        -> {:?} strides {:?}",
        a.shape(),
        a.strides()
    );
    println!(
        "x[-1, :, 2, None]  -> {:?} values {:?}",
        b.shape(),
        b.to_vec()
    );
    println!(
        "x.narrow(1, 3, 2)  -> {:?} offset {}",
        n.shape(),
        n.storage_offset()
    );
    println!(
        "x.permute(2, 0, 1) -> {:?} strides {:?}",
        p.shape(),
        p.strides()
    );
    println!(
        "x.slice(s![.., 4]) on shape (3, 4) does not compile:\n  {}",
        compile_error(include_str!(
            "../ui-tests/fail/slice_index_out_of_bounds.stderr"
        ))
    );

    section("Memory formats: channels-last strides");
    let img = Tensor::<f32, shape![2, 3, 4, 5]>::zeros();
    let nhwc = img.contiguous_in(MemoryFormat::ChannelsLast);
    println!(
        "(N, C, H, W) = (2, 3, 4, 5): contiguous strides {:?}, channels-last strides {:?}",
        img.strides(),
        nhwc.strides()
    );
    println!(
        "channels-last copy: is_contiguous() {}, is_contiguous_in(ChannelsLast) {}",
        nhwc.is_contiguous(),
        nhwc.is_contiguous_in(MemoryFormat::ChannelsLast)
    );
    let kept = nhwc.clone(); // preserve_format: keeps the channels-last strides
    println!("clone() preserves them: {:?}", kept.strides());
}

/// Mixed element types promote by PyTorch's rules, at compile time for
/// typed tensors and at run time for `AnyTensor`.
fn dtypes() {
    use half::{bf16, f16};
    use shaped::dtype::Scalar;

    section("Type promotion: an excerpt of the table");
    let names = [
        DType::U8,
        DType::I8,
        DType::I32,
        DType::F16,
        DType::BF16,
        DType::F32,
    ];
    print!("{:>9}", "");
    for b in names {
        print!("{:>9}", b.name());
    }
    println!();
    for a in names {
        print!("{:>9}", a.name());
        for b in names {
            print!("{:>9}", DType::promote(a, b).name());
        }
        println!();
    }

    section("The compiler computes the result type");
    let counts = Tensor::<i32, shape![3]>::from_vec(vec![1, 2, 3]).expect("3 elements");
    let weights = Tensor::<f32, shape![3]>::full(0.5);
    let scaled: Tensor<f32, shape![3]> = &counts * &weights;
    println!(
        "int32 * float32 tensors        -> {} {:?}",
        scaled.dtype(),
        scaled.to_vec()
    );
    let kept: Tensor<i32, shape![3]> = &counts + &Tensor::<i64, shape![]>::full(10);
    println!(
        "int32 + int64 rank-0 tensor    -> {} (a rank-0 tensor does not widen its category)",
        kept.dtype()
    );
    let by_number: Tensor<f32, shape![3]> = &counts * 2.5;
    println!(
        "int32 * 2.5                    -> {} (a float number: the default float32)",
        by_number.dtype()
    );
    let bytes: Tensor<u8, shape![2]> = &Tensor::<u8, shape![2]>::full(200) + 100;
    println!(
        "uint8 + 100                    -> {} {:?} (values are never inspected: it wraps)",
        bytes.dtype(),
        bytes.to_vec()
    );
    let halves: Tensor<f32, shape![1]> =
        &Tensor::<f16, shape![1]>::ones() + &Tensor::<bf16, shape![1]>::ones();
    println!("float16 + bfloat16             -> {}", halves.dtype());
    let quotient: Tensor<f32, shape![3]> = &counts / &Tensor::<i32, shape![3]>::full(2);
    println!(
        "int32 / int32                  -> {} (true division)",
        quotient.dtype()
    );
    println!(
        "x.cast::<u8>() of [-1.5, 300.7] -> {:?}",
        tensor![-1.5f32, 300.7].cast::<u8>().to_vec()
    );

    section("In place, the result must fit the output");
    let mut f = Tensor::<f32, shape![3]>::ones();
    f *= &counts;
    println!("float32 *= int32: fine, {:?}", f.to_vec());
    println!(
        "int32 *= float32 does not compile:\n  {}",
        compile_error(include_str!(
            "../ui-tests/fail/dtype_in_place_float_into_int.stderr"
        ))
    );
    println!(
        "  (the product is float32, and an integer tensor cannot hold it: PyTorch raises the same words at run time)"
    );

    section("Runtime dtypes: AnyTensor applies the same rules when it runs");
    let a = AnyTensor::from(DynTensor::<i32>::from_vec(vec![1, 2], &[2]).expect("2 elements"));
    let sum = a.try_add(Scalar::Float(0.5)).expect("promotes");
    println!(
        "AnyTensor int32 + 0.5 -> {} {:?}",
        sum.dtype(),
        sum.to_scalars()
    );
    let mut ints = a.clone();
    match ints.try_mul_assign(Scalar::Float(0.5)) {
        Ok(()) => println!("unexpected: {ints}"),
        Err(e) => println!("AnyTensor int32 *= 0.5 -> Err: {e}"),
    }
}

/// Operations for numerics: the compiler checks matmul's inner sizes,
/// removes reduced axes from the type and adds concatenated sizes.
fn operations() {
    section("Matrix products: the compiler computes the shape, batches broadcast");
    let a = Tensor::<f32, shape![2, 3]>::from_vec((1..=6).map(|i| i as f32).collect())
        .expect("6 elements");
    let batch = Tensor::<f32, shape![4, 3, 5]>::ones();
    let c = a.matmul(&batch); // Tensor<f32, shape![4, 2, 5]>
    println!(
        "(2, 3) @ (4, 3, 5) -> {:?}, c[0, 1, 0] = {}",
        c.shape(),
        c[[0, 1, 0]]
    );
    let v = Tensor::<f32, shape![3]>::ones();
    let dot: Tensor<f32, shape![]> = v.matmul(&v);
    let mv: Tensor<f32, shape![2]> = a.matmul(&v);
    println!("v @ v = {} (rank 0); a @ v = {:?}", dot[[]], mv.to_vec());
    let w = Tensor::<f32, shape![4, 3]>::ones();
    println!(
        "a @ w.t() -> {:?} (the transposed view is read in place)",
        a.matmul(&w.t()).shape()
    );
    println!(
        "(2, 3) @ (4, 5) does not compile:\n  {}",
        compile_error(include_str!(
            "../ui-tests/fail/matmul_inner_mismatch.stderr"
        ))
    );
    let x = DynTensor::<f32>::ones(&[2, 3]);
    if let Err(e) = x.mm(&DynTensor::ones(&[4, 5])) {
        println!("DynTensor (2, 3) mm (4, 5), caught at run time:\n  {e}");
    }

    section("Reductions: a reduced axis leaves the type");
    let x =
        Tensor::<f32, shape![2, 3]>::from_vec(vec![1., 5., 3., 4., 2., 6.]).expect("6 elements");
    let rows: Tensor<f32, shape![2]> = x.sum_dim::<1>();
    let kept: Tensor<f32, shape![2, 1]> = x.sum_keepdim::<1>();
    let cols: Tensor<f32, shape![3]> = x.mean_dims::<axes![0]>();
    println!(
        "x = {:?}\nsum over axis 1: {:?}; kept as size 1: {:?}; mean over axis 0: {:?}",
        x.to_vec(),
        rows.to_vec(),
        kept.shape(),
        cols.to_vec()
    );
    let (values, indices) = x.max_dim::<1>();
    println!(
        "max over axis 1: values {:?}, indices {:?} (int64)",
        values.to_vec(),
        indices.to_vec()
    );
    let counts: Tensor<i64, shape![3]> = tensor![[1u8, 2, 3], [4, 5, 6]].sum_dim::<0>();
    println!(
        "uint8 sums accumulate in int64, as PyTorch's: {:?}",
        counts.to_vec()
    );
    println!(
        "x.sum_dim::<2>() does not compile:\n  {}",
        compile_error(include_str!(
            "../ui-tests/fail/reduce_axis_out_of_range.stderr"
        ))
    );

    section("cat and stack: the compiler adds the sizes");
    let right = Tensor::<f32, shape![2, 5]>::ones();
    let joined: Tensor<f32, shape![2, 8]> = (&x, &right).cat::<1>();
    let stacked: Tensor<f32, shape![2, 2, 3]> = [&x, &x].stack::<0>();
    println!(
        "(2, 3) cat (2, 5) along 1 -> {:?}; stack of two (2, 3) -> {:?}",
        joined.shape(),
        stacked.shape()
    );
    println!(
        "(2, 3) cat (3, 5) along 1 does not compile:\n  {}",
        compile_error(include_str!("../ui-tests/fail/cat_size_mismatch.stderr"))
    );

    section("Indexing by tensors: gather and index_select, shapes computed");
    let scores = Tensor::<f32, shape![3, 4]>::from_vec(vec![
        0.1, 0.7, 0.2, 0.0, 0.5, 0.1, 0.1, 0.3, 0.0, 0.2, 0.2, 0.6,
    ])
    .expect("12 elements");
    let labels = Tensor::<i64, shape![3, 1]>::from_vec(vec![1, 0, 3]).expect("3 labels");
    let picked: Tensor<f32, shape![3, 1]> = scores.gather::<1>(&labels);
    println!(
        "each row's score at its label (gather along 1): {:?}",
        picked.to_vec()
    );
    let rows = Tensor::<i32, shape![2]>::from_vec(vec![2, 0]).expect("2 rows");
    let chosen: Tensor<f32, shape![2, 4]> = scores.index_select::<0>(&rows);
    println!(
        "rows 2 and 0 (index_select along 0):
{chosen}"
    );
    println!(
        "a (3, 5) index cannot gather along 0 of a (3, 4):
  {}",
        compile_error(include_str!(
            "../ui-tests/fail/gather_index_too_large.stderr"
        ))
    );

    let columns = Tensor::<i64, shape![2, 2]>::from_vec(vec![0, 3, 1, 2]).expect("4 columns");
    let grid: Tensor<f32, shape![3, 2, 2]> = scores.index((.., &columns)).expect("in range");
    println!(
        "x[:, columns] with a (2, 2) index: shape {:?}",
        grid.shape()
    );
    println!(
        "index tensors of sizes 2 and 3 cannot broadcast together:
  {}",
        compile_error(include_str!(
            "../ui-tests/fail/advanced_index_broadcast_mismatch.stderr"
        ))
    );

    section("Masks: fill, select and scatter where a condition holds");
    let below = scores.lt(0.15);
    let floored: Tensor<f32, shape![3, 4]> = scores.masked_fill(&below, 0.15);
    println!("scores below 0.15 raised to it:\n{floored}");
    let small: Tensor<f32, shape![Dyn]> = scores.masked_select(&below);
    let at: Tensor<i64, shape![Dyn, 2]> = below.nonzero();
    println!(
        "the {} scores below 0.15: {:?}, at rows and columns {:?}",
        small.shape()[0],
        small.to_vec(),
        at.to_vec()
    );
    let mut totals = Tensor::<f32, shape![3, 4]>::zeros();
    totals.scatter_add_::<1>(&labels, &picked);
    println!("each row's picked score added back at its label (scatter_add_):\n{totals}");

    section("Numerics: softmax, logsumexp, variance and norms, axes in the type");
    let probabilities: Tensor<f32, shape![3, 4]> = scores.softmax::<1>();
    println!("softmax along each row:\n{probabilities}");
    let lse: Tensor<f32, shape![3]> = scores.logsumexp_dim::<1>();
    let spread: Tensor<f32, shape![4]> = scores.var_dim::<0>(1);
    let lengths: Tensor<f32, shape![3]> = scores.vector_norm_dim::<1>(2.0);
    println!(
        "logsumexp of each row {:?}, variance of each column {:?}, 2-norm of each row {:?}",
        lse.to_vec(),
        spread.to_vec(),
        lengths.to_vec()
    );
    println!(
        "softmax of an integer tensor (convert first, or softmax_in::<f32, 1>()):
  {}",
        compile_error(include_str!(
            "../ui-tests/fail/softmax_integer_tensor.stderr"
        ))
    );

    section("Scans, sorting and order statistics: K and the axis in the type");
    let running: Tensor<f32, shape![3, 4]> = scores.cumsum::<1>();
    println!("running sums along each row:\n{running}");
    let (best, at) = scores.topk::<2, 1>();
    let _: &Tensor<f32, shape![3, 2]> = &best;
    println!(
        "the 2 largest of each row {:?} at {:?}",
        best.to_vec(),
        at.to_vec()
    );
    let (middle, _) = scores.median_dim::<1>();
    let upper: Tensor<f32, shape![3]> = scores.quantile_dim::<1>(0.75, Interpolation::Linear);
    println!(
        "median of each row {:?}, 0.75-quantile {:?}",
        middle.to_vec(),
        upper.to_vec()
    );
    println!(
        "topk::<K, DIM> with K above the size:
  {}",
        compile_error(include_str!("../ui-tests/fail/topk_k_too_large.stderr"))
    );

    section("Elementwise math, with PyTorch's result types");
    let ints = Tensor::<i64, shape![3]>::from_vec(vec![1, 4, 9]).expect("3 elements");
    let roots: Tensor<f32, shape![3]> = ints.sqrt();
    println!("sqrt of int64 gives float32: {:?}", roots.to_vec());
    let gated = shaped::where_(
        &joined.gt(1.5),
        &joined.sigmoid(),
        &Tensor::<f32, shape![]>::full(0.0),
    );
    println!(
        "where(x > 1.5, sigmoid(x), 0), clamped to 0.9:\n{}",
        gated.clamp(0.0, 0.9)
    );
}

fn files() {
    section("Files: a safetensors file and a .npy written by Python, typed");
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    // Written by PyTorch (scripts/fixtures/safetensors_files.py); the
    // dtype and the shape are checked against the type.
    #[cfg(feature = "safetensors")]
    {
        let model = format!("{fixtures}/safetensors/torch.safetensors");
        let w = shaped::io::safetensors::load::<Tensor<f32, shape![2, 3]>>(&model, "weight.f32")
            .expect("the fixture holds a float32 (2, 3)");
        println!("weight.f32 from PyTorch:\n{w}");
        let wrong = shaped::io::safetensors::load::<Tensor<f32, shape![3, 2]>>(&model, "i16");
        println!("loaded as the wrong type: {}", wrong.unwrap_err());
    }
    #[cfg(not(feature = "safetensors"))]
    println!("(safetensors files: run the tour with `--features safetensors`)");
    // Written by NumPy in Fortran order: a column-major tensor, no copy.
    let npy = format!("{fixtures}/npy/float32_fortran.npy");
    let f: Tensor<f32, shape![2, 3]> = shaped::io::npy::load_npy(&npy).expect("a float32 (2, 3)");
    println!(
        "float32_fortran.npy from NumPy: strides {:?}, rows {:?}",
        f.strides(),
        f.to_vec()
    );
}
