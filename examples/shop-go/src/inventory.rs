//! Stock levels per SKU.

use std::collections::HashMap;
use std::fmt;

/// Why stock could not be taken.
#[derive(Debug, PartialEq, Eq)]
pub enum InventoryError {
    /// Not enough stock.
    OutOfStock { sku: String, wanted: u32, have: u32 },
}

impl fmt::Display for InventoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InventoryError::OutOfStock { sku, wanted, have } => {
                write!(f, "{sku}: wanted {wanted}, have {have}")
            }
        }
    }
}

impl std::error::Error for InventoryError {}

/// Stock levels.
#[derive(Debug, Default)]
pub struct Inventory {
    stock: HashMap<String, u32>,
}

impl Inventory {
    /// Adds stock for a SKU.
    pub fn add(&mut self, sku: &str, quantity: u32) {
        *self.stock.entry(sku.to_string()).or_insert(0) += quantity;
    }

    /// Removes stock, failing when there is not enough.
    pub fn take(&mut self, sku: &str, quantity: u32) -> Result<(), InventoryError> {
        let have = self.stock.get(sku).copied().unwrap_or(0);
        if have < quantity {
            return Err(InventoryError::OutOfStock { sku: sku.to_string(), wanted: quantity, have });
        }
        self.stock.insert(sku.to_string(), have - quantity);
        Ok(())
    }

    /// Current stock of a SKU.
    pub fn level(&self, sku: &str) -> u32 {
        self.stock.get(sku).copied().unwrap_or(0)
    }
}
