//! No input makes the library panic: random level text and JSON either parse into a level the solver
//! handles (under a node limit) or give a `LevelError`.

use watersort::generate::SplitMix64;
use watersort::{parse_json, parse_levels, solve, Limits, Options};

fn random_text(rng: &mut SplitMix64, alphabet: &[char], len: usize) -> String {
    (0..len).map(|_| alphabet[rng.below(alphabet.len() as u64) as usize]).collect()
}

#[test]
fn random_input_never_panics() {
    let mut rng = SplitMix64::new(11);
    let options = Options { limits: Limits { nodes: Some(2000), ..Limits::default() }, ..Options::default() };
    let text_alphabet: Vec<char> = "aabbcAB- - ::#1é\n".chars().collect();
    let json_alphabet: Vec<char> = r#"[[]],"Empty""Red"1 {}"#.chars().collect();
    for i in 0..3000 {
        let capacity = rng.below(6) as usize;
        let len = 1 + rng.below(40) as usize;
        for level in parse_levels(&random_text(&mut rng, &text_alphabet, len), capacity).into_iter().flatten() {
            solve(&level, &options).unwrap();
        }
        if let Ok(level) = parse_json(&random_text(&mut rng, &json_alphabet, len), "j", capacity.max(i % 3)) {
            solve(&level, &options).unwrap();
        }
    }
}
