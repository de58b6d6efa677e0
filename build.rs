//! The commit remis was built from, for the provenance of tables and
//! reports (`REMIS_COMMIT`; empty outside a git checkout), with `+changes`
//! when the tracked files differ from it.
//!
//! The script reruns when the commit can have changed (HEAD, the branch it
//! points to, the packed refs) or the tracked sources can have (`src`,
//! `crates`, `data`, `vendor`, the manifests): not on `.git/index`, which
//! every `git add` touches and which rebuilt the binary and every test
//! that links it without a change to either.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_default();
    let dirty = Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=no"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .is_some_and(|o| !o.stdout.is_empty());
    let commit = if dirty && !commit.is_empty() {
        format!("{commit}+changes")
    } else {
        commit
    };
    println!("cargo:rustc-env=REMIS_COMMIT={commit}");
    // Where this checkout keeps HEAD and refs (a worktree keeps them
    // elsewhere than `.git/`).
    // A path that does not exist would rerun the script at every build: a
    // fresh clone has no packed-refs, a branch with packed refs no file.
    let watch = |path: &str| {
        if let Some(path) = git(&["rev-parse", "--git-path", path])
            && std::path::Path::new(&path).exists()
        {
            println!("cargo:rerun-if-changed={path}");
        }
    };
    watch("HEAD");
    watch("packed-refs");
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watch(&branch);
    }
    for tracked in [
        "src",
        "crates",
        "data",
        "vendor",
        "Cargo.toml",
        "Cargo.lock",
        "build.rs",
    ] {
        println!("cargo:rerun-if-changed={tracked}");
    }
}
