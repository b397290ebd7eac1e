//! Accepting and serving connections, with the limits a hostile or broken client meets: a deadline for a
//! request's headers, a cap on open connections, and a deadline for graceful shutdown. `axum::serve` has
//! none of these (a client sending half its headers held its connection, and a stop, for as long as it
//! liked), so connections are served here with hyper's HTTP/1 server directly.

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;

/// The time a client has to send a request's headers, counted from the moment the server starts reading
/// them (a new connection, or one kept alive after an answer): then the connection is closed. A request's
/// headers are a few hundred bytes.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);
/// Connections open at once. Past it, new ones wait in the kernel's queue (they take no file descriptor
/// here) until one closes; with [`HEADER_TIMEOUT`] a client that sends nothing holds its place for at most
/// that long. Well under the usual limit of 1,024 open files.
pub const MAX_CONNECTIONS: usize = 512;
/// After Ctrl-C or SIGTERM, the time open connections get to finish the request they are on; the ones still
/// open then (a half-sent request, a search still running) are dropped.
pub const GRACE: Duration = Duration::from_secs(1);
/// The wait after a failed accept (out of file descriptors, say) before the next: failing again at once
/// would only spin.
const ACCEPT_RETRY: Duration = Duration::from_millis(50);

/// Serves `router` on `listener` until `stop` resolves, then gives the open connections [`GRACE`] to finish
/// and drops the rest.
pub async fn serve(listener: TcpListener, router: Router, stop: impl Future<Output = ()>) {
    let places = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let (stopping, stop_seen) = watch::channel(false);
    let mut connections = JoinSet::new();
    let mut stop = std::pin::pin!(stop);
    loop {
        let (stream, place) = tokio::select! {
            () = &mut stop => break,
            accepted = accept(&listener, &places) => accepted,
        };
        // Reap the finished ones, so the set holds only open connections.
        while connections.try_join_next().is_some() {}
        connections.spawn(connection(stream, place, router.clone(), stop_seen.clone()));
    }
    drop(listener);
    // Every connection finishes its request and closes, or is dropped with the set after the grace period.
    let _ = stopping.send(true);
    let _ = tokio::time::timeout(GRACE, async { while connections.join_next().await.is_some() {} }).await;
}

/// The next connection, once it has a place among the [`MAX_CONNECTIONS`].
async fn accept(listener: &TcpListener, places: &Arc<Semaphore>) -> (TcpStream, OwnedSemaphorePermit) {
    let place = Arc::clone(places).acquire_owned().await.expect("the places are never closed");
    loop {
        match listener.accept().await {
            Ok((stream, _)) => return (stream, place),
            Err(_) => tokio::time::sleep(ACCEPT_RETRY).await,
        }
    }
}

/// Serves one connection (holding its `place`) until it closes, or until the server stops: then it ends
/// after the request it is on, as the caller drops it after [`GRACE`] anyway.
async fn connection(stream: TcpStream, place: OwnedSemaphorePermit, router: Router, mut stop: watch::Receiver<bool>) {
    let _place = place;
    // Answers are small and sent whole: no reason to wait for more to send.
    let _ = stream.set_nodelay(true);
    let conn = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .serve_connection(TokioIo::new(stream), TowerToHyperService::new(router));
    let mut conn = std::pin::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => return,
        _ = stop.wait_for(|stopped| *stopped) => conn.as_mut().graceful_shutdown(),
    }
    let _ = conn.await;
}
