//! The insides of frames no word was read in, read together. A calculator's keys are
//! single characters in outlined boxes ("7", "+", "="), and tesseract's sparse-text
//! reading of the whole window drops single characters (xcalc: none of its digits
//! read). Each empty inside is pasted, enlarged, one under another with room between,
//! into one image read as a block of lines (one tesseract run for them all); each
//! line's words become one word at its frame's inside, where a click lands on the key.
//! A lone character misreads differently at each enlargement (xcalc's 7 and 9 read as
//! "é" and "3" at 3x, right at 4x; at 5x the 7 read as "?"), so the sheet is made at
//! two, read at once, and each inside keeps its surer reading.

use std::path::Path;

use image::{GrayImage, Luma};

use super::frames::{background, Rect};
use super::{parse_marks, tesseract, Page, Word};
use crate::error::ElementsError;
use crate::node::Bounds;

/// Enlargements of the insides, one sheet each.
const SCALES: [u32; 2] = [3, 4];
/// Room around each inside on the sheet, in sheet pixels.
const ROOM: u32 = 24;
/// Insides read at most, and the largest one read (in capture pixels): a key, not a
/// panel.
const MOST: usize = 120;
const WIDEST: u32 = 300;
const TALLEST: u32 = 60;

/// Whether a word was read inside `b`: its middle lies there.
fn read_in(words: &[Word], b: &Bounds) -> bool {
    words.iter().any(|w| {
        let (cx, cy) = (
            w.bounds.x + w.bounds.width / 2,
            w.bounds.y + w.bounds.height / 2,
        );
        cx >= b.x && cx < b.x + b.width && cy >= b.y && cy < b.y + b.height
    })
}

/// The sheet: each of `insides` of `gray` enlarged, one under another, and where each
/// one's band begins and ends on it.
fn sheet(gray: &GrayImage, insides: &[Rect], scale: u32) -> (GrayImage, Vec<(u32, u32)>) {
    let fill = Luma([background(gray)]);
    let width = insides.iter().map(|r| r.width * scale).max().unwrap_or(0) + 2 * ROOM;
    let height: u32 = insides.iter().map(|r| r.height * scale + ROOM).sum::<u32>() + ROOM;
    let mut out = GrayImage::from_pixel(width, height, fill);
    let mut bands = Vec::new();
    let mut y = ROOM;
    for r in insides {
        let part = image::imageops::crop_imm(gray, r.x, r.y, r.width, r.height).to_image();
        let big = image::imageops::resize(
            &part,
            r.width * scale,
            r.height * scale,
            image::imageops::FilterType::Lanczos3,
        );
        image::imageops::replace(&mut out, &big, i64::from(ROOM), i64::from(y));
        bands.push((y, y + r.height * scale));
        y += r.height * scale + ROOM;
    }
    (out, bands)
}

/// The sheet of `insides` at `scale`, read: for each inside, its line's words and their
/// mean confidence, where any.
async fn read_sheet(
    page: &std::sync::Arc<Page>,
    insides: &[Rect],
    scale: u32,
    scratch: &Path,
) -> Result<Vec<Option<(String, f64)>>, ElementsError> {
    let file = scratch.join(format!("ocr-insides-{scale}.png"));
    let (png, source, rects) = (file.clone(), page.clone(), insides.to_vec());
    let bands = tokio::task::spawn_blocking(move || {
        let (image, bands) = sheet(&source.gray, &rects, scale);
        image
            .save(&png)
            .map(|_| bands)
            .map_err(|e| ElementsError::Ocr(format!("cannot write {}: {e}", png.display())))
    })
    .await
    .map_err(|e| ElementsError::Ocr(format!("the encoding thread failed: {e}")))??;
    let tsv = tesseract(&file, "6").await?;
    let read = parse_marks(&tsv, (0, 0), 1.0);
    Ok(bands
        .into_iter()
        .map(|(top, bottom)| {
            let mut here: Vec<&Word> = read
                .iter()
                .filter(|w| {
                    let mid = w.bounds.y + w.bounds.height / 2;
                    mid >= top as i32 && mid < bottom as i32
                })
                .collect();
            if here.is_empty() {
                return None;
            }
            here.sort_by_key(|w| w.bounds.x);
            let text: Vec<&str> = here.iter().map(|w| w.text.as_str()).collect();
            let conf = here.iter().map(|w| w.conf).sum::<f64>() / here.len() as f64;
            Some((text.join(" "), conf))
        })
        .collect())
}

/// `words` and, for each inside of `page`'s frames that no word was read in, what the
/// sheet reads there.
pub(super) async fn read_insides(
    page: &std::sync::Arc<Page>,
    mut words: Vec<Word>,
    scratch: &Path,
) -> Result<Vec<Word>, ElementsError> {
    let empty: Vec<Rect> = page
        .insides
        .iter()
        .filter(|r| r.width <= WIDEST && r.height <= TALLEST)
        .filter(|r| !read_in(&words, &page.on_screen(r)))
        .take(MOST)
        .copied()
        .collect();
    if empty.is_empty() {
        return Ok(words);
    }
    let (small, big) = tokio::join!(
        read_sheet(page, &empty, SCALES[0], scratch),
        read_sheet(page, &empty, SCALES[1], scratch)
    );
    for (inside, (a, b)) in empty.iter().zip(small?.into_iter().zip(big?)) {
        let surer = match (a, b) {
            (Some(a), Some(b)) => Some(if b.1 > a.1 { b } else { a }),
            (a, b) => a.or(b),
        };
        if let Some((text, conf)) = surer {
            words.push(Word {
                text,
                bounds: page.on_screen(inside),
                conf,
            });
        }
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insides_are_laid_one_under_another_with_room() {
        let gray = GrayImage::from_pixel(50, 40, Luma([250]));
        let insides = [
            Rect {
                x: 1,
                y: 1,
                width: 10,
                height: 8,
            },
            Rect {
                x: 20,
                y: 20,
                width: 20,
                height: 5,
            },
        ];
        let (image, bands) = sheet(&gray, &insides, 3);
        assert_eq!(image.width(), 20 * 3 + 2 * ROOM);
        assert_eq!(
            bands,
            [(ROOM, ROOM + 24), (2 * ROOM + 24, 2 * ROOM + 24 + 15)]
        );
        assert_eq!(image.height(), bands[1].1 + ROOM);
        let (empty, none) = sheet(&gray, &[], 4);
        assert!(none.is_empty() && empty.width() == 2 * ROOM);
    }

    #[test]
    fn a_word_counts_where_its_middle_lies() {
        let word = |x, y| Word {
            text: "7".into(),
            bounds: Bounds {
                x,
                y,
                width: 4,
                height: 6,
            },
            conf: 90.0,
        };
        let key = Bounds {
            x: 10,
            y: 10,
            width: 20,
            height: 10,
        };
        assert!(read_in(&[word(12, 12)], &key));
        assert!(!read_in(&[word(40, 12)], &key));
        assert!(!read_in(&[word(8, 4)], &key), "its middle is outside");
    }
}
