use shop::inventory::Inventory;
use shop::orders::{place_order, refund, total, Order};

#[test]
fn placing_an_order_takes_stock() {
    let mut inventory = Inventory::default();
    inventory.add("apple", 3);
    let order = place_order(&mut inventory, "apple", 2).expect("in stock");
    assert_eq!(inventory.level("apple"), 1);
    assert_eq!(order.quantity, 2);
}

#[test]
fn an_order_larger_than_the_stock_fails() {
    let mut inventory = Inventory::default();
    inventory.add("apple", 1);
    assert!(place_order(&mut inventory, "apple", 2).is_err());
    assert_eq!(inventory.level("apple"), 1);
}

#[test]
fn total_is_quantity_times_unit_price() {
    let order = Order { sku: "pear".into(), quantity: 4, unit_price: 250 };
    assert_eq!(total(&order), 1000);
}

#[test]
fn refund_returns_the_stock() {
    let mut inventory = Inventory::default();
    inventory.add("fig", 2);
    let order = place_order(&mut inventory, "fig", 2).expect("in stock");
    refund(&mut inventory, &order).expect("refund");
    assert_eq!(inventory.level("fig"), 2);
}
