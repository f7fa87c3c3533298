//! Helpers shared by the search crate's integration tests.

/// A tiny deterministic generator for random trees.
pub struct Lcg(pub u64);
impl Lcg {
    pub fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

pub fn random_tree(rng: &mut Lcg, depth: u32, branching: u64, counter: &mut u32) -> String {
    *counter += 1;
    let name = format!("n{counter}");
    if depth == 0 {
        return format!("{name}:{}", rng.next(201) as i32 - 100);
    }
    let kids = 1 + rng.next(branching);
    let children: Vec<String> =
        (0..kids).map(|_| random_tree(rng, depth - 1, branching, counter)).collect();
    format!("{name}({})", children.join(" "))
}
