//! Placing, totalling and refunding orders.

use crate::inventory::{Inventory, InventoryError};
use std::fmt;

/// An order of one SKU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    /// The SKU.
    pub sku: String,
    /// How many.
    pub quantity: u32,
    /// Price of one, in cents.
    pub unit_price: u64,
}

/// Why an order failed.
#[derive(Debug, PartialEq, Eq)]
pub enum OrderError {
    /// The inventory could not supply it.
    Stock(InventoryError),
}

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OrderError::Stock(e) => write!(f, "stock: {e}"),
        }
    }
}

impl std::error::Error for OrderError {}

const UNIT_PRICE: u64 = 250;

/// Places an order, taking the quantity from the inventory.
pub fn place_order(inventory: &mut Inventory, sku: &str, quantity: u32) -> Result<Order, OrderError> {
    inventory.take(sku, quantity).map_err(OrderError::Stock)?;
    Ok(Order { sku: sku.to_string(), quantity, unit_price: UNIT_PRICE })
}

/// The order's total, in cents.
pub fn total(order: &Order) -> u64 {
    order.unit_price * u64::from(order.quantity)
}

/// Returns the stock of a cancelled order.
pub fn refund(inventory: &mut Inventory, order: &Order) -> Result<(), OrderError> {
    inventory.add(&order.sku, order.quantity);
    Ok(())
}
