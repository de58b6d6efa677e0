//! How numbers, shares and intervals are written, on the page and in the
//! terminal: one formatter each. A leaf of the render layer.

use std::fmt::Write;

use crate::study::Proportion;

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

/// A share as a percentage with one decimal: `37.5%`.
pub fn percent(rate: f64) -> String {
    format!("{:.1}%", rate * 100.0)
}

/// A share, or a dash when there is none.
pub fn pct(p: Option<f64>) -> String {
    p.map_or("–".into(), percent)
}

/// A proportion's 95% interval: `35.1–39.9%`.
pub fn interval(p: &Proportion) -> String {
    p.wilson95()
        .map_or("–".into(), |(lo, hi)| range_percent(lo, hi))
}

/// An interval of shares: `35.1–39.9%`.
pub fn range_percent(lo: f64, hi: f64) -> String {
    format!("{:.1}–{:.1}%", lo * 100.0, hi * 100.0)
}

/// One CSV field: quoted where it must be, and neutralised where a
/// spreadsheet would take it for a formula (OWASP's rule for CSV
/// injection): a cell that starts with `=`, `+`, `-`, `@`, a tab or a
/// carriage return gets a leading `'` and quotes, unless it is a plain
/// number (`-0.5`, `+12`, `-3.1%`), which no spreadsheet runs.
pub fn csv_field(cell: &str) -> std::borrow::Cow<'_, str> {
    let formula = cell.starts_with(['=', '+', '-', '@', '\t', '\r']) && !is_plain_number(cell);
    if formula {
        return format!("\"'{}\"", cell.replace('"', "\"\"")).into();
    }
    if cell.contains([',', '"', '\n', '\r']) {
        return format!("\"{}\"", cell.replace('"', "\"\"")).into();
    }
    cell.into()
}

/// A sign, digits with at most one decimal point, and an optional `%`.
fn is_plain_number(cell: &str) -> bool {
    let body = cell.strip_prefix(['+', '-']).unwrap_or(cell);
    let body = body.strip_suffix('%').unwrap_or(body);
    let mut parts = body.splitn(2, '.');
    let whole = parts.next().unwrap_or_default();
    let fraction = parts.next();
    !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
}

/// A column of a [`PageTable`], declared once for the page and the CSV: its
/// heading on the page and its name in the CSV. A column may be on the
/// page only (a share the page works out from the counts) or in the CSV
/// only (an interval's bounds, which the page writes in one cell).
#[derive(Copy, Clone, Debug)]
pub enum Col<'a> {
    /// On both: the page's heading, the CSV's name.
    Both(&'a str, &'a str),
    /// On the page only.
    Page(&'a str),
    /// In the CSV only.
    Csv(&'a str),
}

/// A table of the page with its CSV download, whose header is declared
/// once ([`Col`]). The first page column is a left-aligned label; the
/// others are numbers.
///
/// ```
/// use remis_report::render::format::{Col, PageTable};
///
/// let mut table = PageTable::new("games.csv", &[Col::Both("Kind", "kind"), Col::Both("Games", "games"), Col::Page("Share")]);
/// table.row(&["Read".into(), "1\u{202f}000".into(), "100%".into()], vec!["read".into(), "1000".into()]);
/// let mut page = String::new();
/// table.finish(&mut page);
/// assert!(page.starts_with("<table><tr><th class=\"l\">Kind</th><th>Games</th><th>Share</th></tr>"));
/// assert!(page.contains("download=\"games.csv\""));
/// ```
pub struct PageTable<'a> {
    file: &'a str,
    names: Vec<&'a str>,
    page: String,
    csv: Vec<Vec<String>>,
}

impl<'a> PageTable<'a> {
    /// Opens the table on the page with its header row.
    pub fn new(file: &'a str, columns: &[Col<'a>]) -> PageTable<'a> {
        let mut page = String::from("<table><tr>");
        let mut names = Vec::with_capacity(columns.len());
        let mut first = true;
        for column in columns {
            let heading = match *column {
                Col::Both(heading, name) => {
                    names.push(name);
                    Some(heading)
                }
                Col::Page(heading) => Some(heading),
                Col::Csv(name) => {
                    names.push(name);
                    None
                }
            };
            if let Some(heading) = heading {
                let class = if std::mem::take(&mut first) {
                    " class=\"l\""
                } else {
                    ""
                };
                let _ = write!(page, "<th{class}>{}</th>", escape(heading));
            }
        }
        page.push_str("</tr>");
        PageTable {
            file,
            names,
            page,
            csv: Vec::new(),
        }
    }

    /// A row: its page cells (text already escaped and formatted, the first
    /// the label) and its CSV values.
    pub fn row(&mut self, page: &[String], csv: Vec<String>) {
        self.page_row(page);
        self.csv.push(csv);
    }

    /// A row on the page only (a total the CSV leaves to its reader).
    pub fn page_row(&mut self, page: &[String]) {
        self.page.push_str("<tr>");
        for (i, cell) in page.iter().enumerate() {
            let class = if i == 0 { " class=\"l\"" } else { "" };
            let _ = write!(self.page, "<td{class}>{cell}</td>");
        }
        self.page.push_str("</tr>");
    }

    /// Closes the table and adds its CSV download.
    pub fn finish(self, h: &mut String) {
        h.push_str(&self.page);
        h.push_str("</table>\n");
        h.push_str(&csv_download(self.file, &self.names, &self.csv));
    }
}

/// A link that downloads a table as CSV from the page itself (a data:
/// URI: the page stays one file, with no network and no scripts).
pub fn csv_download(file: &str, header: &[&str], rows: &[Vec<String>]) -> String {
    let quote = |cell: &str| csv_field(cell).into_owned();
    let mut text = header
        .iter()
        .map(|c| quote(c))
        .collect::<Vec<_>>()
        .join(",");
    text.push('\n');
    for row in rows {
        text.push_str(&row.iter().map(|c| quote(c)).collect::<Vec<_>>().join(","));
        text.push('\n');
    }
    let mut encoded = String::with_capacity(text.len() * 2);
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                encoded.push(char::from(b))
            }
            _ => {
                let _ = write!(encoded, "%{b:02X}");
            }
        }
    }
    format!(
        "<p class=\"csv\"><a download=\"{}\" href=\"data:text/csv;charset=utf-8,{encoded}\">Download this table as CSV</a></p>\n",
        escape(file)
    )
}

/// A CSV header: the given columns, then those of [`share_cells`].
pub fn share_header<'a>(first: &[&'a str]) -> Vec<&'a str> {
    let mut header = first.to_vec();
    header.extend(["games", "draws", "draw_rate", "ci95_low", "ci95_high"]);
    header
}

/// A proportion as CSV cells: n, successes, rate, interval.
pub fn share_cells(p: &Proportion) -> Vec<String> {
    let (lo, hi) = p
        .wilson95()
        .map_or((String::new(), String::new()), |(l, h)| {
            (format!("{l:.4}"), format!("{h:.4}"))
        });
    vec![
        p.n.to_string(),
        p.successes.to_string(),
        p.rate().map_or(String::new(), |r| format!("{r:.4}")),
        lo,
        hi,
    ]
}

/// A count with thin spaces between thousands.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    out
}

/// A table cell: the share, with its interval as a tooltip.
pub fn share_cell(p: &Proportion) -> String {
    format!(
        "<td title=\"95% interval {}\">{}</td>",
        interval(p),
        pct(p.rate())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_that_a_spreadsheet_would_run_are_neutralised() {
        for hostile in [
            "=HYPERLINK(\"http://x\",\"y\")",
            "+1+cmd|' /C calc'!A0",
            "-2+3",
            "@SUM(A1)",
            "\tx",
            "\rx",
        ] {
            let field = csv_field(hostile);
            assert!(field.starts_with("\"'"), "{hostile:?} -> {field}");
        }
        for number in ["-0.5", "+12", "-3.1%", "42", "0.25"] {
            assert_eq!(csv_field(number), number);
        }
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
