//! `count-tokens FILE...`: for each file, its bytes and its tokens in o200k_base and
//! cl100k_base, one line each (`file bytes o200k cl100k`).

fn main() {
    let o200k = tiktoken_rs::o200k_base().expect("o200k_base is bundled");
    let cl100k = tiktoken_rs::cl100k_base().expect("cl100k_base is bundled");
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (a, b) = (
            o200k.encode_ordinary(&text).len(),
            cl100k.encode_ordinary(&text).len(),
        );
        println!("{path} {} {a} {b}", text.len());
    }
}
