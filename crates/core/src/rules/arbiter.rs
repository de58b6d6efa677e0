//! The rule state of one game: the arbiter who watches every move, keeps
//! the positions for the repetition rules, notes the first event that ends
//! the game by itself (9.6), and rules on the game when it is over. The
//! replay only feeds it moves.

use shakmaty::{Chess, Color, Move, Position};

use super::{
    BoardFacts, Deadness, Event, Facts, GameResult, Mate, PositionHistory, SearchOptions,
    Termination, Verdict, can_mate, can_mate_after_flag, classify, deadness, seventy_five_moves,
};

/// What the arbiter decided about a finished game.
#[derive(Clone, Debug)]
pub struct Ruling {
    pub board: BoardFacts,
    /// The first event that ended the game by itself, and the ply after
    /// which it happened (0 is the start position).
    pub first_event: Option<(u32, Event)>,
    /// Is the final position dead (5.2.2)? `None` when it is mate or
    /// stalemate, or the search is off.
    pub dead: Option<Deadness>,
    /// After a flag fall: could the flagged player's opponent mate (6.9)?
    pub flag_opponent: Option<Mate>,
    pub verdict: Verdict,
}

/// One game's rule state. Reused from game to game: its buffers keep their
/// capacity.
pub struct Arbiter {
    search: SearchOptions,
    /// The start position and the moves played from it, to go back to any
    /// ply of the game.
    start: Chess,
    moves: Vec<Move>,
    position: Chess,
    history: PositionHistory,
    /// The first fivefold repetition or 75-move draw (9.6), and its ply.
    automatic: Option<(u32, Event)>,
}

impl Arbiter {
    pub fn new(search: SearchOptions) -> Arbiter {
        Arbiter {
            search,
            start: Chess::default(),
            moves: Vec::with_capacity(256),
            position: Chess::default(),
            history: PositionHistory::new(),
            automatic: None,
        }
    }

    /// A new game from `start`.
    pub fn start(&mut self, start: Chess) {
        self.history.reset();
        self.moves.clear();
        // A set-up position may already be past 75 moves (9.6.2).
        self.automatic = seventy_five_moves(start.halfmoves(), || start.is_checkmate())
            .then_some((0, Event::SeventyFiveMoves));
        self.position = start.clone();
        self.start = start;
    }

    /// The position now.
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// The game as played: its start position and its moves.
    pub fn played(&self) -> (&Chess, &[Move]) {
        (&self.start, &self.moves)
    }

    /// Plies played since the start.
    pub fn plies(&self) -> u32 {
        self.moves.len() as u32
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        let irreversible = self.position.is_irreversible(m);
        self.history.record_move(&self.position, irreversible);
        self.position.play_unchecked(m);
        self.moves.push(m);
        // 9.6: a fivefold repetition or 75 moves end the game at once, even
        // when nobody noticed and play went on; a mate on that move wins
        // (9.6.2). Fivefold needs at least 16 reversible plies.
        if self.automatic.is_none() {
            let pos = &self.position;
            let rule = if self.history.reversible_plies() >= 16
                && super::fivefold(self.history.current_count(&self.position))
            {
                Some(Event::FivefoldRepetition)
            } else if seventy_five_moves(pos.halfmoves(), || pos.is_checkmate()) {
                Some(Event::SeventyFiveMoves)
            } else {
                None
            };
            self.automatic = rule.map(|rule| (self.plies(), rule));
        }
    }

    /// Rules on the game as it stands, given what was recorded: the
    /// result, the termination, and the side whose flag fell when the
    /// record names it (else a draw on time presumes the player to move).
    pub fn rule(
        &mut self,
        result: GameResult,
        termination: Termination,
        flagged: Option<Color>,
    ) -> Ruling {
        let plies = self.plies();
        let board = BoardFacts::of(&self.position, &mut self.history);
        let final_event = if board.checkmate {
            Some(Event::Checkmate)
        } else if board.stalemate {
            Some(Event::Stalemate)
        } else {
            None
        };
        let mut first = Event::first(self.automatic, final_event.map(|e| (plies, e)));
        let mut dead = None;
        if final_event.is_none() && !self.search.off {
            let verdict = deadness(&self.position, usize::from(board.legal_moves), &self.search);
            if verdict.is_dead() {
                first = Event::first(first, Some(self.first_dead_ply(plies, verdict)));
            }
            dead = Some(verdict);
        } else if board.stalemate && !self.search.off {
            // A stalemate is a dead position, and the position may have been
            // dead before the stalemating move (K a8 shut in by a pawn on
            // a7: every move stalemates). The earlier one ends the game; at
            // the same ply the stalemate takes precedence.
            let at_end = deadness(&self.position, usize::from(board.legal_moves), &self.search);
            first = Event::first(first, Some(self.first_dead_ply(plies, at_end)));
        }
        // 6.9: whose mating chances a flag fall asks about.
        let flag_opponent = match (termination, result, first) {
            _ if self.search.off => None,
            (Termination::TimeForfeit | Termination::TimeoutVsInsufficientMaterial, _, None) => {
                match result {
                    GameResult::Win(winner) => Some(winner),
                    GameResult::Draw => Some(!flagged.unwrap_or(self.position.turn())),
                    GameResult::Unknown => None,
                }
            }
            _ => None,
        }
        .map(|color| {
            let answer = can_mate_after_flag(
                &self.position,
                color,
                usize::from(board.legal_moves),
                &self.search,
            );
            // A recorded draw on time is overturned only on a helpmate the
            // search finds, never on the filter's presumption. Such draws
            // are rare (the winner usually lacks mating material, and is
            // searched anyway), so the full search costs little here.
            if answer == Mate::Presumed && result == GameResult::Draw {
                can_mate(&self.position, color, &self.search)
            } else {
                answer
            }
        });
        let verdict = classify(
            result,
            termination,
            &Facts {
                board: &board,
                first_event: first,
                flag_opponent,
                flagged,
            },
        );
        Ruling {
            board,
            first_event: first,
            dead,
            flag_opponent,
            verdict,
        }
    }

    /// The first ply whose position is dead, the final one being dead
    /// (`at_end`: its verdict, already known).
    /// Deadness never ends once reached (every position after a dead one is
    /// dead), so a binary search over the plies finds it. Each position it
    /// asks about is played from the last one found alive (every later
    /// question lies beyond it), not from the start: about twice the
    /// game's plies in all instead of half of them for every question.
    fn first_dead_ply(&self, plies: u32, at_end: Deadness) -> (u32, Event) {
        let kind = |d: Deadness| match d {
            Deadness::InsufficientMaterial => Event::InsufficientMaterial,
            _ => Event::DeadPosition,
        };
        let (mut lo, mut hi) = (0, plies);
        let mut dead_at_hi = at_end;
        // The position after `alive.0` plies, the last found alive (or
        // the start).
        let mut alive = (0, self.start.clone());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let mut pos = alive.1.clone();
            for &m in &self.moves[alive.0 as usize..mid as usize] {
                pos.play_unchecked(m);
            }
            let d = deadness(&pos, pos.legal_moves().len(), &self.search);
            if d.is_dead() {
                hi = mid;
                dead_at_hi = d;
            } else {
                lo = mid + 1;
                alive = (mid, pos);
            }
        }
        (hi, kind(dead_at_hi))
    }
}
