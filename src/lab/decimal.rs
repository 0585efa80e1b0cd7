//! Numbers printed to a few decimals with integer arithmetic only, for the
//! page's coordinates, fractions and durations: `{:.3}` on an `f64` would pull
//! the float printer (about 10 KB) into the Wasm the first screen loads.

use std::fmt;

/// `value` printed rounded to `places` decimals (at most 6), as `{:.N}` would
/// print it for the page's values (finite, under a trillion): `-0.5` to one
/// place is `-0.5`, `0.0004` to three is `0.000`. Not a number prints `0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decimal(pub f64, pub u8);

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Decimal(value, places) = *self;
        let places = u32::from(places.min(6));
        let scale = 10_u64.pow(places);
        let value = if value.is_finite() { value } else { 0.0 };
        let scaled = (value.abs() * scale as f64).round() as u64;
        // A value that rounds to zero has no sign ("-0.0" is no number a page shows).
        let sign = if scaled != 0 && value.is_sign_negative() {
            "-"
        } else {
            ""
        };
        let (whole, fraction) = (scaled / scale, scaled % scale);
        if places == 0 {
            write!(f, "{sign}{whole}")
        } else {
            write!(
                f,
                "{sign}{whole}.{fraction:0width$}",
                width = places as usize
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Decimal;

    #[test]
    fn rounds_and_carries_into_the_whole_part() {
        let printed = |v: f64, places: u8| Decimal(v, places).to_string();
        assert_eq!(printed(9.96, 1), "10.0");
        assert_eq!(printed(0.04, 1), "0.0");
        assert_eq!(printed(12.0, 1), "12.0");
        assert_eq!(printed(187.95, 1), "188.0");
        assert_eq!(printed(70.66, 1), "70.7");
        assert_eq!(printed(0.0625, 3), "0.063");
        assert_eq!(printed(0.9999, 3), "1.000");
        assert_eq!(printed(1234.5, 0), "1235");
        assert_eq!(printed(0.05, 2), "0.05");
        assert_eq!(printed(-0.25, 2), "-0.25");
        assert_eq!(printed(-0.0004, 3), "0.000");
        assert_eq!(printed(f64::NAN, 2), "0.00");
    }

    // Property tests run natively only: proptest has no place in the browser.
    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn prints_what_the_float_printer_prints(
            whole in -100_000_000_i64..100_000_000,
            next_digit in proptest::sample::select(vec![0_i64, 1, 2, 3, 4, 6, 7, 8, 9]),
            places in 0_u8..=3,
        ) {
            // One digit past the places printed, never a 5: no value sits on a
            // rounding tie, where the float printer rounds the binary value
            // exactly and this rounds its product (a last-digit difference no
            // style on the page can show).
            let value = (whole * 10 + whole.signum() * next_digit) as f64
                / 10_f64.powi(i32::from(places) + 1);
            let expected = format!("{value:.prec$}", prec = places as usize);
            let zero = expected.trim_start_matches(['-', '0', '.']).is_empty();
            let expected = if zero { expected.trim_start_matches('-').to_string() } else { expected };
            proptest::prop_assert_eq!(Decimal(value, places).to_string(), expected);
        }
    }
}
