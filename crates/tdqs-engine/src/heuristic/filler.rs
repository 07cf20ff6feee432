//! Words that carry no content on their own: the vocabulary of rubric cues (a sentence made
//! only of them, "Returns. Use when. Rate limit.", tells an agent nothing), generic praise,
//! placeholder text, and the tokens that make a statement concrete (units, formats).

/// Cue and rubric words: meaningful beside a fact, empty without one.
#[rustfmt::skip]
pub const META: &[&str] = &[
    "return", "returns", "returned", "returning", "use", "used", "uses", "using", "when", "whenever", "not", "do",
    "don", "instead", "rather", "than", "avoid", "prefer", "only", "read", "write", "readonly", "idempotent",
    "idempotency", "side", "effect", "effects", "safe", "safely", "safety", "rate", "limit", "limits", "limited",
    "limiting", "throttled", "auth", "authentication", "authenticated", "authorization", "authorized",
    "permission", "permissions", "pagination", "paginated", "paging", "page", "pages", "error", "errors",
    "failure", "failures", "fail", "fails", "example", "examples", "e", "g", "x", "y", "z", "output", "outputs",
    "result", "results", "response", "responses", "input", "inputs", "parameter", "parameters", "param",
    "params", "argument", "arguments", "option", "options", "value", "values", "call", "calls", "called",
    "calling", "request", "requests", "destructive", "non", "reversible", "irreversible", "permanent",
    "permanently", "no", "none", "never", "always", "must", "should", "may", "might", "need", "needed", "needs",
    "required", "requires", "optional", "default", "defaults", "format", "formats", "etc", "also", "note",
    "notes", "see", "more", "other", "thing", "things", "stuff", "something", "anything", "everything", "way",
    "ways", "case", "cases", "usage", "behavior", "behaviour", "operation", "operations", "action", "actions",
    "effectively", "properly", "correctly", "appropriate", "appropriately", "relevant", "accordingly", "well",
    "there", "here", "then", "so", "just", "like", "very", "much", "many", "each", "every", "both", "either",
    "neither", "nor", "yes", "ok", "okay", "please", "tool", "tools", "function", "functions", "feature",
    "features", "works", "work", "handles", "handle", "handling", "processes", "process", "supports", "support",
    "provides", "provide", "gets", "get", "does", "done", "make", "makes", "allows", "allow", "lets", "let",
    "helps", "help", "keywords", "keyword", "tags", "tag", "seo", "up",
];

/// Praise and marketing words: they describe how the author feels about the tool.
#[rustfmt::skip]
pub const GENERIC: &[&str] = &[
    "powerful", "useful", "extremely", "amazing", "awesome", "incredible", "incredibly", "seamless", "seamlessly",
    "robust", "efficient", "efficiently", "easy", "easily", "effortless", "effortlessly", "comprehensive",
    "best", "great", "greatest", "helpful", "ultimate", "advanced", "flexible", "perfect", "perfectly",
    "reliable", "reliably", "fast", "quick", "quickly", "intuitive", "innovative", "cutting", "leverage", "leverages", "leveraging", "streamline", "streamlines", "enhance", "enhances", "boost",
    "boosts", "productivity", "workflow", "workflows", "experience", "experiences", "solution", "solutions",
    "capability", "capabilities", "various", "variety", "needs", "need", "everyone", "anyone",
    "enterprise", "grade", "modern", "smart",
    "intelligent", "intelligently", "magic", "magical", "simply", "really", "truly", "highly", "super",
    "ultra", "notch", "premium", "excellent", "outstanding", "remarkable", "revolutionary", "unleash",
    "empower", "empowers", "unlock", "unlocks", "gracefully", "graceful", "elegant", "elegantly", "optimal",
    "optimally", "optimized", "superior", "versatile", "essential", "valuable", "changer", "stunning", "beautiful", "delightful", "fantastic", "wonderful", "brilliant", "purposes",
    "generally", "overall", "possible", "anything", "everything", "whatever", "important",
    "blazing", "reimagined", "reimagine", "genius", "dreamed", "dreamt", "award", "unparalleled", "unmatched",
    "unrivaled", "unrivalled", "supercharge", "supercharged", "supercharges", "frictionless", "hassle",
    "beloved", "loved", "revolutionize", "revolutionizes", "revolutionise", "elevate", "elevates", "accelerate",
    "accelerates", "delight", "delights", "wow", "stellar", "superb", "exceptional", "tomorrow", "instantly",
    "blazingly", "lightning", "smartest", "easiest", "fastest",
    // Sales and strategy words.
    "cheap", "cheapest", "discounted", "affordable", "faster", "trusted", "leading", "worldwide", "innovators",
    "scalable", "synergy", "synergies", "omnichannel", "paradigm", "paradigms", "operationalize", "holistic",
    "actionable", "harmonized", "ecosystem", "insights", "turnkey", "hyperlocal", "accelerating", "harmonizing",
    "excellence", "resilience", "enabling", "driving", "delivering", "unifying", "orchestration", "empowering",
    // The same praise in the languages translated filler is written in (whole words as the
    // judge reads them).
    "eficiente", "eficientes", "confiable", "fiable", "rápida", "rápido", "rápidamente", "fácil", "fácilmente",
    "sencilla", "sencillo", "zuverlässig", "einfach", "problemlos", "schnell", "efficace", "facile", "facilement",
    "rapide", "rapidement", "semplice", "affidabile", "prática", "confiável", "niezawodny", "szybki", "wygodny",
    "güvenilir", "hızlı", "kolay", "nhanh", "надёжно", "надежно", "быстро", "удобно", "удобства",
    "facilitar", "facilita", "necesidades", "necessidades", "besoins", "esigenze", "bedürfnisse", "usuarios",
    "usuários", "utilisateurs", "utenti", "nutzer", "experiencia", "experiência", "expérience", "esperienza",
    "mejor", "melhor", "meilleure", "migliore", "simplifica", "simplifie", "semplifica", "vereinfacht",
    "użytkowników", "potrzeb", "kullanıcıların", "ihtiyaçlarını", "người", "пользователей", "потребностям",
];

/// Hedges and qualifiers that stand where a fact would be and name none: "the relevant
/// details in a suitable format", "may possibly return some results in certain situations".
#[rustfmt::skip]
pub const HEDGES: &[&str] = &[
    "suitable", "suitably", "pertinent", "sensible", "sensibly", "dependable", "dependably", "typical",
    "typically", "usual", "usually", "possibly", "perhaps", "probably", "potentially", "maybe", "somewhat",
    "situations", "situation", "scenarios", "scenario", "circumstances", "manner", "respective", "applicable",
    "intended", "necessary", "handy", "convenient", "conveniently", "nicely", "smoothly", "neatly",
    "assorted", "miscellaneous", "numerous", "whichever", "whenever", "somehow", "reasonable", "reasonably",
    "adequate", "adequately", "sufficient", "sufficiently", "proper", "fitting", "apt", "desired", "pertaining",
    "certain", "depending", "factors", "factor", "vary", "varies", "varying", "several", "potential", "outcomes",
    "outcome", "could", "would", "provided", "corresponding", "somewhat", "arbitrary", "whatnot", "being",
    "doing", "fashion",
    // Legal boilerplate states terms, not behaviour.
    "warranty", "warranties", "warrant", "liable", "liability", "liabilities", "disclaims", "disclaim",
    "disclaimer", "herein", "thereof", "hereby", "constitutes", "constitute", "advice", "consult", "consultation",
    "licensed", "solely", "sole", "expressly", "indemnify", "damages", "infringement", "accordance", "responsibility",
    "responsible", "obligations", "consents",
];

/// Placeholder text ("lorem ipsum") and keyboard mashing.
#[rustfmt::skip]
pub const PLACEHOLDER: &[&str] = &[
    "lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "adipisicing", "elit", "sed",
    "eiusmod", "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua", "enim", "minim",
    "veniam", "quis", "nostrud", "exercitation", "ullamco", "laboris", "nisi", "aliquip", "ea", "commodo",
    "consequat", "duis", "aute", "irure", "reprehenderit", "voluptate", "velit", "esse", "cillum", "fugiat",
    "nulla", "pariatur", "excepteur", "sint", "occaecat", "cupidatat", "proident", "sunt", "culpa", "qui",
    "officia", "deserunt", "mollit", "anim", "est", "laborum", "foo", "bar", "baz", "qux", "asdf", "qwerty",
    "placeholder", "todo", "tbd", "blah", "filler", "xxx", "lipsum",
];

/// Units, formats and protocols: a short statement naming one is concrete ("Times in UTC.").
#[rustfmt::skip]
pub const CONCRETE: &[&str] = &[
    "ms", "millisecond", "milliseconds", "second", "seconds", "sec", "minute", "minutes", "min", "hour", "hours",
    "day", "days", "byte", "bytes", "kb", "mb", "gb", "kib", "mib", "px", "pixels", "celsius", "fahrenheit",
    "kelvin", "km", "kilometers", "miles", "meters", "usd", "eur", "cents", "percent", "json", "csv", "yaml",
    "xml", "html", "markdown", "utc", "iso", "rfc", "uuid", "base64", "png", "jpeg", "jpg", "pdf", "svg", "utf",
    "http", "https", "sql", "regex", "glob", "cron", "epoch", "unix", "timestamp", "timezone", "utf8", "ascii",
    "404", "401", "403", "429", "500",
];

/// Words that, in English prose, are followed by a content word, never by another of these:
/// "the of" or "a and" means the words were shuffled.
#[rustfmt::skip]
pub const DETERMINERS: &[&str] = &["the", "a", "an", "its", "their"];

/// Function words a sentence of English does not end on.
#[rustfmt::skip]
pub const NO_ENDING: &[&str] = &[
    "the", "a", "an", "of", "to", "for", "in", "on", "at", "by", "with", "from", "and", "or", "is", "are", "its",
    "into", "that", "which", "than", "as", "if", "when",
];

/// Function words for [`DETERMINERS`] to collide with.
#[rustfmt::skip]
pub const FUNCTION: &[&str] = &[
    "the", "a", "an", "of", "to", "for", "in", "on", "at", "by", "with", "from", "and", "or", "is", "are", "be",
    "it", "its", "this", "that", "as", "into", "if", "when", "than", "not", "no", "which", "was", "were",
];
