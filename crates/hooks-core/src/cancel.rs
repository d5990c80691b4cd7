//! A runtime-agnostic cancellation token: how a host cancels a dispatch or a run, and how
//! a parent's cancellation reaches hooks, retries, delegates and child work.
//!
//! The token is a small shared flag with a list of wakers, so it works under any executor
//! (tokio, async-std, smol, a hand-written one) and costs no dependency. It is the one
//! token of the workspace: the exec dispatcher and the orchestration runners take it.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::task::{Context, Poll, Waker};

/// A cancellation signal shared by clones.
///
/// Cloning gives another handle on the same signal; [`child_token`](Self::child_token)
/// gives a token that is cancelled when its parent is, but whose own cancellation does
/// not reach the parent. Cancelling is idempotent and wakes every task waiting on
/// [`cancelled`](Self::cancelled).
#[derive(Clone, Default)]
pub struct CancellationToken {
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    /// Set (under the lock, before waking) when the token is cancelled: what
    /// [`CancellationToken::is_cancelled`] reads without locking, since dispatchers ask
    /// before every hook.
    flag: AtomicBool,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    cancelled: bool,
    next_waiter: u64,
    waiters: HashMap<u64, Waker>,
    children: Vec<Weak<Inner>>,
    /// Dead children are pruned when the list reaches this length; it doubles after each
    /// prune, so pruning costs amortised O(1) per child.
    prune_at: usize,
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding this lock cannot leave the state half-written (every
        // critical section is a few assignments), so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn cancel(&self) {
        let (waiters, children) = {
            let mut state = self.lock();
            if state.cancelled {
                return;
            }
            state.cancelled = true;
            self.flag.store(true, Ordering::Release);
            (
                std::mem::take(&mut state.waiters),
                std::mem::take(&mut state.children),
            )
        };
        // Wakers and children run outside the lock, so a waker that polls this token
        // again, or a child that shares a waiter, cannot deadlock.
        for waker in waiters.into_values() {
            waker.wake();
        }
        for child in children.iter().filter_map(Weak::upgrade) {
            child.cancel();
        }
    }
}

impl CancellationToken {
    /// A new token, not cancelled.
    pub fn new() -> CancellationToken {
        CancellationToken::default()
    }

    /// Cancels this token, its clones and its children.
    pub fn cancel(&self) {
        self.inner.cancel();
    }

    /// Whether the token was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.inner.flag.load(Ordering::Acquire)
    }

    /// A token that is cancelled when this one is (already cancelled if this one is);
    /// cancelling the child leaves this one alone.
    pub fn child_token(&self) -> CancellationToken {
        let child = CancellationToken::new();
        let mut state = self.inner.lock();
        if state.cancelled {
            drop(state);
            child.cancel();
            return child;
        }
        if state.children.len() >= state.prune_at.max(16) {
            state.children.retain(|w| w.strong_count() > 0);
            state.prune_at = state.children.len() * 2;
        }
        state.children.push(Arc::downgrade(&child.inner));
        child
    }

    /// A future that completes once the token is cancelled.
    pub fn cancelled(&self) -> Cancelled<'_> {
        Cancelled {
            token: self,
            waiter: None,
        }
    }

    /// Runs `fut` unless the token is cancelled first: `Some(output)` if it finished,
    /// `None` if it was cancelled (the future is then dropped, which cancels it).
    pub async fn run_until_cancelled<F: Future>(&self, fut: F) -> Option<F::Output> {
        if self.is_cancelled() {
            return None;
        }
        let mut fut = std::pin::pin!(fut);
        let mut cancelled = std::pin::pin!(self.cancelled());
        // The work is polled first, so work that is ready wins over a cancellation that
        // arrives in the same poll.
        std::future::poll_fn(|cx| {
            if let Poll::Ready(out) = fut.as_mut().poll(cx) {
                return Poll::Ready(Some(out));
            }
            match cancelled.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(None),
                Poll::Pending => Poll::Pending,
            }
        })
        .await
    }
}

impl fmt::Debug for CancellationToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CancellationToken")
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

/// The future returned by [`CancellationToken::cancelled`].
#[must_use = "futures do nothing unless polled"]
pub struct Cancelled<'a> {
    token: &'a CancellationToken,
    waiter: Option<u64>,
}

impl Future for Cancelled<'_> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = &mut *self;
        let mut state = this.token.inner.lock();
        if state.cancelled {
            return Poll::Ready(());
        }
        let id = match this.waiter {
            Some(id) => id,
            None => {
                let id = state.next_waiter;
                state.next_waiter += 1;
                this.waiter = Some(id);
                id
            }
        };
        match state.waiters.get_mut(&id) {
            Some(w) if w.will_wake(cx.waker()) => {}
            Some(w) => w.clone_from(cx.waker()),
            None => {
                state.waiters.insert(id, cx.waker().clone());
            }
        }
        Poll::Pending
    }
}

impl Drop for Cancelled<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.waiter {
            self.token.inner.lock().waiters.remove(&id);
        }
    }
}
