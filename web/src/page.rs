//! The page and its assets, compiled into the binary so the app is one file that works offline: the
//! HTML, the style, the shell (`app.js`), and each puzzle's module, which its adapter holds.

use axum::http::header;
use axum::response::{Html, IntoResponse, Response};

pub async fn index() -> Html<&'static str> {
    Html(include_str!("page/index.html"))
}

pub async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], include_str!("page/style.css"))
}

pub async fn script() -> Response {
    module(include_str!("page/app.js"))
}

/// A JavaScript module's source as it is served.
pub fn module(source: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], source).into_response()
}
