//! `docs/columns.md` documents every column of `games.parquet`, in order,
//! with its type: the table on that page must equal `remis_table::schema`, which
//! the writer follows (`table::tests`) and the readers name columns by.

use remis_table::schema::Column;

#[test]
fn docs_columns_md_lists_the_schema() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/columns.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let documented: Vec<(usize, String, String)> = text
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            // | # | `name` | Type | Null? | Meaning |
            let number = cells.get(1)?.parse::<usize>().ok()?;
            let name = cells.get(2)?.strip_prefix('`')?.strip_suffix('`')?;
            Some((number, name.to_string(), cells.get(3)?.to_string()))
        })
        .collect();
    let schema: Vec<(usize, String, String)> = Column::ALL
        .iter()
        .enumerate()
        .map(|(i, c)| {
            (
                i + 1,
                c.name().to_string(),
                c.column_type().name().to_string(),
            )
        })
        .collect();
    assert_eq!(
        documented, schema,
        "docs/columns.md and crates/table/src/schema.rs differ"
    );
}
