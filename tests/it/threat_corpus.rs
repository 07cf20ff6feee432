//! The threat analysis against its labelled corpus (`tests/data/threats/`): every poisoned
//! definition gets a high finding and each kind it is labelled with; no benign definition
//! (real servers' lists, and look-alikes written to resemble attacks) gets a high finding.
//! Per-kind recall and false positives are computed, pinned, and printed for the README
//! (`cargo nextest run --test threat_corpus --no-capture`).

use std::collections::BTreeMap;

use serde_json::Value;
use tdqs_gateway::tdqs::threat::{
    CleanStrings, CrossNames, Finding, Severity, analyze_instructions, analyze_listed, analyze_tool, cross_server,
    max_severity,
};

pub(crate) fn load(name: &str) -> Value {
    let path = format!("{}/tests/data/threats/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn strs(v: Option<&Value>) -> Vec<&str> {
    v.and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default()
}

/// Everything found for one case: the tool's own findings plus the cross-server ones, or the
/// server instructions' findings.
pub(crate) fn findings_of(case: &Value, own_default: &[&str]) -> Vec<Finding> {
    if let Some(text) = case.get("instructions").and_then(Value::as_str) {
        return analyze_instructions(text);
    }
    let tool = &case["tool"];
    let name = tool["name"].as_str().unwrap_or("");
    let mut own = strs(case.get("own"));
    if own.is_empty() {
        own = own_default.to_vec();
    }
    if own.is_empty() {
        own = vec![name];
    }
    let others: Vec<(&str, &str)> = case
        .get("others")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|p| Some((p.get(0)?.as_str()?, p.get(1)?.as_str()?))).collect())
        .unwrap_or_default();
    both_ways(tool, &own, &others)
}

thread_local! {
    /// The strings found clean by every first sighting on this test thread, across cases: a
    /// string clean in one definition must add nothing to any other, whatever its context.
    static CLEAN: std::cell::RefCell<CleanStrings> = std::cell::RefCell::new(CleanStrings::new());
}

/// A tool's own findings followed by its cross-server ones, found as the two calls find them
/// (a cached definition's refresh, every string read) and, asserted equal, as a first sighting
/// finds them (one walk, strings found clean before not read again).
pub(crate) fn both_ways(tool: &Value, own: &[&str], others: &[(&str, &str)]) -> Vec<Finding> {
    both_ways_in(tool, own, others, &CrossNames::new(own, others))
}

/// [`both_ways`] with the names of `own` and `others` indexed once, as for every tool of a
/// list (the strings found clean across servers are then remembered from tool to tool).
pub(crate) fn both_ways_in(tool: &Value, own: &[&str], others: &[(&str, &str)], names: &CrossNames) -> Vec<Finding> {
    let mut found = analyze_tool(tool);
    found.extend(cross_server(tool, own, others));
    let (mut once, cross) = CLEAN.with_borrow_mut(|clean| analyze_listed(tool, Some((names, &|_| false)), clean));
    once.extend(cross);
    assert_eq!(once, found, "a first sighting and the two calls differ for {tool}");
    found
}

/// Benign definitions: the look-alikes and every real server's tools, each with its siblings.
fn benign() -> Vec<(String, Vec<Finding>)> {
    let mut out = Vec::new();
    for case in load("benign-lookalikes.json")["cases"].as_array().expect("cases") {
        out.push((format!("lookalike {}", case["id"].as_str().unwrap_or("?")), findings_of(case, &[])));
    }
    for server in load("benign-real.json")["servers"].as_array().expect("servers") {
        if let Some(text) = server.get("instructions").and_then(Value::as_str) {
            out.push((
                format!("{} instructions", server["server"].as_str().unwrap_or("?")),
                analyze_instructions(text),
            ));
        }
        let tools = server["tools"].as_array().expect("tools");
        let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
        for tool in tools {
            let case = serde_json::json!({ "tool": tool });
            let label =
                format!("{} / {}", server["server"].as_str().unwrap_or("?"), tool["name"].as_str().unwrap_or("?"));
            out.push((label, findings_of(&case, &names)));
        }
    }
    out
}

fn real_count() -> usize {
    load("benign-real.json")["servers"].as_array().unwrap().iter().map(|s| s["tools"].as_array().unwrap().len()).sum()
}

#[test]
fn every_poisoned_definition_is_high_with_its_kinds() {
    let doc = load("poisoned.json");
    let cases = doc["cases"].as_array().expect("cases");
    assert!(cases.len() >= 80, "the corpus has {} poisoned definitions", cases.len());
    let mut problems = Vec::new();
    for case in cases {
        let id = case["id"].as_str().unwrap_or("?");
        let found = findings_of(case, &[]);
        if max_severity(&found) != Some(Severity::High) {
            problems.push(format!("{id}: no high finding: {found:?}"));
        }
        for kind in strs(case.get("expect")) {
            if !found.iter().any(|f| f.kind == kind) {
                problems.push(format!("{id}: missing {kind}: {found:?}"));
            }
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn no_benign_definition_is_high() {
    assert!(real_count() >= 250, "{} real definitions", real_count());
    let all = benign();
    assert!(all.len() >= 310, "{} benign definitions", all.len());
    let high: Vec<String> = all
        .iter()
        .filter(|(_, f)| max_severity(f) == Some(Severity::High))
        .map(|(label, f)| {
            format!("{label}: {:?}", f.iter().filter(|x| x.severity == Severity::High).collect::<Vec<_>>())
        })
        .collect();
    assert!(high.is_empty(), "{} benign definitions with a high finding:\n{}", high.len(), high.join("\n"));
}

/// Per kind: how many poisoned cases are labelled with it and how many of those found it;
/// how many benign definitions got it at all, and at medium or above.
#[test]
fn recall_and_false_positives_per_kind() {
    #[derive(Default)]
    struct Row {
        labelled: usize,
        found: usize,
        benign_any: usize,
        benign_medium: usize,
    }
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    for case in load("poisoned.json")["cases"].as_array().unwrap() {
        let found = findings_of(case, &[]);
        for kind in strs(case.get("expect")) {
            let row = rows.entry(kind.to_owned()).or_default();
            row.labelled += 1;
            row.found += usize::from(found.iter().any(|f| f.kind == kind));
        }
    }
    let benign = benign();
    println!("\nbenign definitions with a finding at medium or above:");
    for (label, found) in &benign {
        for f in found.iter().filter(|f| f.severity >= Severity::Medium) {
            println!("  {label}: {} {} {} {}", f.kind, f.severity, f.field, f.evidence);
        }
    }
    for (_, found) in &benign {
        let mut kinds: Vec<(&str, Severity)> = found.iter().map(|f| (f.kind.as_str(), f.severity)).collect();
        kinds.sort();
        let mut seen: Vec<&str> = Vec::new();
        for (kind, _) in &kinds {
            if seen.contains(kind) {
                continue;
            }
            seen.push(kind);
            let worst = kinds.iter().filter(|(k, _)| k == kind).map(|(_, s)| *s).max().unwrap();
            let row = rows.entry((*kind).to_owned()).or_default();
            row.benign_any += 1;
            row.benign_medium += usize::from(worst >= Severity::Medium);
        }
    }
    println!("\n| kind | poisoned cases | found | recall | benign with it (any) | benign at medium+ |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for (kind, r) in &rows {
        let recall = (r.found * 100).checked_div(r.labelled).map(|p| format!("{p}%")).unwrap_or_else(|| "-".into());
        println!("| `{kind}` | {} | {} | {recall} | {} | {} |", r.labelled, r.found, r.benign_any, r.benign_medium);
    }
    println!("\n{} benign definitions ({} real).", benign.len(), real_count());
    for (kind, r) in &rows {
        assert_eq!(r.found, r.labelled, "{kind}: recall {}/{}", r.found, r.labelled);
    }
    // False positives below high, pinned so that a change that makes them worse is seen.
    // Every kind not listed is pinned at zero.
    // Exfiltration: the five of the fifth round, and two look-alikes of the sixth written to sit
    // there (a password manager that "never logs" the value, a key rotation writing
    // ~/.aws/credentials), both medium before the sixth round's rules as after.
    // Session 10: one of those seven fell below medium (a parameter named like a word of prose
    // now counts as a destination only where the text places something in it), and five of
    // the seventh blind batch's look-alikes (a secret scanner, a file reader that names
    // dotfiles, an environment reader that redacts, a webhook that attaches no history, an SSH
    // key generator) are medium: 6 + 5. Session 11: two of the eighth blind batch's look-alikes
    // (a secret scanner that masks what it finds, an audit logger that never records the
    // password), medium when they were written as after this session's rules: 11 + 2. And three
    // of the ninth (an SSH key manager that "never asks for a private key", a key rotation that
    // tells the user to store the new key, a security course that quotes an attack reading
    // ~/.ssh/id_rsa): 13 + 3. Session 15: two of the thirteenth batch's look-alikes (an OAuth
    // refresh that exchanges the stored refresh token, a log redactor that names what it
    // strips), medium when they were added: 16 + 2 (one of the earlier ones had gone).
    // Session 16: one of the sixteenth batch's look-alikes (an SSH key generator that writes
    // the private key to ~/.ssh/id_ed25519), medium when it was added: 19 + 1. Then three of
    // the seventeenth's (translations of a password prompt, an SSH config editor that "does not
    // read or copy private keys", a linter for the user's own system prompt), while two earlier
    // ones left (a move said only negated, "the log" as a noun): 20 + 3 - 2.
    // And one of the seventeenth's look-alikes names a tool it expects beside it that its own
    // server does not have: a medium foreign-tool reference.
    // Session 19: the benign halves of blind batches 20 to 22 (178 honest tools written to
    // look like the attacks) joined: ten of them are medium exfiltration (secret managers,
    // key rotation, a webhook that names what it never sends), one names a tool of a server
    // it expects beside it: 27 + 10 and 2 + 1.
    // Session 22: the benign half of blind batch 26 joined; three of its look-alikes are
    // medium exfiltration (a secrets manager, a prompt store's `system_prompt` field, a
    // scanner naming the key files it looks for): 37 + 3. Then batch 27's: two are medium (a
    // system proxy setter naming what IT supplied in the conversation, a reader of one named
    // environment variable that masks secrets): 40 + 2.
    // Session 24: batch 28's benign half joined; three of its look-alikes are medium
    // exfiltration (a prompt store naming the system prompt it saves, a lister of a dev
    // container's environment variables, a log redactor naming what it strips): 42 + 3. Then
    // batch 29's: two are medium (a reader of ~/.ssh/config's host aliases, a check that a
    // keychain item exists): 45 + 2. And one of its look-alikes, a Unicode auditor, quotes a
    // real zero-width space among its examples: a medium zero-width finding, which it is.
    // Session 25: batch 30's benign half joined; a read or a move said only negated ("it does
    // not read the prompts of the current conversation"), credentials said to be rejected, and
    // "nothing leaves the machine" short of high are no longer medium: 47 + 0 - 2. Then batch
    // 31's: none at medium exfiltration once a secret the tool "never reads", and a file said
    // to "never leave the machine", are taken at their word short of high: 45 - 1. One of its
    // look-alikes, an e-mail template, holds a real `display:none` preheader in its schema
    // `examples`: a medium hidden-html finding, which it is.
    // Batch 32's: one prompt store naming the system prompts users write for their own bots,
    // medium as the other prompt stores: 44 + 1. Batch 33's: a DLP tool naming the secret
    // patterns it detects and a reviewer of the user's own system prompt, medium as the secret
    // scanners and prompt linters before them: 45 + 2; and another e-mail template with a
    // real hidden preview line: hidden-html 1 + 1.
    // Session 26: batches 34-39's benign halves joined; ten of their look-alikes are medium
    // exfiltration, each naming secrets it handles or refuses (a CI log reader that never
    // includes secret values, two secret scanners' patterns, a vault unlocked with the master
    // password, a moderation tool naming scams asking for passwords, a memory tool told not
    // to store credentials, a key writer's target path), and three taken down from high to
    // medium this session (a config path given "(for example ~/.cursor/mcp.json)", a key
    // rotation whose new secret goes "in your vault", a JSON sample naming `db_password`): 47 + 10.
    // Then batches 40 and 41's: a secret scanner naming what it redacts, 57 + 1; and a Spotify
    // tool pointing at `spotify_catalog_search` "from this same Spotify server", a sibling the
    // one-tool corpus case does not list (at the gateway it is the server's own): 3 + 1.
    // Session 28: batches 43 and 44's benign halves joined; four of their look-alikes are
    // medium exfiltration, each naming secrets it handles or leaves alone (a logger told not to
    // log passwords, an SSH audit checking the private keys' permissions, a kubeconfig editor
    // that leaves the credentials in it untouched, a token creation asking for the 2FA code):
    // 58 + 4; and one points the agent at `list_repos_b43`, a sibling the one-tool case does not
    // list: 4 + 1. Then (branch recall45) a look-alike written for the caller's-keys class, a key
    // rotation that "rotates the caller's IAM access key" and shows the new SecretAccessKey to
    // the user once, is medium exfiltration as the other key and secret tools are: 62 + 1.
    // Session 29: batch 45's benign half joined; two of its look-alikes are medium exfiltration
    // as the prompt stores and secret scanners before them (a prompt library storing system
    // prompts as user data, a log redactor listing the secret formats it strips): 63 + 2; and
    // an e-mail template tool with a real `display:none` preview line: hidden-html 2 + 1.
    // Session 30: batch 46's benign half and the session's look-alikes joined; three are medium
    // exfiltration as the key and prompt tools before them (an SSH key generator's output
    // path, a prompt store's system prompt it "does not apply to the current conversation", a
    // .gitignore rule naming .env and *.pem so they are never committed): 65 + 3. Then batch
    // 47's: a secret reader naming the secrets it reads, and, with the rules reading "the user"
    // as the caller or the customer too, a token exchange naming "the caller's access token":
    // 68 + 2. Then batch 48's: a browser tool returning cookies with a warning to pass them
    // nowhere, 70 + 1; and a second e-mail template with a real `display:none` preview line,
    // hidden-html 3 + 1.
    // Session 31: batches 50 and 51's benign halves joined; one is medium exfiltration as the
    // key generators before it (an Ed25519 key pair generated in ~/.ssh): 71 + 1. Then, with
    // "attaches" read as a move (batch 53's crash reporter attaching private keys), a support
    // hand-off that "attaches the transcript of this conversation" when the user asks: 72 + 1.
    // Then batch 54's: a Vault reader returning a secret "to set an environment variable for a
    // deployment the user requested", medium as the secret readers before it: 73 + 1; and the
    // session's own e-mail look-alike with a `display:none` preview line: hidden-html 4 + 1.
    // Session 32: batches 55 and 56's benign halves joined; two are medium exfiltration as the
    // prompt-library and recap tools before them (a system prompt saved to the user's own
    // library, a summary of "the current conversation" when the user asks for one): 74 + 2.
    // Then batches 57 and 58's: a redactor naming the PEM header it removes, medium as the
    // secret scanners before it: 76 + 1.
    // Session 33: batches 59 and 60's benign halves joined; two are medium exfiltration as the
    // key and token tools before them (a deploy-key tool asking for the contents of a .pub file
    // and never a private key, a token rotation returning the new bearer token once to the
    // administrator who asked): 77 + 2. Then batches 61 and 62's: an exchange-key tool whose
    // keys "are stored in the operating-system keychain", an SSH-key uploader that never asks
    // for a private key "such as ~/.ssh/id_rsa", and a tool updating the user's own custom
    // instructions ("the 'system prompt'"), as the key tools and prompt stores before them:
    // 79 + 3; and two e-mail templates with a real `display:none` preview line: hidden-html
    // 5 + 2. Then batches 63 and 64's: a secret scanner listing the key formats it finds
    // (`-----BEGIN OPENSSH PRIVATE KEY-----`), as the scanners before it: 82 + 1. Then batches
    // 67 and 68's: a host resolver reading "the user's own ~/.ssh/config" (Host, HostName,
    // Port, User only), as the SSH tools before it: 83 + 1.
    // Session 34: batches 71 and 72's (agent infrastructure, media tools): two prompt stores
    // (one in Korean, "the system prompt the user wrote"), a memory store saying what it never
    // keeps (passwords, payment details), a sandbox that can reference "only secrets the user
    // has shared with this agent", and a photo tool whose personal data "is returned only to
    // this conversation": 84 + 5, as the prompt stores and key tools before them.
    // Session 35: batch 75's EV-charging account link, whose access token "is stored in the
    // dashboard's encrypted vault" after the user signs in on the network's own page: 89 + 1.
    // Then batches 77 and 78's: an API key "configured on the server, never accepted as a
    // parameter", a telemetry gateway's token rotation, and a Japanese notes tool advising not
    // to store passwords or card numbers in notes: 90 + 3.
    // Session 36: reads said negated ("It does not reveal, accept or store passwords") no longer
    // move their secret, and three look-alikes leave the list: 90.
    // Session 37: batch 83's fitness-tracker token rotation ("returns the new token once so the
    // user can save it"), as the rotations before it: 91. And batch 86's cancellation tool
    // sending the agent to its sibling `preview_cancellation_b86` first, a sibling the
    // look-alike file does not list (at the gateway the server's list holds it): 5 + 1.
    // Session 38: batch 87's newsletter template with a real `display:none` preview line, as
    // the e-mail templates before it: hidden-html 7 + 1. And a move made by the person the
    // tool serves ("so the user can copy it into their CI secret store") or a move verb that is
    // a noun after "secret", "key" or "credential" ("a key store") no longer moves a secret:
    // exfiltration 91 - 2. Then batch 88's registry token "shown once in the response so the
    // user can copy it into their CI secret store", medium as the token rotations before it: 90.
    let ceiling: &[(&str, usize)] =
        &[("exfiltration", 90), ("hidden-html", 8), ("foreign-tool-reference", 6), ("zero-width", 1)];
    for (kind, r) in &rows {
        let max = ceiling.iter().find(|(k, _)| k == kind).map(|(_, m)| *m).unwrap_or(0);
        assert!(
            r.benign_medium <= max,
            "{kind}: {} benign definitions at medium or above (pinned at {max})",
            r.benign_medium
        );
    }
}
