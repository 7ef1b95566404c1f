//! Whether a syntax-tree walk is inside async code: in an `async fn`, an `async` block or an
//! async closure, and not in a plain `fn` or closure nested there (which runs wherever it is
//! called). The async rules only judge code in that context.

/// A visitor that knows whether the code it walks runs in an async context.
pub(super) trait AsyncScope {
    /// Its flag: inside async code.
    fn in_async_mut(&mut self) -> &mut bool;

    /// Walks with the flag set to `is_async`, and puts the outer value back after.
    fn with_async(&mut self, is_async: bool, walk: impl FnOnce(&mut Self))
    where
        Self: Sized,
    {
        let outer = std::mem::replace(self.in_async_mut(), is_async);
        walk(self);
        *self.in_async_mut() = outer;
    }
}

/// The `Visit` methods (for the visitor's tree lifetime) that enter and leave async scopes,
/// for a visitor that implements [`AsyncScope`] (which must be in scope).
macro_rules! visit_async_scopes {
    ($ast:lifetime) => {
        fn visit_item_fn(&mut self, f: &$ast syn::ItemFn) {
            self.with_async(f.sig.asyncness.is_some(), |v| {
                syn::visit::visit_item_fn(v, f)
            });
        }

        fn visit_impl_item_fn(&mut self, f: &$ast syn::ImplItemFn) {
            self.with_async(f.sig.asyncness.is_some(), |v| {
                syn::visit::visit_impl_item_fn(v, f)
            });
        }

        fn visit_trait_item_fn(&mut self, f: &$ast syn::TraitItemFn) {
            self.with_async(f.sig.asyncness.is_some(), |v| {
                syn::visit::visit_trait_item_fn(v, f)
            });
        }

        fn visit_expr_async(&mut self, e: &$ast syn::ExprAsync) {
            self.with_async(true, |v| syn::visit::visit_expr_async(v, e));
        }

        fn visit_expr_closure(&mut self, c: &$ast syn::ExprClosure) {
            self.with_async(c.asyncness.is_some(), |v| {
                syn::visit::visit_expr_closure(v, c)
            });
        }
    };
}

pub(super) use visit_async_scopes;
