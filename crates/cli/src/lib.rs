//! The parts of tabula-cli that read what a user types (flags, options, positions and
//! records), as a library so that the fuzz targets reach the same code the binary runs.

pub mod args;
pub mod setup;
