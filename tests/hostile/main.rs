//! Hostile input: small generated files that try to exhaust memory, time or the stack,
//! read or overwrite what they should not, or smuggle control characters. Each runs
//! `zrfc` in a child process limited to 1 GiB of address space (less where a test says
//! so), with a generous guard against unbounded runs, and
//! asserts its exit code (1: a diagnostic, 2: usage or IO) and what it says. Unix only:
//! the limits are set with the shell's `ulimit`, and links made with `symlink`.
#![cfg(unix)]

use std::io::{Read as _, Write as _};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const MEMORY_LIMIT_KIB: u64 = 1024 * 1024;
/// Guards against an unbounded run, never a measure of speed (benches measure that): a
/// child that spends this much processor time is killed (`ulimit -t`), ...
const CPU_LIMIT_SECONDS: u64 = 120;
/// ... and one that has not ended after this long (blocked on a pipe, say) too.
const HANG_LIMIT: Duration = Duration::from_secs(300);

/// What a run of `zrfc` did.
struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Ran {
    /// Asserts the exit code and that standard error holds `needle`.
    fn expect(&self, code: i32, needle: &str) {
        assert_eq!(self.code, Some(code), "stderr:\n{}", self.stderr_head());
        assert!(
            self.stderr.contains(needle),
            "`{needle}` not in stderr:\n{}",
            self.stderr_head()
        );
    }

    fn stderr_head(&self) -> String {
        self.stderr.chars().take(3000).collect()
    }
}

/// Runs `zrfc args` in `dir` under the memory and time limits, with `stdin` as its
/// standard input (none when `None`).
fn zrfc_in(dir: &Path, args: &[&str], stdin: Option<&mut dyn std::io::Read>) -> Ran {
    zrfc_limited(dir, args, stdin, MEMORY_LIMIT_KIB)
}

/// [`zrfc_in`] with `memory_kib` of address space.
fn zrfc_limited(
    dir: &Path,
    args: &[&str],
    stdin: Option<&mut dyn std::io::Read>,
    memory_kib: u64,
) -> Ran {
    let script =
        format!("ulimit -v {memory_kib}; ulimit -t {CPU_LIMIT_SECONDS}; exec \"$0\" \"$@\"");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_zrfc"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("zrfc starts");
    let feeder = stdin.map(|input| {
        let mut bytes = Vec::new();
        input.read_to_end(&mut bytes).expect("input");
        let mut pipe = child.stdin.take().expect("stdin");
        // Fed from a thread: zrfc may stop reading early (a closed pipe is fine then).
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        })
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stdout.read_to_end(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stderr.read_to_end(&mut text);
        text
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > HANG_LIMIT {
            let _ = child.kill();
            panic!("zrfc {args:?} hung: still running after {HANG_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(feeder);
    Ran {
        code: status.code(),
        stdout: String::from_utf8_lossy(&out.join().expect("stdout")).into_owned(),
        stderr: String::from_utf8_lossy(&err.join().expect("stderr")).into_owned(),
    }
}

fn zrfc(dir: &Path, args: &[&str]) -> Ran {
    zrfc_in(dir, args, None)
}

/// A temporary folder holding `files` (name, text).
fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary folder");
    for (name, text) in files {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("folder");
        }
        std::fs::write(path, text).expect("file");
    }
    dir
}

/// A playable game with `extra` spliced into it: two players, a 3x3 board, a piece that
/// steps north.
fn game(extra: &str) -> String {
    format!(
        "(game (title \"Hostile\") (players White Black) (turn-order White Black)\n\
         (board (grid (dimensions (\"a/b/c\" (50 0)) (\"3/2/1\" (0 50)))\n\
         (directions (n 0 -1) (s 0 1))))\n\
         (piece (name Man) (moves (n add)))\n\
         (board-setup (White (Man a1)) (Black (Man c3)))\n\
         (win-condition (White Black) stalemated)\n{extra})\n"
    )
}

mod files;
mod fuzz;
#[path = "../common/mutate.rs"]
mod mutate;
mod resources;
mod text;
