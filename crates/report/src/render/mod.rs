//! Rendering: the analyses' plain data as HTML sections and SVG charts
//! (plotters), and as text, CSV and JSON for the terminal (`views` for
//! `remis stats`, `studies` for `remis sofia` and `remis scoring`,
//! `explain` for `remis explain`); the
//! commands only choose and print.

pub mod charts;
pub mod explain;
pub mod format;
pub mod format_audit;
pub mod html;
pub mod palette;
pub mod sections;
pub mod studies;
pub mod text;
pub mod views;
