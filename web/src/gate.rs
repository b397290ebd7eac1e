//! What every request is checked for before a handler sees it, so that a web page the user happens to visit
//! cannot drive the server, and a body too large is refused before it is read.
//!
//! - `Host` must name this server: `localhost` or an IP address, or a name given with `--allow-host`, with
//!   the port it listens on. A page can make the browser send requests to `127.0.0.1` through a name of its
//!   own that it points there (DNS rebinding); the browser then sends that name, which is refused (403).
//!   An IP address cannot be rebound, so any is taken (a server bound to `0.0.0.0` is reached at whichever
//!   address the client uses).
//! - A POST must say `Content-Type: application/json` (else 415): the types a cross-site form or a
//!   no-questions-asked `fetch` may send (`text/plain`, `application/x-www-form-urlencoded`, ...) are
//!   refused, and for JSON the browser first asks the server (a CORS preflight), which this server never
//!   allows.
//! - A declared `Content-Length` over the body limit is a 413 at once, not after reading the body.

use crate::app::ApiError;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, Ipv6Addr};
use std::sync::Arc;

/// What the checks need to know of the server.
pub struct Gate {
    /// The port the server listens on (the one bound, when `--port 0` asked for any).
    pub port: u16,
    /// Names a `Host` may give besides `localhost` and IP addresses (`--allow-host`), lowercase.
    pub names: Vec<String>,
    /// The body limit, in bytes.
    pub max_body: usize,
}

/// A `Host` header's name and port; IPv6 addresses come bracketed (`[::1]:8080`), their brackets removed.
fn split_host(host: &str) -> Option<(&str, Option<u16>)> {
    let (name, port) = match host.strip_prefix('[') {
        Some(rest) => {
            let (inside, after) = rest.split_once(']')?;
            inside.parse::<Ipv6Addr>().ok()?;
            (inside, if after.is_empty() { None } else { Some(after.strip_prefix(':')?) })
        }
        None => match host.split_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        },
    };
    if name.is_empty() || name.contains(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':'))) {
        return None;
    }
    Some((name, port.map(str::parse).transpose().ok()?))
}

/// The parser of `--allow-host`: a host name (or address) without a port, taken lowercase.
pub fn parse_host_name(text: &str) -> Result<String, String> {
    let ok = !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'));
    if ok {
        Ok(text.to_ascii_lowercase())
    } else {
        Err("give a host name such as my-box.lan, without a port (the server's own port is the one accepted)".into())
    }
}

/// Whether a `Content-Type` says JSON (`application/json`, with parameters such as a charset or not).
fn is_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else { return false };
    value.split(';').next().is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// The checks of this module, in front of every route.
pub async fn check(State(gate): State<Arc<Gate>>, request: Request, next: Next) -> Response {
    match gate.refusal(request.method(), request.headers()) {
        Some(refused) => refused.into_response(),
        None => next.run(request).await,
    }
}

impl Gate {
    /// Whether `host` (a `Host` header: `name`, `name:port`, `[v6]:port`, ...) names this server.
    fn admits(&self, host: &str) -> bool {
        let Some((name, port)) = split_host(host) else { return false };
        let port_ok = match port {
            Some(p) => p == self.port,
            // A browser leaves out the scheme's default port.
            None => self.port == 80,
        };
        let name = name.to_ascii_lowercase();
        port_ok && (name == "localhost" || name.parse::<IpAddr>().is_ok() || self.names.contains(&name))
    }

    /// Why a request is refused before it is handled, if it is.
    fn refusal(&self, method: &Method, headers: &HeaderMap) -> Option<ApiError> {
        let host = headers.get(header::HOST).map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned());
        match host {
            Some(host) if self.admits(&host) => {}
            Some(host) => {
                let port = self.port;
                return Some(ApiError::new(
                    StatusCode::FORBIDDEN,
                    format!(
                        "Host '{host}' is not this server (localhost:{port} or an IP address with port {port}; \
                         `solver serve --allow-host NAME` admits another name)"
                    ),
                ));
            }
            None => return Some(ApiError::new(StatusCode::BAD_REQUEST, "a request needs a Host header")),
        }
        let declared = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        if let Some(n) = declared.filter(|&n| n > self.max_body as u64) {
            return Some(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("a request body of {n} bytes is over the limit of {}", self.max_body),
            ));
        }
        if method == Method::POST && !is_json(headers) {
            return Some(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "a POST body is JSON and must be sent with Content-Type: application/json",
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_name_this_server_by_localhost_an_address_or_an_allowed_name_with_its_port() {
        let hosts = Gate { port: 8080, names: vec!["box.lan".into()], max_body: 100 };
        for host in
            ["localhost:8080", "LocalHost:8080", "127.0.0.1:8080", "[::1]:8080", "10.0.0.7:8080", "box.lan:8080"]
        {
            assert!(hosts.admits(host), "{host}");
        }
        for host in [
            "evil.example:8080",
            "localhost:8081",
            "localhost",
            "127.0.0.1",
            "[::1]",
            "box.lan:80",
            "localhost.evil.example:8080",
            "[::1:8080",
            "[evil]:8080",
            "localhost:8080:8080",
            "local host:8080",
            "",
            ":8080",
        ] {
            assert!(!hosts.admits(host), "{host}");
        }
        let web = Gate { port: 80, names: Vec::new(), max_body: 100 };
        assert!(web.admits("localhost") && web.admits("[::1]") && web.admits("localhost:80"));
    }

    #[test]
    fn json_is_application_json_with_or_without_parameters() {
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::CONTENT_TYPE, value.parse().unwrap());
            is_json(&headers)
        };
        assert!(with("application/json") && with("Application/JSON; charset=utf-8"));
        assert!(!with("application/x-www-form-urlencoded") && !with("text/plain") && !with("application/jsonx"));
        assert!(!is_json(&HeaderMap::new()));
    }
}
