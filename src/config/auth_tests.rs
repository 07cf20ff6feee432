//! The `[auth]` section and per-identity rules as the whole file validates them.

use crate::config::Config;

fn check(text: &str) -> Result<Config, String> {
    let c = Config::parse(text)?;
    c.validate().map_err(|e| e.to_string())?;
    Ok(c)
}

const AUTH: &str = "[auth]\nissuer = \"https://i.example\"\nresource = \"https://gw.example\"\n";
const UP: &str = "[[upstream]]\nname = \"u\"\nurl = \"http://127.0.0.1:1/mcp\"\n";

#[test]
fn auth_is_off_unless_configured_and_checked_when_on() {
    assert!(!check("").unwrap().auth.active());
    assert!(check(AUTH).unwrap().auth.active());
    assert!(!check(&format!("{AUTH}enabled = false\n")).unwrap().auth.active());
    let e = check("[auth]\nissuer = \"https://i.example\"\n").unwrap_err();
    assert!(e.contains("`auth.resource`"), "{e}");
    let e = check(&format!("{AUTH}algorithms = [\"RS256\", \"none\"]\n")).unwrap_err();
    assert!(e.contains("`auth.algorithms[1]`") && e.contains("never"), "{e}");
    let e = check(&format!("{AUTH}algorithms = [\"HS256\"]\n")).unwrap_err();
    assert!(e.contains("`auth.algorithms[0]`") && e.contains("hmac_secret_env"), "{e}");
    assert!(check(&format!("{AUTH}algorithms = [\"HS256\"]\nhmac_secret_env = \"S\"\n")).is_ok());
    let e = check(&format!("{AUTH}token_cache_seconds = 0\n")).unwrap_err();
    assert!(e.contains("`auth.token_cache_seconds`"), "{e}");
    assert_eq!(check(&format!("{AUTH}token_cache_seconds = 60\n")).unwrap().auth.token_cache_seconds, 60);
    let e = check(&format!("{AUTH}isuer = \"x\"\n")).unwrap_err();
    assert!(e.contains("isuer"), "{e}");
    let e = check(&format!("{AUTH}[[auth.api_key]]\nname = \"ci\"\nsha256 = \"abc\"\n")).unwrap_err();
    assert!(e.contains("`auth.api_key[0].sha256`"), "{e}");
    let e = check(&format!("{AUTH}[[auth.api_key]]\nname = \"ci\"\n")).unwrap_err();
    assert!(e.contains("`auth.api_key[0]`"), "{e}");
    let e =
        check(&format!("{UP}[upstream.oauth]\ntoken_url = \"nope\"\nclient_id = \"c\"\nclient_secret_env = \"S\"\n"))
            .unwrap_err();
    assert!(e.contains("`upstream[0].oauth.token_url`"), "{e}");
}

#[test]
fn rules_name_their_bad_key() {
    let rule = |body: &str| format!("{AUTH}{UP}[[policy.rule]]\nname = \"interns\"\n{body}\n");
    let c = check(&rule("claims = { groups = \"interns\" }\nmode = \"enforce\"\ndeny = [\"x\"]")).unwrap();
    let rules = c.rule_policies(&c.upstreams[0]);
    assert_eq!(rules.len(), 1);
    assert_eq!(
        (rules[0].1.mode, rules[0].1.deny.as_slice()),
        (crate::policy::settings::Mode::Enforce, &["x".to_owned()][..])
    );
    let e = check(&rule("min_tier = \"Z\"")).unwrap_err();
    assert!(e.contains("`policy.rule[0].min_tier`"), "{e}");
    let e = check(&rule("deny_list = [\"x\"]")).unwrap_err();
    assert!(e.contains("deny_list"), "{e}");
    let e = check(&rule("upstreams = [\"nope\"]")).unwrap_err();
    assert!(e.contains("`policy.rule[0].upstreams[0]`"), "{e}");
    let e = check(&format!("{UP}[[policy.rule]]\nname = \"a\"\n")).unwrap_err();
    assert!(e.contains("`policy.rule[0]`") && e.contains("[auth]"), "{e}");
    let e = check(&format!("{AUTH}{UP}[[upstream.policy.rule]]\nname = \"a b\"\n")).unwrap_err();
    assert!(e.contains("`upstream[0].policy.rule[0].name`"), "{e}");
    // An upstream's own rules come first, and layer over its own policy.
    let c = check(&format!(
        "{AUTH}[policy]\nmin_tier = \"B\"\n[[policy.rule]]\nname = \"g\"\n{UP}[upstream.policy]\nmode = \"enforce\"\n[[upstream.policy.rule]]\nname = \"own\"\nmin_tier = \"A\"\n"
    ))
    .unwrap();
    let rules = c.rule_policies(&c.upstreams[0]);
    let names: Vec<&str> = rules.iter().map(|(r, _)| r.name.as_str()).collect();
    assert_eq!(names, ["own", "g"]);
    assert_eq!(rules[0].1.mode, crate::policy::settings::Mode::Enforce);
    assert_eq!(rules[0].1.minimum, crate::tdqs::score::Tenths(35), "tier A");
    assert_eq!(rules[1].1.minimum, crate::tdqs::score::Tenths(30));
}
