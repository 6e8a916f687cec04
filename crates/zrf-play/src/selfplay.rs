//! Self-play matches between two computer players, one game per worker thread at a
//! time, every game kept as saved-game records.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use zrf_runtime::{Engine, Game, Outcome, PlayerIx, Tables, Templates};

use zrf_search::{Ai, Algorithm, Limits, Settings};

/// One side of a match.
#[derive(Clone, Debug)]
pub struct Contender {
    /// How the results table names it (`alphabeta 0.1s`, say).
    pub label: String,
    pub settings: Settings,
}

/// What a match is.
#[derive(Clone, Copy, Debug)]
pub struct MatchOptions {
    pub games: usize,
    /// Games still going after this many turns are cut (and counted as such).
    pub max_turns: usize,
    /// Worker threads (at least one).
    pub threads: usize,
    /// Seeds the players' searches, game by game.
    pub seed: u64,
    /// Games still going after this many seconds are cut (games whose every move list
    /// takes long).
    pub max_seconds: Option<f64>,
}

/// One finished (or cut) game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// Its number in the match, from 0.
    pub number: usize,
    /// Per player, the contender (0 or 1) that played it.
    pub seats: Vec<usize>,
    /// `None` when cut at the turn limit.
    pub outcome: Option<Outcome>,
    pub turns: usize,
    /// The saved-game records.
    pub records: Vec<String>,
    /// Nodes searched and seconds spent, per contender.
    pub nodes: [u64; 2],
    pub seconds: [f64; 2],
}

impl MatchGame {
    /// Per contender: 1 a win, 0.5 a draw, 0 a loss; `None` for a cut game.
    pub fn points(&self) -> Option<[f64; 2]> {
        let outcome = self.outcome?;
        let seat = |p: PlayerIx| self.seats.get(p as usize).copied();
        Some(match outcome {
            Outcome::Draw => [0.5, 0.5],
            Outcome::Win(p) => match seat(p) {
                Some(0) => [1.0, 0.0],
                Some(_) => [0.0, 1.0],
                None => [0.5, 0.5],
            },
            Outcome::Loss(p) => match seat(p) {
                Some(0) => [0.0, 1.0],
                Some(_) => [1.0, 0.0],
                None => [0.5, 0.5],
            },
        })
    }
}

/// The folder a match's games are saved in, made before the match so that a long match
/// never ends unable to save: `dir` when given, else a new folder `selfplay-STEM`
/// (`selfplay-STEM-2`, ... when that exists) in the working directory, STEM being the
/// rules file's name without `.zrf`. An existing folder is never written into unless
/// given.
pub fn save_folder(dir: Option<&Path>, rules_file: &str) -> Result<PathBuf, String> {
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        return Ok(dir.to_path_buf());
    }
    let stem = Path::new(rules_file)
        .file_stem()
        .map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned());
    let mut last_error = None;
    for n in 1..=1000 {
        let name = match n {
            1 => format!("selfplay-{stem}"),
            n => format!("selfplay-{stem}-{n}"),
        };
        match std::fs::create_dir(&name) {
            Ok(()) => return Ok(PathBuf::from(name)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => last_error = Some(format!("cannot create {name}: {e}")),
        }
        if let Some(error) = last_error.take() {
            return Err(error);
        }
    }
    Err(format!(
        "selfplay-{stem} to selfplay-{stem}-1000 all exist; give --save-dir"
    ))
}

/// Writes `text` into a new file at `path`, or, when something is there already (a
/// file, a folder, a link even to nothing), at the first free `STEM-2.EXT`,
/// `STEM-3.EXT`, ...: a saved game never overwrites a file or writes through a link, and
/// is never lost because its name was taken. Returns where it went.
pub fn save_new_file(path: &Path, text: &str) -> Result<PathBuf, String> {
    use std::io::Write as _;
    let stem = path
        .file_stem()
        .map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned());
    let extension = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    for n in 1..=1000 {
        let candidate = match n {
            1 => path.to_path_buf(),
            n => path.with_file_name(format!("{stem}-{n}{extension}")),
        };
        // `create_new` refuses anything already there, links included (O_EXCL).
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(mut file) => {
                return file
                    .write_all(text.as_bytes())
                    .map(|()| candidate.clone())
                    .map_err(|e| format!("cannot write {}: {e}", candidate.display()));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(format!("cannot write {}: {e}", candidate.display())),
        }
    }
    Err(format!(
        "{} and the next 999 names after it all exist",
        path.display()
    ))
}

/// Writes every game of a match into `folder` as `game-001.zsg`, `game-002.zsg`, ...
pub fn save_games(
    folder: &Path,
    tables: &Tables,
    rules_file: &str,
    games: &[MatchGame],
) -> Result<(), String> {
    for game in games {
        let path = folder.join(format!("game-{:03}.zsg", game.number + 1));
        let text = zrf_runtime::saved_game(tables, rules_file, &[], &game.records);
        save_new_file(&path, &text)?;
    }
    Ok(())
}

/// Plays a match of `options.games` games between two contenders: in game `g`, player
/// `p` is played by contender `(p + g) % 2`, so that sides alternate. Each worker makes
/// its own engine with `make_engine`; `on_game` sees every game as it ends. Games are
/// returned in number order.
pub fn play_match<T: Templates>(
    make_engine: &(dyn Fn() -> Engine<T> + Sync),
    contenders: &[Contender; 2],
    options: &MatchOptions,
    on_game: &(dyn Fn(&MatchGame) + Sync),
) -> Vec<MatchGame> {
    let next = AtomicUsize::new(0);
    let finished = Mutex::new(Vec::with_capacity(options.games));
    std::thread::scope(|scope| {
        for _ in 0..options.threads.max(1).min(options.games.max(1)) {
            scope.spawn(|| {
                let engine = make_engine();
                loop {
                    let number = next.fetch_add(1, Relaxed);
                    if number >= options.games {
                        break;
                    }
                    let game = play_one(&engine, contenders, options, number);
                    on_game(&game);
                    if let Ok(mut finished) = finished.lock() {
                        finished.push(game);
                    }
                }
            });
        }
    });
    let mut games = finished.into_inner().unwrap_or_else(|e| e.into_inner());
    games.sort_by_key(|g| g.number);
    games
}

fn play_one<T: Templates>(
    engine: &Engine<T>,
    contenders: &[Contender; 2],
    options: &MatchOptions,
    number: usize,
) -> MatchGame {
    let players = engine.tables.players.len();
    let seats: Vec<usize> = (0..players).map(|p| (p + number) % 2).collect();
    let seeded = |c: usize| Settings {
        seed: options.seed ^ (number as u64) << 8 ^ c as u64,
        ..contenders[c].settings
    };
    let mut ais = [
        Ai::for_engine(engine, seeded(0)),
        Ai::for_engine(engine, seeded(1)),
    ];
    let mut state = engine.start();
    let mut records = Vec::new();
    let mut nodes = [0u64; 2];
    let mut seconds = [0f64; 2];
    let mut turns = 0;
    let started = Instant::now();
    let outcome = loop {
        let moves = engine.legal_moves(&state);
        if let Some(outcome) = engine.outcome(&state, &moves) {
            break Some(outcome);
        }
        let too_long = options
            .max_seconds
            .is_some_and(|s| started.elapsed().as_secs_f64() > s);
        if turns >= options.max_turns || too_long {
            break None;
        }
        let seat = seats[engine.to_move(&state) as usize];
        let clock = Instant::now();
        let choice = ais[seat].choose(&state, None, |_| {});
        seconds[seat] += clock.elapsed().as_secs_f64();
        let Some(choice) = choice else { break None };
        nodes[seat] += choice.nodes;
        let mv = &moves[choice.index];
        records.extend(zrf_runtime::turn_records(&engine.tables, &state, mv));
        state = engine.play(&state, mv);
        turns += 1;
    };
    MatchGame {
        number,
        seats,
        outcome,
        turns,
        records,
        nodes,
        seconds,
    }
}

/// The results of a match, summed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Per contender: wins, draws, losses.
    pub wins: [usize; 2],
    pub draws: usize,
    pub losses: [usize; 2],
    /// Games cut at the turn limit.
    pub cut: usize,
    /// Per contender and the side (player index) it played: its points and games.
    pub by_side: Vec<[(f64, usize); 2]>,
    pub mean_turns: f64,
    /// Per contender, nodes per second over the match.
    pub nodes_per_second: [f64; 2],
}

impl Tally {
    pub fn of(games: &[MatchGame], players: usize) -> Tally {
        let mut tally = Tally {
            by_side: vec![[(0.0, 0); 2]; players],
            ..Tally::default()
        };
        let (mut nodes, mut seconds) = ([0u64; 2], [0f64; 2]);
        for game in games {
            for c in 0..2 {
                nodes[c] += game.nodes[c];
                seconds[c] += game.seconds[c];
            }
            let Some(points) = game.points() else {
                tally.cut += 1;
                continue;
            };
            match points {
                [a, b] if a > b => {
                    tally.wins[0] += 1;
                    tally.losses[1] += 1;
                }
                [a, b] if b > a => {
                    tally.wins[1] += 1;
                    tally.losses[0] += 1;
                }
                _ => tally.draws += 1,
            }
            for (player, &seat) in game.seats.iter().enumerate() {
                let side = &mut tally.by_side[player][seat];
                side.0 += points[seat];
                side.1 += 1;
            }
        }
        let total_turns: usize = games.iter().map(|g| g.turns).sum();
        tally.mean_turns = total_turns as f64 / games.len().max(1) as f64;
        for c in 0..2 {
            tally.nodes_per_second[c] = nodes[c] as f64 / seconds[c].max(1e-9);
        }
        tally
    }

    /// Contender `c`'s share of the points of the finished games (a draw is half).
    pub fn score(&self, c: usize) -> f64 {
        let decided = self.wins[0] + self.wins[1] + self.draws;
        (self.wins[c] as f64 + self.draws as f64 / 2.0) / decided.max(1) as f64
    }

    /// The results table, for people.
    pub fn table(&self, contenders: &[Contender; 2], player_names: &[String]) -> String {
        let mut text = format!(
            "{:<28} {:>5} {:>5} {:>6} {:>7} {:>12}\n",
            "engine", "wins", "draws", "losses", "score", "nodes/s"
        );
        for (c, contender) in contenders.iter().enumerate() {
            text.push_str(&format!(
                "{:<28} {:>5} {:>5} {:>6} {:>6.1}% {:>12.0}\n",
                contender.label,
                self.wins[c],
                self.draws,
                self.losses[c],
                100.0 * self.score(c),
                self.nodes_per_second[c]
            ));
        }
        for (player, sides) in self.by_side.iter().enumerate() {
            let name = player_names.get(player).map_or("?", String::as_str);
            let parts: Vec<String> = sides
                .iter()
                .zip(contenders)
                .map(|(&(points, games), c)| format!("{} {points}/{games}", c.label))
                .collect();
            text.push_str(&format!("as {name}: {}\n", parts.join(", ")));
        }
        text.push_str(&format!("mean length {:.1} turns", self.mean_turns));
        if self.cut > 0 {
            text.push_str(&format!(
                "; {} game(s) cut at the turn limit, not scored",
                self.cut
            ));
        }
        text.push('\n');
        text
    }
}

/// What one side of a match may spend on a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Seconds a move.
    Seconds(f64),
    /// Plies searched a move, whatever the time: the same games on any machine.
    Depth(u32),
}

impl Budget {
    fn limits(self) -> Limits {
        match self {
            Budget::Seconds(time) => Limits::time(Duration::from_secs_f64(time.max(0.001))),
            Budget::Depth(depth) => Limits::depth(depth),
        }
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Seconds(time) => write!(f, "{time}s"),
            Budget::Depth(depth) => write!(f, "depth {depth}"),
        }
    }
}

/// The two sides of a match: an engine (or the game's choice) with what it may spend
/// on a move, each.
pub fn contenders(
    first: Option<Algorithm>,
    first_budget: Budget,
    second: Option<Algorithm>,
    second_budget: Budget,
) -> [Contender; 2] {
    let one = |algorithm: Option<Algorithm>, budget: Budget| {
        let name = algorithm.map_or("auto".to_string(), |a| a.to_string());
        Contender {
            label: format!("{name} {budget}"),
            settings: Settings {
                algorithm,
                limits: budget.limits(),
                table_megabytes: 16,
                ..Settings::default()
            },
        }
    };
    let mut pair = [one(first, first_budget), one(second, second_budget)];
    if pair[0].label == pair[1].label {
        pair[0].label.push_str(" (A)");
        pair[1].label.push_str(" (B)");
    }
    pair
}
