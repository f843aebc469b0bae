//! Cursor pagination: the [`PageRequest`] a list is asked with, the [`Page`] it
//! answers and the opaque [`Cursor`] between them.

/// A page size between 1 and 100 (default 10), as the contract's `limit` parameter allows.
///
/// ```
/// use tonne_kernel::Limit;
/// assert_eq!(Limit::default().get(), 10);
/// assert_eq!("100".parse::<Limit>().map(|l| l.get()), Ok(100));
/// assert!("0".parse::<Limit>().is_err());
/// assert!("101".parse::<Limit>().is_err());
/// assert!("-1".parse::<Limit>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit(u8);

/// The limit is not an integer between 1 and 100.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("must be an integer between 1 and 100")]
pub struct LimitError;

impl Limit {
    /// Largest page.
    pub const MAX: u8 = 100;
    /// Page size when the caller gives none.
    pub const DEFAULT: u8 = 10;

    /// A limit, if within 1..=100.
    pub fn new(value: u8) -> Result<Self, LimitError> {
        if (1..=Self::MAX).contains(&value) {
            Ok(Self(value))
        } else {
            Err(LimitError)
        }
    }

    /// The page size.
    pub fn get(self) -> u8 {
        self.0
    }
}

impl Default for Limit {
    fn default() -> Self {
        Self(Self::DEFAULT)
    }
}

impl std::str::FromStr for Limit {
    type Err = LimitError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        // The contract's pattern is ^\d+$: digits only, no sign, no spaces.
        if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(LimitError);
        }
        s.parse::<u8>().map_err(|_| LimitError).and_then(Self::new)
    }
}

/// A keyset page request: at most `limit` items strictly after the cursor `after`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageRequest<C> {
    /// Page size.
    pub limit: Limit,
    /// The id of the last item of the previous page, if any.
    pub after: Option<C>,
}

impl<C> PageRequest<C> {
    /// The first page of the default size.
    pub fn first() -> Self {
        Self {
            limit: Limit::default(),
            after: None,
        }
    }
}

/// One page of results and whether more follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T> {
    /// The items, in list order.
    pub items: Vec<T>,
    /// True when at least one more item follows the last one.
    pub has_more: bool,
}

impl<T> Page<T> {
    /// Builds a page from up to `limit + 1` rows fetched by a keyset query: the extra
    /// row, when present, only signals that more follow.
    ///
    /// ```
    /// use tonne_kernel::{Limit, Page};
    /// let page = Page::from_overfetch(vec![1, 2, 3], Limit::new(2).unwrap());
    /// assert_eq!(page.items, vec![1, 2]);
    /// assert!(page.has_more);
    /// ```
    pub fn from_overfetch(mut rows: Vec<T>, limit: Limit) -> Self {
        let limit = usize::from(limit.get());
        let has_more = rows.len() > limit;
        rows.truncate(limit);
        Self {
            items: rows,
            has_more,
        }
    }

    /// The item the next page starts after: the last one, when more follow.
    ///
    /// ```
    /// use tonne_kernel::{Limit, Page};
    ///
    /// let page = Page::from_overfetch(vec![1, 2, 3], Limit::new(2).unwrap());
    /// assert_eq!(page.last_if_more(), Some(&2));
    /// let last = Page::from_overfetch(vec![1], Limit::new(2).unwrap());
    /// assert_eq!(last.last_if_more(), None);
    /// ```
    pub fn last_if_more(&self) -> Option<&T> {
        self.has_more.then(|| self.items.last()).flatten()
    }

    /// Maps the items, keeping `has_more`.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Page<U> {
        Page {
            items: self.items.into_iter().map(f).collect(),
            has_more: self.has_more,
        }
    }
}

/// A keyset position: the id of the last item of the previous page.
///
/// Any 32 ASCII letters or digits are a position (the shape of Tonne's ids and of
/// the contract's example ids); a list answers the items whose id sorts after it.
/// Anything else is not a cursor.
///
/// ```
/// use tonne_kernel::Cursor;
/// assert!("01a2015b8e6a7305989b0332108af9c5".parse::<Cursor>().is_ok());
/// assert!("0vE213P96LbXNap56NAqVoM7knOedQg4".parse::<Cursor>().is_ok());
/// assert!("garbage".parse::<Cursor>().is_err());
/// assert!("' OR 1=1 --                     ".parse::<Cursor>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cursor(String);

/// Not 32 ASCII letters or digits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "not a cursor: expected the id of the last item of the previous page (32 letters or digits)"
)]
pub struct CursorError;

impl Cursor {
    /// The position just after an item with this id.
    pub fn after(id: &impl std::fmt::Display) -> Self {
        Self(id.to_string())
    }

    /// The position as text, to compare with ids.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::str::FromStr for Cursor {
    type Err = CursorError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.len() == 32 && s.bytes().all(|b| b.is_ascii_alphanumeric()) {
            Ok(Self(s.to_owned()))
        } else {
            Err(CursorError)
        }
    }
}
