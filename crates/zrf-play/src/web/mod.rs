//! The game in a browser: [`serve`] runs a small HTTP server on this machine that
//! serves one page (everything it needs is in it) and a JSON interface the page calls.
//! The page draws the board, takes moves by clicking a piece and then where it goes
//! (clicking on through the steps of a chain of partial moves), lets the computer
//! reply, takes moves back and plays them again, switches variants, shows what the
//! rules say of the game and offers the game as a Zillions saved game.

use std::io::Cursor;
use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{json, Value};
use tiny_http::{Header, Method, Request, Response, Server};
use zrf_runtime::{Engine, Game, Move, PlayerIx, Pos, State, Templates};
use zrf_search::{Ai, Algorithm, Limits, Settings};

use crate::board::{about_text, move_squares, svg_board, SvgOptions};
use crate::move_text::{read_move, Reading};

const PAGE: &str = include_str!("page.html");

/// Longest the computer may be asked to think for one move, in seconds.
const MAX_THINK_SECONDS: f64 = 60.0;

/// One game being played on the page: what the server asks of it, whatever the rules'
/// engine type (so that one server can switch between variants compiled separately).
pub trait Table {
    /// Everything the page shows, as JSON.
    fn view(&self) -> Value;
    /// Plays the legal move of this index, if it is one.
    fn play(&mut self, index: usize) -> Result<(), String>;
    /// Plays the legal move `text` names, in any form [`read_move`] reads.
    fn play_text(&mut self, text: &str) -> Result<(), String>;
    /// Lets the computer move for the player to move.
    fn think(&mut self, algorithm: Option<Algorithm>, seconds: f64) -> Result<(), String>;
    /// Takes back moves up to the previous turn of a player the computer does not play.
    fn undo(&mut self);
    /// Plays again what [`Table::undo`] took back, up to a person's turn.
    fn redo(&mut self);
    /// Back to the start.
    fn new_game(&mut self);
    /// Whether the computer moves for `player`.
    fn set_computer(&mut self, player: usize, on: bool);
    /// The game so far as a Zillions saved game.
    fn saved_game(&self) -> String;
    /// The number of turns played.
    fn ply(&self) -> usize;
}

/// A turn played: the position before it, the records before it, its move's index,
/// the squares it touched (highlighted on the board).
struct Played {
    before: State,
    records: usize,
    index: usize,
    squares: Vec<Pos>,
}

/// [`Table`] for an engine of the runtime.
pub struct Session<T: Templates> {
    engine: Engine<T>,
    rules_file: String,
    state: State,
    moves: Vec<Move>,
    played: Vec<Played>,
    taken_back: Vec<usize>,
    records: Vec<String>,
    computer: Vec<bool>,
    /// What the last search said, for the page's status line.
    remark: String,
}

impl<T: Templates> Session<T> {
    /// A new game of `engine`; the computer plays every player but the first.
    /// `rules_file` is the name saved games give the rules.
    pub fn new(engine: Engine<T>, rules_file: &str) -> Session<T> {
        let state = engine.start();
        let moves = engine.legal_moves(&state);
        let computer = (0..engine.tables.players.len()).map(|p| p > 0).collect();
        Session {
            engine,
            rules_file: rules_file.to_string(),
            state,
            moves,
            played: Vec::new(),
            taken_back: Vec::new(),
            records: Vec::new(),
            computer,
            remark: String::new(),
        }
    }

    fn is_computer(&self, player: PlayerIx) -> bool {
        self.computer.get(player as usize) == Some(&true)
    }

    fn is_over(&self) -> Option<String> {
        let outcome = self.engine.outcome(&self.state, &self.moves)?;
        Some(outcome.describe(&self.engine.tables))
    }

    fn advance(&mut self, index: usize) {
        let Some(mv) = self.moves.get(index) else {
            return;
        };
        let count = self.records.len();
        self.records.extend(zrf_runtime::turn_records(
            &self.engine.tables,
            &self.state,
            mv,
        ));
        let squares = move_squares(mv);
        let next = self.engine.play(&self.state, mv);
        let before = std::mem::replace(&mut self.state, next);
        self.played.push(Played {
            before,
            records: count,
            index,
            squares,
        });
        self.moves = self.engine.legal_moves(&self.state);
    }

    fn take_back(&mut self) -> bool {
        let Some(last) = self.played.pop() else {
            return false;
        };
        self.state = last.before;
        self.records.truncate(last.records);
        self.taken_back.push(last.index);
        self.moves = self.engine.legal_moves(&self.state);
        true
    }

    /// The squares a person clicks for a move: where it starts (none for a drop),
    /// then where each of its steps arrives.
    fn click_path(&self, mv: &Move) -> Vec<&str> {
        let name = |p: u32| self.engine.tables.positions[p as usize].as_str();
        let start = mv.steps.first().and_then(|s| s.from).map(name);
        start
            .into_iter()
            .chain(mv.steps.iter().map(|s| name(s.to)))
            .collect()
    }
}

impl<T: Templates> Table for Session<T> {
    fn view(&self) -> Value {
        let tables = &self.engine.tables;
        let to_move = self.engine.to_move(&self.state);
        let over = self.is_over();
        let moves: Vec<Value> = self
            .moves
            .iter()
            .map(|m| {
                json!({
                    "text": self.engine.notation(&self.state, m),
                    "path": self.click_path(m),
                })
            })
            .collect();
        json!({
            "title": tables.title,
            "players": tables.player_names(),
            "computer": self.computer,
            "to_move": to_move,
            "computer_to_move": over.is_none() && self.is_computer(to_move),
            "over": over,
            "ply": self.played.len(),
            "svg": svg_board(tables, &self.state, to_move, &SvgOptions {
                last_move: self.played.last().map(|p| p.squares.clone()).unwrap_or_default(),
                zones: false,
            }),
            "moves": moves,
            "records": self.records,
            "can_undo": !self.played.is_empty(),
            "can_redo": !self.taken_back.is_empty(),
            "remark": self.remark,
            "about": about_text(tables),
        })
    }

    fn play(&mut self, index: usize) -> Result<(), String> {
        if let Some(over) = self.is_over() {
            return Err(format!("the game is over: {over}"));
        }
        if index >= self.moves.len() {
            return Err(format!("there is no move {index} here"));
        }
        self.taken_back.clear();
        self.remark.clear();
        self.advance(index);
        Ok(())
    }

    fn play_text(&mut self, text: &str) -> Result<(), String> {
        match read_move(&self.engine, &self.state, &self.moves, text) {
            Reading::Move(index) => self.play(index),
            Reading::Ambiguous(several) => {
                let texts: Vec<String> = several
                    .iter()
                    .map(|&i| self.engine.notation(&self.state, &self.moves[i]))
                    .collect();
                Err(format!(
                    "{}: {}",
                    Reading::Ambiguous(several).complaint(text),
                    texts.join(", ")
                ))
            }
            reading => Err(reading.complaint(text)),
        }
    }

    fn think(&mut self, algorithm: Option<Algorithm>, seconds: f64) -> Result<(), String> {
        if let Some(over) = self.is_over() {
            return Err(format!("the game is over: {over}"));
        }
        let settings = Settings {
            algorithm,
            limits: Limits::time(Duration::from_secs_f64(
                seconds.clamp(0.01, MAX_THINK_SECONDS),
            )),
            seed: self.played.len() as u64 + 1,
            ..Settings::default()
        };
        let (choice, algorithm) = {
            let mut ai = Ai::for_engine(&self.engine, settings);
            let choice = ai.choose(&self.state, None, |_| {});
            (choice.ok_or("the computer found no move")?, ai.algorithm())
        };
        let text = self.engine.notation(&self.state, &self.moves[choice.index]);
        self.remark = match algorithm {
            Algorithm::AlphaBeta => format!(
                "computer (alphabeta): {text}, depth {}, score {}, {} nodes",
                choice.depth,
                choice.describe_score(),
                choice.nodes
            ),
            Algorithm::Mcts => format!("computer (mcts): {text}, {} playouts", choice.nodes),
            Algorithm::Random => format!("computer (random): {text}"),
        };
        self.taken_back.clear();
        self.advance(choice.index);
        Ok(())
    }

    fn undo(&mut self) {
        self.remark.clear();
        if !self.take_back() {
            return;
        }
        while !self.played.is_empty() && self.is_computer(self.engine.to_move(&self.state)) {
            if self.computer.iter().all(|&c| c) {
                break;
            }
            self.take_back();
        }
    }

    fn redo(&mut self) {
        self.remark.clear();
        let replay = |session: &mut Self| match session.taken_back.pop() {
            Some(index) => {
                session.advance(index);
                true
            }
            None => false,
        };
        if !replay(self) {
            return;
        }
        while self.is_computer(self.engine.to_move(&self.state))
            && !self.computer.iter().all(|&c| c)
            && replay(self)
        {}
    }

    fn new_game(&mut self) {
        self.state = self.engine.start();
        self.moves = self.engine.legal_moves(&self.state);
        self.played.clear();
        self.taken_back.clear();
        self.records.clear();
        self.remark.clear();
    }

    fn set_computer(&mut self, player: usize, on: bool) {
        if let Some(seat) = self.computer.get_mut(player) {
            *seat = on;
        }
    }

    fn saved_game(&self) -> String {
        let humans: Vec<bool> = self.computer.iter().map(|c| !c).collect();
        zrf_runtime::saved_game(
            &self.engine.tables,
            &self.rules_file,
            &humans,
            &self.records,
        )
    }

    fn ply(&self) -> usize {
        self.played.len()
    }
}

/// A game of `make_engine` for the page (the variants of a compiled package).
pub fn table<T: Templates + 'static>(
    make_engine: fn() -> Engine<T>,
    rules_file: &str,
) -> Box<dyn Table> {
    Box::new(Session::new(make_engine(), rules_file))
}

/// A game of a compiled package for the page: its title, and a new game of it given
/// the name saved games give the rules.
pub type Variant = (&'static str, fn(&str) -> Box<dyn Table>);

/// Opens the variant of this index for the page.
pub type Opener<'a> = dyn Fn(usize) -> Result<Box<dyn Table>, String> + 'a;

/// What [`serve`] serves.
pub struct Site<'a> {
    /// The variants' titles, for the page's menu.
    pub variants: Vec<String>,
    /// Which one the page opens with.
    pub first: usize,
    pub open: &'a Opener<'a>,
}

/// Binds the server (`127.0.0.1:0` picks a free port); the address it listens on is
/// [`Server::server_addr`].
pub fn bind(address: &str) -> Result<Server, String> {
    Server::http(address).map_err(|e| format!("cannot listen on {address}: {e}"))
}

/// The page's address for a bound server.
pub fn page_address(server: &Server) -> String {
    match server.server_addr().to_ip() {
        Some(SocketAddr::V6(a)) => format!("http://[{}]:{}/", a.ip(), a.port()),
        Some(a) => format!("http://{a}/"),
        None => "http://localhost/".to_string(),
    }
}

/// Answers the page's requests until the process is stopped. Requests from other
/// sites are refused (403): a `Host` that is not this machine's address as a number or
/// `localhost` with the port served (a DNS name could be rebound to this machine by any
/// page the user visits), and an `Origin` other than the page's own (a cross-site
/// request from another page), as local servers such as Jupyter do.
pub fn serve(server: &Server, site: &Site<'_>) -> Result<(), String> {
    let mut current = site.first;
    let mut table = (site.open)(current)?;
    let port = server.server_addr().to_ip().map_or(0, |a| a.port());
    for request in server.incoming_requests() {
        let header = |name: &'static str| {
            request
                .headers()
                .iter()
                .find(|h| h.field.equiv(name))
                .map(|h| h.value.as_str().to_string())
        };
        let allowed = same_site(header("Host").as_deref(), header("Origin").as_deref(), port);
        let response = match allowed {
            Ok(()) => answer(&request, site, &mut current, &mut table),
            Err(why) => reply(&why, "text/plain; charset=utf-8", 403),
        };
        // A page closed mid-answer is no reason to stop serving.
        let _ = request.respond(response);
    }
    Ok(())
}

/// Whether a request with these `Host` and `Origin` headers comes from the page this
/// server serves on `port`; `Err` says why not.
fn same_site(host: Option<&str>, origin: Option<&str>, port: u16) -> Result<(), String> {
    let host = host.ok_or("a request without a Host header")?;
    let (name, host_port) = match host.rsplit_once(':') {
        Some((name, p)) if !name.ends_with(':') => (name, p.parse::<u16>().ok()),
        _ => (host, None),
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    let is_address =
        name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::IpAddr>().is_ok();
    if !is_address || host_port.unwrap_or(80) != port {
        return Err(format!(
            "refused: Host {host:?} is not this server's address (open the address `serve` printed)"
        ));
    }
    match origin {
        None => Ok(()),
        Some(origin) if origin.strip_prefix("http://") == Some(host) => Ok(()),
        Some(origin) => Err(format!("refused: a request from another site ({origin})")),
    }
}

type Reply = Response<Cursor<Vec<u8>>>;

fn answer(
    request: &Request,
    site: &Site<'_>,
    current: &mut usize,
    table: &mut Box<dyn Table>,
) -> Reply {
    let (path, query) = request.url().split_once('?').unwrap_or((request.url(), ""));
    let param = |name: &str| -> Option<String> {
        form_urlencoded::parse(query.as_bytes())
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    };
    let number = |name: &str| -> Result<usize, String> {
        param(name)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("`{name}` should be a number"))
    };
    let same_turn = |table: &dyn Table| -> Result<(), String> {
        match number("ply")? {
            ply if ply == table.ply() => Ok(()),
            _ => Err("the game has moved on since: reload".to_string()),
        }
    };
    let posted = *request.method() == Method::Post;
    let result: Result<(), String> = match (request.method(), path) {
        (Method::Get, "/") => {
            // The title is there before the script runs (tabs, bookmarks, history).
            let title = site.variants.get(*current).map_or("zrf", |v| v.as_str());
            let page = PAGE.replace(
                "<title>zrf</title>",
                &format!("<title>{}</title>", crate::board::escape(title)),
            );
            return reply(&page, "text/html; charset=utf-8", 200);
        }
        (Method::Get, "/game.zsg") => {
            let mut response = reply(&table.saved_game(), "application/octet-stream", 200);
            let name = format!(
                "attachment; filename=\"{}.zsg\"",
                file_stem(&site.variants[*current])
            );
            if let Ok(header) = Header::from_bytes("Content-Disposition", name) {
                response.add_header(header);
            }
            return response;
        }
        (Method::Get, "/api/view") => Ok(()),
        (_, "/api/move") if posted => {
            same_turn(table.as_ref()).and_then(|()| match param("text") {
                Some(text) => table.play_text(&text),
                None => table.play(number("index")?),
            })
        }
        (_, "/api/think") if posted => same_turn(table.as_ref()).and_then(|()| {
            let algorithm = match param("engine").as_deref() {
                None | Some("" | "auto") => None,
                Some(name) => Some(name.parse()?),
            };
            let seconds: f64 = param("time")
                .and_then(|t| t.parse().ok())
                .filter(|t: &f64| t.is_finite() && *t > 0.0)
                .ok_or("`time` should be seconds")?;
            table.think(algorithm, seconds)
        }),
        (_, "/api/undo") if posted => {
            table.undo();
            Ok(())
        }
        (_, "/api/redo") if posted => {
            table.redo();
            Ok(())
        }
        (_, "/api/new") if posted => {
            table.new_game();
            Ok(())
        }
        (_, "/api/computer") if posted => number("player").map(|player| {
            table.set_computer(player, param("on").as_deref() == Some("1"));
        }),
        (_, "/api/variant") if posted => number("index").and_then(|index| {
            if index >= site.variants.len() {
                return Err(format!("there is no variant {index}"));
            }
            *table = (site.open)(index)?;
            *current = index;
            Ok(())
        }),
        _ => return reply("not found", "text/plain; charset=utf-8", 404),
    };
    let mut view = table.view();
    view["variants"] = json!(site.variants);
    view["variant"] = json!(*current);
    let status = match result {
        Ok(()) => 200,
        Err(message) => {
            view["error"] = json!(message);
            400
        }
    };
    reply(&view.to_string(), "application/json", status)
}

fn reply(body: &str, content_type: &str, status: u16) -> Reply {
    let mut response = Response::from_string(body).with_status_code(status);
    if let Ok(header) = Header::from_bytes("Content-Type", content_type) {
        response.add_header(header);
    }
    response
}

/// A title made safe as a file name.
fn file_stem(title: &str) -> String {
    let stem: String = title
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if stem.is_empty() {
        "game".to_string()
    } else {
        stem
    }
}

#[cfg(test)]
mod tests {
    use super::same_site;

    #[test]
    fn only_requests_from_the_served_page_are_answered() {
        let ok = |host, origin| same_site(host, origin, 8080).is_ok();
        assert!(ok(Some("127.0.0.1:8080"), None));
        assert!(ok(Some("localhost:8080"), Some("http://localhost:8080")));
        assert!(ok(Some("[::1]:8080"), Some("http://[::1]:8080")));
        assert!(ok(Some("192.168.1.5:8080"), None));
        // Rebinding: a DNS name pointed at this machine.
        assert!(!ok(Some("evil.example:8080"), None));
        assert!(!ok(Some("evil.example"), None));
        // Another port, no Host, another site's page.
        assert!(!ok(Some("127.0.0.1:9999"), None));
        assert!(!ok(None, None));
        assert!(!ok(Some("127.0.0.1:8080"), Some("http://evil.example")));
        assert!(!ok(Some("127.0.0.1:8080"), Some("null")));
        assert!(same_site(Some("127.0.0.1"), None, 80).is_ok());
    }
}
