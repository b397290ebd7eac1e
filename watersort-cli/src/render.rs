//! Drawing a position in the terminal: tubes side by side, bottoms on one line, each unit its letter,
//! on a coloured background when asked (stdout a terminal).

use std::fmt::Write;
use watersort::mystery::HIDDEN;
use watersort::Tubes;

/// 256-colour palette backgrounds, far apart so neighbouring colours are told apart; colours past the
/// palette's end reuse it (their letters still differ).
const PALETTE: [u8; 16] = [196, 21, 46, 226, 201, 51, 208, 93, 255, 94, 22, 160, 117, 240, 214, 54];

/// The tubes drawn as lines: `letters[c]` for colour c, `?` for a hidden unit, `colour` to add ANSI
/// backgrounds.
pub fn draw(tubes: &Tubes, letters: &[char], colour: bool) -> String {
    let mut out = String::new();
    for row in (0..tubes.capacity).rev() {
        for tube in &tubes.tubes {
            out.push_str(" |");
            match tube.get(row) {
                Some(&HIDDEN) => out.push('?'),
                Some(&c) if colour => {
                    let bg = PALETTE[c as usize % PALETTE.len()];
                    let _ = write!(out, "\x1b[48;5;{bg}m\x1b[30m{}\x1b[0m", letters[c as usize]);
                }
                Some(&c) => out.push(letters[c as usize]),
                None => out.push(' '),
            }
            out.push('|');
        }
        out.push('\n');
    }
    for t in 1..=tubes.tubes.len() {
        let _ = write!(out, "{t:>3} ");
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_plain_letters() {
        let tubes = Tubes { capacity: 2, tubes: vec![vec![0, 1], vec![], vec![1]] };
        assert_eq!(draw(&tubes, &['a', 'b'], false), " |b| | | | |\n |a| | | |b|\n  1   2   3 \n");
        let hidden = Tubes { capacity: 2, tubes: vec![vec![HIDDEN, 1], vec![]] };
        assert_eq!(draw(&hidden, &['a', 'b'], false), " |b| | |\n |?| | |\n  1   2 \n");
    }
}
