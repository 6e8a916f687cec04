//! Parsing throughput: the whole corpus (../shared/corpus), read into memory first, then
//! lexed and parsed file by file. Without the corpus, the bundled samples are used.

use std::path::Path;

mod common;

use common::collect;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use zrf::source::SourceMap;
use zrf::syntax::parse_file;

fn inputs() -> (&'static str, Vec<Vec<u8>>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    collect(&root.join("../shared/corpus"), &mut paths);
    let name = if paths.is_empty() {
        eprintln!("../shared/corpus not found: benchmarking the bundled samples only");
        collect(&root.join("zrf-samples"), &mut paths);
        "samples"
    } else {
        "corpus"
    };
    paths.sort();
    let files = paths.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    (name, files)
}

fn parse_all(c: &mut Criterion) {
    let (name, files) = inputs();
    let bytes: usize = files.iter().map(Vec::len).sum();
    // Decoding is part of reading a file; it happens once when a file joins the map.
    let mut sources = SourceMap::new();
    let ids: Vec<_> = files
        .into_iter()
        .map(|b| sources.add("input.zrf", b))
        .collect();
    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(20);
    group.bench_function(
        format!("{name} ({} files, {bytes} bytes)", ids.len()),
        |b| {
            b.iter(|| {
                ids.iter()
                    .map(|&id| parse_file(id, sources.file(id)).forms.len())
                    .sum::<usize>()
            })
        },
    );
    group.finish();
}

criterion_group!(benches, parse_all);
criterion_main!(benches);
