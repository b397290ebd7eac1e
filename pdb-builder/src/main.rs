fn main() { eprintln!("pdb-builder: not built yet"); std::process::exit(1) }
