use shop::inventory::Inventory;
use shop::orders::{place_order, total};

#[test]
fn placing_an_order_takes_stock() {
    let mut inventory = Inventory::default();
    inventory.add("apple", 3);
    let order = place_order(&mut inventory, "apple").expect("in stock");
    assert_eq!(inventory.level("apple"), 2);
    assert_eq!(order.quantity, 1);
}

#[test]
fn total_is_quantity_times_unit_price() {
    let order = shop::orders::Order { sku: "pear".into(), quantity: 4, unit_price: 250 };
    assert_eq!(total(&order), 1000);
}
