//! `remis explain`'s trail of one game for the terminal, as JSON, and as a
//! self-contained HTML page with a board diagram (inline SVG) at each
//! event.

use std::fmt::Write as _;

use remis_core::excerpt::{Shown, shown};
use remis_core::explain::{
    CountStart, DeadReason, Difference, EXPLAIN_NODES, FinalNote, Occurrence, Proof, Step, Trail,
    TrailEvent, Verdict, article,
};
use remis_core::rules::{GameResult, Mate};
use shakmaty::Color;

use crate::render::format::escape;

fn side(color: Color) -> &'static str {
    color.fold_wb("white", "black")
}

fn result(r: Option<GameResult>) -> &'static str {
    r.map_or("–", GameResult::as_str)
}

/// What a step of the trail is, as its heading: "repetition (occurrence 2
/// of 3)", "fifty-move count starts", "checkmate", …
pub fn kind(step: &Step) -> String {
    match step {
        Step::Checkmate { .. } => "checkmate".into(),
        Step::Stalemate { .. } => "stalemate".into(),
        Step::Repetition {
            occurrence,
            total,
            seen: Occurrence::ByWrittenMove,
        } => format!("repetition (occurrence {occurrence} of {total}), by a written move"),
        Step::Repetition {
            occurrence, total, ..
        } => format!("repetition (occurrence {occurrence} of {total})"),
        Step::NotTheSamePosition { differs } => format!(
            "similar position, not counted: {}",
            match differs {
                Difference::CastlingRights => "castling rights differ",
                Difference::EnPassant =>
                    "an en-passant capture was possible in one and not the other",
            }
        ),
        Step::SameAsFinal { occurrence, total } => {
            format!("same as the final position (occurrence {occurrence} of {total})")
        }
        Step::CountStarts { moves, .. } => format!("{moves}-move count starts"),
        Step::CountCompleted { moves, .. } => format!("{moves} moves by each side completed"),
        Step::FiftyByWrittenMove => "50 moves by each side completed, by a written move".into(),
        Step::Dead(_) => "dead position".into(),
        Step::FlagFall => "flag fall".into(),
        Step::Final(_) => "final position".into(),
    }
}

/// What the Laws make of a step, in a sentence (empty when there is
/// nothing to add).
pub fn note(step: &Step) -> String {
    match step {
        Step::Checkmate { mated } => format!("{} is checkmated", side(*mated)),
        Step::Stalemate { to_move } => format!(
            "{} to move has no legal move and is not in check",
            side(*to_move)
        ),
        Step::Repetition { seen, .. } => match seen {
            Occurrence::Played => {
                "the same position: the same player to move, the same pieces on the same \
                 squares, the same castling and en-passant rights (9.2.2)"
                    .into()
            }
            Occurrence::TargetOfWrittenMove => {
                "the position the written move would bring about".into()
            }
            Occurrence::ByWrittenMove => {
                "written on the scoresheet and not played: the claim rests on it (9.2.1.1)".into()
            }
        },
        Step::NotTheSamePosition { .. } => {
            "the same pieces on the same squares, but not the same position (9.2.2)".into()
        }
        Step::SameAsFinal { .. } => String::new(),
        Step::CountStarts { from, .. } => match from {
            CountStart::BeforeRecord { start_clock } => format!(
                "the count began before the record (the start position's clock is {start_clock})"
            ),
            CountStart::StartPosition => "the start position".into(),
            CountStart::AfterZeroing => "after the last pawn move or capture".into(),
        },
        Step::CountCompleted { halfmoves, .. } => {
            format!("{halfmoves} half-moves without a pawn move or capture")
        }
        Step::FiftyByWrittenMove => {
            "written on the scoresheet and not played: the claim rests on it (9.3.1)".into()
        }
        Step::Dead(reason) => dead_reason(*reason),
        Step::FlagFall => "the position when the flag fell".into(),
        Step::Final(what) => match what {
            FinalNote::Occurred(n) => format!("it has occurred {n} times"),
            FinalNote::HalfMoves(n) => format!("{n} half-moves without a pawn move or capture"),
            FinalNote::Agreed => "drawn by agreement".into(),
            FinalNote::Resigned => "a player resigned".into(),
            FinalNote::Unremarked => String::new(),
        },
    }
}

/// What makes a position dead, in words.
fn dead_reason(reason: DeadReason) -> String {
    match reason {
        DeadReason::InsufficientMaterial => {
            "insufficient material: neither side has the pieces to mate (K v K, K and a minor piece v K, \
             bishops all on squares of one colour)"
                .into()
        }
        DeadReason::DeadBySearch { white, black } => format!(
            "dead by search: every series of legal moves was examined (white can mate: {}, black: {}); \
             a forced line to stalemate or bare material counts too",
            white.as_str(),
            black.as_str()
        ),
        DeadReason::Alive => "the search found a side that can still mate".into(),
        DeadReason::PresumedAlive => {
            "not searched: a side keeps a queen, rook or pawn in a position without frozen pawns or forced \
             lines, so the position is presumed alive (`--search-everywhere` searches in full)"
                .into()
        }
        DeadReason::Unknown => "the search gave up within its budget".into(),
    }
}

/// What the search proved, in a sentence.
pub fn proof(proof: &Proof) -> String {
    match *proof {
        Proof::Dead(reason) => dead_reason(reason),
        Proof::Flag {
            side: color,
            decided,
        } => {
            let name = side(color);
            match decided {
                Some(Mate::Impossible) => format!(
                    "the search exhausted every series of legal moves: {name} cannot checkmate"
                ),
                Some(Mate::Unknown) | None => format!(
                    "the search gave up within its budget: whether {name} can checkmate is not known"
                ),
                Some(Mate::Possible) => format!(
                    "the classification's search found a helpmate for {name}; none was found again within {EXPLAIN_NODES} nodes"
                ),
                Some(Mate::Presumed) => format!(
                    "not searched: {name} keeps a queen, rook or pawn in a position without frozen pawns, so {name} is \
                     presumed able to mate, and the recorded win stands; no helpmate was found within {EXPLAIN_NODES} nodes \
                     (`--search-everywhere` searches in full)"
                ),
            }
        }
    }
}

/// The verdict in one sentence, with the recorded result against the
/// Laws' when they differ.
pub fn summary(trail: &Trail) -> String {
    let mut text = match &trail.verdict {
        Verdict::Mated { winner } => format!("{} mated (5.1.1).", side(*winner)),
        Verdict::Stalemate => "Stalemate: the game is drawn (5.2.1).".into(),
        Verdict::FifthOccurrence { ply } => format!(
            "The position occurred for the fifth time at ply {ply}: the game ended there (9.6.1)."
        ),
        Verdict::ThreefoldClaim { total } => {
            format!("The final position occurred {total} times: a draw by claim (9.2.1).")
        }
        Verdict::WrittenMoveRepetition { written } => format!(
            "A claim with the written move {written}, which would make the position occur a third time (9.2.1.1)."
        ),
        Verdict::RepetitionNotShown => {
            "Recorded as a repetition (the Termination tag); the moves show no position \
             three times, nor a written move that would make one."
                .into()
        }
        Verdict::SeventyFiveCompleted { ply } => format!(
            "75 moves by each side without a pawn move or capture, completed at ply {ply}: the game ended there (9.6.2)."
        ),
        Verdict::FiftyClaim => {
            "50 moves by each side without a pawn move or capture: a draw by claim (9.3.1).".into()
        }
        Verdict::FiftyByWrittenMove => {
            "A claim with a written move that completes 50 moves (9.3.1).".into()
        }
        Verdict::CountNotShown { limit, halfmoves } => format!(
            "Recorded as a {}-move draw (the Termination tag); the moves show {halfmoves} half-moves \
             without a pawn move or capture, not {limit}, nor a written move that completes them.",
            limit / 2
        ),
        Verdict::Dead { ply } => format!(
            "From ply {ply} neither player can checkmate by any series of legal moves: the game ended there (5.2.2)."
        ),
        Verdict::FlagFallLoses { side: color } => format!(
            "The flag fell; {} could still checkmate by a series of legal moves (the helpmate below), so the flag fall loses (6.9).",
            side(*color)
        ),
        Verdict::FlagFallDraws { side: color } => format!(
            "The flag fell, but {} cannot checkmate by any series of legal moves: the game is drawn (6.9).",
            side(*color)
        ),
        Verdict::FlagFell => "The flag fell (6.9).".into(),
        Verdict::FlagFallUnattributed => String::new(),
        Verdict::LookAlikeAgreed { looks_alike, total } => format!(
            "The same pieces stood on the same squares {looks_alike} times with the same player to move, \
             but the position (9.2.2) occurred only {total} times: no threefold repetition. A draw by \
             agreement (9.1)."
        ),
        Verdict::Agreed => {
            "No rule of the Laws ends the game here: a draw by agreement (9.1).".into()
        }
        Verdict::Resigned => "A player resigned (5.1.2).".into(),
        Verdict::Recorded(ending) => format!("Recorded as {}.", ending.as_str().replace('_', " ")),
    };
    if let (Some(reason), Some(recorded), Some(laws)) =
        (trail.mismatch, trail.recorded_result, trail.laws_result)
    {
        text.push_str(&format!(
            " The record says {}; the Laws give {} ({}).",
            recorded.as_str(),
            laws.as_str(),
            reason.as_str().replace('_', " ")
        ));
    }
    text
}

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
        "recorded_result": trail.recorded_result.map(GameResult::as_str),
        "laws_result": trail.laws_result.map(GameResult::as_str),
        "ending": trail.ending.as_str(),
        "article": article(trail.ending),
        "mismatch": trail.mismatch.map(|m| m.as_str()),
        "plies": trail.plies,
        "start_fen": trail.start_fen,
        "moves": trail.moves,
        "summary": summary(trail),
        "events": trail.events.iter().map(|e| serde_json::json!({
            "ply": e.ply, "san": e.san, "fen": e.fen, "kind": kind(&e.step), "note": note(&e.step),
        })).collect::<Vec<_>>(),
        "helpmate": trail.helpmate.as_ref().map(|h| &h.san),
        "helpmate_fen": trail.helpmate.as_ref().map(|h| &h.fen),
        "helpmate_side": trail.helpmate.as_ref().map(|h| side(h.side)),
        "proof": trail.proof.as_ref().map(proof),
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
        trail.ending.as_str(),
        article(trail.ending),
        result(trail.recorded_result),
        result(trail.laws_result),
        trail.plies
    )?;
    writeln!(out, "{}", shown(&summary(trail)))?;
    if let Some(error) = &trail.error {
        writeln!(out, "error: {}", shown(error))?;
    }
    for e in &trail.events {
        let note = note(&e.step);
        writeln!(
            out,
            "  ply {:>4}  {:<12} {}\n            {}{}",
            e.ply,
            Shown(e.san.as_deref().unwrap_or("(start)")),
            shown(&kind(&e.step)),
            shown(&e.fen),
            if note.is_empty() {
                String::new()
            } else {
                format!("\n            {}", shown(&note))
            }
        )?;
    }
    if let Some(h) = &trail.helpmate {
        writeln!(
            out,
            "helpmate ({} mates) from {}:\n  {}",
            side(h.side),
            shown(&h.fen),
            shown(&h.san.join(" "))
        )?;
    }
    if let Some(p) = &trail.proof {
        writeln!(out, "proof: {}", shown(&proof(p)))?;
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
        kind(&e.step)
    );
    let _ = write!(
        h,
        "<figure class=\"event\" id=\"ply-{}\">{}<figcaption><strong>{}</strong><br><code>{}</code><br>{}</figcaption></figure>",
        e.ply,
        board_svg(&e.fen, &title),
        escape(&title),
        escape(&e.fen),
        escape(&note(&e.step))
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
        escape(trail.ending.as_str()),
        escape(article(trail.ending)),
        escape(result(trail.recorded_result)),
        escape(result(trail.laws_result)),
        trail.plies,
        escape(&summary(trail))
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
            escape(side(hm.side)),
            escape(&hm.fen),
            escape(&hm.san.join(" ")),
            board_svg(&hm.fen, "The position the helpmate starts from")
        );
    }
    if let Some(p) = &trail.proof {
        let _ = write!(
            h,
            "<p id=\"{id}proof\"><strong>What the search proved:</strong> {}</p>",
            escape(&proof(p))
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
