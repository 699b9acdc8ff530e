//! The compile-time rules of `shaped`, proved by compiling small programs.
//!
//! - `ui-tests/pass/*.rs` compile and run: every shape pair that broadcasts,
//!   every operator form, the in-place rule where it holds, `expand`, `Dyn`.
//! - `ui-tests/fail/*.rs` must not compile. Each documents one rule in its
//!   opening comment, and its `.stderr` file is the error a user sees.
//!
//! - `ui-tests/cuda/{pass,fail}/*.rs`: the device rules,
//!   with the `cuda` feature only.
//!
//! After a deliberate change of wording, regenerate the `.stderr` files with
//! `TRYBUILD=overwrite cargo test -p shaped-ui-tests` and read them.
//!
//! Two `TestCases`: trybuild checks compile-fail cases in one parallel cargo
//! run only when no pass case shares their `TestCases`; otherwise it builds
//! every case on its own, one after another. The two tests take turns (trybuild
//! locks its project directory).

#[test]
fn ui_pass() {
    let t = trybuild::TestCases::new();
    t.pass("pass/*.rs");
}

#[test]
fn ui_fail() {
    let t = trybuild::TestCases::new();
    t.compile_fail("fail/*.rs");
}

#[cfg(feature = "cuda")]
#[test]
fn ui_cuda_pass() {
    let t = trybuild::TestCases::new();
    t.pass("cuda/pass/*.rs");
}

#[cfg(feature = "cuda")]
#[test]
fn ui_cuda_fail() {
    let t = trybuild::TestCases::new();
    t.compile_fail("cuda/fail/*.rs");
}
