//! `hooks schema`: the JSON Schemas of every dialect, the same as `schemas/` holds.

use crate::support::{Env, workspace_root};

#[test]
fn writes_every_schema_as_the_repository_holds_it() {
    let env = Env::new();
    let run = env.run(&["schema", "--out", "out/schemas"]);
    assert_eq!(run.code, 0, "{run:?}");
    let files = hooks::config::schema_files();
    assert_eq!(files.len(), 8);
    for file in &files {
        assert!(
            run.stdout
                .contains(&format!("wrote out/schemas/{}", file.name)),
            "{}",
            run.stdout
        );
        let written =
            std::fs::read_to_string(env.path().join("out/schemas").join(file.name)).unwrap();
        assert_eq!(written, file.text, "{}", file.name);
        let committed =
            std::fs::read_to_string(workspace_root().join("schemas").join(file.name)).unwrap();
        assert_eq!(written, committed, "{} differs from schemas/", file.name);
        let _: serde_json::Value = serde_json::from_str(&written).unwrap();
    }
}

#[test]
fn without_out_lists_the_names() {
    let env = Env::new();
    let run = env.run(&["schema"]);
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stdout,
        "native.schema.json\nclaude.schema.json\necho.schema.json\nfabro.schema.json\nautohand.schema.json\ngemini.schema.json\ncodex.schema.json\ncursor.schema.json\n"
    );
}
