//! The cancellation token: clones share it, children follow their parent, waiters wake.

use std::time::Duration;

use hooks_orchestration::CancellationToken;

#[test]
fn clones_share_and_children_follow_the_parent_only() {
    let parent = CancellationToken::new();
    let clone = parent.clone();
    let child = parent.child_token();
    let grandchild = child.child_token();
    let sibling = parent.child_token();

    child.cancel();
    assert!(child.is_cancelled() && grandchild.is_cancelled());
    assert!(!parent.is_cancelled() && !sibling.is_cancelled() && !clone.is_cancelled());

    clone.cancel();
    assert!(parent.is_cancelled() && sibling.is_cancelled());
    let late = parent.child_token();
    assert!(
        late.is_cancelled(),
        "a child of a cancelled token starts cancelled"
    );
}

#[test]
fn many_dropped_children_do_not_pile_up() {
    let parent = CancellationToken::new();
    for _ in 0..10_000 {
        drop(parent.child_token());
    }
    let kept = parent.child_token();
    parent.cancel();
    assert!(kept.is_cancelled());
}

#[tokio::test(start_paused = true)]
async fn cancelled_wakes_every_waiter() {
    let token = CancellationToken::new();
    let child = token.child_token();
    let waiters = async {
        tokio::join!(token.cancelled(), token.cancelled(), child.cancelled());
    };
    let canceller = async {
        tokio::time::sleep(Duration::from_secs(1)).await;
        token.cancel();
    };
    tokio::join!(waiters, canceller);
    // Completing at all is the assertion; an already cancelled token answers at once.
    token.cancelled().await;
}

#[tokio::test(start_paused = true)]
async fn run_until_cancelled() {
    let token = CancellationToken::new();
    assert_eq!(token.run_until_cancelled(async { 7 }).await, Some(7));
    let (out, ()) = tokio::join!(
        token.run_until_cancelled(std::future::pending::<()>()),
        async { token.cancel() }
    );
    assert_eq!(out, None);
    assert_eq!(token.run_until_cancelled(async { 7 }).await, None);
}

#[tokio::test(start_paused = true)]
async fn a_dropped_waiter_leaves_no_waker_behind() {
    let token = CancellationToken::new();
    // Poll a waiter once, then drop it; the token must still cancel and wake a later one.
    let _ = tokio::time::timeout(Duration::from_secs(1), token.cancelled()).await;
    let (_, ()) = tokio::join!(token.cancelled(), async { token.cancel() });
    assert!(token.is_cancelled());
}
