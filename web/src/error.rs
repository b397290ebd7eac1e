//! A request refused, as it goes over the wire: its status, `{"error": "the reason"}`, and `Retry-After`
//! when a busy server's 503 may pass. Every module of the app answers with this one type, and a puzzle's
//! [`Refusal`] becomes one.

use adapters::served::Refusal;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// A request refused: its status and the reason, sent as `{"error": reason}`.
#[derive(Clone, Debug)]
pub struct ApiError {
    status: StatusCode,
    reason: String,
    /// Seconds after which the same request may succeed (a busy server's 503), sent as `Retry-After`.
    retry_after: Option<u64>,
}

impl ApiError {
    /// A refusal with this status.
    pub fn new(status: StatusCode, reason: impl Into<String>) -> ApiError {
        ApiError { status, reason: reason.into(), retry_after: None }
    }

    /// A 503 that may pass after `seconds`.
    pub fn busy(reason: impl Into<String>, seconds: u64) -> ApiError {
        ApiError { retry_after: Some(seconds.max(1)), ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, reason) }
    }

    /// Why the request was refused.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The HTTP status it is answered with.
    pub fn status(&self) -> StatusCode {
        self.status
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        let status = StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        ApiError::new(status, r.reason)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(serde_json::json!({ "error": self.reason }))).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

/// A 400: the request is wrong, and `reason` says how.
pub fn bad(reason: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, reason)
}

/// A 500: the server failed on a good request.
pub fn failed(reason: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, reason)
}

/// A 404 for any other path.
pub async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such page or API call")
}

/// A 405 for a known path asked with the wrong method.
pub async fn wrong_method() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "wrong method: POST /api/solve, /api/check, /api/hint and /api/jobs, GET and DELETE /api/jobs/ID, GET \
         /api/random, /api/puzzles and /api/boards, and GET the page",
    )
}
