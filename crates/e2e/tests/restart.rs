//! A server killed with SIGKILL in the middle of a game and started again: every move it
//! acknowledged is still there, the clients come back by themselves, and the game ends.
//! Also the move clock, which ends a game nobody moves in.

mod common;

use common::{create_timed, in_process, kill_mid_game_and_restart, raw, sqlite_url, state_where};
use tabula_online::protocol::{ClientMsg, Ending};

#[test]
fn a_killed_server_loses_no_acknowledged_move_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    kill_mid_game_and_restart(&sqlite_url(&dir.path().join("kill.sqlite3")));
}

#[test]
fn the_player_who_does_not_move_in_time_loses() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("clock.sqlite3"));
    let host = raw(&server.address);
    let (code, _) = create_timed(&host, "absorption", Some(5));
    // The clock does not run until every seat is taken.
    let first = state_where(&host, |_| true);
    assert_eq!(first.deadline_ms, None);
    let guest = raw(&server.address);
    guest.send(&ClientMsg::Join { code });
    let over = state_where(&guest, |s| s.ending.is_some());
    assert_eq!(over.ending, Some(Ending::OutOfTime { seat: 0 }));
    assert_eq!(
        over.result.as_deref(),
        Some("Light ran out of time: Dark wins")
    );
    assert_eq!(over.deadline_ms, None);
}
