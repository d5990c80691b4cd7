//! A real HTTP server on 127.0.0.1 for the http and mcp tests: an axum router served on a
//! free port, counting the TCP connections it accepts, shut down when dropped.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// A running loopback server.
pub(crate) struct Server {
    /// Where it listens.
    pub(crate) addr: SocketAddr,
    connections: Arc<AtomicUsize>,
    task: JoinHandle<()>,
}

impl Server {
    /// Serves `router` on a free loopback port until dropped.
    pub(crate) async fn start(router: Router) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let connections = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&connections);
        let listener = listener.tap_io(move |tcp| {
            counter.fetch_add(1, Ordering::SeqCst);
            // As production servers do; without it, responses written in several pieces
            // (MCP's SSE answers) wait out the peer's delayed ACK, 40 ms a call.
            let _ = tcp.set_nodelay(true);
        });
        let task = tokio::spawn(async move {
            axum::serve(listener, router).await.unwrap();
        });
        Server {
            addr,
            connections,
            task,
        }
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// How many TCP connections the server has accepted.
    pub(crate) fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A free loopback port: bound, read and released. Only for peers that insist on being
/// told a port (a child process); in-process servers bind port 0 themselves.
pub(crate) fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}
