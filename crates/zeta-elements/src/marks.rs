//! Set-of-marks: a screenshot of a window with each numbered element boxed and labelled
//! with its number, for a model that sees, so it can name an element ("press 4") instead
//! of guessing pixels. The digits are drawn from a 3x5 bitmap font (no font file needed).

use zeta_tools::screen::{Captured, Order};

use crate::node::Bounds;

/// 3x5 glyphs for 0–9, one row a byte (three low bits, left to right).
const DIGITS: [[u8; 5]; 10] = [
    [0b111, 0b101, 0b101, 0b101, 0b111],
    [0b010, 0b110, 0b010, 0b010, 0b111],
    [0b111, 0b001, 0b111, 0b100, 0b111],
    [0b111, 0b001, 0b111, 0b001, 0b111],
    [0b101, 0b101, 0b111, 0b001, 0b001],
    [0b111, 0b100, 0b111, 0b001, 0b111],
    [0b111, 0b100, 0b111, 0b101, 0b111],
    [0b111, 0b001, 0b010, 0b010, 0b010],
    [0b111, 0b101, 0b111, 0b101, 0b111],
    [0b111, 0b101, 0b111, 0b001, 0b111],
];
/// Each font pixel is this many screen pixels.
const SCALE: i32 = 2;
const MARK: [u8; 3] = [230, 20, 120];
const WHITE: [u8; 3] = [255, 255, 255];

struct Canvas<'a> {
    c: &'a mut Captured,
}

impl Canvas<'_> {
    /// Sets the pixel at screen point (x, y), if it is in the capture.
    fn put(&mut self, x: i32, y: i32, [r, g, b]: [u8; 3]) {
        let (lx, ly) = (x - self.c.origin.0, y - self.c.origin.1);
        let d = self.c.density;
        let (px, py) = ((lx as f64 * d) as i64, (ly as f64 * d) as i64);
        if px < 0 || py < 0 || px >= self.c.width as i64 || py >= self.c.height as i64 {
            return;
        }
        let i = (py as usize * self.c.width as usize + px as usize) * 4;
        let pixel = match self.c.order {
            Order::Rgba => [r, g, b, 255],
            Order::Bgrx => [b, g, r, 255],
        };
        if let Some(p) = self.c.rgba.get_mut(i..i + 4) {
            p.copy_from_slice(&pixel);
        }
    }

    fn rect(&mut self, b: Bounds, colour: [u8; 3]) {
        for t in 0..2 {
            for x in b.x..b.x + b.width {
                self.put(x, b.y + t, colour);
                self.put(x, b.y + b.height - 1 - t, colour);
            }
            for y in b.y..b.y + b.height {
                self.put(b.x + t, y, colour);
                self.put(b.x + b.width - 1 - t, y, colour);
            }
        }
    }

    fn fill(&mut self, b: Bounds, colour: [u8; 3]) {
        for y in b.y..b.y + b.height {
            for x in b.x..b.x + b.width {
                self.put(x, y, colour);
            }
        }
    }

    /// The number `n` on a filled tag whose top-left is (x, y).
    fn label(&mut self, n: u32, x: i32, y: i32) {
        let digits: Vec<usize> = n.to_string().bytes().map(|d| (d - b'0') as usize).collect();
        let w = digits.len() as i32 * 4 * SCALE + SCALE;
        self.fill(
            Bounds {
                x,
                y,
                width: w,
                height: 7 * SCALE,
            },
            MARK,
        );
        for (i, d) in digits.iter().enumerate() {
            let Some(glyph) = DIGITS.get(*d) else {
                continue;
            };
            let gx = x + SCALE + i as i32 * 4 * SCALE;
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..3 {
                    if bits & (0b100 >> col) != 0 {
                        for dy in 0..SCALE {
                            for dx in 0..SCALE {
                                self.put(
                                    gx + col * SCALE + dx,
                                    y + SCALE + row as i32 * SCALE + dy,
                                    WHITE,
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Boxes and numbers each of `marks` (element number, place on screen) on `shot`.
pub fn draw(shot: &mut Captured, marks: &[(u32, Bounds)]) {
    let mut canvas = Canvas { c: shot };
    for (n, b) in marks.iter().filter(|(_, b)| b.is_visible()) {
        canvas.rect(*b, MARK);
        canvas.label(*n, b.x, b.y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_boxes_its_element_and_writes_its_number() {
        let (w, h) = (60u32, 40u32);
        let mut shot = Captured {
            rgba: vec![0; (w * h * 4) as usize],
            order: Order::Bgrx,
            width: w,
            height: h,
            origin: (100, 100),
            density: 1.0,
        };
        draw(
            &mut shot,
            &[
                (
                    7,
                    Bounds {
                        x: 110,
                        y: 110,
                        width: 30,
                        height: 20,
                    },
                ),
                (
                    9,
                    Bounds {
                        x: -50,
                        y: -50,
                        width: 0,
                        height: 0,
                    },
                ),
            ],
        );
        let at = |x: u32, y: u32| {
            let i = ((y * w + x) * 4) as usize;
            [shot.rgba[i + 2], shot.rgba[i + 1], shot.rgba[i]]
        };
        assert_eq!(at(39, 25), MARK, "the box's right edge");
        assert_eq!(at(25, 29), MARK, "the box's bottom edge");
        assert_eq!(at(20, 20), [0, 0, 0], "inside the box stays as it was");
        // "7": the top row of the glyph is lit, in white, on the tag.
        assert_eq!(at(10 + 2, 10 + 2), WHITE);
        assert_eq!(at(10, 10), MARK);
    }
}
