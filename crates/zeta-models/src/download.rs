//! Downloading a model: into `<name>.part` beside its final name, resuming a `.part` left
//! by an earlier run with an HTTP Range request, and checked against a checksum (sha256,
//! or the SHA-1 whisper.cpp publishes for its ggml files) before it is renamed to its final
//! name. A mismatch discards the file; a cut connection keeps it
//! for the next run.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use futures_util::StreamExt;
use sha1::Sha1;
use sha2::{Digest, Sha256};

use crate::{io, ModelError};

/// How far a download is, for a progress line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub received: u64,
    /// The whole file's size, when the server says.
    pub total: Option<u64>,
    /// Bytes already there from an earlier run.
    pub resumed_from: u64,
}

/// Fetches `url` to `dest` (see the module doc). `checksum` is hex: 64 digits are a
/// sha256, 40 a SHA-1.
pub async fn download(
    url: &str,
    dest: &Path,
    checksum: Option<&str>,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<PathBuf, ModelError> {
    let part = part_path(dest);
    if let Some(dir) = dest.parent() {
        std::fs::create_dir_all(dir).map_err(io("create folder", dir))?;
    }
    let mut have = std::fs::metadata(&part).map(|m| m.len()).unwrap_or(0);
    let failed = |message: String| ModelError::Download {
        url: url.to_string(),
        message,
    };
    let http = reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(20))
        .read_timeout(Duration::from_secs(60))
        .build()
        .map_err(|e| failed(e.to_string()))?;
    let mut request = http.get(url);
    if have > 0 {
        request = request.header(reqwest::header::RANGE, format!("bytes={have}-"));
    }
    let response = request.send().await.map_err(|e| {
        if e.is_connect() || e.is_timeout() {
            ModelError::Unreachable {
                url: url.to_string(),
                host: e
                    .url()
                    .and_then(|u| u.host_str().map(str::to_string))
                    .unwrap_or_else(|| url.to_string()),
                message: e.to_string(),
            }
        } else {
            failed(e.to_string())
        }
    })?;
    let status = response.status().as_u16();
    let append = match status {
        206 => true,
        200 => {
            if have > 0 {
                tracing::info!("{url} does not resume; starting again");
            }
            have = 0;
            false
        }
        // The .part already holds the whole file.
        416 if have > 0 => true,
        _ => {
            return Err(ModelError::Http {
                url: url.to_string(),
                status,
            })
        }
    };
    if status != 416 {
        let total = response.content_length().map(|n| n + have);
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .append(append)
            .truncate(!append)
            .open(&part)
            .map_err(io("open", &part))?;
        let mut received = have;
        progress(Progress {
            received,
            total,
            resumed_from: have,
        });
        let mut body = response.bytes_stream();
        while let Some(chunk) = body.next().await {
            // A cut keeps what arrived: the next run resumes from it.
            let chunk = chunk.map_err(|e| {
                failed(format!(
                    "{e} after {received} bytes; run it again to resume"
                ))
            })?;
            file.write_all(&chunk).map_err(io("write", &part))?;
            received += chunk.len() as u64;
            progress(Progress {
                received,
                total,
                resumed_from: have,
            });
        }
        file.flush().map_err(io("write", &part))?;
        if let Some(total) = total.filter(|t| received < *t) {
            return Err(failed(format!(
                "the connection ended after {received} of {total} bytes; run it again to resume"
            )));
        }
    }
    if let Some(expected) = checksum {
        let expected = expected.trim().to_ascii_lowercase();
        let (algorithm, actual) = if expected.len() == 40 {
            ("SHA-1", hash_file::<Sha1>(&part)?)
        } else {
            ("sha256", hash_file::<Sha256>(&part)?)
        };
        if actual != expected {
            let _ = std::fs::remove_file(&part);
            return Err(ModelError::Checksum {
                url: url.to_string(),
                algorithm,
                expected,
                actual,
            });
        }
    }
    std::fs::rename(&part, dest).map_err(io("rename into", dest))?;
    Ok(dest.to_path_buf())
}

/// Where a download of `dest` collects its bytes.
pub fn part_path(dest: &Path) -> PathBuf {
    let mut name = dest.as_os_str().to_owned();
    name.push(".part");
    PathBuf::from(name)
}

/// The sha256 of a file, in lower-case hex.
pub fn sha256_file(path: &Path) -> Result<String, ModelError> {
    hash_file::<Sha256>(path)
}

fn hash_file<D: Digest>(path: &Path) -> Result<String, ModelError> {
    let mut file = std::fs::File::open(path).map_err(io("open", path))?;
    let mut hasher = D::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf).map_err(io("read", path))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A host that cannot be reached is said as such (typed, with its host), not as a raw
    /// request error, and nothing is left behind.
    #[tokio::test]
    async fn an_unreachable_host_is_its_own_error() {
        // A port nobody listens on: bind one, then close it.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("m.bin");
        let url = format!("http://127.0.0.1:{port}/m.bin");
        let err = download(&url, &dest, None, &mut |_| {}).await.unwrap_err();
        match &err {
            ModelError::Unreachable { host, .. } => assert_eq!(host, "127.0.0.1"),
            other => panic!("not Unreachable: {other:?}"),
        }
        assert!(err.is_retryable());
        assert!(!dest.exists());
    }
}
