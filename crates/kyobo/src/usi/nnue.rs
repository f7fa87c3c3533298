//! The NNUE network `EvalFile` names: read when it changed (at `isready`, or at
//! `go` if no `isready` came between), kept between games, shared by the
//! search threads.

use super::command::excerpt;
use eval::nnue::Network;
use std::sync::Arc;
use std::time::Instant;

#[derive(Default)]
pub struct NetworkState {
    /// The file last read (or tried), so that it is read once.
    read_from: Option<String>,
    pub network: Option<Arc<Network>>,
}

impl NetworkState {
    /// Reads the network `file` names when it is not the one read last; the line
    /// to tell the GUI: what was read, or why the handcrafted evaluation stays.
    pub fn prepare(&mut self, file: Option<&str>) -> Option<Result<String, String>> {
        if self.read_from.as_deref() == file {
            return None;
        }
        self.read_from = file.map(str::to_string);
        self.network = None;
        let file = file?;
        let start = Instant::now();
        match Network::read(std::path::Path::new(file)) {
            Ok(network) => {
                self.network = Some(Arc::new(network));
                Some(Ok(format!(
                    "NNUE network {file} read in {} ms (halfKP 256x2-32-32)",
                    start.elapsed().as_millis()
                )))
            }
            Err(e) => Some(Err(format!(
                "EvalFile {}: evaluating with the handcrafted evaluation: {e}",
                excerpt(file)
            ))),
        }
    }
}
