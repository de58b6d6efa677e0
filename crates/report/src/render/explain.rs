//! `remis explain`'s trail of one game for the terminal, as JSON, and as a
//! self-contained HTML page with a board diagram (inline SVG) at each
//! event.

use std::fmt::Write as _;

use remis_core::excerpt::{Shown, shown};
use remis_core::explain::{Trail, TrailEvent};

use crate::render::format::escape;

/// The trail as one JSON document: `ending`, `article`, `events` (each
/// with `ply`, `san`, `fen`, `kind`, `note`), and for a flag fall where the
/// opponent can mate, `helpmate` (SAN moves) and `helpmate_fen`.
pub fn json(trail: &Trail) -> serde_json::Value {
    serde_json::json!({
        "source": trail.source,
        "game_no": trail.game_no,
        "white": trail.white,
        "black": trail.black,
        "event": trail.event,
        "date": trail.date,
        "recorded_result": trail.recorded_result,
        "laws_result": trail.laws_result,
        "ending": trail.ending,
        "article": trail.article,
        "mismatch": trail.mismatch,
        "plies": trail.plies,
        "start_fen": trail.start_fen,
        "moves": trail.moves,
        "summary": trail.summary,
        "events": trail.events.iter().map(|e| serde_json::json!({
            "ply": e.ply, "san": e.san, "fen": e.fen, "kind": e.kind, "note": e.note,
        })).collect::<Vec<_>>(),
        "helpmate": trail.helpmate.as_ref().map(|h| &h.san),
        "helpmate_fen": trail.helpmate.as_ref().map(|h| &h.fen),
        "helpmate_side": trail.helpmate.as_ref().map(|h| h.side),
        "proof": trail.proof,
        "error": trail.error,
    })
}

fn players(trail: &Trail) -> String {
    format!(
        "{} – {}",
        trail.white.as_deref().unwrap_or("?"),
        trail.black.as_deref().unwrap_or("?")
    )
}

/// The trail for a terminal: every value in it (the source's name, the
/// tags, the moves, the notes) [`shown`], so that none starts a line of
/// its own or sends an escape sequence; the line feeds are the layout's.
pub fn text(out: &mut dyn std::io::Write, trail: &Trail) -> std::io::Result<()> {
    writeln!(
        out,
        "{} game {}: {}",
        shown(&trail.source),
        trail.game_no,
        shown(&players(trail))
    )?;
    if let Some(event) = &trail.event {
        writeln!(
            out,
            "  {}{}",
            shown(event),
            trail
                .date
                .as_deref()
                .map_or(String::new(), |d| format!(", {}", shown(d)))
        )?;
    }
    writeln!(
        out,
        "ending: {} (art. {}); recorded {}, under the Laws {}; {} plies",
        trail.ending,
        trail.article,
        trail.recorded_result.unwrap_or("–"),
        trail.laws_result.unwrap_or("–"),
        trail.plies
    )?;
    writeln!(out, "{}", shown(&trail.summary))?;
    if let Some(error) = &trail.error {
        writeln!(out, "error: {}", shown(error))?;
    }
    for e in &trail.events {
        writeln!(
            out,
            "  ply {:>4}  {:<12} {}\n            {}{}",
            e.ply,
            Shown(e.san.as_deref().unwrap_or("(start)")),
            shown(&e.kind),
            shown(&e.fen),
            if e.note.is_empty() {
                String::new()
            } else {
                format!("\n            {}", shown(&e.note))
            }
        )?;
    }
    if let Some(h) = &trail.helpmate {
        writeln!(
            out,
            "helpmate ({} mates) from {}:\n  {}",
            h.side,
            shown(&h.fen),
            shown(&h.san.join(" "))
        )?;
    }
    if let Some(proof) = &trail.proof {
        writeln!(out, "proof: {}", shown(proof))?;
    }
    Ok(())
}

/// A board diagram of a FEN's placement, White at the bottom.
pub fn board_svg(fen: &str, caption: &str) -> String {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let square = 30;
    // The coordinates sit in a margin left of and below the board, as on a
    // printed diagram, clear of the pieces.
    let margin = 12;
    let size = 8 * square + margin;
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg class=\"board\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {size} {size}\" width=\"{size}\" height=\"{size}\" role=\"img\"><title>{}</title>",
        escape(caption),
    );
    for rank in 0..8 {
        for file in 0..8 {
            let light = (rank + file) % 2 == 0;
            let _ = write!(
                svg,
                "<rect x=\"{}\" y=\"{}\" width=\"{square}\" height=\"{square}\" fill=\"{}\"/>",
                margin + file * square,
                rank * square,
                if light { "#f0d9b5" } else { "#b58863" }
            );
        }
    }
    for i in 0..8 {
        let _ = write!(
            svg,
            "<text class=\"coord\" x=\"{}\" y=\"{}\" font-size=\"9\" text-anchor=\"middle\" fill=\"#555\">{}</text>\
             <text class=\"coord\" x=\"{}\" y=\"{}\" font-size=\"9\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            margin / 2,
            i * square + square / 2 + 3,
            8 - i,
            margin + i * square + square / 2,
            8 * square + margin - 2,
            char::from(b'a' + i as u8)
        );
    }
    for (rank, row) in placement.split('/').enumerate().take(8) {
        let mut file = 0;
        for c in row.chars() {
            if let Some(empty) = c.to_digit(10) {
                file += empty as usize;
                continue;
            }
            let glyph = match c.to_ascii_lowercase() {
                'k' => '♚',
                'q' => '♛',
                'r' => '♜',
                'b' => '♝',
                'n' => '♞',
                _ => '♟',
            };
            let (fill, stroke) = if c.is_ascii_uppercase() {
                ("#fff", "#000")
            } else {
                ("#000", "#000")
            };
            let _ = write!(
                svg,
                "<text class=\"piece\" x=\"{}\" y=\"{}\" font-size=\"26\" text-anchor=\"middle\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"0.8\">{glyph}</text>",
                margin + file * square + square / 2,
                rank * square + square - 6,
            );
            file += 1;
        }
    }
    svg.push_str("</svg>");
    svg
}

fn event_html(h: &mut String, e: &TrailEvent) {
    let title = format!(
        "Ply {}{}: {}",
        e.ply,
        e.san
            .as_deref()
            .map_or(String::new(), |s| format!(" ({s})")),
        e.kind
    );
    let _ = write!(
        h,
        "<figure class=\"event\" id=\"ply-{}\">{}<figcaption><strong>{}</strong><br><code>{}</code><br>{}</figcaption></figure>",
        e.ply,
        board_svg(&e.fen, &title),
        escape(&title),
        escape(&e.fen),
        escape(&e.note)
    );
}

/// The command that explains a game of a source (`path!member` for a
/// member of an archive), for a shell: a name in single quotes, or, when
/// it holds a control character (a line feed), in bash's `$'…'` with the
/// character [`shown`] as `\u000a`: the command stays on one line and
/// names the file.
pub fn command(source: &str, game_no: u64) -> String {
    let quote = |s: &str| {
        if s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c))
        {
            s.to_string()
        } else if s.chars().any(char::is_control) {
            let escaped = s.replace('\\', "\\\\").replace('\'', "\\'");
            format!("$'{}'", shown(&escaped))
        } else {
            format!("'{}'", s.replace('\'', "'\\''"))
        }
    };
    match source.split_once('!') {
        Some((file, member)) => format!(
            "remis explain {} --source {} --game {game_no}",
            quote(file),
            quote(member)
        ),
        None => format!("remis explain {} --game {game_no}", quote(source)),
    }
}

/// The trail's verdict, events, helpmate and proof as HTML, for a page of
/// its own or a part of the report; `id` prefixes the element ids.
pub fn fragment(trail: &Trail, id: &str) -> String {
    let mut h = String::new();
    if let Some(event) = &trail.event {
        let _ = write!(
            h,
            "<p>{}{}</p>",
            escape(event),
            trail
                .date
                .as_deref()
                .map_or(String::new(), |d| format!(", {}", escape(d)))
        );
    }
    let _ = write!(
        h,
        "<p id=\"{id}verdict\"><strong>{}</strong> (article {} of the FIDE Laws); recorded {}, under the Laws {}; {} plies.</p><p>{}</p>",
        escape(trail.ending),
        escape(trail.article),
        escape(trail.recorded_result.unwrap_or("–")),
        escape(trail.laws_result.unwrap_or("–")),
        trail.plies,
        escape(&trail.summary)
    );
    if let Some(error) = &trail.error {
        let _ = write!(h, "<p>Error: {}</p>", escape(error));
    }
    let _ = write!(h, "<div id=\"{id}events\" class=\"trail\">");
    for e in &trail.events {
        event_html(&mut h, e);
    }
    h.push_str("</div>");
    if let Some(hm) = &trail.helpmate {
        let _ = write!(
            h,
            "<div id=\"{id}helpmate\"><p><strong>Helpmate: {} can mate.</strong> From <code>{}</code>: {}</p>{}</div>",
            escape(hm.side),
            escape(&hm.fen),
            escape(&hm.san.join(" ")),
            board_svg(&hm.fen, "The position the helpmate starts from")
        );
    }
    if let Some(proof) = &trail.proof {
        let _ = write!(
            h,
            "<p id=\"{id}proof\"><strong>What the search proved:</strong> {}</p>",
            escape(proof)
        );
    }
    h
}

/// Styles of a trail's boards, for any page that shows one.
pub const STYLE: &str = "figure.event { display: inline-block; vertical-align: top; margin: 8px; width: 250px; } \
figure.event figcaption { font-size: 0.8rem; overflow-wrap: anywhere; } \
figure.event code { font-size: 0.75rem; }";

/// The trail as a self-contained HTML page.
pub fn html(trail: &Trail) -> String {
    let title = format!(
        "{} game {}: {}",
        trail.source,
        trail.game_no,
        players(trail)
    );
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title><style>\
         body {{ font-family: system-ui, sans-serif; max-width: 1000px; margin: 2rem auto; padding: 0 1rem; color: #1f2933; }} \
         h1 {{ font-size: 1.4rem; overflow-wrap: anywhere; }} {STYLE}\
         </style></head><body><h1>{t}</h1>{}</body></html>\n",
        fragment(trail, ""),
        t = escape(&title),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_names_the_archive_and_its_member() {
        assert_eq!(
            command("data/a.pgn", 3),
            "remis explain data/a.pgn --game 3"
        );
        assert_eq!(
            command("twic/twic1500g.zip!twic1500.pgn", 7),
            "remis explain twic/twic1500g.zip --source twic1500.pgn --game 7"
        );
        assert_eq!(
            command("my games.pgn", 1),
            "remis explain 'my games.pgn' --game 1"
        );
        // A line feed or an escape in a name: one line, the escapes for
        // bash's $'…'.
        assert_eq!(
            command("a'b\\\nFORGED\u{1b}[31m.pgn", 2),
            "remis explain $'a\\'b\\\\\\u000aFORGED\\u001b[31m.pgn' --game 2"
        );
    }

    #[test]
    fn the_board_has_every_piece_of_the_fen() {
        let svg = board_svg(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "start",
        );
        assert_eq!(svg.matches("<text class=\"piece\"").count(), 32);
        assert_eq!(svg.matches("<text class=\"coord\"").count(), 16);
        assert_eq!(svg.matches("<rect").count(), 64);
        assert!(svg.contains("<title>start</title>"));
    }
}
