//! Game trees given as data, for exact tests of node order, windows and cuts.
//!
//! Two ways to write a tree:
//! - named nodes, `Name[:value][(children)]`, children separated by spaces:
//!   `A(B(E(K:3 L:5) F(M:6 N:9)) C(G:1 H:0))`;
//! - nested lists of leaf values, as textbooks print them: `((3 12 8) (2 4 6) (14 5
//!   2))`, the nodes then named A, B, C, … in the order they are written (depth
//!   first), AA after Z.
//!
//! Values are from the root player's (MAX's) point of view, as in textbook
//! exercises; an interior node without a value evaluates to 0 when a depth limit
//! stops there. Moves are child nodes, so a trace's path names the nodes it went
//! through.

use crate::game::{Game, Outcome, RepetitionStatus, Side};
use crate::value::Value;
use std::fmt;
use std::sync::Arc;

/// A move in a tree: the child node it leads to (names up to 7 bytes kept for display;
/// identity is the node alone).
#[derive(Clone, Copy, Default)]
pub struct TreeMove {
    id: u32,
    name: [u8; 7],
    name_len: u8,
}

impl PartialEq for TreeMove {
    fn eq(&self, other: &TreeMove) -> bool {
        self.id == other.id
    }
}

impl Eq for TreeMove {}

impl TreeMove {
    pub fn id(self) -> usize {
        self.id as usize
    }
    pub fn name(&self) -> &str {
        std::str::from_utf8(&self.name[..self.name_len as usize]).unwrap_or("?")
    }
}

impl fmt::Display for TreeMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for TreeMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug)]
struct Node {
    name: String,
    value: Value,
    children: Vec<u32>,
}

/// A position in an explicit tree: the shared tree plus the path walked from the root.
#[derive(Clone, Debug)]
pub struct TreeGame {
    nodes: Arc<Vec<Node>>,
    path: Vec<u32>,
}

#[derive(Debug, PartialEq, Eq)]
pub struct TreeParseError(pub String);

impl fmt::Display for TreeParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad tree: {}", self.0)
    }
}

impl std::error::Error for TreeParseError {}

impl TreeGame {
    pub fn parse(text: &str) -> Result<TreeGame, TreeParseError> {
        if text.trim().parse::<Value>().is_ok() {
            return Err(TreeParseError(format!(
                "'{}' is a lone value: a tree needs moves, as (5 3) or A(B:5 C:3)",
                text.trim()
            )));
        }
        let mut nodes = Vec::new();
        let mut parser = Parser { s: text.as_bytes(), i: 0 };
        parser.skip_space();
        if parser.s.get(parser.i) == Some(&b'(') {
            parser.nested(&mut nodes)?;
        } else {
            parser.node(&mut nodes)?;
        }
        parser.skip_space();
        if parser.i != parser.s.len() {
            return Err(TreeParseError(format!("trailing text at byte {}", parser.i)));
        }
        if nodes[0].children.is_empty() {
            return Err(TreeParseError("the root is a leaf: a tree needs moves".into()));
        }
        Ok(TreeGame { nodes: Arc::new(nodes), path: vec![0] })
    }

    fn current(&self) -> &Node {
        &self.nodes[*self.path.last().unwrap_or(&0) as usize]
    }

    /// The name of the node the game stands on.
    pub fn node_name(&self) -> &str {
        &self.current().name
    }

    /// Plies from the root: even at MAX nodes.
    pub fn depth(&self) -> usize {
        self.path.len() - 1
    }

    /// The move leading to the node called `name`, wherever it is in the tree.
    pub fn move_to(&self, name: &str) -> Option<TreeMove> {
        let id = self.nodes.iter().position(|n| n.name == name)?;
        Some(self.make_tree_move(id as u32))
    }

    fn make_tree_move(&self, id: u32) -> TreeMove {
        let mut name = [0u8; 7];
        let bytes = self.nodes[id as usize].name.as_bytes();
        let len = bytes.len().min(7);
        name[..len].copy_from_slice(&bytes[..len]);
        TreeMove { id, name, name_len: len as u8 }
    }

    /// The names of every node below `name` (excluding it), depth first.
    pub fn descendants(&self, name: &str) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(id) = self.nodes.iter().position(|n| n.name == name) {
            self.collect(id, &mut out);
        }
        out
    }

    fn collect(&self, id: usize, out: &mut Vec<String>) {
        for &c in &self.nodes[id].children {
            out.push(self.nodes[c as usize].name.clone());
            self.collect(c as usize, out);
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self.i < self.s.len() && (self.s[self.i] as char).is_whitespace() {
            self.i += 1;
        }
    }

    /// A value: an optional minus sign and digits.
    fn value(&mut self, what: &str) -> Result<Value, TreeParseError> {
        let start = self.i;
        if self.s.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
            self.i += 1;
        }
        let text = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
        text.parse().map_err(|_| {
            // Quote what stands there, up to the next space or bracket.
            let mut end = self.i;
            while end < self.s.len() && !b" \t\r\n()".contains(&self.s[end]) {
                end += 1;
            }
            let token = String::from_utf8_lossy(&self.s[start..end]).into_owned();
            TreeParseError(format!("bad value '{token}' for {what}"))
        })
    }

    /// A node of the nested-list form: `(children)` or a leaf value.
    fn nested(&mut self, nodes: &mut Vec<Node>) -> Result<u32, TreeParseError> {
        self.skip_space();
        let id = nodes.len() as u32;
        let name = letters(nodes.len());
        if self.s.get(self.i) != Some(&b'(') {
            let value = self.value(&format!("leaf {name} at byte {}", self.i))?;
            nodes.push(Node { name, value, children: Vec::new() });
            return Ok(id);
        }
        let open = self.i;
        self.i += 1;
        nodes.push(Node { name, value: 0, children: Vec::new() });
        loop {
            self.skip_space();
            match self.s.get(self.i) {
                Some(b')') if nodes[id as usize].children.is_empty() => {
                    return Err(TreeParseError(format!(
                        "'()' at byte {open}: a node needs children, a leaf a value"
                    )));
                }
                Some(b')') => {
                    self.i += 1;
                    return Ok(id);
                }
                None => return Err(TreeParseError("unclosed '('".into())),
                _ => {
                    let child = self.nested(nodes)?;
                    nodes[id as usize].children.push(child);
                }
            }
        }
    }

    fn node(&mut self, nodes: &mut Vec<Node>) -> Result<u32, TreeParseError> {
        self.skip_space();
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_')
        {
            self.i += 1;
        }
        if start == self.i {
            return Err(TreeParseError(format!("expected a node name at byte {start}")));
        }
        let name = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
        let mut value = None;
        if self.s.get(self.i) == Some(&b':') {
            self.i += 1;
            value = Some(self.value(&name)?);
        }
        let id = nodes.len() as u32;
        nodes.push(Node { name: name.clone(), value: value.unwrap_or(0), children: Vec::new() });
        self.skip_space();
        if self.s.get(self.i) != Some(&b'(') && value.is_none() {
            return Err(TreeParseError(format!("leaf {name} has no value (write {name}:VALUE)")));
        }
        if self.s.get(self.i) == Some(&b'(') {
            self.i += 1;
            loop {
                self.skip_space();
                match self.s.get(self.i) {
                    Some(b')') => {
                        self.i += 1;
                        break;
                    }
                    None => return Err(TreeParseError("unclosed '('".into())),
                    _ => {
                        let child = self.node(nodes)?;
                        nodes[id as usize].children.push(child);
                    }
                }
            }
        }
        Ok(id)
    }
}

/// The `n`th name of the nested form: A … Z, AA … AZ, BA …
fn letters(n: usize) -> String {
    let mut name = Vec::new();
    let mut n = n + 1;
    while n > 0 {
        n -= 1;
        name.push(b'A' + (n % 26) as u8);
        n /= 26;
    }
    name.reverse();
    String::from_utf8_lossy(&name).into_owned()
}

impl Game for TreeGame {
    type Move = TreeMove;

    /// Tree values are plain numbers, read on the scale of shogi's centipawns.
    const UNIT: Value = 100;

    /// MAX (the root player) is `First`: even depths.
    fn side_to_move(&self) -> Side {
        if self.depth().is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    fn legal_moves(&self, out: &mut Vec<TreeMove>) {
        for &c in &self.current().children {
            out.push(self.make_tree_move(c));
        }
    }

    fn make_move(&mut self, m: TreeMove) {
        self.path.push(m.id);
    }

    fn unmake_move(&mut self, _m: TreeMove) {
        self.path.pop();
    }

    /// A leaf ends the game with its value.
    fn outcome(&self) -> Option<Outcome> {
        self.current().children.is_empty().then(|| Outcome::Payoff(self.evaluate()))
    }

    /// Never asked: a node without children is a leaf, and `outcome` ends it.
    fn no_moves(&self) -> Outcome {
        Outcome::Payoff(self.evaluate())
    }

    /// A tree has no cycles.
    fn repetition(&self, _max_plies: usize) -> Option<RepetitionStatus> {
        None
    }

    fn key(&self) -> u64 {
        // Distinct per node.
        (u64::from(*self.path.last().unwrap_or(&0)) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// Values are written from MAX's side; odd depths are MIN to move.
    fn evaluate(&self) -> Value {
        let v = self.current().value;
        if self.depth().is_multiple_of(2) {
            v
        } else {
            -v
        }
    }

    fn encode_move(m: TreeMove) -> u32 {
        m.id
    }

    fn decode_move(code: u32) -> TreeMove {
        TreeMove { id: code, ..TreeMove::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_walks() {
        let mut g = TreeGame::parse("A(B:3 C(D:-4 E:5))").unwrap();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        assert_eq!(moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["B", "C"]);
        g.make_move(moves[1]);
        assert_eq!(g.node_name(), "C");
        assert_eq!(g.evaluate(), 0);
        let mut sub = Vec::new();
        g.legal_moves(&mut sub);
        g.make_move(sub[0]);
        assert_eq!(g.evaluate(), -4);
        g.unmake_move(sub[0]);
        g.unmake_move(moves[1]);
        assert_eq!(g.node_name(), "A");
        assert_eq!(g.descendants("C"), ["D", "E"]);
        assert!(TreeGame::parse("A(B").is_err());
        assert!(TreeGame::parse("A:x").is_err());
    }

    #[test]
    fn nested_lists_name_their_nodes_in_order() {
        let g = TreeGame::parse("((3 12 8) (2 4 6) (14 5 2))").unwrap();
        assert_eq!(g.node_name(), "A");
        assert_eq!(g.descendants("A").len(), 12);
        assert_eq!(g.descendants("B"), ["C", "D", "E"]);
        assert_eq!(g.descendants("F"), ["G", "H", "I"]);
        let mut leaf = g.clone();
        leaf.make_move(g.move_to("B").unwrap());
        leaf.make_move(g.move_to("D").unwrap());
        assert_eq!(leaf.evaluate(), 12);
        assert_eq!(leaf.outcome(), Some(Outcome::Payoff(12)));
        assert_eq!(
            (letters(0), letters(25), letters(26), letters(27)),
            ("A".into(), "Z".into(), "AA".into(), "AB".into())
        );
        assert!(TreeGame::parse("((1 2)").is_err());
        assert!(TreeGame::parse("((1 x))").is_err());
        assert!(TreeGame::parse("(1 2) 3").is_err());
        // Nonsense is refused, never read as zeros.
        for bad in ["()", "(())", "5", "A(B C:4)", "A", "((3 12 x) (2 4))"] {
            assert!(TreeGame::parse(bad).is_err(), "{bad}");
        }
        let e = TreeGame::parse("((3 12 x) (2 4))").unwrap_err().to_string();
        assert!(e.contains("'x'"), "{e}");
    }
}
