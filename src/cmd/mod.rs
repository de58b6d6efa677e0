pub mod classify;
pub mod generate;
