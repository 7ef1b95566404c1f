//! A fast search for the first of a few bytes, eight bytes at a time, and a fast line count.
//!
//! The scanner spends most of its time skipping plain code, string bodies and comment bodies to
//! the next byte that can matter, and lines are short, so the search must be cheap to start as
//! well as fast on long runs. It tests a whole `u64` word for each wanted byte with the classic
//! "has a zero byte" bit trick (SWAR), in safe code.

/// `0x01` in every byte.
const ONES: u64 = u64::from_le_bytes([0x01; 8]);
/// `0x80` in every byte.
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

/// The index of the first byte of `b` at or after `from` that is one of `wanted`, if any.
pub(super) fn find_any<const N: usize>(b: &[u8], from: usize, wanted: [u8; N]) -> Option<usize> {
    let rest = &b[from..];
    let mut words = rest.chunks_exact(8);
    let mut base = from;
    for word in words.by_ref() {
        let word = u64::from_le_bytes(word.try_into().expect("chunks of eight"));
        let hits = wanted.iter().fold(0, |hits, &w| {
            hits | zero_bytes(word ^ (ONES * u64::from(w)))
        });
        if hits != 0 {
            return Some(base + (hits.trailing_zeros() / 8) as usize);
        }
        base += 8;
    }
    words
        .remainder()
        .iter()
        .position(|c| wanted.contains(c))
        .map(|p| base + p)
}

/// How many lines [`str::lines`] yields for `text`, counted in one pass the compiler vectorizes.
pub(super) fn count_lines(text: &str) -> usize {
    let b = text.as_bytes();
    // Per-chunk byte-sized counters keep the loop on wide vector lanes.
    let newlines: usize = b
        .chunks(255)
        .map(|chunk| chunk.iter().fold(0u8, |n, &c| n + u8::from(c == b'\n')) as usize)
        .sum();
    newlines + usize::from(!b.is_empty() && !b.ends_with(b"\n"))
}

/// A word whose lowest set bit is the high bit of the lowest zero byte of `word` (higher bits
/// may be spurious), or zero when no byte of `word` is zero.
fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(ONES) & !word & HIGHS
}

#[cfg(test)]
mod tests {
    use super::{count_lines, find_any};

    #[test]
    fn finds_the_first_wanted_byte_from_an_offset() {
        let text = b"let x = \"a\"; // \x80\x01\x00 done";
        assert_eq!(find_any(text, 0, *b"\"/"), Some(8));
        assert_eq!(find_any(text, 9, *b"\"/"), Some(10));
        assert_eq!(find_any(text, 11, *b"\"/"), Some(13));
        assert_eq!(find_any(text, 0, [0u8]), Some(18));
        assert_eq!(find_any(text, 0, [0x01u8]), Some(17));
        assert_eq!(find_any(text, 0, *b"e"), Some(1));
        assert_eq!(find_any(text, 2, *b"e"), Some(23));
        assert_eq!(find_any(text, 0, *b"#"), None);
        assert_eq!(find_any(text, text.len(), *b"d"), None);
        assert_eq!(find_any(text, 0, []), None);
    }

    #[test]
    fn agrees_with_a_plain_search_at_every_offset() {
        let spread: Vec<u8> = (0..300u32).map(|k| (k * 37 % 256) as u8).collect();
        let runs: Vec<u8> = (0..100u8).map(|k| k % 7).collect();
        for text in [spread, runs] {
            for from in 0..=text.len() {
                for wanted in [[0u8, 1], [1, 3], [b'"', 0x80], [0xff, b'\n']] {
                    let plain = text[from..]
                        .iter()
                        .position(|c| wanted.contains(c))
                        .map(|p| from + p);
                    assert_eq!(find_any(&text, from, wanted), plain, "from {from}");
                }
            }
        }
    }

    #[test]
    fn lines_are_counted_like_std() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "a\r\nb\r\n",
            "a\r\n\r\nb\rc\r",
            "\r",
            "\r\r\n\n\r",
            "é\n日本\r\nx",
        ] {
            assert_eq!(count_lines(text), text.lines().count(), "{text:?}");
        }
    }
}
