//! Names and text that would reach terminals and generated code.
