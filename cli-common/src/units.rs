//! Sizes and counts as people write and read them: `2G` in an option, `1.45 GiB` and `518,918,400` in a
//! message.

/// The largest memory size accepted: 128 TiB is all a 64-bit Linux process can address with 4-level page
/// tables, so a bigger limit can only be a typo.
pub const MAX_SIZE: u64 = 128 << 40;

/// A memory size that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// Not a number with a known suffix, or less than one byte.
    #[error("'{0}' is not a memory size (examples: 2G, 1500M, 512MiB, 2147483648)")]
    Bad(String),
    /// More than [`MAX_SIZE`].
    #[error("memory size '{0}' is more than {max}, the most a process can address", max = human_bytes(MAX_SIZE))]
    TooLarge(String),
}

/// Parses a byte count with an optional binary suffix: `2G`, `1500M`, `512MiB`, `64k`, `2147483648`; from one
/// byte to [`MAX_SIZE`].
pub fn parse_size(text: &str) -> Result<u64, SizeError> {
    let bad = || SizeError::Bad(text.to_string());
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let shift = match unit.trim().to_ascii_lowercase().trim_end_matches("ib").trim_end_matches('b') {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => return Err(bad()),
    };
    let value: f64 = num.parse().map_err(|_| bad())?;
    let bytes = value * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes < 1.0 {
        return Err(bad());
    }
    if bytes > MAX_SIZE as f64 {
        return Err(SizeError::TooLarge(text.to_string()));
    }
    Ok(bytes as u64)
}

/// Bytes in binary units to three significant digits, e.g. `1.45 GiB`, `365 MiB`, `1 MiB`: the one way
/// every tool shows a size (a table, a memory limit, a file), so that sizes read alike and compare at a
/// glance, never as a raw byte count.
pub fn human_bytes(n: impl Into<u128>) -> String {
    const UNITS: [&str; 9] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"];
    let n: u128 = n.into();
    let mut v = n as f64;
    let mut u = 0;
    // 1023.5 and up would round to `1024` of a unit: the next unit's `1` instead.
    while v >= 1023.5 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        return format!("{n} B");
    }
    // The decimals are chosen on the value as it will be rounded (9.996 shows as `10`, not `10.00`).
    let digits = match v {
        v if v >= 99.95 => 0,
        v if v >= 9.995 => 1,
        _ => 2,
    };
    let text = format!("{v:.digits$}");
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.') } else { &text };
    format!("{text} {}", UNITS[u])
}

/// A time in the unit of its scale, to four significant digits: `3.214 s`, `12.35 ms`, `373.4 µs`, so
/// that a report of fast instances shows figures that mean something rather than `0.000 s`; 0 is `0 s`,
/// an hour is `3600 s` (search times are compared in seconds, not read as clock times), and a million seconds
/// or more (a damaged record) `1.000e305 s`.
pub fn seconds(secs: f64) -> String {
    if secs == 0.0 || !secs.is_finite() {
        return format!("{secs} s");
    }
    let (v, unit) = match secs.abs() {
        a if a >= 1e6 => return format!("{secs:.3e} s"),
        a if a >= 0.99995 => (secs, "s"),
        a if a >= 0.99995e-3 => (secs * 1e3, "ms"),
        _ => (secs * 1e6, "µs"),
    };
    let digits = (3 - v.abs().log10().floor() as i32).clamp(0, 3) as usize;
    format!("{v:.digits$} {unit}")
}

/// A count with thousands separators, e.g. `518,918,400`.
pub fn thousands(n: impl Into<u128>) -> String {
    let s = n.into().to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_in_the_unit_of_their_scale() {
        let cases = [
            (0.0, "0 s"),
            (3.2141, "3.214 s"),
            (3600.0, "3600 s"),
            (0.012346, "12.35 ms"),
            (0.000_373_4, "373.4 µs"),
            (0.000_000_3, "0.300 µs"),
            (0.999_999, "1.000 s"),
            (1e305, "1.000e305 s"),
        ];
        for (x, want) in cases {
            assert_eq!(seconds(x), want, "{x}");
        }
    }

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(parse_size("2G").unwrap(), 2 << 30);
        assert_eq!(parse_size("1500M").unwrap(), 1500 << 20);
        assert_eq!(parse_size("512MiB").unwrap(), 512 << 20);
        assert_eq!(parse_size("1.5g").unwrap(), 3 << 29);
        assert_eq!(parse_size("123456").unwrap(), 123_456);
        assert_eq!(parse_size("128T").unwrap(), MAX_SIZE);
        for bad in ["", "G", "2X", "-1G", "0", "0.1", "nan", "inf", "1e9"] {
            assert!(matches!(parse_size(bad), Err(SizeError::Bad(_))), "{bad}");
        }
        for absurd in ["129T", "99999999999999999999999", "1e400"] {
            assert!(parse_size(absurd).is_err(), "{absurd}");
        }
        assert!(matches!(parse_size("129T"), Err(SizeError::TooLarge(_))));
        assert_eq!(human_bytes(1_557_000_000u64), "1.45 GiB");
        assert_eq!(human_bytes(5_230_697_472_000u64), "4.76 TiB");
        assert_eq!(human_bytes(382_533_632u64), "365 MiB");
        assert_eq!(human_bytes(63_760_000u64), "60.8 MiB");
        assert_eq!(human_bytes(1u64 << 20), "1 MiB");
        assert_eq!(human_bytes(3u64 << 29), "1.5 GiB");
        assert_eq!(human_bytes(1023u64), "1023 B");
        assert_eq!(human_bytes((1u64 << 20) - 1), "1 MiB");
        assert_eq!(human_bytes(10_234u64), "9.99 KiB");
        // 25! permutations at two bits each: past any u64.
        assert_eq!(human_bytes(3_877_802_510_832_746_496_000_000u128), "3.21 YiB");
        assert_eq!(thousands(15_511_210_043_330_985_984_000_000u128), "15,511,210,043,330,985,984,000,000");
        assert_eq!(thousands(518_918_400u64), "518,918,400");
    }
}
