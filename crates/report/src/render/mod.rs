//! Rendering: the analyses' plain data as HTML sections and SVG charts
//! (plotters). Text, CSV and JSON for the terminal live with the commands
//! that print them.

pub mod charts;
pub mod format;
pub mod format_audit;
pub mod html;
pub mod palette;
pub mod sections;
pub mod studies;
pub mod text;
pub mod views;
