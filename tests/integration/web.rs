//! `zrfc serve`: its JSON interface driven over HTTP, and the page played in headless
//! Chromium through chromedriver (skipped, saying why, where they are not installed).

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A child process killed when the test ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `zrfc serve` on a free port: the process and the page's address.
fn serve(file: &str) -> (Running, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zrfc"))
        .args(["serve", file, "--port", "0"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run zrfc: {e}"));
    let stdout = child.stdout.take().expect("piped stdout");
    let running = Running(child);
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("zrfc serve prints its address");
    let address = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (running, address)
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

/// A request to the server: its status and JSON answer.
fn api(agent: &ureq::Agent, base: &str, path: &str) -> (u16, Value) {
    let url = format!("{base}api/{path}");
    let mut response = if path == "view" {
        agent.get(&url).call()
    } else {
        agent.post(&url).send_empty()
    }
    .unwrap_or_else(|e| panic!("{url}: {e}"));
    let status = response.status().as_u16();
    let body: Value = response
        .body_mut()
        .read_json()
        .unwrap_or_else(|e| panic!("{url}: {e}"));
    (status, body)
}

fn records(view: &Value) -> Vec<&str> {
    view["records"]
        .as_array()
        .expect("records")
        .iter()
        .map(|r| r.as_str().expect("a record"))
        .collect()
}

#[test]
fn serve_plays_takes_back_and_saves_over_its_json_interface() {
    let (_server, base) = serve("zrf-samples/chess.zrf");
    let agent = agent();
    let (status, view) = api(&agent, &base, "view");
    assert_eq!(status, 200);
    assert_eq!(view["title"], "Chess");
    assert_eq!(view["players"], json!(["White", "Black"]));
    assert_eq!(view["computer"], json!([false, true]));
    let moves = view["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 20);
    let e4 = moves
        .iter()
        .position(|m| m["text"] == "Pawn e2 - e4")
        .expect("e2-e4 is legal");
    assert_eq!(moves[e4]["path"], json!(["e2", "e4"]));
    assert!(view["svg"].as_str().expect("svg").starts_with("<svg"));

    let (status, view) = api(&agent, &base, &format!("move?ply=0&index={e4}"));
    assert_eq!(status, 200, "{view}");
    assert_eq!(records(&view), ["1. Pawn e2 - e4"]);
    assert_eq!(view["computer_to_move"], true);
    // The last move's two squares are highlighted; the zones hidden.
    let svg = view["svg"].as_str().expect("svg");
    assert_eq!(svg.matches("class=\"last-move\"").count(), 2, "{svg}");
    assert!(
        svg.contains("<g class=\"zones\" visibility=\"hidden\">"),
        "{svg}"
    );

    // A click from a page that has not seen the last move is refused.
    let (status, stale) = api(&agent, &base, "move?ply=0&index=0");
    assert_eq!(status, 400);
    assert_eq!(stale["error"], "the game has moved on since: reload");
    assert_eq!(records(&stale), ["1. Pawn e2 - e4"]);

    let (status, view) = api(&agent, &base, "think?ply=1&engine=alphabeta&time=0.1");
    assert_eq!(status, 200, "{view}");
    let played = records(&view);
    assert_eq!(played.len(), 2);
    assert!(played[1].starts_with("1. "), "{played:?}");
    assert!(view["remark"]
        .as_str()
        .expect("remark")
        .starts_with("computer (alphabeta): "));
    let reply = played[1].to_string();

    let mut response = agent
        .get(&format!("{base}game.zsg"))
        .call()
        .expect("game.zsg");
    assert_eq!(
        response
            .headers()
            .get("Content-Disposition")
            .map(|h| h.to_str().ok()),
        Some(Some("attachment; filename=\"Chess.zsg\""))
    );
    let saved = response.body_mut().read_to_string().expect("a saved game");
    assert_eq!(
        saved,
        format!(
            "Zillions Save Game File Version 0.02 HC\r\nRulesFile=chess.zrf\r\nVariantName=Chess\r\n1. Pawn e2 - e4\r\n{reply}\r\n"
        )
    );

    // Undo goes back past the computer's reply to the person's turn; redo replays both.
    let (_, view) = api(&agent, &base, "undo");
    assert_eq!(view["ply"], 0);
    assert!(records(&view).is_empty());
    assert_eq!(view["can_redo"], true);
    let (_, view) = api(&agent, &base, "redo");
    assert_eq!(records(&view), ["1. Pawn e2 - e4", reply.as_str()]);

    let (_, view) = api(&agent, &base, "new");
    assert_eq!(view["ply"], 0);
    assert_eq!(view["can_undo"], false);

    // A typed move is read as every command reads moves.
    let (status, view) = api(&agent, &base, "move?ply=0&text=Nf3");
    assert_eq!(status, 200, "{view}");
    assert_eq!(records(&view), ["1. Knight g1 - f3"]);
    api(&agent, &base, "new");
    let (status, view) = api(&agent, &base, "move?ply=0&text=e5");
    assert_eq!(status, 400);
    assert_eq!(view["error"], "\"e5\" is not legal here");
    assert!(records(&view).is_empty());
    let (status, view) = api(&agent, &base, "move?ply=0&text=hello");
    assert_eq!(status, 400);
    assert!(view["error"]
        .as_str()
        .expect("error")
        .starts_with("\"hello\" is not recognised as a move"));

    let (status, view) = api(&agent, &base, "variant?index=7");
    assert_eq!(status, 400);
    assert_eq!(view["error"], "there is no variant 7");
    let (status, view) = api(&agent, &base, "think?ply=0&time=often");
    assert_eq!(status, 400);
    assert_eq!(view["error"], "`time` should be seconds");
    let status = agent
        .get(&format!("{base}elsewhere"))
        .call()
        .expect("an answer")
        .status();
    assert_eq!(status.as_u16(), 404);
    let page = agent
        .get(&base)
        .call()
        .expect("the page")
        .body_mut()
        .read_to_string()
        .expect("text");
    assert!(page.contains("<title>Chess</title>"), "{page}");
    assert!(
        page.contains(r#"<input type="checkbox" id="zones">"#),
        "{page}"
    );
}

/// A program on the PATH, by any of its names.
fn program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// A chromedriver session on headless Chromium.
struct Browser {
    agent: ureq::Agent,
    session: String,
    _driver: Running,
}

/// The key WebDriver gives element references under.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    fn start(driver: &Path, chromium: &Path) -> Browser {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", driver.display()));
        let driver_process = Running(child);
        let agent = agent();
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while agent.get(&format!("{base}/status")).call().is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1200,900"],
            },
        }}});
        let mut browser = Browser {
            agent,
            session: base,
            _driver: driver_process,
        };
        let answer = browser.send("POST", "/session", capabilities);
        let id = answer["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {answer}"))
            .to_string();
        browser.session = format!("{}/session/{id}", browser.session);
        browser
    }

    /// A WebDriver command; its `value`.
    fn send(&self, method: &str, path: &str, body: Value) -> Value {
        let url = format!("{}{path}", self.session);
        let response = match method {
            "GET" => self.agent.get(&url).call(),
            "DELETE" => self.agent.delete(&url).call(),
            _ => self.agent.post(&url).send_json(&body),
        };
        let mut response = response.unwrap_or_else(|e| panic!("{method} {url}: {e}"));
        let status = response.status();
        let answer: Value = response
            .body_mut()
            .read_json()
            .expect("JSON from chromedriver");
        assert!(status.is_success(), "{method} {url}: {answer}");
        answer["value"].clone()
    }

    fn run(&self, script: &str) -> Value {
        self.send(
            "POST",
            "/execute/sync",
            json!({"script": script, "args": []}),
        )
    }

    fn click(&self, selector: &str) {
        let found = self.send(
            "POST",
            "/element",
            json!({"using": "css selector", "value": selector}),
        );
        let element = found[ELEMENT].as_str().expect("an element").to_string();
        self.send("POST", &format!("/element/{element}/click"), json!({}));
    }

    /// Waits until `script` returns true.
    fn wait_for(&self, script: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.run(script) != json!(true) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn screenshot(&self, path: &Path) {
        use base64::Engine as _;
        let encoded = self.send("GET", "/screenshot", Value::Null);
        let png = base64::engine::general_purpose::STANDARD
            .decode(encoded.as_str().expect("base64"))
            .expect("a PNG");
        std::fs::write(path, png).expect("screenshot written");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.agent.delete(&self.session).call();
    }
}

const MOVE_LIST: &str =
    "return [...document.querySelectorAll('#records li')].map(li => li.textContent)";

#[test]
fn the_page_plays_a_move_by_two_clicks_and_takes_it_back() {
    let (Some(driver), Some(chromium)) = (
        program(&["chromedriver"]),
        program(&["chromium", "chromium-browser", "google-chrome"]),
    ) else {
        // CI sets ZRF_REQUIRE_BROWSER: there a missing browser fails the test.
        assert!(
            std::env::var_os("ZRF_REQUIRE_BROWSER").is_none(),
            "chromium and chromedriver are required (ZRF_REQUIRE_BROWSER is set)"
        );
        eprintln!(
            "skipped: chromium and chromedriver are not installed (Debian: `apt-get install \
             chromium chromium-driver`; .ci/run installs them)"
        );
        return;
    };
    let (_server, base) = serve("zrf-samples/chess.zrf");
    let browser = Browser::start(&driver, &chromium);
    browser.send("POST", "/url", json!({"url": base}));
    browser.wait_for(
        "return !!document.querySelector('#board .piece[data-pos=\"e2\"]')",
        "the board",
    );
    assert_eq!(browser.run(MOVE_LIST), json!([]));

    browser.click("#board .piece[data-pos=\"e2\"]");
    assert_eq!(
        browser.run(
            "return [...document.querySelectorAll('#board .square.target')].map(s => s.dataset.pos).sort()"
        ),
        json!(["e3", "e4"]),
        "after clicking the pawn its destinations are marked"
    );
    browser.click("#board .square[data-pos=\"e4\"]");
    browser.wait_for(
        "return document.querySelectorAll('#records li').length === 2 \
         && !document.getElementById('status').textContent.includes('thinking')",
        "the computer's reply",
    );
    let list = browser.run(MOVE_LIST);
    assert_eq!(list[0], "1. Pawn e2 - e4");
    assert!(
        list[1].as_str().is_some_and(|r| r.starts_with("1. ")),
        "{list}"
    );
    assert_eq!(
        browser.run(
            "return [!!document.querySelector('#board .piece[data-pos=\"e4\"]'), \
             !!document.querySelector('#board .piece[data-pos=\"e2\"]')]"
        ),
        json!([true, false]),
        "the pawn stands on e4"
    );
    assert_eq!(
        browser.run("return document.getElementById('status').textContent"),
        "White to move"
    );
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR"));
    browser.screenshot(&shots.join("web-after-reply.png"));

    browser.click("#undo");
    browser.wait_for(
        "return document.querySelectorAll('#records li').length === 0",
        "the move list to empty",
    );
    assert_eq!(
        browser.run(
            "return [!!document.querySelector('#board .piece[data-pos=\"e4\"]'), \
             !!document.querySelector('#board .piece[data-pos=\"e2\"]'), \
             document.getElementById('redo').disabled]"
        ),
        json!([false, true, false]),
        "the pawn is back on e2 and redo is offered"
    );
    browser.screenshot(&shots.join("web-after-undo.png"));

    // A move typed in the box, as `play` reads it; the computer replies.
    browser.run("document.getElementById('typed-move').value = 'Nf3'; return null");
    browser.click("#typed button");
    browser.wait_for(
        "return document.querySelectorAll('#records li').length === 2 \
         && !document.getElementById('status').textContent.includes('thinking')",
        "the typed move and the reply",
    );
    assert_eq!(browser.run(MOVE_LIST)[0], "1. Knight g1 - f3");
    // The zones are hidden until the box is ticked.
    let zones_shown = "return getComputedStyle(document.querySelector('#board .zones')).visibility";
    assert_eq!(browser.run(zones_shown), "hidden");
    browser.click("#zones");
    assert_eq!(browser.run(zones_shown), "visible");
    eprintln!("screenshots in {}", shots.display());
}

#[test]
fn serve_gives_each_move_the_squares_clicked_for_it() {
    let (_server, base) = serve("zrf-samples/hopdrop.zrf");
    let agent = agent();
    let (_, mut view) = api(&agent, &base, "view");
    let path_of = |view: &Value, text: &str| {
        let moves = view["moves"].as_array().expect("moves");
        let found = moves.iter().position(|m| m["text"] == text);
        let index = found.unwrap_or_else(|| panic!("no move {text:?} in {moves:?}"));
        (index, moves[index]["path"].clone())
    };
    assert_eq!(path_of(&view, "Stone b1 - b2").1, json!(["b1", "b2"]));
    // A drop is one click, on the square it fills.
    assert_eq!(path_of(&view, "Red Stone a2").1, json!(["a2"]));
    for (ply, text) in [
        "Red Stone c2",
        "Blue Stone c4",
        "Stone c2 - c3",
        "Blue Stone a4",
        "Red Stone d2",
    ]
    .into_iter()
    .enumerate()
    {
        let (index, _) = path_of(&view, text);
        let (status, next) = api(&agent, &base, &format!("move?ply={ply}&index={index}"));
        assert_eq!(status, 200, "{next}");
        view = next;
    }
    // A chain of partial moves: the start, then where each jump lands.
    let one_jump = "Stone c4 - c2 x c3 @ c2 0 1";
    assert_eq!(path_of(&view, one_jump).1, json!(["c4", "c2"]));
    let two_jumps = format!("{one_jump}; Stone c2 - e2 x d2 @ e2 0 1");
    assert_eq!(path_of(&view, &two_jumps).1, json!(["c4", "c2", "e2"]));
}

/// A raw request to the server with these headers: its status line.
fn raw_request(base: &str, request_line: &str, headers: &[&str]) -> String {
    use std::io::{Read, Write};
    let address = base.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = std::net::TcpStream::connect(address).expect("connects");
    let mut request = format!("{request_line}\r\n");
    for header in headers {
        request.push_str(&format!("{header}\r\n"));
    }
    request.push_str("Content-Length: 0\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).expect("sent");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer.lines().next().unwrap_or("").to_string()
}

#[test]
fn serve_refuses_requests_from_other_sites_and_rebound_names() {
    let (_server, base) = serve("zrf-samples/tictactoe.zrf");
    let host = base.trim_start_matches("http://").trim_end_matches('/');
    let agent = agent();
    let (status, _) = api(&agent, &base, "move?index=0&ply=0");
    assert_eq!(status, 200);
    // A page elsewhere posting a new game, and a rebound DNS name reading the state.
    let cross_site = raw_request(
        &base,
        "POST /api/new HTTP/1.1",
        &[&format!("Host: {host}"), "Origin: http://evil.example"],
    );
    assert!(cross_site.contains("403"), "{cross_site}");
    let rebound = raw_request(&base, "GET /api/view HTTP/1.1", &["Host: evil.example"]);
    assert!(rebound.contains("403"), "{rebound}");
    // The game was not touched: the move is still there.
    let (status, view) = api(&agent, &base, "view");
    assert_eq!(status, 200);
    assert_eq!(records(&view).len(), 1, "{view}");
    // The page's own requests still pass.
    let own = raw_request(
        &base,
        "GET /api/view HTTP/1.1",
        &[&format!("Host: {host}"), &format!("Origin: http://{host}")],
    );
    assert!(own.contains("200"), "{own}");
}
