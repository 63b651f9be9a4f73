//! What the bots know about each game beyond its rules.

mod absorption;
mod adamas;
mod adaptoid;
mod adomoc;
