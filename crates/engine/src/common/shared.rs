//! A value an engine hands results to while it runs and its caller reads, from another thread
//! or afterwards (live progress figures, emitted tests), or nothing (the default, where the
//! engine skips the work). Two are equal when they share one value, so the options that hold
//! them stay comparable.

use std::sync::Arc;

#[derive(Debug)]
pub struct Shared<T>(Option<Arc<T>>);

impl<T> Shared<T> {
    pub fn to(value: Arc<T>) -> Shared<T> {
        Shared(Some(value))
    }

    /// Whether results go anywhere (so that an engine gathers them only then).
    pub fn is_on(&self) -> bool {
        self.0.is_some()
    }

    pub fn get(&self) -> Option<&T> {
        self.0.as_deref()
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        Shared(self.0.clone())
    }
}

impl<T> Default for Shared<T> {
    fn default() -> Shared<T> {
        Shared(None)
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl<T> Eq for Shared<T> {}
