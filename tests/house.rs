#![cfg(not(target_arch = "wasm32"))]
//! The house's rules that a compiler does not check: no file in `src/` uses one
//! that uses it back, however long the way round.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each module (`lab::state`, `core`, ...) and its source, read from `src/`.
fn modules() -> BTreeMap<String, String> {
    fn walk(dir: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix("src").unwrap().with_extension("");
                let mut name = relative.to_string_lossy().replace('/', "::");
                if let Some(parent) = name.strip_suffix("::mod") {
                    name = parent.to_owned();
                }
                if name == "lib" || name == "main" {
                    name = String::new();
                }
                out.insert(name, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(Path::new("src"), &mut out);
    out
}

/// The paths a source names through `crate::`, `super::` or `self::`.
fn named_paths(source: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let bytes = source.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in source.match_indices(start) {
            // A whole word: not the tail of another name.
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            let path: String = source[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            paths.push(
                path.split("::")
                    .filter(|p| !p.is_empty())
                    .map(str::to_owned)
                    .collect(),
            );
        }
    }
    paths
}

/// The module a path from `from` leads into: the longest one that exists.
fn resolve(from: &str, path: &[String], modules: &BTreeMap<String, String>) -> Option<String> {
    let mut base: Vec<&str> = from.split("::").filter(|s| !s.is_empty()).collect();
    let mut at = 0;
    match path.first()?.as_str() {
        "crate" => {
            base.clear();
            at = 1;
        }
        "self" => at = 1,
        "super" => {
            while path.get(at).map(String::as_str) == Some("super") {
                base.pop();
                at += 1;
            }
        }
        _ => return None,
    }
    let rest = &path[at..];
    (0..=rest.len())
        .rev()
        .map(|n| {
            base.iter()
                .copied()
                .chain(rest[..n].iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join("::")
        })
        .find(|name| modules.contains_key(name))
}

fn within(a: &str, b: &str) -> bool {
    b.is_empty() || a == b || a.starts_with(&format!("{b}::"))
}

/// Every set of modules that use each other round, each as "a ↔ b".
fn circles(modules: &BTreeMap<String, String>) -> BTreeSet<String> {
    // Who uses whom, leaving out a module's own parents and children.
    let mut uses: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (name, source) in modules {
        let used = uses.entry(name).or_default();
        for path in named_paths(source) {
            if let Some(target) = resolve(name, &path, modules) {
                if !within(name, &target) && !within(&target, name) {
                    used.insert(target);
                }
            }
        }
    }
    let mut circles = BTreeSet::new();
    for start in uses.keys() {
        let mut stack = vec![(start.to_string(), vec![start.to_string()])];
        let mut seen = BTreeSet::new();
        while let Some((at, way)) = stack.pop() {
            for next in uses.get(at.as_str()).into_iter().flatten() {
                if next == start {
                    let mut circle = way.clone();
                    circle.sort();
                    circles.insert(circle.join(" ↔ "));
                } else if seen.insert(next.clone()) {
                    let mut longer = way.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    circles
}

#[test]
fn no_module_uses_one_that_uses_it_back() {
    let modules = modules();
    assert!(modules.contains_key("lab::state") && modules.contains_key("core::store"));
    let circles = circles(&modules);
    assert!(
        circles.is_empty(),
        "modules that use each other: {circles:#?}"
    );
}

#[test]
fn the_scan_finds_a_circle_when_there_is_one() {
    let module = |name: &str, source: &str| (name.to_owned(), source.to_owned());
    let mut modules: BTreeMap<String, String> = [
        module("", "mod a;"),
        module("a", "mod x; mod y; mod z; pub use self::x::Thing;"),
        module("a::x", "use super::y::Thing;"),
        module("a::y", "use crate::a::z::Other; // not myself::x"),
        module("a::z", "fn f() { super::super::a::x::g() }"),
    ]
    .into_iter()
    .collect();
    assert_eq!(
        circles(&modules).into_iter().collect::<Vec<_>>(),
        ["a::x ↔ a::y ↔ a::z"]
    );
    modules.insert("a::z".into(), "use crate::a::Thing;".into());
    assert!(circles(&modules).is_empty(), "a parent is not a circle");
}

/// The modules under `prefix` that reach into `target` (by `crate::` path, or
/// through `super::` from a sibling), each named once.
fn reaching_into(modules: &BTreeMap<String, String>, prefix: &str, target: &str) -> Vec<String> {
    modules
        .iter()
        .filter(|(name, _)| within(name, prefix))
        .filter(|(name, source)| {
            named_paths(source)
                .iter()
                .filter_map(|path| resolve(name, path, modules))
                .any(|used| within(&used, target))
        })
        .map(|(name, _)| name.clone())
        .collect()
}

/// The page reads the lab, never the world: no view names `crate::sim`, nor
/// asks the lab for its world.
#[test]
fn the_page_reads_the_lab_and_never_the_world() {
    let modules = modules();
    assert_eq!(reaching_into(&modules, "ui", "sim"), Vec::<String>::new());
    let asking: Vec<&String> = modules
        .iter()
        .filter(|(name, source)| within(name, "ui") && source.contains(".world()"))
        .map(|(name, _)| name)
        .collect();
    assert!(
        asking.is_empty(),
        "views that ask for the world: {asking:?}"
    );
    // The scan sees a reach when there is one.
    let module = |name: &str, source: &str| (name.to_owned(), source.to_owned());
    let made_up: BTreeMap<String, String> = [
        module("sim", "mod world;"),
        module("sim::world", ""),
        module("ui", "mod a; mod b;"),
        module("ui::a", "use crate::lab::Thing;"),
        module("ui::b", "fn f(x: crate::sim::world::World) {}"),
        module("lab", "pub use crate::sim::world::World as Thing;"),
    ]
    .into_iter()
    .collect();
    assert_eq!(reaching_into(&made_up, "ui", "sim"), ["ui::b"]);
}
