//! The whole front end (parse, expand, check every game and variant) over the corpus
//! (../shared/corpus), with every file read into memory first. Without the corpus, the
//! bundled samples are used.

use std::path::{Path, PathBuf};

mod common;

use common::collect;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

// The same allocator as the `zrfc` binary.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use zrf::frontend::{self, FrontEndOptions};
use zrf::source::SourceMap;
use zrf::syntax::{LoadOptions, MemoryLoader};

fn front_end(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut base = root.join("../shared/corpus");
    let mut paths = Vec::new();
    collect(&base, &mut paths);
    if paths.is_empty() {
        eprintln!("../shared/corpus not found: benchmarking the bundled samples only");
        base = root.join("zrf-samples");
        collect(&base, &mut paths);
    }
    paths.sort();
    let mut loader = MemoryLoader::new();
    let mut bytes = 0;
    let mut roots = Vec::new();
    for path in &paths {
        let Ok(content) = std::fs::read(path) else {
            continue;
        };
        let relative = path.strip_prefix(&base).unwrap_or(path).to_path_buf();
        bytes += content.len();
        if relative.extension().is_some_and(|e| e == "zrf") {
            roots.push(relative.clone());
        }
        loader.insert(relative, content);
    }
    let options = FrontEndOptions {
        load: LoadOptions {
            include_dirs: vec![PathBuf::from("DagazProject-ZRF/Sokoban")],
            ..LoadOptions::default()
        },
        ..FrontEndOptions::default()
    };
    let mut group = c.benchmark_group("frontend");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(10);
    group.bench_function(format!("{} files, {bytes} bytes", roots.len()), |b| {
        b.iter(|| {
            let mut lowered = 0;
            for root in &roots {
                let mut sources = SourceMap::new();
                if let Ok(result) = frontend::run(root, &loader, &options, &mut sources) {
                    lowered += result.games.iter().filter(|g| g.game.is_some()).count();
                }
            }
            lowered
        })
    });
    group.finish();
}

criterion_group!(benches, front_end);
criterion_main!(benches);
