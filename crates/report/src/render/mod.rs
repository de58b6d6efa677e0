//! Rendering: the analyses' plain data as HTML sections and SVG charts
//! (plotters). Text, CSV and JSON for the terminal live with the commands
//! that print them.

pub mod charts;
pub mod html;
pub mod sections;
pub mod text;

/// Escapes text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
