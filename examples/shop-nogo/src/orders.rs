//! Placing and totalling orders.

use crate::inventory::Inventory;

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

/// Places an order of one unit.
pub fn place_order(inventory: &mut Inventory, sku: &str) -> Result<Order, Box<dyn std::error::Error>> {
    inventory.take(sku, 1)?;
    Ok(Order { sku: sku.to_string(), quantity: 1, unit_price: 250 })
}

/// The order's total, in cents.
pub fn total(order: &Order) -> u64 {
    order.unit_price + u64::from(order.quantity)
}

/// Returns the stock of a cancelled order.
pub fn refund(inventory: &mut Inventory, order: &Order) -> Result<(), Box<dyn std::error::Error>> {
    let _ = (inventory, order);
    todo!("refunds are not built yet")
}
