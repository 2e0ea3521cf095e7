//! `affine-loop-tile`: tiles every tileable band of a function (the
//! maximal perfect nest under each top-level `affine.for`) with the
//! sizes `tile-size` (all loops) or `tile-sizes` (per loop, 4 past its
//! end), or else MLIR's cache model: sizes that make the band's memory
//! footprint fit in `cache-size` KiB, reduced to divisors of constant
//! trip counts; with `separate`, full and partial tiles are versioned.
//! Bands whose tiling could reverse a dependence are left alone.

use crate::footprint::footprint_bytes;
use crate::loops::constant_trip_count;
use crate::tile::{separate_full_tiles, tile_perfectly_nested, tileable_bands};
use crate::tile_validity::is_tiling_valid;
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::{Context, Diagnostic, Ir, OpId};

/// The tile size when neither the options nor the footprint say.
const DEFAULT_TILE_SIZE: u64 = 4;

/// How the tile sizes of a band are chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TileSizes {
    /// This size for every loop.
    Uniform(u64),
    /// These sizes from the outermost loop, the default past the end.
    PerLoop(Vec<u64>),
    /// The cache model for a cache of this many KiB.
    Cache(u64),
}

/// Each tile size reduced to the largest divisor of its loop's constant
/// trip count not above it (and not above half the count), as MLIR's
/// `adjustToDivisorsOfTripCounts`.
fn adjust_to_trip_count_divisors(ctx: &mut Context, ir: &mut Ir, band: &[OpId], sizes: &mut [u64]) {
    for (&l, size) in band.iter().zip(sizes.iter_mut()) {
        let Some(count) = constant_trip_count(ctx, ir, l) else {
            continue;
        };
        if count > 1 && *size > count / 2 {
            *size = count / 2;
        }
        while *size > 1 && count % *size != 0 {
            *size -= 1;
        }
    }
}

/// The tile sizes of `band` under `how` (MLIR's `getTileSizes`).
pub fn band_tile_sizes(ctx: &mut Context, ir: &mut Ir, band: &[OpId], how: &TileSizes) -> Vec<u64> {
    let n = band.len();
    match how {
        TileSizes::Uniform(s) => vec![*s; n],
        TileSizes::PerLoop(v) => {
            let mut sizes = v.clone();
            sizes.resize(n, DEFAULT_TILE_SIZE);
            sizes
        }
        TileSizes::Cache(0) => vec![1; n],
        TileSizes::Cache(kib) => {
            let Some(&root) = band.first() else {
                return Vec::new();
            };
            let Some(bytes) = footprint_bytes(ctx, ir, root) else {
                let mut sizes = vec![DEFAULT_TILE_SIZE; n];
                adjust_to_trip_count_divisors(ctx, ir, band, &mut sizes);
                return sizes;
            };
            let excess = bytes.div_ceil(kib.saturating_mul(1024));
            if excess <= 1 {
                return vec![1; n];
            }
            let each = ((excess as f64).powf(1.0 / n as f64).floor() as u64).max(1);
            let mut sizes = Vec::with_capacity(n);
            let mut product = 1u64;
            for i in 0..n {
                let s = if i + 1 < n {
                    each
                } else {
                    (excess / product).max(1)
                };
                product = product.saturating_mul(s);
                sizes.push(s);
            }
            adjust_to_trip_count_divisors(ctx, ir, band, &mut sizes);
            sizes
        }
    }
}

/// The pass.
pub struct LoopTiling {
    sizes: TileSizes,
    separate: bool,
}

impl Pass for LoopTiling {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, func: OpId) -> Result<(), Box<Diagnostic>> {
        for band in tileable_bands(ctx, ir, func) {
            if !is_tiling_valid(ctx, ir, &band) {
                continue;
            }
            let sizes = band_tile_sizes(ctx, ir, &band, &self.sizes);
            let Ok(nest) = tile_perfectly_nested(ctx, ir, &band, &sizes) else {
                continue;
            };
            if self.separate {
                separate_full_tiles(ctx, ir, &nest[band.len()..]);
            }
        }
        Ok(())
    }
}

/// An option's value as an unsigned integer, with the wording of
/// LLVM's command-line parser on failure.
fn parse_uint(option: &str, text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|_| {
        format!(
            "for the --{option} option: '{}' value invalid for uint argument!",
            text.trim()
        )
    })
}

fn create(options: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let tile_size = match options.string("tile-size") {
        "" => 0,
        s => parse_uint("tile-size", s)?,
    };
    let per_loop = options
        .list("tile-sizes")
        .iter()
        .map(|s| parse_uint("tile-sizes", s))
        .collect::<Result<Vec<u64>, String>>()?;
    if per_loop.contains(&0) {
        return Err("affine-loop-tile: tile sizes must be positive".to_string());
    }
    let cache = match options.string("cache-size") {
        "" => 512,
        s => parse_uint("cache-size", s)?,
    };
    let sizes = if tile_size != 0 {
        TileSizes::Uniform(tile_size)
    } else if !per_loop.is_empty() {
        TileSizes::PerLoop(per_loop)
    } else {
        TileSizes::Cache(cache)
    };
    Ok(Box::new(LoopTiling {
        sizes,
        separate: options.bool("separate"),
    }))
}

/// The `affine-loop-tile` pass.
pub static AFFINE_LOOP_TILE: PassInfo = PassInfo {
    argument: "affine-loop-tile",
    name: "LoopTiling",
    description: "Tile affine loop nests",
    anchor: Some("func.func"),
    options: &[
        PassOptionInfo {
            name: "cache-size",
            description: "Set size of cache to tile for in KiB (default: 512)",
            kind: OptionKind::String,
            default: "",
        },
        PassOptionInfo {
            name: "separate",
            description: "Separate full and partial tiles (default: false)",
            kind: OptionKind::Bool,
            default: "false",
        },
        PassOptionInfo {
            name: "tile-size",
            description: "Use this tile size for all loops",
            kind: OptionKind::String,
            default: "",
        },
        PassOptionInfo {
            name: "tile-sizes",
            description: "List of tile sizes for each perfect nest (overridden by -tile-size)",
            kind: OptionKind::List,
            default: "",
        },
    ],
    create,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_sizes_are_rejected_with_llvm_wording() {
        assert_eq!(
            parse_uint("tile-sizes", "-4"),
            Err("for the --tile-sizes option: '-4' value invalid for uint argument!".to_string())
        );
        assert_eq!(parse_uint("tile-size", "32"), Ok(32));
    }
}
