//! The per-rank impls of the range rules of `shaped::shape::split`:
//! `FlattenRange<START, END>` (dimensions `START..=END` merged into one) and
//! `UnflattenAt<DIM, L>` (dimension `DIM` replaced by the dimensions of the
//! tuple `L`), for tuple shapes of rank 0 to 8. Each (rank, position, length)
//! needs its own impl; the cases that break a rule get an impl that requires
//! the trait carrying that rule's error message, so every misuse is reported
//! by one precise message.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The most dimensions a static shape may have.
const MAX_STATIC_RANK: usize = 8;

/// The impls of `FlattenRange` and `UnflattenAt`.
pub(crate) fn tuple_range_impls() -> TokenStream {
    let mut out = flattened_impls();
    out.extend(unflattened_impls());
    out
}

/// `T0, T1, ..` for a tuple of rank `n`.
fn params(prefix: &str, n: usize) -> Vec<syn::Ident> {
    (0..n).map(|k| format_ident!("{prefix}{k}")).collect()
}

/// The digits of a small number, as `Dec` arguments.
fn dec(n: usize) -> TokenStream {
    let digits: Vec<u8> = n.to_string().bytes().map(|b| b - b'0').collect();
    quote!(crate::shape::Dec<#(#digits),*>)
}

fn flattened_impls() -> TokenStream {
    // A scalar flattens to one dimension of size 1, as in PyTorch.
    let mut out = quote! {
        impl FlattenRange<0, 0> for () { type Output = (crate::shape::Dec<1>,); }
    };
    for n in 1..=MAX_STATIC_RANK {
        let ts = params("T", n);
        for start in 0..n {
            for end in 0..n {
                let impl_ = if start > end {
                    quote! {
                        impl<#(#ts),*> FlattenRange<#start, #end> for (#(#ts,)*)
                        where
                            T0: FlattenStartAfterEnd<#start, #end>,
                        {
                            type Output = (#(#ts,)*);
                        }
                    }
                } else if start == end {
                    quote! {
                        impl<#(#ts),*> FlattenRange<#start, #end> for (#(#ts,)*) {
                            type Output = (#(#ts,)*);
                        }
                    }
                } else {
                    let (before, merged, after) = (&ts[..start], &ts[start..=end], &ts[end + 1..]);
                    quote! {
                        impl<#(#ts),*> FlattenRange<#start, #end> for (#(#ts,)*)
                        where
                            (#(#merged,)*): MergedDim,
                        {
                            type Output = (
                                #(#before,)*
                                <(#(#merged,)*) as MergedDim>::Output,
                                #(#after,)*
                            );
                        }
                    }
                };
                out.extend(impl_);
            }
        }
    }
    out
}

fn unflattened_impls() -> TokenStream {
    let mut out = TokenStream::new();
    for n in 1..=MAX_STATIC_RANK {
        let ts = params("T", n);
        for dim in 0..n {
            let td = &ts[dim];
            let dim_dec = dec(dim);
            for k in 0..=MAX_STATIC_RANK {
                let us = params("U", k);
                let rank = n - 1 + k;
                let (before, after) = (&ts[..dim], &ts[dim + 1..]);
                let impl_ = if k == 0 {
                    quote! {
                        impl<#(#ts),*> UnflattenAt<#dim, ()> for (#(#ts,)*)
                        where
                            #td: UnflattenEmptySizes,
                        {
                            type Output = (#(#ts,)*);
                        }
                    }
                } else if rank > MAX_STATIC_RANK {
                    quote! {
                        impl<#(#ts,)* #(#us),*> UnflattenAt<#dim, (#(#us,)*)> for (#(#ts,)*)
                        where
                            #td: UnflattenTooManyDims<#rank>,
                        {
                            type Output = (#(#ts,)*);
                        }
                    }
                } else {
                    quote! {
                        impl<#(#ts,)* #(#us),*> UnflattenAt<#dim, (#(#us,)*)> for (#(#ts,)*)
                        where
                            #td: UnflattenCount<#dim_dec, (#(#us,)*)>,
                        {
                            type Output = (#(#before,)* #(#us,)* #(#after,)*);
                        }
                    }
                };
                out.extend(impl_);
            }
        }
    }
    out
}
