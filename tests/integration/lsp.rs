//! `zrfc lsp` driven by a scripted client over an in-memory connection: each request
//! the server offers, on a root file that includes another.

use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};

const LIBRARY: &str = "; Moves shared by the pieces.\n(define step ($1 (verify empty?) add))\n";

const ROOT: &str = r#"(include "lib.zrf")
(game
   (title "Steps")
   (players White Black)
   (turn-order White Black)
   (board
      (grid
         (start-rectangle 0 0 50 50)
         (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50)))
         (directions (n 0 -1) (s 0 1))
      )
   )
   (piece
      (name Man)
      (help "Steps forward to an empty square.")
      (moves (step n) (step s))
   )
   (board-setup (White (Man a1)) (Black (Man c3)))
   (loss-condition (White Black) stalemated)
)
"#;

struct Client {
    connection: Connection,
    next_id: i32,
}

impl Client {
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let request = Request::new(id.clone(), method.to_string(), params);
        self.send(Message::Request(request));
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match self.receive(deadline) {
                Message::Response(response) if response.id == id => {
                    return response
                        .response_result
                        .unwrap_or_else(|e| panic!("{method}: {e:?}"));
                }
                _ => continue,
            }
        }
    }

    fn notify(&self, method: &str, params: Value) {
        self.send(Message::Notification(Notification::new(
            method.to_string(),
            params,
        )));
    }

    /// Sends the whole new `text` of the document at `uri` and waits for its
    /// diagnostics.
    fn change(&self, uri: &str, version: i32, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version },
                    "contentChanges": [{ "text": text }] }),
        );
        self.diagnostics_for(uri)
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics_for(&self, uri: &str) -> Vec<Value> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Message::Notification(n) = self.receive(deadline) {
                if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri {
                    return n.params["diagnostics"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default();
                }
            }
        }
    }

    fn send(&self, message: Message) {
        self.connection
            .sender
            .send(message)
            .unwrap_or_else(|e| panic!("{e}"));
    }

    fn receive(&self, deadline: Instant) -> Message {
        let left = deadline.saturating_duration_since(Instant::now());
        self.connection
            .receiver
            .recv_timeout(left)
            .unwrap_or_else(|e| panic!("no message from the server: {e}"))
    }
}

fn uri(path: &Path) -> String {
    zrf::lsp::path_to_uri(path)
        .expect("a file URI")
        .as_str()
        .to_string()
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

#[test]
fn a_scripted_editor_gets_every_answer_the_server_offers() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let root = folder.path().join("main.zrf");
    let library = folder.path().join("lib.zrf");
    std::fs::write(&library, LIBRARY).expect("written");
    std::fs::write(&root, ROOT).expect("written");
    let (root_uri, library_uri) = (uri(&root), uri(&library));

    let (server, connection) = Connection::memory();
    let serving = thread::spawn(move || zrf::lsp::serve(&server));
    let mut client = Client {
        connection,
        next_id: 0,
    };
    let init = client.request(
        "initialize",
        json!({ "capabilities": {}, "processId": null, "rootUri": null }),
    );
    let capabilities = &init["capabilities"];
    for provider in [
        "hoverProvider",
        "definitionProvider",
        "referencesProvider",
        "documentSymbolProvider",
        "completionProvider",
        "semanticTokensProvider",
    ] {
        assert!(!capabilities[provider].is_null(), "{provider}: {init}");
    }
    client.notify("initialized", json!({}));

    // Opened: a clean file gets an empty list.
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": root_uri, "languageId": "zrf", "version": 1, "text": ROOT } }),
    );
    assert_eq!(client.diagnostics_for(&root_uri), Vec::<Value>::new());

    // Hover over `step` in `(step n)` (line 15): the macro from the included file.
    let hover = client.request("textDocument/hover", at(&root_uri, 15, 14));
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.starts_with("macro `step` ("), "{text}");
    assert!(text.contains("lib.zrf:2:9)"), "{text}");
    assert!(
        text.contains("(define step ($1 (verify empty?) add))"),
        "{text}"
    );
    assert_eq!(
        hover["range"],
        json!({ "start": { "line": 15, "character": 14 }, "end": { "line": 15, "character": 18 } })
    );
    // A piece's hover gives its help text.
    let hover = client.request("textDocument/hover", at(&root_uri, 17, 25));
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        text.starts_with("piece `Man` (") && text.ends_with("Steps forward to an empty square."),
        "{text}"
    );

    // Definition of `step`: its name in lib.zrf.
    let definition = client.request("textDocument/definition", at(&root_uri, 15, 15));
    assert_eq!(
        definition,
        json!([{ "uri": library_uri, "range": {
            "start": { "line": 1, "character": 8 }, "end": { "line": 1, "character": 12 } } }])
    );
    // Definition of the included file's name: the file.
    let definition = client.request("textDocument/definition", at(&root_uri, 0, 12));
    assert_eq!(definition[0]["uri"], json!(library_uri));
    // Definition of a grid position: its grid's `dimensions`.
    let definition = client.request("textDocument/definition", at(&root_uri, 17, 29));
    assert_eq!(
        definition[0]["range"]["start"],
        json!({ "line": 8, "character": 9 })
    );

    // References of `step`: the definition and both uses.
    let references = client.request(
        "textDocument/references",
        json!({ "textDocument": { "uri": root_uri }, "position": { "line": 15, "character": 15 },
                "context": { "includeDeclaration": true } }),
    );
    let places: Vec<(String, u64)> = references
        .as_array()
        .expect("a list")
        .iter()
        .map(|r| {
            let file = r["uri"].as_str().unwrap_or_default();
            let name = if file == root_uri { "main" } else { "lib" };
            (
                name.to_string(),
                r["range"]["start"]["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        places,
        [
            ("main".to_string(), 15),
            ("main".to_string(), 15),
            ("lib".to_string(), 1)
        ]
    );

    // Symbols: the game, with its piece inside.
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": root_uri } }),
    );
    let outline: Vec<(String, Vec<String>)> = symbols
        .as_array()
        .expect("a list")
        .iter()
        .map(|s| {
            let children = s["children"].as_array().cloned().unwrap_or_default();
            let names = children
                .iter()
                .map(|c| c["name"].as_str().unwrap_or_default().to_string())
                .collect();
            (s["name"].as_str().unwrap_or_default().to_string(), names)
        })
        .collect();
    assert_eq!(outline, [("Steps".to_string(), vec!["Man".to_string()])]);

    // Completion: keywords, and the names in scope.
    let completion = client.request("textDocument/completion", at(&root_uri, 15, 14));
    let labels: Vec<&str> = completion
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|item| item["label"].as_str())
        .collect();
    for label in [
        "verify",
        "empty?",
        "board-setup",
        "step",
        "Man",
        "n",
        "a1",
        "c3",
    ] {
        assert!(labels.contains(&label), "{label} missing from {labels:?}");
    }

    // Semantic tokens of the first line: `include` a keyword, then the string.
    let tokens = client.request(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": root_uri } }),
    );
    let data: Vec<u64> = tokens["data"]
        .as_array()
        .expect("token data")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert_eq!(data[..10], [0, 1, 7, 0, 0, 0, 8, 9, 6, 0]);

    // An edit that misspells the macro: a diagnostic with a suggestion, then mended.
    let broken = ROOT.replace("(step s)", "(stepp s)");
    let diagnostics = client.change(&root_uri, 2, &broken);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let diagnostic = &diagnostics[0];
    assert_eq!(diagnostic["severity"], json!(1));
    assert_eq!(diagnostic["source"], json!("zrfc"));
    assert_eq!(
        diagnostic["range"]["start"],
        json!({ "line": 15, "character": 23 })
    );
    let message = diagnostic["message"].as_str().unwrap_or_default();
    assert!(message.contains("`step`"), "{diagnostic}");
    // An error inside a macro: the calls that led there come as related places.
    let broken = ROOT.replace("(moves (step n) (step s))", "(moves (step n) (hop s))")
        + "(define hop ($1 $1 (verify emptyy?) add))\n";
    let diagnostics = client.change(&root_uri, 3, &broken);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(
        diagnostics[0]["range"]["start"],
        json!({ "line": 20, "character": 27 })
    );
    let related: Vec<(String, u64)> = diagnostics[0]["relatedInformation"]
        .as_array()
        .expect("related places")
        .iter()
        .map(|r| {
            let line = r["location"]["range"]["start"]["line"]
                .as_u64()
                .unwrap_or(0);
            (r["message"].as_str().unwrap_or_default().to_string(), line)
        })
        .collect();
    assert_eq!(
        related,
        [
            ("in this call of `hop`".to_string(), 15),
            ("`hop` is defined here".to_string(), 20)
        ]
    );
    assert_eq!(client.change(&root_uri, 4, ROOT), Vec::<Value>::new());

    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let served = serving.join().expect("the server thread");
    assert_eq!(served, Ok(()));
}

/// The editor's position of byte `offset` of `text`.
fn position(text: &str, offset: usize) -> (u32, u32) {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |at| at + 1);
    (line as u32, before[start..].encode_utf16().count() as u32)
}

#[test]
fn corpus_files_with_includes_are_served_across_their_includes() {
    let Some(corpus) = crate::shared_corpus() else {
        return;
    };
    let mut roots = Vec::new();
    // As an editor names them.
    let corpus = corpus.canonicalize().unwrap_or(corpus);
    for path in crate::files_under(&corpus) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Some(start) = text.find("(include \"") else {
            continue;
        };
        let name_at = start + "(include \"".len();
        let name = &text[name_at..name_at + text[name_at..].find('"').unwrap_or(0)];
        let included = path.with_file_name(name);
        if included.is_file() {
            roots.push((path, text, name_at, included));
        }
    }
    assert!(
        roots.len() >= 10,
        "{} corpus files include others",
        roots.len()
    );

    let (server, connection) = Connection::memory();
    let serving = thread::spawn(move || zrf::lsp::serve(&server));
    let mut client = Client {
        connection,
        next_id: 0,
    };
    client.request("initialize", json!({ "capabilities": {} }));
    client.notify("initialized", json!({}));
    let mut hovered = 0;
    for (root, text, name_at, included) in &roots {
        let root_uri = uri(root);
        let included_uri = uri(included);
        client.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": root_uri, "languageId": "zrf", "version": 1, "text": text } }),
        );
        client.diagnostics_for(&root_uri);
        let defined_in = |client: &mut Client, offset: usize| {
            let (line, character) = position(text, offset);
            let definition =
                client.request("textDocument/definition", at(&root_uri, line, character));
            definition[0]["uri"].clone()
        };
        assert_eq!(
            defined_in(&mut client, *name_at),
            json!(included_uri),
            "{}",
            root.display()
        );

        // A macro of the included file used in the root: hover and definition.
        let library = std::fs::read_to_string(included).unwrap_or_default();
        let used = library.match_indices("(define ").find_map(|(at, _)| {
            let rest = &library[at + "(define ".len()..];
            let name = rest.split([' ', '\n', '\r', '\t', ')']).next()?;
            text.find(&format!("({name}"))
                .map(|use_at| (name.to_string(), use_at + 1))
        });
        let Some((name, use_at)) = used else {
            continue;
        };
        let (line, character) = position(text, use_at);
        let hover = client.request("textDocument/hover", at(&root_uri, line, character));
        let shown = hover["contents"]["value"].as_str().unwrap_or_default();
        assert!(
            shown.starts_with(&format!("macro `{name}` (")),
            "{}: {shown}",
            root.display()
        );
        assert_eq!(
            defined_in(&mut client, use_at),
            json!(included_uri),
            "{}",
            root.display()
        );
        hovered += 1;
        client.notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": root_uri } }),
        );
    }
    assert!(hovered >= roots.len() / 2, "{hovered} of {}", roots.len());
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(serving.join().expect("the server thread"), Ok(()));
}
