//! `hooks serve --stdio`: the JSON-RPC server of [`hooks_server`] on stdin and stdout, for
//! IDEs and other hosts. The protocol is described in `docs/ide.md`.

use std::time::Duration;

use anyhow::Result;
use hooks_server::Options;

use crate::cli::ServeArgs;

/// Runs `hooks serve --stdio` until stdin ends or the client sends `exit`. Exit code 0,
/// or 1 when `exit` came without `shutdown` first (as LSP says) or the config does not
/// load.
/// An error that stops the server is logged like everything else on its stderr, with the
/// prefix, and exits 1.
pub fn run(args: &ServeArgs) -> Result<u8> {
    let result = super::runtime().and_then(|runtime| {
        let result = runtime.block_on(async {
            let builder = super::engine_builder(&args.config)?;
            let options = Options::new(super::project_dir(&args.config)?).watch(args.watch);
            let (stdin, stdout) = (tokio::io::stdin(), tokio::io::stdout());
            Ok(hooks_server::serve(builder, stdin, stdout, options).await?)
        });
        // Tokio reads stdin on a blocking thread that only an input byte or the end of the
        // input wakes; after `exit` the client may hold stdin open, so do not wait for it.
        runtime.shutdown_timeout(Duration::from_millis(100));
        result
    });
    Ok(result.map_or_else(
        |e: anyhow::Error| {
            hooks_server::log_to_stderr(&format!("error: {e:#}"));
            1
        },
        |ending| ending.code(),
    ))
}
