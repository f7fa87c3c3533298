//! The integration tests of this crate, one binary (each file is a module).

mod certificate;
mod common;
mod own_fixtures;
mod soundness;
mod stopped_early;
mod tsume_sets;
mod verify_rejects;
