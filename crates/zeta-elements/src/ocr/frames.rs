//! Frames drawn around words, taken out before a word is read: old toolkits (Athena's
//! xmessage, xedit) draw each button as an outline around its label, and a line box
//! around a message. Tesseract reads no word of a label its outline encloses (xmessage's
//! "Snooze" and "Dismiss" read as nothing at 2x, 3x and 4x, with any page mode). A frame
//! is told by its shape, not by what it says: a connected run of ink taller than the
//! text around it, mostly empty inside its box, with other ink inside that box. Its
//! pixels are painted over with the background; the words inside are left as they were.

use image::GrayImage;

/// A box in image pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

/// An image with its frames taken out, and what each frame held: the box of the ink
/// inside it, for frames that hold no other frame (a button, not a panel of them).
#[derive(Debug, Clone)]
pub struct Unframed {
    pub image: GrayImage,
    pub insides: Vec<Rect>,
    /// The upright stretches of the frames at least as tall as the text (a button's
    /// sides, a toolbar's separators), one pixel wide each: words on either side of one
    /// are not one phrase (xedit's "Quit | Save", read as "Quit Save" and pressed in
    /// the gap between).
    pub walls: Vec<Rect>,
}

/// A connected run of ink: its box and how many pixels it holds.
#[derive(Debug, Clone, Copy)]
struct Run {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
    area: u32,
}

impl Run {
    fn height(&self) -> u32 {
        self.y1 - self.y0 + 1
    }
    fn width(&self) -> u32 {
        self.x1 - self.x0 + 1
    }
    /// `other`'s box lies inside this one's.
    fn holds(&self, other: &Run) -> bool {
        other.x0 > self.x0 && other.x1 < self.x1 && other.y0 > self.y0 && other.y1 < self.y1
    }
}

/// The background's level: the commonest one.
pub fn background(image: &GrayImage) -> u8 {
    let mut hist = [0u64; 256];
    for p in image.pixels() {
        hist[p.0[0] as usize] += 1;
    }
    (0..=255u8).max_by_key(|v| hist[*v as usize]).unwrap_or(255)
}

/// `image` with the frames around its words painted over with the background, and
/// their insides, or `None` when it has none.
pub fn unframed(image: &GrayImage) -> Option<Unframed> {
    let (w, h) = image.dimensions();
    if w < 3 || h < 3 {
        return None;
    }
    // Ink is what stands far from the background, darker or lighter as it is light or
    // dark (a widget's own fill, a shade off the window's, is not ink).
    let background = background(image);
    let is_ink = |v: u8| {
        if background >= 128 {
            v < background / 2
        } else {
            v > background + (255 - background) / 2
        }
    };
    // Label the runs of ink (8-connected), each pixel with its run's index.
    let mut label = vec![u32::MAX; (w * h) as usize];
    let mut runs: Vec<Run> = Vec::new();
    let mut stack = Vec::new();
    for start in 0..w * h {
        if label[start as usize] != u32::MAX || !is_ink(image.as_raw()[start as usize]) {
            continue;
        }
        let id = runs.len() as u32;
        let (sx, sy) = (start % w, start / w);
        let mut run = Run {
            x0: sx,
            y0: sy,
            x1: sx,
            y1: sy,
            area: 0,
        };
        label[start as usize] = id;
        stack.push(start);
        while let Some(at) = stack.pop() {
            let (x, y) = (at % w, at / w);
            run.area += 1;
            run.x0 = run.x0.min(x);
            run.x1 = run.x1.max(x);
            run.y0 = run.y0.min(y);
            run.y1 = run.y1.max(y);
            for dy in -1i64..=1 {
                for dx in -1i64..=1 {
                    let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
                    if nx < 0 || ny < 0 || nx >= i64::from(w) || ny >= i64::from(h) {
                        continue;
                    }
                    let n = (ny as u32) * w + nx as u32;
                    if label[n as usize] == u32::MAX && is_ink(image.as_raw()[n as usize]) {
                        label[n as usize] = id;
                        stack.push(n);
                    }
                }
            }
        }
        runs.push(run);
    }
    // The height of text: the median of the runs that are more than specks.
    let mut heights: Vec<u32> = runs
        .iter()
        .filter(|r| r.area >= 4)
        .map(Run::height)
        .collect();
    if heights.is_empty() {
        return None;
    }
    heights.sort_unstable();
    let text = heights[heights.len() / 2];
    let frames: Vec<bool> = runs
        .iter()
        .map(|r| {
            let fill = f64::from(r.area) / (f64::from(r.width()) * f64::from(r.height()));
            r.height() * 2 >= text * 3
                && fill < 0.3
                && runs.iter().any(|o| o.area >= 2 && r.holds(o))
        })
        .collect();
    if !frames.iter().any(|f| *f) {
        return None;
    }
    let mut out = image.clone();
    for (i, p) in out.pixels_mut().enumerate() {
        let l = label[i];
        if l != u32::MAX && frames[l as usize] {
            p.0[0] = background;
        }
    }
    let insides = runs
        .iter()
        .zip(&frames)
        .filter(|(_, f)| **f)
        .map(|(r, _)| r)
        // A frame holding another is a panel of them, not one button.
        .filter(|r| !runs.iter().zip(&frames).any(|(o, f)| *f && r.holds(o)))
        .filter_map(|r| {
            let held: Vec<&Run> = runs.iter().filter(|o| o.area >= 2 && r.holds(o)).collect();
            let x0 = held.iter().map(|o| o.x0).min()?;
            let y0 = held.iter().map(|o| o.y0).min()?;
            let x1 = held.iter().map(|o| o.x1).max()?;
            let y1 = held.iter().map(|o| o.y1).max()?;
            // Two pixels of room, within the frame.
            let (x0, y0) = (
                x0.saturating_sub(2).max(r.x0 + 1),
                y0.saturating_sub(2).max(r.y0 + 1),
            );
            let (x1, y1) = ((x1 + 2).min(r.x1 - 1), (y1 + 2).min(r.y1 - 1));
            Some(Rect {
                x: x0,
                y: y0,
                width: x1 - x0 + 1,
                height: y1 - y0 + 1,
            })
        })
        .collect();
    let mut walls = Vec::new();
    for (id, r) in runs.iter().enumerate() {
        if !frames[id] {
            continue;
        }
        for x in r.x0..=r.x1 {
            let mut from = None;
            for y in r.y0..=r.y1 + 1 {
                let on = y <= r.y1 && label[(y * w + x) as usize] == id as u32;
                match (on, from) {
                    (true, None) => from = Some(y),
                    (false, Some(y0)) => {
                        if y - y0 >= text {
                            walls.push(Rect {
                                x,
                                y: y0,
                                width: 1,
                                height: y - y0,
                            });
                        }
                        from = None;
                    }
                    _ => {}
                }
            }
        }
    }
    Some(Unframed {
        image: out,
        insides,
        walls,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A light image with a dark outline box at (x, y, w, h) and a dark "letter" block
    /// inside it.
    fn framed(light_on_dark: bool) -> GrayImage {
        let (bg, ink) = if light_on_dark { (20, 230) } else { (240, 10) };
        let mut img = GrayImage::from_pixel(60, 30, Luma([bg]));
        for x in 5..55 {
            img.put_pixel(x, 4, Luma([ink]));
            img.put_pixel(x, 25, Luma([ink]));
        }
        for y in 4..26 {
            img.put_pixel(5, y, Luma([ink]));
            img.put_pixel(54, y, Luma([ink]));
        }
        // Three letters, 8 px tall, 4 wide, apart.
        for (i, x0) in [12u32, 20, 28].iter().enumerate() {
            for y in 11..19 {
                for x in *x0..x0 + 4 {
                    if !(x + y + i as u32).is_multiple_of(3) {
                        img.put_pixel(x, y, Luma([ink]));
                    }
                }
            }
        }
        img
    }

    #[test]
    fn an_outline_around_words_is_painted_over_and_the_words_stay() {
        for light_on_dark in [false, true] {
            let img = framed(light_on_dark);
            let found = unframed(&img).expect("a frame");
            let out = &found.image;
            assert_eq!(
                found.insides,
                [Rect {
                    x: 10,
                    y: 9,
                    width: 24,
                    height: 12
                }],
                "the letters' box, with room"
            );
            assert_eq!(
                found.walls,
                [
                    Rect {
                        x: 5,
                        y: 4,
                        width: 1,
                        height: 22
                    },
                    Rect {
                        x: 54,
                        y: 4,
                        width: 1,
                        height: 22
                    }
                ],
                "its two sides"
            );
            let bg = out.get_pixel(30, 2).0[0];
            assert_eq!(out.get_pixel(30, 4).0[0], bg, "the top edge is gone");
            assert_eq!(out.get_pixel(5, 15).0[0], bg, "the left edge is gone");
            for (x, y) in [(12, 11), (21, 12), (29, 11)] {
                assert_eq!(out.get_pixel(x, y), img.get_pixel(x, y), "a letter stays");
            }
        }
    }

    #[test]
    fn words_without_a_frame_or_a_blank_image_give_nothing_to_read_again() {
        let mut img = framed(false);
        for y in [4, 25] {
            for x in 5..55 {
                img.put_pixel(x, y, Luma([240]));
            }
        }
        for y in 4..26 {
            img.put_pixel(5, y, Luma([240]));
            img.put_pixel(54, y, Luma([240]));
        }
        assert!(unframed(&img).is_none());
        assert!(unframed(&GrayImage::from_pixel(40, 40, Luma([128]))).is_none());
        assert!(unframed(&GrayImage::new(1, 1)).is_none());
        assert!(unframed(&GrayImage::new(0, 0)).is_none());
    }

    /// Any image, of any size and content, comes back the same size or as nothing,
    /// without a panic.
    #[test]
    fn any_image_is_unframed_or_left_without_panicking() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..300 {
            let (w, h) = ((next() % 70) as u32, (next() % 50) as u32);
            let kind = next() % 3;
            let img = GrayImage::from_fn(w, h, |x, y| {
                Luma([match kind {
                    0 => (next() % 256) as u8,
                    1 => {
                        if (x / 3 + y / 5) % 2 == 0 {
                            0
                        } else {
                            255
                        }
                    }
                    _ => {
                        if x == 0 || y == 0 || x + 1 == w || y + 1 == h || next() % 9 == 0 {
                            0
                        } else {
                            250
                        }
                    }
                }])
            });
            if let Some(out) = unframed(&img) {
                assert_eq!(out.image.dimensions(), (w, h));
                for r in out.insides {
                    assert!(r.x + r.width <= w && r.y + r.height <= h, "{r:?}");
                }
            }
        }
    }
}
