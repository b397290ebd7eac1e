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
//! - An API request sent by another site's page is refused (403), whatever its method: a browser says where
//!   a request comes from in `Sec-Fetch-Site` (anything but `same-origin`, or `none` for one the user
//!   typed, is another site) and in `Origin` (which must be this server's own). A `GET /api/random` needs
//!   no JSON body, so without this a page could make the server draw levels for it.
//! - A declared `Content-Length` over the body limit is a 413 at once, not after reading the body.
//!
//! Every answer says that no other site may frame the page (`Content-Security-Policy: frame-ancestors
//! 'none'`, and `X-Frame-Options` for older browsers), so a page cannot overlay it to steer the user's
//! clicks, and that its types are as declared (`X-Content-Type-Options: nosniff`).

use crate::error::ApiError;
use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::http::{header, HeaderMap, HeaderName, Method, StatusCode};
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
    let api = request.uri().path().starts_with("/api/");
    let refused = gate
        .refusal(request.method(), request.headers())
        .or_else(|| api.then(|| cross_site(request.headers())).flatten());
    let mut response = match refused {
        Some(refused) => refused.into_response(),
        None => next.run(request).await,
    };
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("frame-ancestors 'none'"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

/// The refusal of a request another site's page sent, by what the browser says of where it comes from:
/// `Sec-Fetch-Site` other than `same-origin` or `none`, or an `Origin` that is not the `Host` it was sent
/// to. Clients that are not browsers send neither and are served.
fn cross_site(headers: &HeaderMap) -> Option<ApiError> {
    let text = |name| headers.get(name).map(|v: &HeaderValue| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let refuse = |from: String| {
        Some(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("a request from another site ({from}) is refused: the API answers this server's own page only"),
        ))
    };
    if let Some(site) = text(HeaderName::from_static("sec-fetch-site")) {
        if site != "same-origin" && site != "none" {
            return refuse(format!("Sec-Fetch-Site: {site}"));
        }
    }
    if let Some(origin) = text(header::ORIGIN) {
        let own = text(header::HOST)
            .is_some_and(|host| origin.strip_prefix("http://").is_some_and(|o| o.eq_ignore_ascii_case(&host)));
        if !own {
            return refuse(format!("Origin: {origin}"));
        }
    }
    None
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
    fn requests_from_other_sites_are_refused_and_the_own_page_and_other_clients_are_not() {
        let with = |pairs: &[(&'static str, &str)]| {
            let mut headers = HeaderMap::new();
            headers.insert(header::HOST, "127.0.0.1:8080".parse().unwrap());
            for (name, value) in pairs {
                headers.insert(*name, value.parse().unwrap());
            }
            cross_site(&headers).map(|e| e.reason().to_string())
        };
        assert_eq!(with(&[]), None);
        assert_eq!(with(&[("sec-fetch-site", "same-origin"), ("origin", "http://127.0.0.1:8080")]), None);
        assert_eq!(with(&[("sec-fetch-site", "none")]), None);
        for pairs in [
            &[("sec-fetch-site", "cross-site")][..],
            &[("sec-fetch-site", "same-site")],
            &[("origin", "http://evil.example")],
            &[("origin", "http://127.0.0.1:8081")],
            &[("origin", "null")],
        ] {
            let reason = with(pairs).unwrap_or_else(|| panic!("{pairs:?} was served"));
            assert!(reason.contains("another site"), "{reason}");
        }
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
