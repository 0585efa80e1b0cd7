//! The order in which every view lists accounts and keys: as a person reads
//! them, numbers inside names counted as numbers.

use std::cmp::Ordering;

/// Orders text as a person reads it: runs of ASCII digits compare as numbers
/// (`burst-2` < `burst-10`), everything else character by character. Texts that
/// differ only in leading zeros fall back to plain order, so the order is total.
pub fn natural_cmp<'a>(a: &'a str, b: &'a str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(p), Some(q)) if p.is_ascii_digit() && q.is_ascii_digit() => {
                let run = |s: &[u8]| s.iter().take_while(|c| c.is_ascii_digit()).count();
                let (m, n) = (run(x), run(y));
                // Borrowed, not copied: a stress run sorts thousands of keys.
                let trim = |d: &'a [u8]| -> &'a [u8] {
                    let zeros = d.iter().take_while(|&&c| c == b'0').count();
                    &d[zeros..]
                };
                let (p, q) = (trim(&x[..m]), trim(&y[..n]));
                let order = p.len().cmp(&q.len()).then_with(|| p.cmp(q));
                if order != Ordering::Equal {
                    return order;
                }
                (x, y) = (&x[m..], &y[n..]);
            }
            (Some(p), Some(q)) => {
                if p != q {
                    // Byte order within UTF-8 is code point order.
                    return p.cmp(q);
                }
                (x, y) = (&x[1..], &y[1..]);
            }
        }
    }
}

/// The order of operations (and their receipts) in every view: by account,
/// then by key.
pub fn operation_order(a: (&str, &str), b: (&str, &str)) -> Ordering {
    natural_cmp(a.0, b.0).then_with(|| natural_cmp(a.1, b.1))
}
