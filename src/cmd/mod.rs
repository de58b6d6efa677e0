pub mod classify;
pub mod filters;
pub mod generate;
pub mod report;
pub mod scoring;
pub mod sofia;
pub mod stats;
pub mod summarize;
