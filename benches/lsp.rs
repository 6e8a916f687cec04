//! The language server's answer to an edit: from a `didChange` to the diagnostics it
//! publishes (debounce included), over an in-memory connection, on the largest corpus
//! file (../shared/corpus) and on the chess sample.

use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

mod common;

use common::collect;
use criterion::{criterion_group, criterion_main, Criterion};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};

fn inputs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut corpus = Vec::new();
    collect(&root.join("../shared/corpus"), &mut corpus);
    let largest = corpus
        .into_iter()
        .max_by_key(|p| std::fs::metadata(p).map_or(0, |m| m.len()));
    let mut files = vec![root.join("zrf-samples/chess.zrf")];
    files.extend(largest);
    files
}

fn notify(client: &Connection, method: &str, params: Value) {
    let note = Notification::new(method.to_string(), params);
    client
        .sender
        .send(Message::Notification(note))
        .unwrap_or_else(|e| panic!("{e}"));
}

fn diagnostics(client: &Connection) {
    loop {
        match client.receiver.recv_timeout(Duration::from_secs(60)) {
            Ok(Message::Notification(n)) if n.method == "textDocument/publishDiagnostics" => return,
            Ok(_) => {}
            Err(e) => panic!("no diagnostics: {e}"),
        }
    }
}

fn edit_to_diagnostics(c: &mut Criterion) {
    let mut group = c.benchmark_group("lsp_edit_to_diagnostics");
    group.sample_size(10);
    for path in inputs() {
        let Ok(text) = std::fs::read(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&text).into_owned();
        let uri = zrf::lsp::path_to_uri(&path).expect("a file URI");
        let (server, client) = Connection::memory();
        let serving = thread::spawn(move || zrf::lsp::serve(&server));
        let init = Request::new(
            RequestId::from(1),
            "initialize".into(),
            json!({ "capabilities": {} }),
        );
        client
            .sender
            .send(Message::Request(init))
            .unwrap_or_else(|e| panic!("{e}"));
        let _ = client.receiver.recv();
        notify(&client, "initialized", json!({}));
        notify(
            &client,
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri.as_str(), "languageId": "zrf", "version": 1, "text": text } }),
        );
        diagnostics(&client);
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let mut version = 1;
        group.bench_function(name, |b| {
            b.iter(|| {
                version += 1;
                notify(
                    &client,
                    "textDocument/didChange",
                    json!({ "textDocument": { "uri": uri.as_str(), "version": version },
                            "contentChanges": [{ "text": format!("{text}\n; edit {version}\n") }] }),
                );
                diagnostics(&client);
            })
        });
        let shutdown = Request::new(RequestId::from(2), "shutdown".into(), Value::Null);
        let _ = client.sender.send(Message::Request(shutdown));
        notify(&client, "exit", Value::Null);
        let _ = serving.join();
    }
    group.finish();
}

criterion_group!(benches, edit_to_diagnostics);
criterion_main!(benches);
