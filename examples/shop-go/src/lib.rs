//! A tiny shop: stock levels and orders.

pub mod inventory;
pub mod orders;
