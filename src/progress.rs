//! The terminal's progress bar of a `classify` run: one bar a table, drawn
//! on standard error when it is a terminal, cleared before the lines said
//! about the table.

use std::{io::IsTerminal, time::Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use remis_table::classify::Event;

/// The progress bar of the table being written (none off a terminal).
pub fn show(bar: &mut Option<(ProgressBar, Instant)>, event: Event) {
    match event {
        Event::Begin { bytes } => *bar = Some((progress_bar(bytes), Instant::now())),
        Event::Progress(p) => {
            if let Some((bar, started)) = bar {
                bar.set_position(p.bytes_read);
                let rate = p.games as f64 / started.elapsed().as_secs_f64().max(1e-3);
                bar.set_message(format!("{} games, {rate:.0} games/s", p.games));
            }
        }
        Event::End => {
            if let Some((bar, _)) = bar.take() {
                bar.finish_and_clear();
            }
        }
    }
}

fn progress_bar(total: Option<u64>) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
    let template = if total.is_some() {
        "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ({bytes_per_sec}) {msg} ETA {eta}"
    } else {
        "{spinner} [{elapsed_precise}] {bytes} ({bytes_per_sec}) {msg}"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}
