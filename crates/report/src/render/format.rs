//! How numbers, shares and intervals are written, on the page and in the
//! terminal: one formatter each. A leaf of the render layer.

use std::fmt::Write;

use crate::study::Proportion;
pub use crate::study::thousands;

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
/// heading on the page (markup, written as it is: escape what is not a
/// literal) and its name in the CSV. A column may be on the page only (a
/// share the page works out from the counts) or in the CSV only (an
/// interval's bounds, which the page writes in one cell). The page's
/// columns are in the order declared, and so are the CSV's.
#[derive(Copy, Clone, Debug)]
pub enum Col<'a> {
    /// On both: the page's heading, the CSV's name.
    Both(&'a str, &'a str),
    /// On the page only.
    Page(&'a str),
    /// In the CSV only.
    Csv(&'a str),
}

/// How a [`PageTable`] sits on the page.
#[derive(Copy, Clone, Debug)]
pub struct Layout<'a> {
    /// The table's `id`.
    pub id: Option<&'a str>,
    /// The page columns (by position) that are left-aligned labels; the
    /// others are numbers.
    pub labels: &'a [usize],
    /// In a frame that scrolls sideways (`<div class="wide">`).
    pub wide: bool,
    /// The header row in a `<thead>`.
    pub thead: bool,
}

impl Layout<'_> {
    /// The first column the label, in a frame that scrolls sideways.
    pub fn wide() -> Self {
        Layout {
            wide: true,
            ..Layout::default()
        }
    }
}

impl Default for Layout<'_> {
    /// The first column the label, no id, no frame.
    fn default() -> Self {
        Layout {
            id: None,
            labels: &[0],
            wide: false,
            thead: false,
        }
    }
}

/// A table of the page with its CSV download, whose header is declared
/// once ([`Col`]).
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
    labels: &'a [usize],
    wide: bool,
    page: String,
    csv: Vec<Vec<String>>,
}

impl<'a> PageTable<'a> {
    /// Opens the table on the page with its header row; the first column
    /// is the label.
    pub fn new(file: &'a str, columns: &[Col<'a>]) -> PageTable<'a> {
        PageTable::with_layout(file, columns, Layout::default())
    }

    /// Opens the table on the page, laid out as `layout` says.
    pub fn with_layout(file: &'a str, columns: &[Col<'a>], layout: Layout<'a>) -> PageTable<'a> {
        let mut page = String::new();
        if layout.wide {
            page.push_str("<div class=\"wide\">");
        }
        match layout.id {
            Some(id) => {
                let _ = write!(page, "<table id=\"{}\">", escape(id));
            }
            None => page.push_str("<table>"),
        }
        page.push_str(if layout.thead { "<thead><tr>" } else { "<tr>" });
        let mut names = Vec::with_capacity(columns.len());
        let mut shown = 0;
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
                let class = label_class(layout.labels, shown);
                let _ = write!(page, "<th{class}>{heading}</th>");
                shown += 1;
            }
        }
        page.push_str(if layout.thead {
            "</tr></thead>"
        } else {
            "</tr>"
        });
        PageTable {
            file,
            names,
            labels: layout.labels,
            wide: layout.wide,
            page,
            csv: Vec::new(),
        }
    }

    /// A row: its page cells (text already escaped and formatted) and its
    /// CSV values.
    pub fn row(&mut self, page: &[String], csv: Vec<String>) {
        self.page_row(page);
        self.csv.push(csv);
    }

    /// A row whose page cells are written as markup: `attributes` of the
    /// `<tr>` (such as ` class="small"`) and its `<td>` elements (a share
    /// with its interval as a tooltip: [`share_cell`]).
    pub fn row_markup(&mut self, attributes: &str, cells: &str, csv: Vec<String>) {
        let _ = write!(self.page, "<tr{attributes}>{cells}</tr>");
        self.csv.push(csv);
    }

    /// A row on the page only (a total the CSV leaves to its reader).
    pub fn page_row(&mut self, page: &[String]) {
        self.page.push_str("<tr>");
        for (i, cell) in page.iter().enumerate() {
            let class = label_class(self.labels, i);
            let _ = write!(self.page, "<td{class}>{cell}</td>");
        }
        self.page.push_str("</tr>");
    }

    /// Closes the table and adds its CSV download.
    pub fn finish(self, h: &mut String) {
        self.finish_with(h, "");
    }

    /// Closes the table, writes `between` (a caption that belongs under
    /// the table), then the CSV download.
    pub fn finish_with(self, h: &mut String, between: &str) {
        h.push_str(&self.page);
        h.push_str(if self.wide {
            "</table></div>\n"
        } else {
            "</table>\n"
        });
        h.push_str(between);
        h.push_str(&csv_download(self.file, &self.names, &self.csv));
    }
}

/// The class attribute of a label column's cells.
fn label_class(labels: &[usize], column: usize) -> &'static str {
    if labels.contains(&column) {
        " class=\"l\""
    } else {
        ""
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

/// A [`PageTable`]'s columns: the given ones, then a share's: its games,
/// draw rate and interval on the page, and the CSV cells of
/// [`share_cells`] (under the names of [`share_header`]).
pub fn share_columns<'a>(first: &[Col<'a>]) -> Vec<Col<'a>> {
    let mut columns = first.to_vec();
    columns.extend([Col::Both("Games", "games"), Col::Csv("draws")]);
    rate_columns(&columns)
}

/// The given columns, then a draw rate's: the rate, and its interval in
/// one cell on the page and as two bounds in the CSV.
pub fn rate_columns<'a>(first: &[Col<'a>]) -> Vec<Col<'a>> {
    let mut columns = first.to_vec();
    columns.extend([
        Col::Both("Draw rate", "draw_rate"),
        Col::Page("95% interval"),
        Col::Csv("ci95_low"),
        Col::Csv("ci95_high"),
    ]);
    columns
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
    fn a_page_table_declares_its_header_once_for_page_and_csv() {
        let columns = share_columns(&[Col::Both("Played", "played"), Col::Both("Class", "class")]);
        let mut table = PageTable::with_layout(
            "t.csv",
            &columns,
            Layout {
                id: Some("by-play"),
                labels: &[0, 1],
                wide: true,
                thead: true,
            },
        );
        let p = Proportion::new(1, 4);
        let mut csv = vec!["online".to_string(), "blitz".to_string()];
        csv.extend(share_cells(&p));
        let page = [
            "online".into(),
            "blitz".into(),
            "4".into(),
            pct(p.rate()),
            interval(&p),
        ];
        table.row(&page, csv);
        table.row_markup(" class=\"small\"", "<td>x</td>", vec!["a,b".into()]);
        let mut h = String::new();
        table.finish_with(&mut h, "<p>note</p>\n");
        assert!(h.starts_with(
            "<div class=\"wide\"><table id=\"by-play\"><thead><tr><th class=\"l\">Played</th>\
             <th class=\"l\">Class</th><th>Games</th><th>Draw rate</th><th>95% interval</th></tr></thead>\
             <tr><td class=\"l\">online</td><td class=\"l\">blitz</td><td>4</td><td>25.0%</td>"
        ));
        assert!(h.contains(
            "<tr class=\"small\"><td>x</td></tr></table></div>\n<p>note</p>\n<p class=\"csv\">"
        ));
        // The CSV: the columns' names in declared order, then the rows.
        let header = "played,class,games,draws,draw_rate,ci95_low,ci95_high";
        let encoded: String = header.replace(',', "%2C");
        assert!(h.contains(&format!(
            "charset=utf-8,{encoded}%0Aonline%2Cblitz%2C4%2C1%2C0.2500%2C"
        )));
        assert!(
            h.contains("%0A%22a%2Cb%22%0A"),
            "a field with a comma is quoted"
        );
    }

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
