//! The registry shape both hook kinds share: several hook objects called in registration
//! order. `TaskHookRegistry` and `SubagentHookRegistry` are this type for their trait
//! objects; each implements its trait with its own decision rule.

use std::fmt;
use std::sync::Arc;

/// Hook objects of one kind, in registration order.
pub struct Registry<H: ?Sized> {
    pub(crate) hooks: Vec<Arc<H>>,
}

impl<H: ?Sized> Registry<H> {
    /// An empty registry.
    pub fn new() -> Registry<H> {
        Registry { hooks: Vec::new() }
    }

    /// Registers a hook object after the ones already registered.
    pub fn register(&mut self, hooks: Arc<H>) -> &mut Registry<H> {
        self.hooks.push(hooks);
        self
    }

    /// How many hook objects are registered.
    pub fn len(&self) -> usize {
        self.hooks.len()
    }

    /// Whether no hook object is registered.
    pub fn is_empty(&self) -> bool {
        self.hooks.is_empty()
    }
}

impl<H: ?Sized> Default for Registry<H> {
    fn default() -> Registry<H> {
        Registry::new()
    }
}

impl<H: ?Sized> Clone for Registry<H> {
    fn clone(&self) -> Registry<H> {
        Registry {
            hooks: self.hooks.clone(),
        }
    }
}

impl<H: ?Sized> fmt::Debug for Registry<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry")
            .field("hooks", &self.hooks.len())
            .finish()
    }
}
