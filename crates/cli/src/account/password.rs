//! A password read from standard input: a line, without echo when it is a terminal.

use std::io::{BufRead, IsTerminal};

/// A password, asked for as `what` at a terminal.
pub fn read(what: &str) -> Result<String, String> {
    let stdin = std::io::stdin();
    let typed = stdin.is_terminal();
    if typed {
        eprint!("{what}: ");
    }
    let mut line = String::new();
    {
        let _quiet = typed.then(NoEcho::start);
        stdin
            .lock()
            .read_line(&mut line)
            .map_err(|e| format!("cannot read the {what}: {e}"))?;
    }
    if typed {
        eprintln!();
    }
    let password = line.trim_end_matches(['\n', '\r']).to_string();
    if password.is_empty() {
        return Err(format!("no {what} given (one line on standard input)"));
    }
    Ok(password)
}

/// A new password: typed twice at a terminal, so a slip is caught.
pub fn read_new(what: &str) -> Result<String, String> {
    let password = read(what)?;
    if std::io::stdin().is_terminal() && read(&format!("{what} again"))? != password {
        return Err("the two passwords differ".into());
    }
    Ok(password)
}

/// The terminal's echo off while it lives.
struct NoEcho {
    #[cfg(unix)]
    before: Option<libc::termios>,
}

impl NoEcho {
    #[cfg(unix)]
    fn start() -> NoEcho {
        // SAFETY: termios is plain data; tcgetattr fills it, and tcsetattr is given back
        // what tcgetattr read, with one flag cleared.
        unsafe {
            let mut before: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(libc::STDIN_FILENO, &mut before) != 0 {
                return NoEcho { before: None };
            }
            let mut quiet = before;
            quiet.c_lflag &= !libc::ECHO;
            libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &quiet);
            NoEcho {
                before: Some(before),
            }
        }
    }

    #[cfg(not(unix))]
    fn start() -> NoEcho {
        NoEcho {}
    }
}

impl Drop for NoEcho {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(before) = &self.before {
            // SAFETY: restores what tcgetattr read.
            unsafe {
                libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, before);
            }
        }
    }
}
