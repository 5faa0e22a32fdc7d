//! Embeds the message catalogues: every `locales/<lang>/*.ftl` file becomes
//! a `(lang, file, text)` entry of `CATALOGUES` in `$OUT_DIR/catalogues.rs`,
//! so a new catalogue file needs no code change and the binary carries all
//! of them.

use std::{env, fmt::Write as _, fs, path::Path};

fn main() {
    // Read when the script runs, not when it was compiled: a build cache
    // shared by several checkouts (CI clones into a new folder each time)
    // reuses one compiled script, which must read the locales of the
    // checkout being built, not those of the one it was compiled in.
    let manifest = env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("locales");
    // A directory: cargo rescans it whole for changes; and another folder
    // is another set of files.
    println!("cargo:rerun-if-changed={}", root.display());
    println!("cargo:rerun-if-env-changed=CARGO_MANIFEST_DIR");
    let mut entries = Vec::new();
    if let Ok(langs) = fs::read_dir(&root) {
        for lang in langs.flatten() {
            let Ok(files) = fs::read_dir(lang.path()) else {
                continue;
            };
            for file in files.flatten() {
                let path = file.path();
                if path.extension().is_some_and(|e| e == "ftl") {
                    entries.push((
                        lang.file_name().to_string_lossy().into_owned(),
                        file.file_name().to_string_lossy().into_owned(),
                        path,
                    ));
                }
            }
        }
    }
    // Sorted, so the build is reproducible whatever order the OS lists.
    entries.sort();
    let mut out = String::from("pub(crate) static CATALOGUES: &[(&str, &str, &str)] = &[\n");
    for (lang, file, path) in entries {
        writeln!(
            out,
            "    ({lang:?}, {file:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("writing to a String");
    }
    out.push_str("];\n");
    let dest = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("catalogues.rs");
    fs::write(dest, out).expect("writing catalogues.rs");
}
