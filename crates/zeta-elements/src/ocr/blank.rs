//! The blank area of a window read by OCR: the largest stretch of one level with no ink,
//! where text goes once typed. A window with no accessibility tree shows no element for
//! an empty page (xedit's text, empty as a new file opens: nothing to read, so nothing
//! to type into, and "type call Bob into the text" ended with Save pressed three
//! times). It is told by its shape alone: cells of the image that hold a single level,
//! joined into the largest rectangle of one level, big enough to write in and not the
//! whole capture.

use image::GrayImage;

use super::frames::Rect;

/// Cells of this many pixels a side are judged uniform or not.
const CELL: u32 = 8;
/// Levels within this of each other are one.
const SPREAD: u8 = 3;
/// Smallest blank area, in cells: 160 × 64 pixels at one pixel a point.
const MIN_WIDTH: u32 = 20;
const MIN_HEIGHT: u32 = 8;
/// A blank area over this share of the capture is the capture itself (a blank screen).
const MOST_OF: f64 = 0.9;

/// The largest blank area of `gray`, in its pixels, or `None` where no stretch of one
/// level is big enough (or it is nearly all of it).
pub fn largest(gray: &GrayImage) -> Option<Rect> {
    let (w, h) = gray.dimensions();
    let (cols, rows) = (w / CELL, h / CELL);
    if cols < MIN_WIDTH || rows < MIN_HEIGHT {
        return None;
    }
    // Each cell's level, where it holds one.
    let level = |cx: u32, cy: u32| -> Option<u8> {
        let (mut lo, mut hi) = (u8::MAX, u8::MIN);
        for y in cy * CELL..(cy + 1) * CELL {
            for x in cx * CELL..(cx + 1) * CELL {
                let v = gray.get_pixel(x, y).0[0];
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
        (hi - lo <= SPREAD).then_some(lo)
    };
    let cells: Vec<Vec<Option<u8>>> = (0..rows)
        .map(|cy| (0..cols).map(|cx| level(cx, cy)).collect())
        .collect();
    let same = |a: Option<u8>, b: Option<u8>| matches!((a, b), (Some(a), Some(b)) if a.abs_diff(b) <= SPREAD);
    // Per row, how many cells of one level stand in a column up to it; then the largest
    // rectangle of each run of one level along the row.
    let mut heights = vec![0u32; cols as usize];
    let mut best: Option<(u32, Rect)> = None;
    for cy in 0..rows as usize {
        for cx in 0..cols as usize {
            let here = cells[cy][cx];
            heights[cx] = match here {
                None => 0,
                Some(_) if cy > 0 && heights[cx] > 0 && same(cells[cy - 1][cx], here) => {
                    heights[cx] + 1
                }
                Some(_) => 1,
            };
        }
        let mut start = 0usize;
        while start < cols as usize {
            if cells[cy][start].is_none() {
                start += 1;
                continue;
            }
            let mut end = start + 1;
            while end < cols as usize && same(cells[cy][end], cells[cy][start]) {
                end += 1;
            }
            if let Some((area, rect)) = in_histogram(&heights[start..end], start as u32, cy as u32)
            {
                if best.is_none_or(|(a, _)| area > a) {
                    best = Some((area, rect));
                }
            }
            start = end;
        }
    }
    let (_, cells_rect) = best?;
    if cells_rect.width < MIN_WIDTH || cells_rect.height < MIN_HEIGHT {
        return None;
    }
    let rect = Rect {
        x: cells_rect.x * CELL,
        y: cells_rect.y * CELL,
        width: cells_rect.width * CELL,
        height: cells_rect.height * CELL,
    };
    let share = f64::from(rect.width * rect.height) / (f64::from(w) * f64::from(h));
    (share <= MOST_OF).then_some(rect)
}

/// The blank area `rect` of `gray`, and the pixels of its level joined to it (its edges
/// the grid of cells cut off), painted with the commonest level outside it. A large page
/// of another level than the window around it makes tesseract's own threshold fall
/// between the two, and the window's words go dark on dark (seen: a Tk editor's white
/// page read "Quit" and "Save" as nothing at 2x and 3x; its page painted gray but for a
/// white band along its edges, still nothing at 3x). The area holds no ink, and the
/// pixels joined to it are of its level, so no word is lost.
pub fn fill_as_around(gray: &mut GrayImage, rect: &Rect) {
    let (w, h) = gray.dimensions();
    if rect.width == 0 || rect.height == 0 || rect.x >= w || rect.y >= h {
        return;
    }
    let seed = (rect.x + rect.width / 2, rect.y + rect.height / 2);
    let level = gray.get_pixel(seed.0.min(w - 1), seed.1.min(h - 1)).0[0];
    let mut page = vec![false; (w * h) as usize];
    let mut stack = vec![(seed.0.min(w - 1), seed.1.min(h - 1))];
    while let Some((x, y)) = stack.pop() {
        let at = (y * w + x) as usize;
        if page[at] || gray.get_pixel(x, y).0[0].abs_diff(level) > SPREAD {
            continue;
        }
        page[at] = true;
        if x > 0 {
            stack.push((x - 1, y));
        }
        if y > 0 {
            stack.push((x, y - 1));
        }
        if x + 1 < w {
            stack.push((x + 1, y));
        }
        if y + 1 < h {
            stack.push((x, y + 1));
        }
    }
    // Only a page: inside the window's chrome, not reaching the capture's edges, and its
    // pixels filling their box. A window's own background reaches its edges and holds
    // its widgets and words; painted, it would take the words' ground away (seen: a form
    // drawn in small text read as nothing).
    let (mut x0, mut y0, mut x1, mut y1, mut count) = (w, h, 0u32, 0u32, 0u64);
    for (i, on) in page.iter().enumerate() {
        if *on {
            let (x, y) = (i as u32 % w, i as u32 / w);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            count += 1;
        }
    }
    let boxed = u64::from(x1 - x0 + 1) * u64::from(y1 - y0 + 1);
    let edge = x0 == 0 || y0 == 0 || x1 + 1 >= w || y1 + 1 >= h;
    if edge || count * 100 < boxed * 99 {
        return;
    }
    let mut hist = [0u64; 256];
    for (i, p) in gray.pixels().enumerate() {
        if !page[i] {
            hist[p.0[0] as usize] += 1;
        }
    }
    if hist.iter().all(|n| *n == 0) {
        return;
    }
    let around = (0..=255u8).max_by_key(|v| hist[*v as usize]).unwrap_or(255);
    for (i, p) in gray.pixels_mut().enumerate() {
        if page[i] {
            p.0[0] = around;
        }
    }
}

/// The largest rectangle, in cells, under the histogram `heights` whose first column is
/// `x0` and whose bottom row is `bottom`, among those at least `MIN_WIDTH` wide and
/// `MIN_HEIGHT` tall; with its area.
fn in_histogram(heights: &[u32], x0: u32, bottom: u32) -> Option<(u32, Rect)> {
    let mut best: Option<(u32, Rect)> = None;
    let mut stack: Vec<(usize, u32)> = Vec::new();
    for (i, &h) in heights.iter().chain(std::iter::once(&0)).enumerate() {
        let mut start = i;
        while let Some(&(at, top)) = stack.last() {
            if top < h {
                break;
            }
            stack.pop();
            let width = (i - at) as u32;
            if width >= MIN_WIDTH && top >= MIN_HEIGHT {
                let area = width * top;
                if best.is_none_or(|(a, _)| area > a) {
                    best = Some((
                        area,
                        Rect {
                            x: x0 + at as u32,
                            y: bottom + 1 - top,
                            width,
                            height: top,
                        },
                    ));
                }
            }
            start = at;
        }
        stack.push((start, h));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A window's chrome: a gray panel with a row of dark "buttons" across its top, and
    /// `page` painted white inside it; words drawn as dark specks where `words` are.
    fn window(w: u32, h: u32, page: Option<Rect>, words: &[(u32, u32)]) -> GrayImage {
        let mut img = GrayImage::from_pixel(w, h, Luma([190]));
        for x in (10..w.saturating_sub(10)).step_by(40) {
            for dx in 0..20 {
                for y in 5..20 {
                    img.put_pixel((x + dx).min(w - 1), y, Luma([(dx * 12) as u8]));
                }
            }
        }
        if let Some(p) = page {
            for y in p.y..p.y + p.height {
                for x in p.x..p.x + p.width {
                    img.put_pixel(x, y, Luma([255]));
                }
            }
        }
        for &(x, y) in words {
            for d in 0..6 {
                img.put_pixel(x + d, y + d % 3, Luma([0]));
            }
        }
        img
    }

    #[test]
    fn an_empty_page_is_found_inside_the_windows_chrome() {
        let page = Rect {
            x: 16,
            y: 64,
            width: 480,
            height: 240,
        };
        let found = largest(&window(520, 330, Some(page), &[])).expect("the page");
        // Found on the grid, within a cell of the page.
        assert!(
            found.x.abs_diff(page.x) < CELL
                && found.y.abs_diff(page.y) < CELL
                && found.width + 2 * CELL >= page.width
                && found.height + 2 * CELL >= page.height,
            "{found:?}"
        );
        // Text on the page: the blank area is what the text leaves.
        let written = largest(&window(520, 330, Some(page), &[(40, 80), (300, 200)]))
            .expect("still a blank stretch");
        assert!(written.width * written.height < found.width * found.height);
    }

    #[test]
    fn the_blank_area_is_painted_the_level_around_it() {
        let page = Rect {
            x: 16,
            y: 64,
            width: 480,
            height: 240,
        };
        let mut img = window(520, 330, Some(page), &[]);
        let found = largest(&img).expect("the page");
        fill_as_around(&mut img, &found);
        assert_eq!(img.get_pixel(found.x + 5, found.y + 5).0[0], 190);
        // The buttons' ink is left as it was.
        assert_eq!(img.get_pixel(10, 10).0[0], 0);
    }

    /// A window's own background, with words on it, is no page: left as it is.
    #[test]
    fn a_background_with_words_on_it_is_not_painted() {
        let mut img = GrayImage::from_pixel(400, 300, Luma([255]));
        for (x, y) in [(20, 20), (60, 20), (20, 250), (300, 150)] {
            for d in 0..8 {
                img.put_pixel(x + d, y + d % 4, Luma([0]));
            }
        }
        let before = img.clone();
        let found = largest(&img).expect("a blank stretch");
        fill_as_around(&mut img, &found);
        assert_eq!(img, before);
    }

    #[test]
    fn a_small_window_or_a_blank_screen_has_no_blank_area() {
        // Too small to write in.
        assert_eq!(largest(&window(120, 60, None, &[])), None);
        // Nothing but one level: the capture itself.
        assert_eq!(largest(&GrayImage::from_pixel(800, 600, Luma([255]))), None);
        // Noise everywhere: no cell holds one level.
        let noise = GrayImage::from_fn(400, 300, |x, y| Luma([((x * 37 + y * 91) % 251) as u8]));
        assert_eq!(largest(&noise), None);
    }
}
