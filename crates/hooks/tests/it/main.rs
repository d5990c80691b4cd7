//! The integration tests of the facade: the engine built from real config files, running
//! real hooks, reloading and watching.

#![allow(clippy::unwrap_used)]

mod agent_loop;
mod echo_agent;
mod engine;
mod fabro;
mod http;
mod stop_loop;
#[cfg(all(feature = "otel", unix))]
mod telemetry;
mod timeouts;
