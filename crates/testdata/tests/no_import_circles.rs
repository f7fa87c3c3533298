//! The house rule that no module of a crate imports another that imports it back,
//! directly or through others: for every crate of the workspace, the top-level
//! modules of `src/` and the other top-level modules their code (not comments,
//! not tests) names as `crate::module`, with no circle among them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src` belongs to (`None`: the crate's root).
fn top_module(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).ok()?;
    let first = relative.components().next()?.as_os_str().to_string_lossy().into_owned();
    let name = first.trim_end_matches(".rs").to_string();
    (!matches!(name.as_str(), "lib" | "main")).then_some(name)
}

/// The code of a file without its comments and its `#[cfg(test)]` module (the
/// tests sit at the end of a file here).
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The names `crate::NAME` in `code`.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let name: String =
            rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if !name.is_empty() {
            names.insert(name);
        }
    }
    names
}

/// The module graph of the crate whose sources are in `src`.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut modules: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        if let Some(module) = top_module(src, file) {
            let text = std::fs::read_to_string(file).expect("a readable source file");
            modules.entry(module).or_default().extend(crate_paths(&code_of(&text)));
        }
    }
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    modules
        .into_iter()
        .map(|(m, deps)| {
            let deps = deps.into_iter().filter(|d| names.contains(d) && *d != m).collect();
            (m, deps)
        })
        .collect()
}

/// A circle of `graph` through `start`, if any (depth-first search).
fn circle_through(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    fn walk(
        graph: &BTreeMap<String, BTreeSet<String>>,
        start: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        let last = path.last().expect("a path").clone();
        for next in &graph[&last] {
            if next == start {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(graph, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    walk(graph, start, &mut path, &mut BTreeSet::new()).then_some(path)
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    for entry in std::fs::read_dir(&crates).expect("the crates folder").flatten() {
        let src = entry.path().join("src");
        if !src.is_dir() {
            continue;
        }
        let graph = graph(&src);
        for module in graph.keys() {
            if let Some(circle) = circle_through(&graph, module) {
                panic!("{}: {} -> {module}", entry.path().display(), circle.join(" -> "));
            }
        }
        checked += graph.len();
    }
    assert!(checked > 50, "only {checked} modules found");
}

#[test]
fn the_check_sees_a_circle() {
    let graph: BTreeMap<String, BTreeSet<String>> =
        [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"]), ("d", vec!["a"])]
            .into_iter()
            .map(|(m, deps)| (m.to_string(), deps.into_iter().map(str::to_string).collect()))
            .collect();
    assert_eq!(circle_through(&graph, "a"), Some(vec!["a".into(), "b".into(), "c".into()]));
    assert_eq!(circle_through(&graph, "d"), None);
    assert_eq!(crate_paths("use crate::phase::{x}; let y = crate::weights::z;").len(), 2);
    assert!(code_of("// crate::a\nfn f() {}\n#[cfg(test)]\nmod t { crate::b }")
        .find("crate::")
        .is_none());
}
