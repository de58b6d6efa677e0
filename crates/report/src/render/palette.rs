//! The colours of the report: one mapping for each kind of thing coloured.
//! A leaf of the render layer.

use plotters::style::RGBColor;
use remis_table::schema::DrawType;

/// The colour of a draw type in every chart and table.
pub fn draw_type_color(kind: DrawType) -> RGBColor {
    match kind {
        DrawType::Agreed => RGBColor(0x4e, 0x79, 0xa7),
        DrawType::ThreefoldRepetition => RGBColor(0xf2, 0x8e, 0x2b),
        DrawType::FivefoldRepetition => RGBColor(0xe1, 0x57, 0x59),
        DrawType::FiftyMoves => RGBColor(0x76, 0xb7, 0xb2),
        DrawType::SeventyFiveMoves => RGBColor(0x59, 0xa1, 0x4f),
        DrawType::Stalemate => RGBColor(0xed, 0xc9, 0x48),
        DrawType::InsufficientMaterial => RGBColor(0xb0, 0x7a, 0xa1),
        DrawType::DeadPosition => RGBColor(0x6b, 0x4c, 0x8a),
        DrawType::TimeoutVsInsufficientMaterial => RGBColor(0xff, 0x9d, 0xa7),
        DrawType::Other => RGBColor(0x9c, 0x75, 0x5f),
    }
}

/// Colours for unordered categories (time classes, online and over the
/// board): Okabe and Ito's palette, told apart under the common colour-
/// vision deficiencies (its yellow, too pale for a line on white, replaced
/// by grey).
pub const CATEGORY_COLORS: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xb2),
    RGBColor(0xe6, 0x9f, 0x00),
    RGBColor(0x00, 0x9e, 0x73),
    RGBColor(0xd5, 0x5e, 0x00),
    RGBColor(0xcc, 0x79, 0xa7),
    RGBColor(0x56, 0xb4, 0xe9),
    RGBColor(0x00, 0x00, 0x00),
    RGBColor(0x99, 0x99, 0x99),
];

/// A sequential palette (viridis, light end dropped so lines stay
/// visible on white) for ordered categories: rating bands, low to high.
pub const SEQUENTIAL: [RGBColor; 8] = [
    RGBColor(0x44, 0x01, 0x54),
    RGBColor(0x46, 0x32, 0x7e),
    RGBColor(0x36, 0x5c, 0x8d),
    RGBColor(0x27, 0x7f, 0x8e),
    RGBColor(0x1f, 0xa1, 0x87),
    RGBColor(0x4a, 0xc1, 0x6d),
    RGBColor(0x9f, 0xda, 0x3a),
    RGBColor(0xcf, 0xb8, 0x00),
];

/// The colour of the `i`-th of `n` ordered categories.
pub fn ordered_color(i: usize, n: usize) -> RGBColor {
    if n <= 1 {
        return SEQUENTIAL[3];
    }
    SEQUENTIAL[(i * (SEQUENTIAL.len() - 1) + (n - 1) / 2) / (n - 1)]
}

/// Background colour for a draw rate: white at 0%, deep blue at 80%+.
pub fn heat(rate: f64) -> RGBColor {
    let t = (rate / 0.8).clamp(0.0, 1.0);
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
    RGBColor(mix(255, 0x2f), mix(255, 0x5d), mix(255, 0x8a))
}

/// A colour as CSS writes it.
pub fn hex(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}
