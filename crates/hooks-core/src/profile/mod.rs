//! What each agent's hooks are given and how their answers are read, one module per
//! agent whose protocol differs in shape from Claude Code's.

pub mod cline;
pub mod cursor;
