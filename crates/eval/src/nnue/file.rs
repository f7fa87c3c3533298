//! The `nn.bin` file of a halfKP 256x2-32-32 network, as YaneuraOu's NNUE
//! edition reads and writes it: all little-endian,
//!
//! ```text
//! u32 version 0x7AF32F16 | u32 hash of the whole net | u32 n | n bytes: architecture
//! u32 hash of the feature transformer | i16 biases[256] | i16 weights[125,388][256]
//! u32 hash of the layers | i32 biases[32] | i8 weights[32][512]   (hidden layer 1)
//!                        | i32 biases[32] | i8 weights[32][32]    (hidden layer 2)
//!                        | i32 bias       | i8 weights[32]        (output)
//! ```
//!
//! The hashes encode the architecture (YaneuraOu computes them from the layers'
//! kinds and sizes); a file whose hashes are not this architecture's is refused,
//! as is a short file or one with bytes after the net.

use super::features::DIMENSIONS;
use std::fmt;
use std::io::Write;

/// The file format's version word.
pub const VERSION: u32 = 0x7AF3_2F16;
/// Outputs of the feature transformer for one side.
pub const HALF: usize = 256;
/// Outputs of the two hidden layers.
pub const HIDDEN: usize = 32;

/// The feature transformer's hash: HalfKP(Friend) and its 512 outputs.
pub const FEATURE_HASH: u32 = 0x5D69_D5B9 ^ 1 ^ (2 * HALF as u32);

const fn affine_hash(outputs: u32, previous: u32) -> u32 {
    0xCC03_DAE4u32.wrapping_add(outputs) ^ (previous >> 1) ^ (previous << 31)
}

const fn clipped_relu_hash(previous: u32) -> u32 {
    0x538D_24C7u32.wrapping_add(previous)
}

/// The layers' hash: the input slice of 512, two clipped 32-unit layers and the
/// output.
pub const NETWORK_HASH: u32 = {
    let input = 0xEC42_E90D ^ (2 * HALF as u32);
    let hidden1 = clipped_relu_hash(affine_hash(HIDDEN as u32, input));
    let hidden2 = clipped_relu_hash(affine_hash(HIDDEN as u32, hidden1));
    affine_hash(1, hidden2)
};

/// The hash of the whole net in the file's header (0x3E5AA6EE).
pub const FILE_HASH: u32 = FEATURE_HASH ^ NETWORK_HASH;

/// The architecture string Kyobo writes (YaneuraOu's, for this architecture).
pub const ARCHITECTURE: &str = "Features=HalfKP(Friend)[125388->256x2],Network=\
AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](\
AffineTransform[32<-512](InputSlice[512(0:512)])))))";

/// A halfKP 256x2-32-32 network's parameters, as the file holds them.
#[derive(Clone, PartialEq, Eq)]
pub struct Layers {
    /// Feature transformer: `HALF` biases, and `HALF` weights per feature.
    pub feature_biases: Vec<i16>,
    pub feature_weights: Vec<i16>,
    /// Hidden layer 1: `HIDDEN` biases, weights `[output][512]`.
    pub hidden1_biases: Vec<i32>,
    pub hidden1_weights: Vec<i8>,
    /// Hidden layer 2: `HIDDEN` biases, weights `[output][HIDDEN]`.
    pub hidden2_biases: Vec<i32>,
    pub hidden2_weights: Vec<i8>,
    pub output_bias: i32,
    pub output_weights: Vec<i8>,
}

/// A network ready to evaluate: its [`Layers`] and the layouts derived from them
/// for the fast code, made once in [`Network::from`].
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub layers: Layers,
    /// Hidden layer 1's weights by groups of four inputs: `[input / 4][output][4]`,
    /// the layout the AVX2 code reads when it skips the inputs that are zero.
    pub(crate) hidden1_by_input: Vec<i8>,
}

impl From<Layers> for Network {
    fn from(layers: Layers) -> Network {
        let hidden1_by_input = by_input_groups(&layers.hidden1_weights);
        Network { layers, hidden1_by_input }
    }
}

/// Hidden layer 1's weights `[output][512]` rearranged as `[input / 4][output][4]`.
pub(crate) fn by_input_groups(weights: &[i8]) -> Vec<i8> {
    let inputs = 2 * HALF;
    let mut out = vec![0; weights.len()];
    for o in 0..HIDDEN {
        for i in 0..inputs {
            out[(i / 4) * HIDDEN * 4 + o * 4 + i % 4] = weights[o * inputs + i];
        }
    }
    out
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network(halfKP 256x2-32-32)")
    }
}

/// Why a file is not a network Kyobo can use.
#[derive(Debug)]
pub enum NnueError {
    /// The file could not be read.
    Io(std::io::Error),
    /// Not an `nn.bin` file: the first word is not the format's version.
    Version(u32),
    /// An `nn.bin` of another architecture (its hash, and its architecture string).
    Architecture { hash: u32, architecture: String },
    /// The file ends inside `section`.
    Truncated { section: &'static str },
    /// Bytes after the net.
    TrailingBytes(usize),
    /// The memory for the weights could not be had.
    OutOfMemory { bytes: usize },
}

impl fmt::Display for NnueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NnueError::Io(e) => write!(f, "cannot read the file: {e}"),
            NnueError::Version(v) => {
                write!(f, "not an nn.bin file (version word {v:#010x}, expected {VERSION:#010x})")
            }
            NnueError::Architecture { hash, architecture } => {
                // The architecture string is the file's: a line's worth is shown.
                let shown: String = architecture.chars().take(80).collect();
                let more = if shown.len() < architecture.len() { "…" } else { "" };
                write!(
                    f,
                    "the network is not halfKP 256x2-32-32 (hash {hash:#010x}, expected \
                     {FILE_HASH:#010x}; architecture \"{shown}{more}\")"
                )
            }
            NnueError::Truncated { section } => {
                write!(f, "the file is truncated (it ends in the {section})")
            }
            NnueError::TrailingBytes(n) => write!(f, "{n} bytes follow the network"),
            NnueError::OutOfMemory { bytes } => {
                write!(f, "cannot allocate {} MiB for the network", bytes >> 20)
            }
        }
    }
}

impl std::error::Error for NnueError {}

/// Reads the file's bytes in order.
struct Reader<'a> {
    bytes: &'a [u8],
    section: &'static str,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], NnueError> {
        if self.bytes.len() < n {
            return Err(NnueError::Truncated { section: self.section });
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, NnueError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn hash(&mut self, expected: u32) -> Result<(), NnueError> {
        let hash = self.u32()?;
        if hash != expected {
            return Err(NnueError::Architecture { hash, architecture: String::new() });
        }
        Ok(())
    }

    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, NnueError> {
        let mut out = fallible_vec(n)?;
        let bytes = self.take(n * 2)?;
        out.extend(bytes.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])));
        Ok(out)
    }

    fn i32s(&mut self, n: usize) -> Result<Vec<i32>, NnueError> {
        let bytes = self.take(n * 4)?;
        Ok(bytes.chunks_exact(4).map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
    }

    fn i8s(&mut self, n: usize) -> Result<Vec<i8>, NnueError> {
        Ok(self.take(n)?.iter().map(|&b| b as i8).collect())
    }
}

fn fallible_vec<T>(n: usize) -> Result<Vec<T>, NnueError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| NnueError::OutOfMemory { bytes: n * std::mem::size_of::<T>() })?;
    Ok(v)
}

impl Network {
    /// The network in `bytes`, an `nn.bin` file's contents.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NnueError> {
        let mut r = Reader { bytes, section: "header" };
        let version = r.u32()?;
        if version != VERSION {
            return Err(NnueError::Version(version));
        }
        let hash = r.u32()?;
        let length = r.u32()? as usize;
        let architecture = String::from_utf8_lossy(r.take(length)?).into_owned();
        if hash != FILE_HASH {
            return Err(NnueError::Architecture { hash, architecture });
        }
        let with_architecture = |e: NnueError| match e {
            NnueError::Architecture { hash, .. } => {
                NnueError::Architecture { hash, architecture: architecture.clone() }
            }
            e => e,
        };
        r.section = "feature transformer";
        r.hash(FEATURE_HASH).map_err(with_architecture)?;
        let feature_biases = r.i16s(HALF)?;
        let feature_weights = r.i16s(HALF * DIMENSIONS)?;
        r.section = "hidden layers";
        r.hash(NETWORK_HASH).map_err(with_architecture)?;
        let hidden1_biases = r.i32s(HIDDEN)?;
        let hidden1_weights = r.i8s(HIDDEN * 2 * HALF)?;
        let hidden2_biases = r.i32s(HIDDEN)?;
        let hidden2_weights = r.i8s(HIDDEN * HIDDEN)?;
        r.section = "output layer";
        let output_bias = r.i32s(1)?[0];
        let output_weights = r.i8s(HIDDEN)?;
        if !r.bytes.is_empty() {
            return Err(NnueError::TrailingBytes(r.bytes.len()));
        }
        Ok(Network::from(Layers {
            feature_biases,
            feature_weights,
            hidden1_biases,
            hidden1_weights,
            hidden2_biases,
            hidden2_weights,
            output_bias,
            output_weights,
        }))
    }

    /// Reads the network in the file `path`.
    pub fn read(path: &std::path::Path) -> Result<Network, NnueError> {
        let bytes = std::fs::read(path).map_err(NnueError::Io)?;
        Network::from_bytes(&bytes)
    }

    /// Writes the network in the `nn.bin` format.
    pub fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        out.write_all(&VERSION.to_le_bytes())?;
        out.write_all(&FILE_HASH.to_le_bytes())?;
        out.write_all(&(ARCHITECTURE.len() as u32).to_le_bytes())?;
        out.write_all(ARCHITECTURE.as_bytes())?;
        out.write_all(&FEATURE_HASH.to_le_bytes())?;
        let mut buffer = Vec::with_capacity(HALF * 2 * 1024);
        for chunk in std::iter::once(&self.layers.feature_biases[..])
            .chain(self.layers.feature_weights.chunks(HALF * 1024))
        {
            buffer.clear();
            buffer.extend(chunk.iter().flat_map(|w| w.to_le_bytes()));
            out.write_all(&buffer)?;
        }
        out.write_all(&NETWORK_HASH.to_le_bytes())?;
        let i32s = |v: &[i32]| v.iter().flat_map(|b| b.to_le_bytes()).collect::<Vec<u8>>();
        let i8s = |v: &[i8]| v.iter().map(|&w| w as u8).collect::<Vec<u8>>();
        out.write_all(&i32s(&self.layers.hidden1_biases))?;
        out.write_all(&i8s(&self.layers.hidden1_weights))?;
        out.write_all(&i32s(&self.layers.hidden2_biases))?;
        out.write_all(&i8s(&self.layers.hidden2_weights))?;
        out.write_all(&self.layers.output_bias.to_le_bytes())?;
        out.write_all(&i8s(&self.layers.output_weights))?;
        Ok(())
    }

    /// A network of random weights drawn from `seed`, sized so that its values
    /// spread over some thousands rather than sit at the clipping limits: a test
    /// net for comparing implementations, not for playing.
    pub fn random(seed: u64) -> Result<Network, NnueError> {
        let mut state = seed;
        let mut next = move || {
            // SplitMix64.
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut uniform =
            move |low: i32, high: i32| -> i32 { low + (next() % (high - low + 1) as u64) as i32 };
        let mut feature_weights = fallible_vec(HALF * DIMENSIONS)?;
        feature_weights.extend((0..HALF * DIMENSIONS).map(|_| uniform(-6, 8) as i16));
        let feature_biases = (0..HALF).map(|_| uniform(-32, 48) as i16).collect();
        let hidden1_biases = (0..HIDDEN).map(|_| uniform(-2000, 2000)).collect();
        let hidden1_weights = (0..HIDDEN * 2 * HALF).map(|_| uniform(-6, 6) as i8).collect();
        Ok(Network::from(Layers {
            feature_biases,
            feature_weights,
            hidden1_biases,
            hidden1_weights,
            hidden2_biases: (0..HIDDEN).map(|_| uniform(-1000, 1000)).collect(),
            hidden2_weights: (0..HIDDEN * HIDDEN).map(|_| uniform(-40, 40) as i8).collect(),
            output_bias: uniform(-2000, 2000),
            output_weights: (0..HIDDEN).map(|_| uniform(-60, 60) as i8).collect(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_the_one_halfkp_files_carry() {
        assert_eq!(FILE_HASH, 0x3E5A_A6EE);
    }

    #[test]
    fn a_written_network_reads_back_and_damage_is_refused() {
        let net = Network::random(7).unwrap();
        let mut bytes = Vec::new();
        net.write(&mut bytes).unwrap();
        assert!(Network::from_bytes(&bytes).unwrap() == net);

        let short = &bytes[..bytes.len() - 1];
        assert!(matches!(
            Network::from_bytes(short),
            Err(NnueError::Truncated { section: "output layer" })
        ));
        assert!(matches!(
            Network::from_bytes(&bytes[..100_000]),
            Err(NnueError::Truncated { section: "feature transformer" })
        ));
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(Network::from_bytes(&long), Err(NnueError::TrailingBytes(1))));
        let mut other = bytes.clone();
        other[4] ^= 1;
        let e = Network::from_bytes(&other).unwrap_err();
        assert!(e.to_string().contains("not halfKP 256x2-32-32"), "{e}");
        assert!(matches!(Network::from_bytes(b"KI"), Err(NnueError::Truncated { .. })));
        assert!(matches!(Network::from_bytes(&[0; 64]), Err(NnueError::Version(0))));
    }
}
