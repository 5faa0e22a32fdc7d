//! Request bodies: plain JSON, or `multipart/form-data` with a
//! `payload_json` part and one `files[N]` part per upload, which is how
//! Discord takes attachments on every message-creating route
//! (`reference#uploading-files`). serenity sends exactly that shape (see
//! `serenity/src/http/multipart.rs`): parts named `files[{id}]` with a file
//! name and a guessed MIME type, then `payload_json`.

use axum::body::Bytes;
use axum::http::HeaderMap;
use serde_json::Value;

use super::recorder::UploadedFile;

/// A decoded request body.
#[derive(Debug, Default)]
pub struct Body {
    /// The JSON payload (`Value::Null` when there was none).
    pub json: Value,
    /// Uploaded files, ordered by their `N` in `files[N]`.
    pub files: Vec<(u64, UploadedFile)>,
}

/// Decodes a body according to its `Content-Type`.
pub async fn decode(headers: &HeaderMap, bytes: Bytes) -> Result<Body, String> {
    let content_type = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if content_type.starts_with("multipart/form-data") {
        decode_multipart(content_type, bytes).await
    } else if bytes.is_empty() {
        Ok(Body::default())
    } else {
        let json = serde_json::from_slice(&bytes).map_err(|e| format!("body is not JSON: {e}"))?;
        Ok(Body {
            json,
            files: Vec::new(),
        })
    }
}

async fn decode_multipart(content_type: &str, bytes: Bytes) -> Result<Body, String> {
    let boundary =
        multer::parse_boundary(content_type).map_err(|e| format!("bad multipart boundary: {e}"))?;
    let stream = futures_util::stream::once(async move { Ok::<Bytes, std::io::Error>(bytes) });
    let mut form = multer::Multipart::new(stream, boundary);
    let mut body = Body::default();
    while let Some(field) = form
        .next_field()
        .await
        .map_err(|e| format!("bad multipart body: {e}"))?
    {
        let name = field.name().unwrap_or("").to_owned();
        let filename = field.file_name().map(str::to_owned);
        let part_type = field.content_type().map(|m| m.essence_str().to_owned());
        let data = field
            .bytes()
            .await
            .map_err(|e| format!("bad multipart part {name}: {e}"))?;
        if name == "payload_json" {
            body.json = serde_json::from_slice(&data)
                .map_err(|e| format!("payload_json is not JSON: {e}"))?;
        } else if let Some(index) = name
            .strip_prefix("files[")
            .and_then(|r| r.strip_suffix(']'))
        {
            let index = index
                .parse()
                .map_err(|_| format!("bad file part name {name}"))?;
            body.files.push((
                index,
                UploadedFile {
                    filename: filename.unwrap_or_else(|| format!("file{index}")),
                    content_type: part_type,
                    bytes: data.to_vec(),
                },
            ));
        } else {
            return Err(format!("unexpected multipart part {name:?}"));
        }
    }
    body.files.sort_by_key(|(i, _)| *i);
    Ok(body)
}
