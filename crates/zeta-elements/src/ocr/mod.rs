//! OCR for windows with no accessibility tree (canvases, remote desktops, apps started
//! without it): a screenshot read by Debian's `tesseract` command (tesseract-ocr 5, run as
//! a process with a time limit; its TSV output gives each word's box), with the words
//! gathered into phrases, offered as `Node`s so the same outline and the same act tool
//! serve both.
//!
//! One scale does not read every screen: small text misreads differently at each
//! enlargement ("Aeply" at 3x, "Apply" at 2x), and a word one scale misses another reads.
//! A window is read at two scales at once and the readings merged word by word, the
//! surer reading of each place kept; the whole screen is read at the second scale only
//! where the first reading is thin (few words, or words tesseract is unsure of). Frames
//! drawn around words (`frames`: an old toolkit's outlined buttons) are taken out before
//! any reading: they hide more than the words they hold (xmessage read as no word at
//! all; xcalc's keys read as "[ee not", "or on oor xor fod" across rows of keys).

mod blank;
mod frames;
mod sheet;

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
    /// Tesseract's confidence, 0–100.
    pub conf: f64,
}

/// What one OCR read found, and how.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub words: Vec<Word>,
    /// The enlargements read, in order (a second one where the first read little).
    pub scales: Vec<f64>,
    /// Frames drawn around words were taken out before reading (`frames`).
    pub unframed: bool,
    /// Their upright stretches on the screen, which part phrases (`phrases`).
    pub walls: Vec<Bounds>,
    /// The largest blank area, on the screen: where text goes once typed (`blank`).
    pub blank: Option<Bounds>,
    pub took: std::time::Duration,
}

/// Captures up to this size (a window, not the screen) are read at both scales.
const WINDOW_PIXELS: u64 = 800 * 600;

/// A reading is thin, and worth a second scale, below this many words or this median
/// confidence.
const THIN_WORDS: usize = 3;
const THIN_CONFIDENCE: f64 = 85.0;

fn thin(words: &[Word]) -> bool {
    if words.len() < THIN_WORDS {
        return true;
    }
    let mut c: Vec<f64> = words.iter().map(|w| w.conf).collect();
    c.sort_by(f64::total_cmp);
    c[c.len() / 2] < THIN_CONFIDENCE
}

/// Two readings of one word: their boxes mostly coincide (the shared area is over half
/// of the two together), or they read the same and their boxes meet (one scale's box can
/// take in a widget's edge).
fn same_word(a: &Word, b: &Word) -> bool {
    let (p, q) = (&a.bounds, &b.bounds);
    let w = (p.x + p.width).min(q.x + q.width) - p.x.max(q.x);
    let h = (p.y + p.height).min(q.y + q.height) - p.y.max(q.y);
    if w <= 0 || h <= 0 {
        return false;
    }
    let shared = (w * h) as f64;
    let union = (p.width * p.height + q.width * q.height) as f64 - shared;
    shared / union.max(1.0) > 0.5 || a.text.eq_ignore_ascii_case(&b.text)
}

/// Two readings of one screen as one: at each place the surer word, and the words only
/// one reading found.
pub fn merge(first: Vec<Word>, second: Vec<Word>) -> Vec<Word> {
    let mut out = first;
    for w in second {
        match out.iter().position(|o| same_word(o, &w)) {
            Some(i) if out[i].conf < w.conf => out[i] = w,
            Some(_) => {}
            None => out.push(w),
        }
    }
    out
}

/// Reads tesseract's TSV: words with their boxes, scaled by `1/scale` and moved by
/// `origin` into screen pixels. Lines that do not parse are skipped, and so are words
/// with no letter or digit: a widget's edge read as text ("|", "[|").
pub fn parse_tsv(tsv: &str, origin: (i32, i32), scale: f64) -> Vec<Word> {
    let mut words = parse_marks(tsv, origin, scale);
    words.retain(|w| w.text.chars().any(char::is_alphanumeric));
    words
}

/// `parse_tsv` keeping words of marks alone ("+", "=", "÷"): what a frame held alone is
/// a key, not a widget's edge.
fn parse_marks(tsv: &str, origin: (i32, i32), scale: f64) -> Vec<Word> {
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
        let s = if scale > 0.0 { scale } else { 1.0 };
        out.push(Word {
            text,
            bounds: Bounds {
                x: origin.0 + (l / s).round() as i32,
                y: origin.1 + (t / s).round() as i32,
                width: (w / s).round().max(1.0) as i32,
                height: (h / s).round().max(1.0) as i32,
            },
            conf,
        });
    }
    out
}

/// Words of one line close enough to be one phrase ("Save as…"), split where the gap is
/// wider than the text is tall (two buttons side by side), or where a wall stands in it
/// (`Reading::walls`: a frame's side, a drawn separator). Lines are found by place (a
/// word's middle within the height of the line's last word), not by tesseract's numbering,
/// so words of two readings gather alike.
pub fn phrases(words: &[Word], walls: &[Bounds]) -> Vec<(String, Bounds)> {
    let mut sorted: Vec<&Word> = words.iter().collect();
    sorted.sort_by_key(|w| (w.bounds.y + w.bounds.height / 2, w.bounds.x));
    // Lines, top to bottom, each left to right.
    let mut lines: Vec<Vec<&Word>> = Vec::new();
    for w in sorted {
        let mid = w.bounds.y + w.bounds.height / 2;
        let line = lines.iter_mut().find(|l| {
            l.last().is_some_and(|p| {
                let (top, bottom) = (p.bounds.y, p.bounds.y + p.bounds.height);
                mid >= top && mid <= bottom
            })
        });
        match line {
            Some(l) => l.push(w),
            None => lines.push(vec![w]),
        }
    }
    let mut out: Vec<(String, Bounds)> = Vec::new();
    for mut line in lines {
        line.sort_by_key(|w| w.bounds.x);
        let mut last: Option<&Word> = None;
        for w in line {
            let joins = last.is_some_and(|p| {
                let (right, left) = (p.bounds.x + p.bounds.width, w.bounds.x);
                let mid = w.bounds.y + w.bounds.height / 2;
                let walled = walls.iter().any(|b| {
                    b.x >= right - 1 && b.x <= left && mid >= b.y && mid <= b.y + b.height
                });
                left - right <= p.bounds.height.max(w.bounds.height) && !walled
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
    }
    out
}

/// The role of a blank area read by OCR (`blank`).
pub const BLANK_ROLE: &str = "blank area";

/// The phrases of run `run` as a tree: a root holding one "text" node per phrase, and
/// the blank area, where there is one, as a "blank area" to click or type into.
pub fn as_tree(run: u64, phrases: &[(String, Bounds)], blank: Option<Bounds>) -> Node {
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
    if let Some(b) = blank {
        let index = phrases.len();
        let mut n = Node::new(Key::Word { run, index }, BLANK_ROLE, "");
        n.bounds = Some(b);
        // Where text goes: a step of the request that names nothing on screen ("type
        // call Bob into the text") may be done there (`Walk::takers`).
        n.states.editable = true;
        root.children.push(n);
    }
    root
}

/// Captures `target` and reads it. Tesseract misreads the small antialiased text of a
/// screen at 1x (it read "Sub", "ik" for "Subscribe" here), and reads it all once the image
/// is three times larger with a Lanczos filter (measured on the test form); a thin reading
/// is read again at twice the size and merged.
pub async fn read(target: Target, scratch: &Path) -> Result<Reading, ElementsError> {
    let started = std::time::Instant::now();
    let shot: Captured = tokio::task::spawn_blocking(move || capture(target))
        .await
        .map_err(|e| ElementsError::Ocr(format!("the capture thread failed: {e}")))?
        .map_err(ElementsError::Ocr)?;
    let (first, second) = if shot.density < 1.5 {
        (3.0, 2.0)
    } else {
        (1.5, 1.0)
    };
    // A window is read at both scales at once (two processes: about the time of one on
    // two cores); the whole screen at the second only where the first read thin.
    let window = (shot.width as u64) * (shot.height as u64) <= WINDOW_PIXELS;
    let page = tokio::task::spawn_blocking(move || Page::of(&shot))
        .await
        .map_err(|e| ElementsError::Ocr(format!("the preparing thread failed: {e}")))??;
    let page = std::sync::Arc::new(page);
    let (words, scales) = if window {
        let (a, b) = tokio::join!(
            read_at(&page, first, scratch),
            read_at(&page, second, scratch)
        );
        (merge(a?, b?), vec![first, second])
    } else {
        let words = read_at(&page, first, scratch).await?;
        if thin(&words) {
            let again = read_at(&page, second, scratch).await?;
            (merge(words, again), vec![first, second])
        } else {
            (words, vec![first])
        }
    };
    let words = sheet::read_insides(&page, words, scratch).await?;
    Ok(Reading {
        words,
        scales,
        unframed: page.framed,
        walls: page.walls.iter().map(|r| page.on_screen(r)).collect(),
        blank: page.blank.map(|r| page.on_screen(&r)),
        took: started.elapsed(),
    })
}

/// A capture in gray, with the frames drawn around its words taken out (`frames`), and
/// where it is on the screen.
pub(super) struct Page {
    gray: image::GrayImage,
    /// The insides of its frames (a button's label), in capture pixels.
    insides: Vec<frames::Rect>,
    framed: bool,
    walls: Vec<frames::Rect>,
    /// Its largest blank area (`blank`), painted the level around it.
    blank: Option<frames::Rect>,
    origin: (i32, i32),
    /// Captured pixels per screen pixel.
    density: f64,
}

impl Page {
    fn of(shot: &Captured) -> Result<Self, ElementsError> {
        let rgba = match shot.order {
            Order::Rgba => shot.rgba.clone(),
            Order::Bgrx => to_rgba(&shot.rgba),
        };
        let img = image::RgbaImage::from_raw(shot.width, shot.height, rgba)
            .ok_or_else(|| ElementsError::Ocr("the capture has the wrong size".into()))?;
        let gray = image::DynamicImage::ImageRgba8(img).into_luma8();
        let (mut gray, insides, walls, framed) = match frames::unframed(&gray) {
            Some(u) => (u.image, u.insides, u.walls, true),
            None => (gray, Vec::new(), Vec::new(), false),
        };
        let blank = blank::largest(&gray);
        if let Some(r) = blank {
            blank::fill_as_around(&mut gray, &r);
        }
        Ok(Self {
            gray,
            blank,
            insides,
            framed,
            walls,
            origin: shot.origin,
            density: shot.density,
        })
    }
}

impl Page {
    /// `r` (capture pixels) on the screen.
    fn on_screen(&self, r: &frames::Rect) -> Bounds {
        let d = if self.density > 0.0 {
            self.density
        } else {
            1.0
        };
        Bounds {
            x: self.origin.0 + (f64::from(r.x) / d).round() as i32,
            y: self.origin.1 + (f64::from(r.y) / d).round() as i32,
            width: (f64::from(r.width) / d).round().max(1.0) as i32,
            height: (f64::from(r.height) / d).round().max(1.0) as i32,
        }
    }
}

/// The page enlarged `scale` times and read as sparse text.
async fn read_at(
    page: &std::sync::Arc<Page>,
    scale: f64,
    scratch: &Path,
) -> Result<Vec<Word>, ElementsError> {
    let file = scratch.join(format!("ocr-{}.png", (scale * 10.0) as u32));
    let png = file.clone();
    let source = page.clone();
    tokio::task::spawn_blocking(move || write_png(&source.gray, scale, &png))
        .await
        .map_err(|e| ElementsError::Ocr(format!("the encoding thread failed: {e}")))??;
    let tsv = tesseract(&file, "11").await?;
    // Pixels of the image per screen pixel, once enlarged.
    Ok(parse_tsv(&tsv, page.origin, scale * page.density))
}

/// Tesseract's TSV for the image at `file`, read in page mode `psm`.
async fn tesseract(file: &Path, psm: &str) -> Result<String, ElementsError> {
    let run = tokio::process::Command::new("tesseract")
        .arg(file)
        .arg("stdout")
        .args(["--psm", psm, "tsv"])
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
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Writes `gray` enlarged `scale` times (Lanczos) as a PNG.
fn write_png(gray: &image::GrayImage, scale: f64, to: &Path) -> Result<(), ElementsError> {
    let big;
    let image = if scale > 1.0 {
        big = image::imageops::resize(
            gray,
            (gray.width() as f64 * scale) as u32,
            (gray.height() as f64 * scale) as u32,
            image::imageops::FilterType::Lanczos3,
        );
        &big
    } else {
        gray
    };
    image
        .save(to)
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
        let p = phrases(&words, &[]);
        assert_eq!(
            p.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>(),
            ["Save as", "Cancel"]
        );
        // A mark alone is a widget's edge on a page, a key inside a frame.
        let marks = format!("{TSV}5\t1\t3\t1\t1\t1\t20\t200\t10\t20\t88\t+\n");
        assert_eq!(parse_tsv(&marks, (0, 0), 1.0).len(), 3);
        let kept = parse_marks(&marks, (0, 0), 1.0);
        assert_eq!(kept.last().map(|w| w.text.as_str()), Some("+"));
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
mod scales {
    use super::*;

    fn word(text: &str, x: i32, y: i32, conf: f64) -> Word {
        Word {
            text: text.into(),
            bounds: Bounds {
                x,
                y,
                width: 8 * text.len() as i32,
                height: 12,
            },
            conf,
        }
    }

    #[test]
    fn two_readings_merge_by_place_keeping_the_surer_word() {
        // At 3x: "Aeply" unsure, "now" sure; at 2x: "Apply" sure, "filter" only there.
        let first = vec![word("Aeply", 10, 10, 61.0), word("now", 110, 10, 95.0)];
        let second = vec![
            word("Apply", 11, 10, 93.0),
            word("filter", 58, 11, 90.0),
            word("nuw", 110, 10, 70.0),
        ];
        let merged = merge(first, second);
        // The same word read with a taller box at one scale is still one word.
        let mut tall = word("Colour", 10, 40, 90.0);
        tall.bounds.height = 29;
        let colour = merge(vec![tall.clone()], vec![word("Colour", 10, 48, 96.0)]);
        assert_eq!(colour.len(), 1, "{colour:?}");
        assert_eq!(colour[0].conf, 96.0);
        // A small word inside another's tall box is another word.
        tall.bounds.width = 120;
        let two = merge(vec![tall], vec![word("Red", 90, 48, 97.0)]);
        assert_eq!(two.len(), 2, "{two:?}");
        let p = phrases(&merged, &[]);
        assert_eq!(
            p.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>(),
            ["Apply filter now"]
        );
    }

    /// Words a drawn wall stands between are two phrases however close ("Quit | Save"),
    /// and a wall beside a line, above it or past its words parts nothing.
    #[test]
    fn a_wall_between_words_parts_the_phrase() {
        let words = [word("Quit", 10, 10, 95.0), word("Save", 45, 10, 95.0)];
        let wall = |x, y, height| Bounds {
            x,
            y,
            width: 1,
            height,
        };
        let said = |walls: &[Bounds]| -> Vec<String> {
            phrases(&words, walls).into_iter().map(|(t, _)| t).collect()
        };
        assert_eq!(said(&[]), ["Quit Save"]);
        assert_eq!(said(&[wall(42, 6, 16)]), ["Quit", "Save"]);
        for apart in [wall(42, 40, 16), wall(5, 6, 16), wall(90, 6, 16)] {
            assert_eq!(said(&[apart]), ["Quit Save"], "{apart:?}");
        }
    }

    #[test]
    fn a_reading_is_thin_when_it_has_few_or_unsure_words() {
        assert!(thin(&[]));
        assert!(thin(&[word("a", 0, 0, 99.0), word("b", 20, 0, 99.0)]));
        let sure: Vec<Word> = (0..5).map(|i| word("ok", i * 30, 0, 95.0)).collect();
        assert!(!thin(&sure));
        let unsure: Vec<Word> = (0..5).map(|i| word("ok", i * 30, 0, 60.0)).collect();
        assert!(thin(&unsure));
    }

    #[test]
    fn lines_are_found_by_place_whatever_order_the_words_come_in() {
        let words = vec![
            word("Cancel", 200, 52, 90.0),
            word("Name", 10, 10, 90.0),
            word("Save", 10, 50, 90.0),
            word("as", 46, 51, 90.0),
        ];
        let p = phrases(&words, &[]);
        assert_eq!(
            p.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>(),
            ["Name", "Save as", "Cancel"]
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
            let _ = phrases(&words, &[]);
        }
    }
}
