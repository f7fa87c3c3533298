//! Server-sent events: what the engine thinks, moves it plays and an analysis's
//! progress, pushed to every page that listens on `/api/events`.

use std::io::Write;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Mutex;
use std::time::Duration;

/// How long a stream stays silent before a comment line checks that the page is
/// still there (a closed page ends its stream at the next write).
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Every listening page's queue of events.
#[derive(Default)]
pub struct Events {
    listeners: Mutex<Vec<Sender<String>>>,
}

impl Events {
    /// Sends one event (a JSON value) to every page listening; pages that have
    /// gone are forgotten.
    pub fn send(&self, event: &serde_json::Value) {
        let text = event.to_string();
        if let Ok(mut listeners) = self.listeners.lock() {
            listeners.retain(|l| l.send(text.clone()).is_ok());
        }
    }

    /// A new listener's queue.
    pub fn listen(&self) -> Receiver<String> {
        let (tx, rx) = channel();
        if let Ok(mut listeners) = self.listeners.lock() {
            listeners.push(tx);
        }
        rx
    }
}

/// Writes the event stream to `out` (the raw connection) until the page goes
/// away: the response head, then each event as a `data:` line.
pub fn stream(mut out: Box<dyn Write + Send>, events: Receiver<String>) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                Cache-Control: no-cache\r\nConnection: close\r\n\r\n: kyobo\n\n";
    if out.write_all(head.as_bytes()).and_then(|()| out.flush()).is_err() {
        return;
    }
    loop {
        let chunk = match events.recv_timeout(KEEP_ALIVE) {
            Ok(event) => format!("data: {event}\n\n"),
            Err(RecvTimeoutError::Timeout) => ": still here\n\n".to_string(),
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if out.write_all(chunk.as_bytes()).and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex as StdMutex};

    /// A writer that keeps what it is given and fails once closed.
    #[derive(Clone, Default)]
    struct Page {
        text: Arc<StdMutex<Vec<u8>>>,
    }

    impl Write for Page {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.text.lock().map_err(|_| std::io::ErrorKind::Other)?.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn every_listener_gets_every_event_and_a_closed_one_is_dropped() {
        let events = Events::default();
        let first = events.listen();
        let second = events.listen();
        events.send(&serde_json::json!({"type": "info", "depth": 3}));
        assert_eq!(first.recv().ok().as_deref(), Some(r#"{"depth":3,"type":"info"}"#));
        assert_eq!(second.recv().ok().as_deref(), Some(r#"{"depth":3,"type":"info"}"#));
        drop(first);
        events.send(&serde_json::json!(1));
        assert_eq!(events.listeners.lock().map(|l| l.len()).ok(), Some(1));
        assert_eq!(second.recv().ok().as_deref(), Some("1"));
    }

    #[test]
    fn the_stream_writes_a_head_then_data_lines_and_ends_with_its_queue() {
        let page = Page::default();
        let events = Events::default();
        let rx = events.listen();
        events.send(&serde_json::json!({"a": 1}));
        drop(events);
        stream(Box::new(page.clone()), rx);
        let text = String::from_utf8(page.text.lock().map(|t| t.clone()).unwrap_or_default())
            .unwrap_or_default();
        assert!(text.starts_with("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"));
        assert!(text.ends_with("data: {\"a\":1}\n\n"), "{text}");
    }
}
