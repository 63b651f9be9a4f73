//! The search worker's side: it takes jobs as messages, runs them a slice at a time (a
//! bot's move first, a review last) and answers with copies of what each has found and its
//! result. The messages are RON text, as they cross between two instances of the module.

use super::{CopyDue, KeptSearches, STOPPED, SearchJob, Steps};
use serde::{Deserialize, Serialize};
use std::panic::{AssertUnwindSafe, catch_unwind};
use web_time::{Duration, Instant};

/// What the page asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToWorker {
    Start {
        id: u64,
        job: SearchJob,
    },
    /// Nobody waits for this search any more.
    Stop {
        id: u64,
    },
    /// An app left its game: its bots' kept trees go.
    Forget {
        owner: u64,
    },
}

/// What the worker tells the page about a search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
    /// A copy of what it has found (its `Steps::Shown`, as RON).
    Shown { id: u64, shown: String },
    /// Its output (as RON), or why it failed.
    Finished {
        id: u64,
        output: Result<String, String>,
    },
}

impl FromWorker {
    pub fn id(&self) -> u64 {
        match self {
            FromWorker::Shown { id, .. } | FromWorker::Finished { id, .. } => *id,
        }
    }
}

/// Work of any kind, its copies and output as text.
pub(super) trait Running {
    fn step(&mut self, iterations: u64) -> bool;
    fn shown_text(&self, finished: bool) -> Result<String, String>;
    fn milestone(&self) -> usize;
    fn show_every(&self) -> Duration;
    fn output_text(self: Box<Self>) -> Result<String, String>;
}

impl<W: Steps> Running for W {
    fn step(&mut self, iterations: u64) -> bool {
        Steps::step(self, iterations)
    }

    fn shown_text(&self, finished: bool) -> Result<String, String> {
        ron::to_string(&self.shown(finished)).map_err(|e| format!("a copy: {e}"))
    }

    fn milestone(&self) -> usize {
        Steps::milestone(self)
    }

    fn show_every(&self) -> Duration {
        W::SHOW_EVERY
    }

    fn output_text(self: Box<Self>) -> Result<String, String> {
        ron::to_string(&(*self).output()).map_err(|e| format!("a result: {e}"))
    }
}

fn build(job: SearchJob, kept: &KeptSearches) -> Result<Box<dyn Running>, String> {
    use super::Job;
    Ok(match job {
        SearchJob::Move(job) => Box::new(job.build(kept)?),
        SearchJob::Position(job) => Box::new(job.build(kept)?),
        SearchJob::Review(job) => Box::new(job.build(kept)?),
        #[cfg(test)]
        SearchJob::Test(job) => job.build_any()?,
    })
}

struct Work {
    id: u64,
    rank: u8,
    running: Box<dyn Running>,
    due: CopyDue,
}

/// The searches the worker holds, and its bots' kept trees.
#[derive(Default)]
pub struct SearchHost {
    works: Vec<Work>,
    kept: KeptSearches,
    replies: Vec<FromWorker>,
}

impl SearchHost {
    /// Takes a message from the page.
    pub fn message(&mut self, text: &str) -> Result<(), String> {
        let message: ToWorker =
            ron::from_str(text).map_err(|e| format!("a message to the search worker: {e}"))?;
        match message {
            ToWorker::Start { id, job } => {
                let rank = job.rank();
                let built = catch_unwind(AssertUnwindSafe(|| {
                    let running = build(job, &self.kept)?;
                    Ok((running.shown_text(false)?, running))
                }))
                .unwrap_or_else(|_| Err(STOPPED.to_string()));
                match built {
                    Ok((shown, running)) => {
                        // What it holds from the start (a bot's kept tree) is shown at once.
                        self.replies.push(FromWorker::Shown { id, shown });
                        self.works.push(Work {
                            id,
                            rank,
                            due: CopyDue::new(running.milestone()),
                            running,
                        });
                    }
                    Err(failure) => self.replies.push(FromWorker::Finished {
                        id,
                        output: Err(failure),
                    }),
                }
            }
            ToWorker::Stop { id } => self.works.retain(|work| work.id != id),
            ToWorker::Forget { owner } => self.kept.forget(owner),
        }
        Ok(())
    }

    /// Whether any search is under way.
    pub fn is_busy(&self) -> bool {
        !self.works.is_empty()
    }

    /// Runs the searches for up to `budget`, the first in rank (then the oldest) until it
    /// ends, then the next; what they found and how they ended since the last call.
    pub fn work(&mut self, budget: Duration) -> Vec<FromWorker> {
        let start = Instant::now();
        while start.elapsed() < budget {
            let Some(at) = (0..self.works.len()).min_by_key(|&at| {
                let work = &self.works[at];
                (work.rank, work.id)
            }) else {
                break;
            };
            let work = &mut self.works[at];
            let id = work.id;
            // One iteration at a time, as in the page's slices: an iteration may be long.
            // A milestone (a review's position judged) is posted as soon as it is reached.
            let stepped = catch_unwind(AssertUnwindSafe(|| {
                let mut going = true;
                while going
                    && start.elapsed() < budget
                    && work.running.milestone() == work.due.milestone
                {
                    going = work.running.step(1);
                }
                let copy = work
                    .due
                    .take(!going, work.running.milestone(), work.running.show_every())
                    .then(|| work.running.shown_text(!going));
                (going, copy.transpose())
            }));
            let (going, failure) = match stepped {
                Ok((going, Ok(copy))) => {
                    if let Some(shown) = copy {
                        self.replies.push(FromWorker::Shown { id, shown });
                    }
                    (going, None)
                }
                Ok((_, Err(failure))) => (false, Some(failure)),
                Err(_) => (false, Some(STOPPED.to_string())),
            };
            if !going {
                let done = self.works.remove(at);
                // Its output, or why it failed.
                let output = match failure {
                    Some(failure) => Err(failure),
                    None => catch_unwind(AssertUnwindSafe(|| done.running.output_text()))
                        .unwrap_or_else(|_| Err(STOPPED.to_string())),
                };
                self.replies.push(FromWorker::Finished { id, output });
            }
        }
        std::mem::take(&mut self.replies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::background::GameSetup;
    use tabula_session::{GameKind, new_match};

    /// An Adomoc game after `moves` of its first legal moves, as a job's RON.
    fn adomoc_after(moves: usize) -> String {
        let mut game = new_match(GameKind::Adomoc, &[]).unwrap();
        for _ in 0..moves {
            let text = game.legal_moves(1).0.remove(0);
            game.play_notation(&text).unwrap();
        }
        ron::to_string(&GameSetup::at(game.as_ref())).unwrap()
    }

    /// Works until nothing is left; the searches in the order they ended, and their ends.
    fn work_through(host: &mut SearchHost) -> Vec<(u64, Result<String, String>)> {
        let mut ended = Vec::new();
        loop {
            for reply in host.work(Duration::from_millis(5)) {
                if let FromWorker::Finished { id, output } = reply {
                    ended.push((id, output));
                }
            }
            if !host.is_busy() {
                return ended;
            }
        }
    }

    #[test]
    fn a_bots_move_goes_before_a_review_posted_earlier() {
        let mut host = SearchHost::default();
        let game = adomoc_after(8);
        host.message(&format!(
            "Start(id: 1, job: Review((game: {game}, level: 1, seed: 1, threads: 1)))"
        ))
        .unwrap();
        host.message(&format!(
            "Start(id: 2, job: Move((game: {game}, spec: \"mcts:iters=200\", seed: 1, keep: None, threads: 1)))"
        ))
        .unwrap();
        let ended = work_through(&mut host);
        let order: Vec<u64> = ended.iter().map(|(id, _)| *id).collect();
        assert_eq!(order, [2, 1], "{ended:?}");
        assert!(ended.iter().all(|(_, output)| output.is_ok()), "{ended:?}");
        // The bot's answer names its move.
        assert!(
            ended[0]
                .1
                .as_ref()
                .is_ok_and(|answer| answer.contains("text:Some(")),
            "{ended:?}"
        );
    }

    #[test]
    fn a_stopped_search_ends_without_a_word() {
        let mut host = SearchHost::default();
        let game = adomoc_after(4);
        // The top level: a review that searches for time (a third of 1.9 s a position at
        // the least) is still busy after 5 ms, as a low level's few iterations may not be.
        host.message(&format!(
            "Start(id: 7, job: Review((game: {game}, level: 16, seed: 1, threads: 1)))"
        ))
        .unwrap();
        host.work(Duration::from_millis(5));
        assert!(host.is_busy());
        host.message("Stop(id: 7)").unwrap();
        assert!(!host.is_busy());
        assert!(host.work(Duration::from_millis(5)).is_empty());
    }

    #[test]
    fn a_message_that_is_none_is_refused_and_a_game_the_rules_refuse_fails_its_search() {
        let mut host = SearchHost::default();
        let refused = host.message("Start(id: 1)").unwrap_err();
        assert!(
            refused.starts_with("a message to the search worker:"),
            "{refused}"
        );
        host.message(
            "Start(id: 3, job: Move((game: (kind: Adomoc, settings: [], start: None, \
             moves: [\"z9\"]), spec: \"random\", seed: 1, keep: None, threads: 1)))",
        )
        .unwrap();
        let ended = work_through(&mut host);
        match &ended[..] {
            [(3, Err(failure))] => assert!(failure.starts_with("move 1 (z9):"), "{failure}"),
            other => panic!("{other:?}"),
        }
    }
}
