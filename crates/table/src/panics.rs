//! Panics inside polars, on polars' own threads: contained, not printed.
//!
//! polars reads a Parquet file on its thread pool (`polars-N`) and runs
//! its streaming engine on `async-executor-N`; a hostile file (cut while it
//! is read, a corrupt page) can make it panic there. The panic reaches the
//! caller, which contains it ([`crate::parquet_input::contained`]) and
//! names the file; but Rust's default hook had already printed the panic
//! on the user's terminal, with a backtrace hint and no file name. The
//! hook installed here keeps such panics quiet and remembers the last
//! one's message, for the error that names the file.

use std::sync::Mutex;

static LAST: Mutex<Option<String>> = Mutex::new(None);

thread_local! {
    /// Calls to [`quietly`] under way on this thread.
    static QUIET: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Runs `call`, catching a panic in it (on this thread, or on polars'
/// threads and passed back here) without printing it: the caller turns it
/// into an error that names the file.
pub fn quietly<T>(call: impl FnOnce() -> T) -> std::thread::Result<T> {
    QUIET.with(|q| q.set(q.get() + 1));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(call));
    QUIET.with(|q| q.set(q.get() - 1));
    result
}

/// Whether the current thread is one of polars': its pool's (named by
/// `POLARS_THREAD_NAME`, `polars` by default), its streaming engine's or
/// its async reader's.
fn on_a_polars_thread() -> bool {
    let current = std::thread::current();
    let Some(name) = current.name() else {
        return false;
    };
    let pool = std::env::var("POLARS_THREAD_NAME").unwrap_or_else(|_| "polars".to_string());
    let numbered = |prefix: &str| {
        name.strip_prefix(prefix)
            .and_then(|rest| rest.strip_prefix('-'))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    // polars' async reads run on a tokio runtime of its own, whose threads
    // keep tokio's default name.
    numbered(&pool)
        || numbered("polars")
        || numbered("async-executor")
        || name == "tokio-runtime-worker"
        || name == "tokio-rt-worker"
}

/// Installs the hook: a panic on a polars thread, or inside [`quietly`], is
/// remembered, not printed; any other goes to the hook installed before
/// (Rust's default).
pub fn install_hook() {
    let before = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !on_a_polars_thread() && QUIET.with(|q| q.get()) == 0 {
            return before(info);
        }
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("no message");
        let place = info
            .location()
            .map(|l| format!(" ({}:{})", l.file(), l.line()))
            .unwrap_or_default();
        if let Ok(mut last) = LAST.lock() {
            *last = Some(format!("{message}{place}"));
        }
    }));
}

/// The message of the last panic on a polars thread, taken.
pub fn take_last() -> Option<String> {
    LAST.lock().ok().and_then(|mut last| last.take())
}

/// What a panic's payload says, or the last polars thread's panic when
/// the payload was passed on without a message of its own.
pub fn message(payload: &(dyn std::any::Any + Send)) -> String {
    let own = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied());
    let last = take_last();
    match (own, last) {
        (_, Some(last)) => last,
        (Some(own), None) => own.to_string(),
        (None, None) => "no message".to_string(),
    }
}
