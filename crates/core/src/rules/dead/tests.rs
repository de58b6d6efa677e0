use super::*;
use shakmaty::{CastlingMode, fen::Fen};

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn dead(fen: &str) -> Deadness {
    let pos = position(fen);
    deadness(&pos, pos.legal_moves().len(), &SearchOptions::default())
}

#[test]
fn positions_the_filter_missed_on_real_games_are_dead() {
    // Portisch–Lengyel, Malaga 1964, agreed drawn here: White must
    // take the queen, and all three captures stalemate Black.
    assert_eq!(
        dead("7k/8/6QK/3p2q1/3P1P2/4P3/8/8 w - - 3 54"),
        Deadness::DeadBySearch
    );
    // Alekhine–Rico, Gijon 1945: the a-pawn is blocked by Black's king,
    // which can never leave a8; whatever White does ends in stalemate.
    assert_eq!(
        dead("k7/Pp1K4/1P6/8/8/8/8/8 w - - 1 59"),
        Deadness::DeadBySearch
    );
    // McShane–Gelfand, London 2021: the same with the h-pawn.
    assert_eq!(
        dead("7k/6pP/6P1/6K1/8/8/8/8 w - - 1 57"),
        Deadness::DeadBySearch
    );
    // Zhu Chen–Danielian, Nalchik 2010, one ply earlier: Kh8 is Black's
    // only move and shuts the h-pawn in.
    assert_eq!(
        dead("4K1k1/6pP/6P1/8/8/8/8/8 b - - 0 123"),
        Deadness::DeadBySearch
    );
    // lichess.org/hjwtU1Q6, two plies before the stalemate: 53...h4+ is
    // Black's only move, and all four answers stalemate Black.
    assert_eq!(
        dead("8/5Q1R/8/6kp/8/6KP/6P1/8 b - - 4 53"),
        Deadness::DeadBySearch
    );
    // Erigaisi–Carlsen, online 2021: a locked wall whose d5 pawn checks
    // the white king; a check is not a capture that opens the wall.
    assert_eq!(
        dead("8/8/1p1k4/pP1p1p1p/P1KP1P1P/8/8/8 w - - 0 60"),
        Deadness::DeadBySearch
    );
}

#[test]
fn walls_and_forced_captures_are_dead() {
    // Eight locked pawn pairs; the kings can never cross.
    let wall = "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1";
    assert_eq!(dead(wall), Deadness::DeadBySearch);
    // Bishops locked behind the same wall.
    let bishops = "2b1k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1";
    assert_eq!(dead(bishops), Deadness::DeadBySearch);
    // After 1.Rg8+ Kxg8 is forced, leaving K v K.
    assert_eq!(
        dead("6Rk/8/6K1/8/8/8/8/8 b - - 0 1"),
        Deadness::DeadBySearch
    );
    assert_eq!(
        dead("8/8/4k3/8/8/3K4/5B2/8 w - - 0 1"),
        Deadness::InsufficientMaterial
    );
}

#[test]
fn moves_that_all_end_the_game_are_a_proof() {
    // CHA-Solver's known answers, each with more than four moves for
    // the side to move. Every one of White's five moves stalemates
    // Black or mates Black: Black can never mate, whatever its rook
    // and pawn (the full search agrees).
    let options = SearchOptions::default();
    let everywhere = SearchOptions {
        everywhere: true,
        ..SearchOptions::default()
    };
    let pos = position("B7/8/8/8/4r3/8/7p/5K1k w - - 0 1");
    let legal = pos.legal_moves().len();
    assert!(legal > FORCED_REPLIES);
    assert_eq!(
        can_mate_after_flag(&pos, Color::Black, legal, &options),
        Mate::Impossible
    );
    assert_eq!(can_mate(&pos, Color::Black, &everywhere), Mate::Impossible);
    // White can (one move mates): the rule answers only for the side
    // not to move.
    assert_eq!(
        can_mate_after_flag(&pos, Color::White, legal, &options),
        Mate::Possible
    );
    // Every move of the side to move stalemates: dead.
    for fen in [
        "8/8/p1p5/PkP5/RP6/PP6/1K6/8 w - - 0 1",
        "8/p7/k7/6P1/1Q6/P2Np1N1/1P2PK2/7R w - - 0 1",
    ] {
        let pos = position(fen);
        let legal = pos.legal_moves().len();
        assert!(legal > FORCED_REPLIES, "{fen}");
        assert!(
            forced_line_ends(&pos, 1, ENDING_REPLIES, &|p: &Chess| p.is_stalemate()),
            "{fen}"
        );
        assert_eq!(dead(fen), Deadness::DeadBySearch, "{fen}");
        let full = deadness(&pos, pos.legal_moves().len(), &everywhere);
        assert_eq!(full, Deadness::DeadBySearch, "{fen}");
    }
}

#[test]
fn look_alikes_are_alive() {
    let everywhere = SearchOptions {
        everywhere: true,
        ..SearchOptions::default()
    };
    for fen in [
        // One free pawn.
        "4k3/8/8/1p1p1p2/pPpPpPp1/P1P1P1P1/7P/4K3 w - - 0 1",
        // A lever that can capture.
        "4k3/8/8/1p1p1p2/pPpPpPpp/P1P1P1P1/8/4K3 w - - 0 1",
        // A bishop that can reach enemy pawns, whichever side moved last
        // (the side asked first).
        "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/3BK3 w - - 0 1",
        "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/3BK3 b - - 0 1",
        // A check with a flight square.
        "6Rk/8/5K2/8/8/8/8/8 b - - 0 1",
        // K+N v K+N.
        "8/8/4k3/3n4/8/3K4/5N2/8 w - - 0 1",
    ] {
        // Alive as searched, or presumed so by the filter: never dead.
        let verdict = dead(fen);
        assert!(
            matches!(verdict, Deadness::Alive | Deadness::PresumedAlive),
            "{fen}: {verdict:?}"
        );
        let pos = position(fen);
        let full = deadness(&pos, pos.legal_moves().len(), &everywhere);
        assert_eq!(full, Deadness::Alive, "{fen}");
    }
    // The bishop's position is searched (frozen pawns): a helpmate found.
    assert_eq!(
        dead("4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/3BK3 w - - 0 1"),
        Deadness::Alive
    );
    // An open position is not: presumed, and said so.
    assert_eq!(
        dead("4k3/8/8/1p1p1p2/pPpPpPp1/P1P1P1P1/7P/4K3 w - - 0 1"),
        Deadness::PresumedAlive
    );
}

#[test]
fn the_memo_searches_a_position_once() {
    let memo = SearchMemo::default();
    let board = chess::Board::default();
    let searches = std::cell::Cell::new(0);
    let search = || {
        searches.set(searches.get() + 1);
        SearchAnswer::CanMate
    };
    for _ in 0..3 {
        memo.answer((board, chess::Color::White, 100), search);
    }
    assert_eq!(searches.get(), 1);
    // Another side, another budget: other questions.
    memo.answer((board, chess::Color::Black, 100), search);
    memo.answer((board, chess::Color::White, 200), search);
    assert_eq!(searches.get(), 3);
}

#[test]
fn the_memo_is_bounded() {
    let memo = SearchMemo::default();
    let board = chess::Board::default();
    for nodes in 0..=MEMO_ANSWERS as u64 {
        memo.answer((board, chess::Color::White, nodes), || {
            SearchAnswer::Undecided
        });
        assert!(memo.lock().len() <= MEMO_ANSWERS);
    }
}

#[test]
fn remembered_answers_are_the_searched_ones() {
    // Clones share the memo: the workers of a run.
    let options = SearchOptions::default();
    let clone = options.clone();
    assert!(Arc::ptr_eq(&options.memo, &clone.memo));
    let positions = [
        ("8/8/4k3/8/3p4/3K4/5B2/8 w - - 0 1", Color::White),
        ("q7/8/4k3/8/8/3K4/5N2/8 w - - 0 1", Color::White),
        ("8/8/8/5p2/5p1p/5P1k/7P/6K1 w - - 0 63", Color::Black),
    ];
    for (fen, color) in positions {
        let pos = position(fen);
        let searched = can_mate(&pos, color, &options);
        assert_eq!(can_mate(&pos, color, &clone), searched, "{fen}");
        let fresh = SearchOptions::default();
        assert_eq!(can_mate(&pos, color, &fresh), searched, "{fen}");
    }
    assert_eq!(options.memo.lock().len(), positions.len());
}

#[test]
fn a_king_that_steps_aside_frees_the_pawns() {
    // Najer–Malakhov, Krasnoyarsk 2007, before 63.Kh1 stalemate: 63.Kf2
    // Kxh2 frees Black's h-pawn, so both sides can still mate. The
    // published chasolver 3.0.0 proved the opposite (its stalemate filter
    // kept White's king on g1); see vendor/chasolver/REMIS.md.
    let pos = position("8/8/8/5p2/5p1p/5P1k/7P/6K1 w - - 0 63");
    let everywhere = SearchOptions {
        everywhere: true,
        ..SearchOptions::default()
    };
    for color in Color::ALL {
        assert_eq!(can_mate(&pos, color, &everywhere), Mate::Possible);
    }
    assert_eq!(
        deadness(&pos, pos.legal_moves().len(), &everywhere),
        Deadness::Alive
    );
}

#[test]
fn mating_chances_after_a_flag_fall_are_searched() {
    let options = SearchOptions::default();
    let ask = |fen: &str, color| {
        let pos = position(fen);
        can_mate_after_flag(&pos, color, pos.legal_moves().len(), &options)
    };
    // K+N cannot mate K+Q; K+N can mate K+R (a helpmate exists).
    assert_eq!(
        ask("q7/8/4k3/8/8/3K4/5N2/8 w - - 0 1", Color::White),
        Mate::Impossible
    );
    assert_eq!(
        ask("r7/8/4k3/8/8/3K4/5N2/8 w - - 0 1", Color::White),
        Mate::Possible
    );
    // K+B can mate K+P.
    assert_eq!(
        ask("8/8/4k3/8/3p4/3K4/5B2/8 w - - 0 1", Color::White),
        Mate::Possible
    );
    // A rook in an open position: presumed, unsearched.
    assert_eq!(
        ask("8/8/4k3/8/8/3K4/5R2/8 w - - 0 1", Color::White),
        Mate::Presumed
    );
    // Pawns behind a locked wall cannot.
    let wall = "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1";
    assert_eq!(ask(wall, Color::White), Mate::Impossible);
}

#[test]
fn the_quick_proof_stops_at_its_budget() {
    // Unbounded, chasolver's quick mode visits 26 million positions here
    // (seconds); with the budget it stops, proves nothing, and the full
    // search decides: the position is dead.
    let fen = "kb6/b1p2p1p/1pP5/1P6/8/8/5P1P/5K2 w - - 0 1";
    let pos = position(fen);
    let (board, _) = to_chess_board(&pos).unwrap();
    let (proven, nodes) =
        chasolver::is_unwinnable_fast_within(&board, chess::Color::White, QUICK_NODES);
    assert!(!proven);
    assert_eq!(nodes, QUICK_NODES);
    let everywhere = SearchOptions {
        everywhere: true,
        ..SearchOptions::default()
    };
    assert_eq!(
        deadness(&pos, pos.legal_moves().len(), &everywhere),
        Deadness::DeadBySearch
    );
    // Where the quick proof is cheap it still proves: a pawn wall with
    // nothing else to move.
    let wall = position("4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1");
    assert!(cannot_mate_quickly(
        &quick_board(&wall).unwrap(),
        Color::White
    ));
}

#[test]
fn pieces_that_barely_move_get_the_quick_proof() {
    // White's knights and pawns on the back ranks and Black's bishop are
    // shut in, the kings cannot reach them, and White's seventh-rank pawns
    // are not blocked by pawns (so neither frozen nor jammed): dead (one
    // of CHA-Solver's positions).
    let fen = "1N1N1b1N/pPpPpPp1/P1P1P1P1/8/8/8/8/K1k5 w - - 0 1";
    let pos = position(fen);
    assert!(!worth_searching(&pos, pos.legal_moves().len(), true));
    assert!(worth_a_quick_proof(&pos));
    assert_eq!(dead(fen), Deadness::DeadBySearch);
    // After a flag fall, the quick proof answers for the side asked.
    let flagged = position("B7/bP6/P7/8/8/4p1pp/4Pp1p/5K1k b - - 0 1");
    assert_eq!(
        can_mate_after_flag(
            &flagged,
            Color::White,
            flagged.legal_moves().len(),
            &SearchOptions::default()
        ),
        Mate::Impossible
    );
    // An open middlegame is not asked: its pieces move freely.
    let open = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    assert!(!worth_a_quick_proof(&open));
}

#[test]
fn jammed_pawns_behind_still_pieces_get_the_full_search() {
    // White's second-rank pawns can still step, but every file is locked
    // ahead of them: dead, and the quick proof alone does not show it.
    let fen = "1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1";
    let pos = position(fen);
    assert!(!frozen_pawns(&pos));
    assert!(pawns_jammed(&pos));
    let board = quick_board(&pos).unwrap();
    assert!(
        !Color::ALL
            .into_iter()
            .all(|c| cannot_mate_quickly(&board, c))
    );
    assert!(worth_searching(
        &pos,
        pos.legal_moves().len(),
        worth_a_quick_proof(&pos)
    ));
    assert_eq!(dead(fen), Deadness::DeadBySearch);
    // A pawn with a free file is not jammed.
    assert!(!pawns_jammed(&position(
        "1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P2P/4K3 w - - 0 1"
    )));
}

#[test]
fn the_quick_helpmate_is_a_helpmate() {
    // Flag falls of the lichess users' file that cost the full search most
    // (docs/performance.md, 2026-11-27), a side with a bishop asked each
    // time, White and Black (the board mirrored and back): the short pass
    // finds a line, the line mates the side's opponent, and the answer is
    // the full search's.
    for (fen, color) in [
        ("8/2B3p1/5pk1/8/5p2/4r1bK/8/8 b - - 0 48", Color::White),
        ("8/8/5Q2/6P1/8/5bK1/4kP2/8 w - - 1 60", Color::Black),
    ] {
        let pos = position(fen);
        let (board, _) = to_chess_board(&pos).unwrap();
        let line = chasolver::quick_helpmate(
            &board,
            chess_color(color),
            QUICK_HELPMATE_NODES,
            QUICK_HELPMATE_DEPTH,
        )
        .unwrap_or_else(|| panic!("{fen}: no helpmate in the short pass"));
        let mut end = board;
        for m in &line {
            assert!(end.legal(*m), "{fen}: {m} is not legal");
            end = end.make_move_new(*m);
        }
        assert_eq!(end.status(), chess::BoardStatus::Checkmate, "{fen}");
        assert_eq!(end.side_to_move(), chess_color(!color), "{fen}");
        let full = SearchOptions::default();
        assert!(matches!(
            chasolver::winnability_within(&board, chess_color(color), full.deep_nodes),
            Some(chasolver::Winnability::Winnable { .. })
        ));
        assert_eq!(can_mate(&pos, color, &full), Mate::Possible, "{fen}");
    }
}
