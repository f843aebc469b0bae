//! The words shipments are described in: carriage phases, modes of
//! transport (and the per-phase [`ModeSet`] the list filters on), and who
//! produced a shipment's emissions.

/// A leg's role in the journey: first-mile pickup, the main haul, last-mile delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Carriage {
    Pre,
    Main,
    On,
}

impl Carriage {
    /// Every phase, in journey order.
    pub const ALL: [Carriage; 3] = [Carriage::Pre, Carriage::Main, Carriage::On];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Carriage::Pre => "pre",
            Carriage::Main => "main",
            Carriage::On => "on",
        }
    }

    /// From the wire name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// Its position in [`Carriage::ALL`].
    pub fn index(self) -> usize {
        match self {
            Carriage::Pre => 0,
            Carriage::Main => 1,
            Carriage::On => 2,
        }
    }
}

/// The high-level mode of transport of a leg.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TransportMode {
    Road,
    Sea,
    Air,
    Rail,
    InlandWaterway,
}

impl TransportMode {
    /// Every mode.
    pub const ALL: [TransportMode; 5] = [
        TransportMode::Road,
        TransportMode::Sea,
        TransportMode::Air,
        TransportMode::Rail,
        TransportMode::InlandWaterway,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            TransportMode::Road => "road",
            TransportMode::Sea => "sea",
            TransportMode::Air => "air",
            TransportMode::Rail => "rail",
            TransportMode::InlandWaterway => "inland_waterway",
        }
    }

    /// From the wire name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == s)
    }

    /// The mode's bit in a [`ModeSet`].
    fn bit(self) -> u8 {
        match self {
            TransportMode::Road => 1,
            TransportMode::Sea => 2,
            TransportMode::Air => 4,
            TransportMode::Rail => 8,
            TransportMode::InlandWaterway => 16,
        }
    }
}

/// A set of modes (one bit each), as stored per carriage phase so that the
/// list can filter by "main carriage by sea or rail" in one comparison.
///
/// ```
/// use tonne_shipments::{ModeSet, TransportMode};
/// let set = ModeSet::default().with(TransportMode::Sea).with(TransportMode::Road);
/// assert!(set.intersects(ModeSet::of(&[TransportMode::Road])));
/// assert!(!set.intersects(ModeSet::of(&[TransportMode::Air])));
/// assert_eq!(ModeSet::from_bits(set.bits()), set);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct ModeSet(u8);

impl ModeSet {
    /// The set of the given modes.
    pub fn of(modes: &[TransportMode]) -> Self {
        modes.iter().fold(Self::default(), |s, m| s.with(*m))
    }

    /// The set with `mode` added.
    pub fn with(self, mode: TransportMode) -> Self {
        Self(self.0 | mode.bit())
    }

    /// Whether the two sets share a mode.
    pub fn intersects(self, other: ModeSet) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The stored form.
    pub fn bits(self) -> u8 {
        self.0
    }

    /// From the stored form (unknown bits dropped).
    pub fn from_bits(bits: u8) -> Self {
        Self(bits & 0b1_1111)
    }

    /// The modes in the set.
    pub fn modes(self) -> Vec<TransportMode> {
        TransportMode::ALL
            .into_iter()
            .filter(|m| self.0 & m.bit() != 0)
            .collect()
    }
}

/// Who emitted the emissions a shipment holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmissionsSource {
    /// Calculated by Tonne (the contract's `lune`).
    Calculated,
    /// Sent by the client.
    Manual,
}

impl EmissionsSource {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            EmissionsSource::Calculated => "lune",
            EmissionsSource::Manual => "manual",
        }
    }

    /// From the wire name.
    pub fn parse(s: &str) -> Option<Self> {
        [EmissionsSource::Calculated, EmissionsSource::Manual]
            .into_iter()
            .find(|e| e.as_str() == s)
    }
}
