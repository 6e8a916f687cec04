//! The committed expectations of the corpus, replay, differential and selfplay runs:
//! `key<TAB>status` lines under a comment header, read, compared with a run's
//! statuses (each run saying what counts as better or worse) and rewritten by `--bless`.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

/// How a status compares with the recorded one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Judgement {
    /// As good as recorded (the same, or a change the run does not rank).
    Same,
    Improved,
    Regressed,
}

/// What a run treats as failures besides regressions.
#[derive(Clone, Copy, Debug)]
pub(super) struct Strictness {
    /// A key the expectations do not list fails (else it is only named).
    pub new_fails: bool,
    /// A listed key the run did not produce fails.
    pub missing_fails: bool,
}

/// The recorded statuses, by key.
pub(super) struct Expectations(BTreeMap<String, String>);

impl Expectations {
    pub fn read(path: &Path) -> io::Result<Expectations> {
        let text = std::fs::read_to_string(path)?;
        Ok(Expectations(
            text.lines()
                .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
                .filter_map(|line| line.split_once('\t'))
                .map(|(key, status)| (key.to_string(), status.trim().to_string()))
                .collect(),
        ))
    }

    /// Compares `results` (key, status) with the expectations in `path`, printing every
    /// change and the closing `N passed, N failed`; the exit code (2 when `path` cannot
    /// be read).
    pub fn check<'a>(
        path: &Path,
        results: impl IntoIterator<Item = (&'a str, &'a str)>,
        judge: impl Fn(&str, &str) -> Judgement,
        strictness: Strictness,
    ) -> u8 {
        match Expectations::read(path) {
            Ok(expected) => expected.compare(results, judge, strictness),
            Err(err) => {
                eprintln!("error: cannot read {}: {err}", path.display());
                2
            }
        }
    }

    fn compare<'a>(
        &self,
        results: impl IntoIterator<Item = (&'a str, &'a str)>,
        judge: impl Fn(&str, &str) -> Judgement,
        strictness: Strictness,
    ) -> u8 {
        let (mut passed, mut failed, mut improved) = (0, 0, 0);
        let mut seen = Vec::new();
        for (key, status) in results {
            seen.push(key);
            let Some(want) = self.0.get(key) else {
                if strictness.new_fails {
                    failed += 1;
                    println!("NEW: {key} ({status}) is not in the expectations");
                } else {
                    passed += 1;
                    println!("new: {key} ({status}) is not in the expectations");
                }
                continue;
            };
            match judge(want, status) {
                _ if want == status => passed += 1,
                Judgement::Same => passed += 1,
                Judgement::Improved => {
                    improved += 1;
                    passed += 1;
                    println!("improved: {key} was {want}, now {status}");
                }
                Judgement::Regressed => {
                    failed += 1;
                    println!("REGRESSION: {key} was {want}, now {status}");
                }
            }
        }
        if strictness.missing_fails {
            for key in self.0.keys().filter(|k| !seen.contains(&k.as_str())) {
                failed += 1;
                println!("MISSING: {key} is expected but the run did not produce it");
            }
        }
        if improved > 0 {
            println!("{improved} improved: record them with --bless");
        }
        if failed > 0 {
            println!(
                "expectations not met: rerun with --bless only if every change above is intended"
            );
        }
        println!("{passed} passed, {failed} failed");
        u8::from(failed > 0)
    }

    /// Writes `key<TAB>status` lines under the comment `header`; the exit code.
    pub fn bless<'a>(
        path: &Path,
        header: &str,
        rows: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> u8 {
        let mut text = header.to_string();
        let mut count = 0;
        for (key, status) in rows {
            text.push_str(&format!("{key}\t{status}\n"));
            count += 1;
        }
        match std::fs::write(path, text) {
            Ok(()) => {
                println!("wrote {count} expectations to {}", path.display());
                0
            }
            Err(err) => {
                eprintln!("error: cannot write {}: {err}", path.display());
                2
            }
        }
    }
}

/// The judgement of runs whose statuses are good or not: `good` statuses may not turn
/// bad; a bad one turning good is an improvement.
pub(super) fn good_or_not(is_good: impl Fn(&str) -> bool) -> impl Fn(&str, &str) -> Judgement {
    move |want, now| match (is_good(want), is_good(now)) {
        (true, false) => Judgement::Regressed,
        (false, true) => Judgement::Improved,
        _ => Judgement::Same,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expected(rows: &[(&str, &str)]) -> Expectations {
        Expectations(
            rows.iter()
                .map(|(k, s)| (k.to_string(), s.to_string()))
                .collect(),
        )
    }

    const STRICT: Strictness = Strictness {
        new_fails: true,
        missing_fails: true,
    };

    #[test]
    fn regressions_new_and_missing_keys_fail_a_strict_run() {
        let judge = good_or_not(|s| s == "ok");
        let recorded = expected(&[("a", "ok"), ("b", "error:E1"), ("c", "ok")]);
        assert_eq!(
            recorded.compare([("a", "ok"), ("b", "ok"), ("c", "ok")], &judge, STRICT),
            0
        );
        assert_eq!(
            recorded.compare(
                [("a", "error:E2"), ("b", "ok"), ("c", "ok")],
                &judge,
                STRICT
            ),
            1
        );
        assert_eq!(
            recorded.compare([("a", "ok"), ("b", "ok")], &judge, STRICT),
            1
        );
        assert_eq!(
            recorded.compare(
                [("a", "ok"), ("b", "ok"), ("c", "ok"), ("d", "ok")],
                &judge,
                STRICT
            ),
            1
        );
        let lenient = Strictness {
            new_fails: false,
            missing_fails: false,
        };
        assert_eq!(
            recorded.compare([("a", "ok"), ("d", "bad")], &judge, lenient),
            0
        );
    }
}
