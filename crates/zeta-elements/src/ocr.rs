//! OCR for windows with no accessibility tree (canvases, remote desktops, apps started
//! without it): a screenshot read by Debian's `tesseract` command (tesseract-ocr 5, run as
//! a process with a time limit; its TSV output gives each word's box), with the words
//! gathered into phrases, offered as `Node`s so the same outline and the same act tool
//! serve both.

use std::path::Path;
use std::time::Duration;

use zeta_tools::screen::{capture, to_rgba, Captured, Order, Target};

use crate::error::ElementsError;
use crate::node::{Bounds, Key, Node};

const LIMIT: Duration = Duration::from_secs(30);
/// Words below this confidence (0–100) are left out.
const MIN_CONFIDENCE: f64 = 30.0;

/// One word tesseract found, in screen pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    pub text: String,
    pub bounds: Bounds,
    /// block, paragraph, line: words of one line share it.
    pub line: (u32, u32, u32),
}

/// Reads tesseract's TSV: words with their boxes, scaled by `1/scale` and moved by
/// `origin` into screen pixels. Lines that do not parse are skipped.
pub fn parse_tsv(tsv: &str, origin: (i32, i32), scale: f64) -> Vec<Word> {
    let mut out = Vec::new();
    for line in tsv.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 12 || f[0] != "5" {
            continue;
        }
        let num = |i: usize| f[i].trim().parse::<f64>().ok();
        let (Some(l), Some(t), Some(w), Some(h), Some(conf)) =
            (num(6), num(7), num(8), num(9), num(10))
        else {
            continue;
        };
        let text = f[11..].join("\t").trim().to_string();
        if text.is_empty() || conf < MIN_CONFIDENCE {
            continue;
        }
        let id = |i: usize| f[i].trim().parse::<u32>().unwrap_or(0);
        let s = if scale > 0.0 { scale } else { 1.0 };
        out.push(Word {
            text,
            bounds: Bounds {
                x: origin.0 + (l / s).round() as i32,
                y: origin.1 + (t / s).round() as i32,
                width: (w / s).round().max(1.0) as i32,
                height: (h / s).round().max(1.0) as i32,
            },
            line: (id(2), id(3), id(4)),
        });
    }
    out
}

/// Words of one line close enough to be one phrase ("Save as…"), split where the gap is
/// wider than the text is tall (two buttons side by side).
pub fn phrases(words: &[Word]) -> Vec<(String, Bounds)> {
    let mut out: Vec<(String, Bounds)> = Vec::new();
    let mut last: Option<&Word> = None;
    for w in words {
        let joins = last.is_some_and(|p| {
            p.line == w.line
                && w.bounds.x - (p.bounds.x + p.bounds.width)
                    <= p.bounds.height.max(w.bounds.height)
        });
        match out.last_mut() {
            Some((text, b)) if joins => {
                text.push(' ');
                text.push_str(&w.text);
                let right = (b.x + b.width).max(w.bounds.x + w.bounds.width);
                let bottom = (b.y + b.height).max(w.bounds.y + w.bounds.height);
                b.x = b.x.min(w.bounds.x);
                b.y = b.y.min(w.bounds.y);
                b.width = right - b.x;
                b.height = bottom - b.y;
            }
            _ => out.push((w.text.clone(), w.bounds)),
        }
        last = Some(w);
    }
    out
}

/// The phrases of run `run` as a tree: a root holding one "text" node per phrase.
pub fn as_tree(run: u64, phrases: &[(String, Bounds)]) -> Node {
    let mut root = Node::new(
        Key::Word {
            run,
            index: usize::MAX,
        },
        "screen",
        "",
    );
    root.children = phrases
        .iter()
        .enumerate()
        .map(|(index, (text, bounds))| {
            let mut n = Node::new(Key::Word { run, index }, "text", text.clone());
            n.bounds = Some(*bounds);
            n
        })
        .collect();
    root
}

/// Captures `target` and reads it. Tesseract misreads the small antialiased text of a
/// screen at 1x (it read "Sub", "ik" for "Subscribe" here), and reads it all once the image
/// is three times larger with a Lanczos filter (measured on the test form).
pub async fn read(target: Target, scratch: &Path) -> Result<Vec<Word>, ElementsError> {
    let shot: Captured = tokio::task::spawn_blocking(move || capture(target))
        .await
        .map_err(|e| ElementsError::Ocr(format!("the capture thread failed: {e}")))?
        .map_err(ElementsError::Ocr)?;
    let scale = if shot.density < 1.5 { 3.0 } else { 1.5 };
    // Pixels of the image per screen pixel, once enlarged.
    let per_screen_pixel = scale * shot.density;
    let origin = shot.origin;
    let file = scratch.join("ocr.png");
    let png = file.clone();
    tokio::task::spawn_blocking(move || write_png(&shot, scale, &png))
        .await
        .map_err(|e| ElementsError::Ocr(format!("the encoding thread failed: {e}")))??;
    let run = tokio::process::Command::new("tesseract")
        .arg(&file)
        .arg("stdout")
        .args(["--psm", "11", "tsv"])
        .kill_on_drop(true)
        .output();
    let out = match tokio::time::timeout(LIMIT, run).await {
        Err(_) => return Err(ElementsError::Ocr(format!("tesseract took over {} s", LIMIT.as_secs()))),
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ElementsError::Ocr(
                "the tesseract command is not installed (Debian/Ubuntu: sudo apt install tesseract-ocr)".into(),
            ))
        }
        Ok(Err(e)) => return Err(ElementsError::Ocr(format!("cannot run tesseract: {e}"))),
        Ok(Ok(o)) => o,
    };
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(ElementsError::Ocr(format!(
            "tesseract failed: {}",
            err.trim()
        )));
    }
    Ok(parse_tsv(
        &String::from_utf8_lossy(&out.stdout),
        origin,
        per_screen_pixel,
    ))
}

fn write_png(shot: &Captured, scale: f64, to: &Path) -> Result<(), ElementsError> {
    let rgba = match shot.order {
        Order::Rgba => shot.rgba.clone(),
        Order::Bgrx => to_rgba(&shot.rgba),
    };
    let img = image::RgbaImage::from_raw(shot.width, shot.height, rgba)
        .ok_or_else(|| ElementsError::Ocr("the capture has the wrong size".into()))?;
    let gray = image::DynamicImage::ImageRgba8(img).into_luma8();
    let gray = if scale > 1.0 {
        image::imageops::resize(
            &gray,
            (shot.width as f64 * scale) as u32,
            (shot.height as f64 * scale) as u32,
            image::imageops::FilterType::Lanczos3,
        )
    } else {
        gray
    };
    gray.save(to)
        .map_err(|e| ElementsError::Ocr(format!("cannot write {}: {e}", to.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TSV: &str = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext
1\t1\t0\t0\t0\t0\t0\t0\t800\t600\t-1\t
5\t1\t1\t1\t1\t1\t20\t40\t60\t20\t96.5\tSave
5\t1\t1\t1\t1\t2\t86\t40\t30\t20\t91\tas
5\t1\t1\t1\t1\t3\t300\t40\t80\t20\t90\tCancel
5\t1\t2\t1\t1\t1\t20\t100\t40\t20\t12\tnoise
5\t1\t2\t1\t1\t2\tx\t100\t40\t20\t90\tbroken
";

    #[test]
    fn words_come_back_in_screen_pixels_and_gather_into_phrases() {
        let words = parse_tsv(TSV, (100, 10), 2.0);
        assert_eq!(
            words.len(),
            3,
            "low confidence and broken lines are skipped: {words:?}"
        );
        assert_eq!(
            words[0].bounds,
            Bounds {
                x: 110,
                y: 30,
                width: 30,
                height: 10
            }
        );
        let p = phrases(&words);
        assert_eq!(
            p.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>(),
            ["Save as", "Cancel"]
        );
        assert_eq!(
            p[0].1,
            Bounds {
                x: 110,
                y: 30,
                width: 48,
                height: 10
            }
        );
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;

    /// Garbage, truncated and hostile TSV never panics and never gives a word without text
    /// or with a box of no size.
    #[test]
    fn any_tsv_parses_without_panicking() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let pieces = [
            "5",
            "1",
            "\t",
            "\n",
            "-1",
            "99999999999999999999",
            "NaN",
            "inf",
            "-3.5",
            "word",
            "",
            " ",
            "é",
            "\t\t\t",
            "0",
        ];
        for _ in 0..20_000 {
            let mut tsv = String::from("level\n");
            for _ in 0..(next() % 60) {
                tsv.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            let scale = [0.0, 1.0, 3.0, -1.0, f64::NAN][(next() % 5) as usize];
            for w in parse_tsv(&tsv, (0, 0), scale) {
                assert!(!w.text.is_empty());
                assert!(w.bounds.width >= 1 && w.bounds.height >= 1, "{w:?}");
            }
            let words = parse_tsv(&tsv, (5, 5), 2.0);
            let _ = phrases(&words);
        }
    }
}
