//! Definition texts of pinned upstreams, by (upstream, hash): what an operator approved, and
//! what is held, kept beyond the process so a held tool can be shown against the definition
//! approved before it (after a restart, when the approved name is no longer listed, and from
//! `tdqs-gateway approve`, which has only the store). The queries of both backends live here
//! beside the one table they share.

use rusqlite::{Connection, params};

use super::{DefinitionText, StoreError, now_ms};

/// The schema step both backends apply (the same SQL reads alike in SQLite and PostgreSQL).
/// The first text kept for a hash stays: the hash is the gateway's own over what a model reads,
/// so a later text under it differs at most in what the hash leaves out.
pub(super) const TABLE: &str = "CREATE TABLE definition_texts (
        upstream TEXT NOT NULL,
        input_hash TEXT NOT NULL,
        tool TEXT NOT NULL,
        definition TEXT NOT NULL,
        stored_at BIGINT NOT NULL,
        PRIMARY KEY (upstream, input_hash)
    );";

pub(super) fn sqlite_put(conn: &mut Connection, texts: &[DefinitionText]) -> Result<(), StoreError> {
    let tx = conn.transaction()?;
    {
        let mut stmt = tx.prepare_cached(
            "INSERT INTO definition_texts (upstream, input_hash, tool, definition, stored_at)
             VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
        )?;
        let now = now_ms();
        for t in texts {
            stmt.execute(params![t.upstream, t.input_hash, t.tool, t.definition, now])?;
        }
    }
    tx.commit()?;
    Ok(())
}

pub(super) fn sqlite_get(
    conn: &Connection,
    upstream: &str,
    hashes: &[String],
) -> Result<Vec<DefinitionText>, StoreError> {
    let mut stmt =
        conn.prepare_cached("SELECT tool, definition FROM definition_texts WHERE upstream = ?1 AND input_hash = ?2")?;
    let mut out = Vec::new();
    for hash in hashes {
        let mut rows = stmt.query(params![upstream, hash])?;
        if let Some(r) = rows.next()? {
            out.push(DefinitionText {
                upstream: upstream.to_owned(),
                tool: r.get(0)?,
                input_hash: hash.clone(),
                definition: r.get(1)?,
            });
        }
    }
    Ok(out)
}

pub(super) fn pg_put(conn: &mut postgres::Client, texts: &[DefinitionText]) -> Result<(), StoreError> {
    let mut tx = conn.transaction()?;
    let stmt = tx.prepare(
        "INSERT INTO definition_texts (upstream, input_hash, tool, definition, stored_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
    )?;
    let now = now_ms();
    for t in texts {
        tx.execute(&stmt, &[&t.upstream, &t.input_hash, &t.tool, &t.definition, &now])?;
    }
    Ok(tx.commit()?)
}

pub(super) fn pg_get(
    conn: &mut postgres::Client,
    upstream: &str,
    hashes: &[String],
) -> Result<Vec<DefinitionText>, StoreError> {
    let rows = conn.query(
        "SELECT tool, input_hash, definition FROM definition_texts WHERE upstream = $1 AND input_hash = ANY($2)",
        &[&upstream, &hashes],
    )?;
    Ok(rows
        .iter()
        .map(|r| DefinitionText {
            upstream: upstream.to_owned(),
            tool: r.get(0),
            input_hash: r.get(1),
            definition: r.get(2),
        })
        .collect())
}
