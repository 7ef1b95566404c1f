//! The repository the catalog test reviews: `billing`, a small library crate (one dependency,
//! `log`, resolved offline by steering's test command) with its spec layout, and sixteen
//! planted defects spread over the six Inspectors (`DEFECTS` in `main.rs` lists them).

use crate::support::write;
use std::path::Path;

const CARGO_TOML: &str = r#"[package]
name = "billing"
version = "0.3.0"
edition = "2021"

[dependencies]
log = "0.4"

[features]
export = []

[workspace]
"#;

const LIB_RS: &str = r#"//! Invoicing for the shop: invoices, discounts, storage, the card gateway and notifications.

pub mod config;
pub mod discount;
pub mod error;
#[cfg(feature = "export")]
pub mod export;
pub mod gateway;
pub mod invoice;
pub mod notify;
pub mod refunds;
pub mod storage;

pub use error::BillingError;
pub use invoice::{create_invoice, Invoice};
"#;

const ERROR_RS: &str = r#"use std::fmt;

/// Why a billing operation failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BillingError {
    MissingCustomer,
    DiscountTooLarge(u8),
    Storage(String),
}

impl fmt::Display for BillingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BillingError::MissingCustomer => write!(f, "an invoice needs a customer"),
            BillingError::DiscountTooLarge(p) => write!(f, "a discount of {p} % is too large"),
            BillingError::Storage(why) => write!(f, "storage failed: {why}"),
        }
    }
}

impl std::error::Error for BillingError {}
"#;

const INVOICE_RS: &str = r#"use crate::error::BillingError;

/// An invoice for one customer, in cents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invoice {
    pub customer: String,
    pub amount_cents: u64,
    pub discount_percent: u8,
}

/// Creates an invoice for `customer` over `amount_cents`.
pub fn create_invoice(customer: &str, amount_cents: u32) -> Result<Invoice, BillingError> {
    if customer.trim().is_empty() {
        return Err(BillingError::MissingCustomer);
    }
    log::info!("invoice created for {customer}");
    Ok(Invoice {
        customer: customer.to_string(),
        amount_cents: u64::from(amount_cents),
        discount_percent: 0,
    })
}

/// The amount due, VAT included.
pub fn total_with_tax(invoice: &Invoice) -> u64 {
    // TODO: take the VAT rate from the customer's country instead of assuming 19 %
    invoice.amount_cents * 119 / 100
}
"#;

const DISCOUNT_RS: &str = r#"use crate::error::BillingError;
use crate::invoice::Invoice;

/// Reduces the invoice by `percent`.
pub fn apply_discount(invoice: &mut Invoice, percent: u8) -> Result<(), BillingError> {
    if percent > 100 {
        return Err(BillingError::DiscountTooLarge(percent));
    }
    invoice.amount_cents -= invoice.amount_cents * u64::from(percent) / 100;
    invoice.discount_percent = percent;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discount_is_applied() {
        let mut invoice = Invoice {
            customer: "ACME".to_string(),
            amount_cents: 1_000,
            discount_percent: 0,
        };
        let _ = apply_discount(&mut invoice, 10);
        assert!(true, "discount applied");
    }

    #[test]
    fn discounts_above_100_percent_are_rejected() {
        let mut invoice = Invoice {
            customer: "ACME".to_string(),
            amount_cents: 1_000,
            discount_percent: 0,
        };
        assert_eq!(
            apply_discount(&mut invoice, 150),
            Err(BillingError::DiscountTooLarge(150))
        );
    }
}
"#;

const STORAGE_RS: &str = r#"use crate::error::BillingError;
use crate::invoice::Invoice;

/// The database the invoices live in.
pub trait Database {
    fn execute(&self, sql: &str) -> Result<u64, BillingError>;
    fn query(&self, sql: &str) -> Result<Vec<Vec<String>>, BillingError>;
}

/// Invoices of one customer.
pub fn invoices_of(db: &dyn Database, customer: &str) -> Result<Vec<Vec<String>>, BillingError> {
    log::debug!("loading invoices of {customer}");
    db.query(&format!(
        "SELECT id, amount_cents FROM invoices WHERE customer = '{customer}'"
    ))
}

/// Stores an invoice and clears the customer's draft.
pub fn save(db: &dyn Database, invoice: &Invoice) -> Result<(), BillingError> {
    db.execute("INSERT INTO invoices (customer, amount_cents) VALUES ($1, $2)")?;
    let _ = std::fs::remove_file(format!("/var/tmp/billing/{}.draft", invoice.customer));
    log::info!("invoice of {} stored", invoice.customer);
    Ok(())
}
"#;

const CONFIG_RS: &str = r#"/// Billing settings read from the environment's text form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub vat_percent: u32,
}

/// Parses `vat=19` into settings.
pub fn parse_settings(text: &str) -> Settings {
    let value = text.trim().trim_start_matches("vat=");
    Settings {
        vat_percent: value.parse::<u32>().unwrap(),
    }
}
"#;

const GATEWAY_RS: &str = r#"use std::fmt;

const GATEWAY_URL_PATH: &str = "/v1/charges";
const GATEWAY_API_KEY: &str = "gw_live_5f3kq9ZtR2mXc8LwP0aV7bYe";

/// Why the card gateway refused a charge.
#[derive(Debug)]
pub enum GatewayError {
    Declined,
}

impl fmt::Display for GatewayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the card was declined")
    }
}

impl std::error::Error for GatewayError {}

/// The request line and authorization header of a charge.
pub fn charge_request(amount_cents: u64) -> Result<(String, String), GatewayError> {
    if amount_cents == 0 {
        return Err(GatewayError::Declined);
    }
    Ok((
        format!("POST {GATEWAY_URL_PATH}?amount={amount_cents}"),
        format!("Bearer {GATEWAY_API_KEY}"),
    ))
}
"#;

const REFUNDS_RS: &str = r#"use crate::invoice::Invoice;

/// Refunds an invoice and returns the refunded amount in cents.
pub fn refund(invoice: &Invoice, reason: &str) -> Result<u64, Box<dyn std::error::Error>> {
    if reason.is_empty() {
        return Err("a refund needs a reason".into());
    }
    let _ = invoice;
    todo!("reverse the charge through the gateway")
}
"#;

const NOTIFY_RS: &str = r#"use std::sync::Mutex;

/// Messages waiting to be sent to customers.
pub struct Outbox {
    queue: Mutex<Vec<String>>,
}

impl Outbox {
    pub fn new() -> Outbox {
        Outbox {
            queue: Mutex::new(Vec::new()),
        }
    }

    /// Sends every queued message; returns how many were sent.
    pub async fn flush(&self) -> usize {
        let pending = self.queue.lock().unwrap();
        for message in pending.iter() {
            deliver(message).await;
        }
        pending.len()
    }
}

async fn deliver(message: &str) {
    println!("notify: {message}");
}
"#;

const EXPORT_RS: &str = r#"use crate::discount::apply_discount;
use crate::error::BillingError;
use crate::invoice::Invoice;

/// One CSV line per invoice, with the loyalty discount applied.
pub fn export_csv(invoices: &[Invoice]) -> Result<String, BillingError> {
    let mut out = String::from("customer,amount_cents\n");
    for invoice in invoices {
        let mut copy = invoice.clone();
        apply_discount(&mut copy)?;
        out.push_str(&format!("{},{}\n", copy.customer, copy.amount_cents));
    }
    Ok(out)
}
"#;

const TESTS_RS: &str = r#"use billing::create_invoice;
use billing::invoice::total_with_tax;

#[test]
fn rejects_an_empty_customer() {
    assert!(create_invoice("  ", 100).is_err());
}

#[test]
fn total_includes_vat() {
    let invoice = create_invoice("ACME GmbH", 10_000).expect("valid invoice");
    assert_eq!(total_with_tax(&invoice), 12_000);
}
"#;

const SPEC_YAML: &str = "feature: billing
version: 1
phase: implementation-complete
roadmap:
  wave: 1
files:
  - src/invoice.rs
  - src/discount.rs
  - src/storage.rs
  - src/gateway.rs
  - src/refunds.rs
  - src/error.rs
  - src/export.rs
";

const TASKS_YAML: &str = "tasks:
  - id: 1
    title: Invoice model and creation
    done: true
    files: [src/invoice.rs, src/error.rs]
  - id: 2
    title: Percentage discounts
    done: true
    files: [src/discount.rs]
  - id: 3
    title: Storage and card gateway
    done: true
    files: [src/storage.rs, src/gateway.rs]
  - id: 4
    title: Refund flow
    done: false
    files: [src/refunds.rs]
";

const DESIGN_MD: &str = "# Design: billing

## Architecture
A library crate: invoices are created, discounted, stored and charged through the card gateway.

## Components
| Component | Files | Responsibility |
|---|---|---|
| Invoices | `src/invoice.rs` | creation and totals |
| Discounts | `src/discount.rs` | percentage discounts |
| Storage | `src/storage.rs` | persistence |
| Gateway | `src/gateway.rs` | card charges |
| Refunds | `src/refunds.rs` | the refund flow |
| Reminders | `src/reminders.rs` | payment reminders |
| Export | `src/export.rs` | CSV export (feature `export`) |

## Interfaces
```rust
use crate::error::BillingError;
use crate::invoice::Invoice;

pub fn create_invoice(customer: &str, amount_cents: u64) -> Result<Invoice, BillingError>;
pub fn apply_discount(invoice: &mut Invoice, percent: u8) -> Result<(), BillingError>;
pub fn total_with_tax(invoice: &Invoice) -> u64;
```

### Spec 1: Invoices
`create_invoice` creates an invoice; `total_with_tax` adds the VAT.
1. An empty customer is rejected.
2. The total includes 19 % VAT.

### Spec 2: Discounts
`apply_discount` lowers the amount.
1. A 10 % discount lowers 10.00 to 9.00.
2. Discounts above 100 % are rejected.

### Spec 3: Refunds
`refund` returns the refunded amount.
1. A refund needs a reason.

## Error Handling
Every fallible function returns `BillingError`.

## Testing Strategy
Unit tests in each module and integration tests under `tests/`.
";

const TECH_MD: &str = "# Tech

Rust 2021, no async runtime in the library.

## Common Commands
- Build: `cargo build --offline`
- Test: `cargo test --offline`
";

/// Writes the billing crate with its spec layout and planted defects under `root`.
pub(crate) fn planted_repo(root: &Path) {
    for (path, body) in [
        ("Cargo.toml", CARGO_TOML),
        (".gitignore", "/target\n"),
        ("src/lib.rs", LIB_RS),
        ("src/error.rs", ERROR_RS),
        ("src/invoice.rs", INVOICE_RS),
        ("src/discount.rs", DISCOUNT_RS),
        ("src/storage.rs", STORAGE_RS),
        ("src/config.rs", CONFIG_RS),
        ("src/gateway.rs", GATEWAY_RS),
        ("src/refunds.rs", REFUNDS_RS),
        ("src/notify.rs", NOTIFY_RS),
        ("src/export.rs", EXPORT_RS),
        ("tests/invoices.rs", TESTS_RS),
        ("specs/billing/spec.yaml", SPEC_YAML),
        ("specs/billing/tasks.yaml", TASKS_YAML),
        ("specs/billing/design.md", DESIGN_MD),
        ("steering/tech.md", TECH_MD),
    ] {
        write(root, path, body);
    }
}
