//! A judge over any OpenAI-compatible `/chat/completions` endpoint: temperature 0, JSON mode,
//! request overrides merged last, a timeout per request, bounded attempts, and a bound on calls
//! in flight. The API key comes from the environment and never appears in errors or logs.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::sync::Semaphore;

use super::JudgeError;

/// Everything a model client needs.
#[derive(Clone, Debug)]
pub struct ModelSettings {
    /// Up to and including the API version, e.g. `https://api.openai.com/v1`.
    pub base_url: String,
    pub model: String,
    /// The key's value (read from the environment by the caller), if the endpoint needs one.
    pub api_key: Option<String>,
    pub timeout: Duration,
    pub max_attempts: u32,
    /// Calls in flight at most.
    pub concurrency: usize,
    /// Merged into every request body last (objects merge recursively).
    pub request_overrides: Map<String, Value>,
    /// First retry delay after a transient failure; doubles per attempt up to 8 s.
    pub backoff: Duration,
    /// Longest `Retry-After` honoured; a longer one is cut to this.
    pub max_retry_after: Duration,
}

impl ModelSettings {
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        ModelSettings {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            timeout: Duration::from_secs(120),
            max_attempts: 3,
            concurrency: 8,
            request_overrides: Map::new(),
            backoff: Duration::from_millis(500),
            max_retry_after: Duration::from_secs(30),
        }
    }
}

/// A shareable client; clones share the connection pool and the in-flight bound.
#[derive(Clone)]
pub struct ModelClient {
    http: reqwest::Client,
    settings: Arc<ModelSettings>,
    in_flight: Arc<Semaphore>,
}

/// One exchange's result, as far as retrying is concerned.
enum Attempt {
    /// The model's text, ready for the contract check.
    Answer(String),
    /// The model answered but unusably (empty, cut off); ask again with this note.
    Unusable { content: String, problem: String },
    /// Worth retrying with the same messages after `delay` (None: the default backoff).
    Transient { reason: String, delay: Option<Duration> },
}

impl ModelClient {
    pub fn new(settings: ModelSettings) -> Result<Self, JudgeError> {
        let http = reqwest::Client::builder()
            .user_agent(concat!("tdqs-gateway/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| JudgeError::Setup(e.to_string()))?;
        let in_flight = Arc::new(Semaphore::new(settings.concurrency.max(1)));
        Ok(ModelClient { http, settings: Arc::new(settings), in_flight })
    }

    /// Calls in flight at most.
    pub fn concurrency(&self) -> usize {
        self.settings.concurrency.max(1)
    }

    pub fn model(&self) -> &str {
        &self.settings.model
    }

    /// Asks until `parse` accepts the answer or attempts run out. A contract failure grows
    /// the conversation with the answer and what was wrong with it; a transient failure
    /// repeats the same messages after a delay; a refusal (4xx other than 429) stops.
    pub async fn complete<T>(
        &self,
        system: &str,
        user: &str,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<T, JudgeError> {
        let mut messages = vec![json!({"role": "system", "content": system}), json!({"role": "user", "content": user})];
        let attempts = self.settings.max_attempts.max(1);
        let mut last = String::new();
        for attempt in 1..=attempts {
            let outcome = self.exchange(&messages).await?;
            let (content, problem, delay) = match outcome {
                Attempt::Answer(text) => match parse(&text) {
                    Ok(v) => return Ok(v),
                    Err(problem) => (Some(text), problem, None),
                },
                Attempt::Unusable { content, problem } => (Some(content), problem, None),
                Attempt::Transient { reason, delay } => (None, reason, Some(delay)),
            };
            last = problem.clone();
            if attempt == attempts {
                break;
            }
            match (content, delay) {
                (Some(content), _) => {
                    messages.push(json!({"role": "assistant", "content": content}));
                    messages.push(json!({"role": "user", "content": format!(
                        "That answer cannot be used: {problem}. Answer again with only the corrected JSON object."
                    )}));
                }
                (None, Some(delay)) => tokio::time::sleep(delay.unwrap_or_else(|| self.backoff(attempt))).await,
                (None, None) => {}
            }
        }
        Err(JudgeError::Exhausted { attempts, last: self.redact(&last) })
    }

    fn backoff(&self, attempt: u32) -> Duration {
        let factor = 1u32 << (attempt - 1).min(6);
        (self.settings.backoff * factor).min(Duration::from_secs(8))
    }

    /// One HTTP request, classified.
    async fn exchange(&self, messages: &[Value]) -> Result<Attempt, JudgeError> {
        let s = &self.settings;
        let mut body = json!({
            "model": s.model,
            "messages": messages,
            "temperature": 0,
            "response_format": {"type": "json_object"},
        });
        merge(&mut body, &Value::Object(s.request_overrides.clone()));
        let url = format!("{}/chat/completions", s.base_url.trim_end_matches('/'));
        let mut req = self.http.post(&url).timeout(s.timeout).json(&body);
        if let Some(key) = &s.api_key {
            req = req.bearer_auth(key);
        }
        let _permit = self.in_flight.acquire().await.map_err(|_| JudgeError::Setup("judge is shutting down".into()))?;
        let resp = match req.send().await {
            Ok(r) => r,
            Err(e) => {
                let what = if e.is_timeout() { "the request timed out" } else { "cannot reach the model endpoint" };
                return Ok(Attempt::Transient {
                    reason: format!("{what} ({})", self.redact(&e.to_string())),
                    delay: None,
                });
            }
        };
        let status = resp.status();
        let retry_after = retry_after(resp.headers()).map(|d| d.min(s.max_retry_after));
        let text = match resp.text().await {
            Ok(t) => t,
            Err(e) => {
                return Ok(Attempt::Transient { reason: format!("the answer broke off ({e})"), delay: None });
            }
        };
        if status.as_u16() == 429 || status.is_server_error() {
            return Ok(Attempt::Transient {
                reason: format!("the endpoint answered {status}: {}", self.excerpt(&text)),
                delay: retry_after,
            });
        }
        if !status.is_success() {
            return Err(JudgeError::Refused { status: status.as_u16(), body: self.excerpt(&text) });
        }
        let parsed: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(_) => {
                return Ok(Attempt::Transient {
                    reason: format!("the endpoint's response is not JSON: {}", self.excerpt(&text)),
                    delay: None,
                });
            }
        };
        let choice = &parsed["choices"][0];
        let content = choice["message"]["content"].as_str().unwrap_or("").to_owned();
        if choice["finish_reason"] == "length" {
            return Ok(Attempt::Unusable {
                content,
                problem: "it was cut off at the length limit; keep every justification to one sentence".into(),
            });
        }
        if content.trim().is_empty() {
            return Ok(Attempt::Transient { reason: "the model returned an empty answer".into(), delay: None });
        }
        Ok(Attempt::Answer(content))
    }

    /// At most 300 characters of `text`, with the key removed first (so a key cut by the
    /// limit cannot leak in part).
    fn excerpt(&self, text: &str) -> String {
        let redacted = self.redact(text);
        redacted.chars().take(300).collect::<String>().trim().to_owned()
    }

    fn redact(&self, text: &str) -> String {
        match &self.settings.api_key {
            Some(k) if !k.is_empty() => text.replace(k.as_str(), "[redacted]"),
            _ => text.to_owned(),
        }
    }
}

/// `Retry-After` as seconds or an HTTP date.
fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let v = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = humantime::parse_rfc3339_weak(v).ok().or_else(|| httpdate(v))?;
    Some(when.duration_since(std::time::SystemTime::now()).unwrap_or_default())
}

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form servers send.
fn httpdate(v: &str) -> Option<std::time::SystemTime> {
    let parts: Vec<&str> = v.split_whitespace().collect();
    let [_, day, mon, year, time, "GMT"] = parts.as_slice() else {
        return None;
    };
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let m = months.iter().position(|x| x == mon)? + 1;
    humantime::parse_rfc3339(&format!("{year}-{m:02}-{day:0>2}T{time}Z")).ok()
}

/// Merges `over` into `base`: objects recursively, anything else replaced.
fn merge(base: &mut Value, over: &Value) {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(k) {
                    Some(slot) if slot.is_object() && v.is_object() => merge(slot, v),
                    _ => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (b, o) => *b = o.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_merge_last_and_deep() {
        let mut body = json!({"model": "m", "temperature": 0, "response_format": {"type": "json_object"}});
        merge(
            &mut body,
            &json!({"reasoning": {"enabled": false}, "response_format": {"strict": true}, "temperature": 0.2}),
        );
        assert_eq!(body["reasoning"]["enabled"], false);
        assert_eq!(body["response_format"], json!({"type": "json_object", "strict": true}));
        assert_eq!(body["temperature"], 0.2);
    }

    #[test]
    fn retry_after_forms() {
        let mut h = reqwest::header::HeaderMap::new();
        h.insert("retry-after", "3".parse().unwrap());
        assert_eq!(retry_after(&h), Some(Duration::from_secs(3)));
        h.insert("retry-after", "Sun, 06 Nov 1994 08:49:37 GMT".parse().unwrap());
        assert_eq!(retry_after(&h), Some(Duration::ZERO)); // in the past
        assert!(httpdate("Sun, 06 Nov 1994 08:49:37 GMT").is_some());
    }
}
