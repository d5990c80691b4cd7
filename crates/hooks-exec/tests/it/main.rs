//! The integration tests of hooks-exec, against real processes and real peers on loopback.

#![allow(clippy::unwrap_used)]

mod audit;
mod channel;
mod command;
mod dispatch;
mod notify;
mod observe;
mod prepare;
mod reliability;
mod reliability_reload;
mod sandbox;
mod secrets;
mod support;
mod timeouts;

#[cfg(feature = "http")]
mod http;
#[cfg(feature = "http")]
mod loopback;
#[cfg(feature = "mcp")]
mod mcp;
#[cfg(feature = "otel")]
mod otel;
#[cfg(feature = "mcp")]
mod reliability_peers;
