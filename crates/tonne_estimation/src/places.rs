//! Airports (IATA/ICAO), seaports (UN/LOCODE) and the maritime network, loaded
//! once from the crate's own data files; lookups are hash-map O(1).
#![allow(clippy::float_arithmetic)]

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::sync::{Mutex, OnceLock};

use crate::geo::LatLon;

const AIRPORTS: &str = include_str!("../data/airports.csv");
const SEAPORTS: &str = include_str!("../data/seaports.csv");
const NETWORK: &str = include_str!("../data/sea_network.csv");

/// An airport: where it is and its ISO 3166-1 alpha-2 country.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Airport {
    /// Reference point.
    pub position: LatLon,
    /// ISO alpha-2 country (airportsdata's `country`).
    pub country: [u8; 2],
    /// ICAO code (four spaces for an airport with an IATA code only).
    pub icao: [u8; 4],
}

impl Airport {
    /// The ICAO code, if the airport has one.
    pub fn icao(&self) -> Option<&str> {
        std::str::from_utf8(&self.icao)
            .ok()
            .filter(|c| !c.trim().is_empty())
    }

    /// The ISO alpha-2 country code.
    pub fn country(&self) -> &str {
        std::str::from_utf8(&self.country).unwrap_or("")
    }
}

fn data_lines(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split(',').collect())
}

fn point(lat: Option<&&str>, lon: Option<&&str>) -> Option<LatLon> {
    let lat: f64 = lat?.parse().ok()?;
    let lon: f64 = lon?.parse().ok()?;
    Some(LatLon::raw(lat, lon))
}

fn airports() -> &'static HashMap<String, Airport> {
    static TABLE: OnceLock<HashMap<String, Airport>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut map = HashMap::new();
        for cols in data_lines(AIRPORTS) {
            let (Some(icao), Some(iata), Some(country)) = (cols.first(), cols.get(1), cols.get(2))
            else {
                continue;
            };
            let Some(position) = point(cols.get(3), cols.get(4)) else {
                continue;
            };
            let mut code = [b' '; 2];
            for (slot, b) in code.iter_mut().zip(country.bytes()) {
                *slot = b;
            }
            let mut icao_code = [b' '; 4];
            if icao.len() == 4 {
                icao_code.copy_from_slice(icao.as_bytes());
            }
            let airport = Airport {
                position,
                country: code,
                icao: icao_code,
            };
            if !icao.is_empty() {
                map.insert((*icao).to_owned(), airport);
            }
            // IATA codes: the first (ICAO-sorted) holder keeps a shared code
            if !iata.is_empty() {
                map.entry((*iata).to_owned()).or_insert(airport);
            }
        }
        map
    })
}

/// The airport with this IATA (3 letters) or ICAO (4 letters) code.
pub fn airport(code: &str) -> Option<Airport> {
    airports().get(code).copied()
}

/// Both airports of a route, or `airport_invalid` naming the unknown one
/// (`{field}.source.code` / `{field}.destination.code`).
pub(crate) fn airport_pair(
    field: &str,
    source: &str,
    destination: &str,
) -> Result<(Airport, Airport), crate::errors::EstimateError> {
    let find = |which: &str, code: &str| {
        airport(code).ok_or_else(|| crate::errors::EstimateError::AirportInvalid {
            field: format!("{field}.{which}.code"),
            code: code.to_owned(),
        })
    };
    Ok((find("source", source)?, find("destination", destination)?))
}

fn seaports() -> &'static HashMap<String, LatLon> {
    static TABLE: OnceLock<HashMap<String, LatLon>> = OnceLock::new();
    TABLE.get_or_init(|| {
        data_lines(SEAPORTS)
            .filter_map(|cols| {
                Some((
                    (*cols.first()?).to_owned(),
                    point(cols.get(1), cols.get(2))?,
                ))
            })
            .collect()
    })
}

/// The seaport with this UN/LOCODE.
pub fn seaport(locode: &str) -> Option<LatLon> {
    seaports().get(locode).copied()
}

fn ix(n: u32) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// The maritime network as a compressed adjacency list.
struct Network {
    nodes: Vec<LatLon>,
    /// `starts[i]..starts[i+1]` indexes `edges` for node i.
    starts: Vec<usize>,
    /// (neighbour, km)
    edges: Vec<(u32, f64)>,
}

fn network() -> &'static Network {
    static NET: OnceLock<Network> = OnceLock::new();
    NET.get_or_init(|| {
        let mut nodes = Vec::new();
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for cols in data_lines(NETWORK) {
            match cols.first().copied() {
                Some("n") => {
                    if let Some(p) = point(cols.get(2), cols.get(1)) {
                        nodes.push(p);
                    }
                }
                Some("e") => {
                    let a = cols.get(1).and_then(|v| v.parse().ok());
                    let b = cols.get(2).and_then(|v| v.parse().ok());
                    if let (Some(a), Some(b)) = (a, b) {
                        pairs.push((a, b));
                        pairs.push((b, a));
                    }
                }
                _ => {}
            }
        }
        pairs.retain(|(a, b)| ix(*a) < nodes.len() && ix(*b) < nodes.len());
        pairs.sort_unstable();
        let mut starts = vec![0; nodes.len() + 1];
        let mut edges = Vec::with_capacity(pairs.len());
        for (a, b) in pairs {
            if let (Some(pa), Some(pb)) = (nodes.get(ix(a)), nodes.get(ix(b))) {
                edges.push((b, pa.km_to(pb)));
                if let Some(s) = starts.get_mut(ix(a) + 1) {
                    *s += 1;
                }
            }
        }
        for i in 1..starts.len() {
            let prev = starts.get(i - 1).copied().unwrap_or(0);
            if let Some(s) = starts.get_mut(i) {
                *s += prev;
            }
        }
        Network {
            nodes,
            starts,
            edges,
        }
    })
}

impl Network {
    /// The node nearest to `p` (linear scan with the exact haversine on a
    /// coarse prefilter; ~10k nodes).
    fn nearest(&self, p: &LatLon) -> Option<(u32, f64)> {
        let mut best: Option<(u32, f64)> = None;
        for (i, n) in self.nodes.iter().enumerate() {
            let dlat = (n.lat() - p.lat()).abs();
            if let Some((_, d)) = best {
                // one degree of latitude is ~111 km: skip nodes that cannot be nearer
                if dlat * 111.0 > d {
                    continue;
                }
            }
            let d = p.km_to(n);
            if best.is_none_or(|(_, b)| d < b) {
                best = Some((u32::try_from(i).ok()?, d));
            }
        }
        best
    }

    fn neighbours(&self, node: u32) -> &[(u32, f64)] {
        let i = ix(node);
        match (self.starts.get(i), self.starts.get(i + 1)) {
            (Some(&s), Some(&e)) => self.edges.get(s..e).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Shortest path length in km (Dijkstra).
    fn shortest(&self, from: u32, to: u32) -> Option<f64> {
        #[derive(PartialEq)]
        struct Item(f64, u32);
        impl Eq for Item {}
        impl PartialOrd for Item {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }
        impl Ord for Item {
            fn cmp(&self, other: &Self) -> Ordering {
                other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
            }
        }
        let mut dist = vec![f64::INFINITY; self.nodes.len()];
        let mut heap = BinaryHeap::new();
        *dist.get_mut(ix(from))? = 0.0;
        heap.push(Item(0.0, from));
        while let Some(Item(d, n)) = heap.pop() {
            if n == to {
                return Some(d);
            }
            if d > dist.get(ix(n)).copied().unwrap_or(f64::INFINITY) {
                continue;
            }
            for &(m, w) in self.neighbours(n) {
                let nd = d + w;
                if let Some(slot) = dist.get_mut(ix(m))
                    && nd < *slot
                {
                    *slot = nd;
                    heap.push(Item(nd, m));
                }
            }
        }
        None
    }
}

type PathCache = Mutex<HashMap<(u32, u32), Option<f64>>>;

fn path_cache() -> &'static PathCache {
    static CACHE: OnceLock<PathCache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

type NearestCache = Mutex<HashMap<(u64, u64), Option<(u32, f64)>>>;

/// The network node nearest to a point, cached per point (ports repeat).
fn nearest_cached(net: &Network, p: &LatLon) -> Option<(u32, f64)> {
    static CACHE: OnceLock<NearestCache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let key = (p.lat().to_bits(), p.lon().to_bits());
    if let Some(hit) = cache.lock().ok().and_then(|c| c.get(&key).copied()) {
        return hit;
    }
    let found = net.nearest(p);
    if let Ok(mut c) = cache.lock() {
        if c.len() >= 100_000 {
            c.clear();
        }
        c.insert(key, found);
    }
    found
}

/// Sea distance in km between two points: the great-circle hop from each point
/// to its nearest network node plus the shortest path through the maritime
/// network (nearest nodes and paths cached). `None` if the network has no path.
pub fn sea_km(from: &LatLon, to: &LatLon) -> Option<f64> {
    let net = network();
    let (a, da) = nearest_cached(net, from)?;
    let (b, db) = nearest_cached(net, to)?;
    let key = (a.min(b), a.max(b));
    let cached = path_cache().lock().ok().and_then(|c| c.get(&key).copied());
    let path = match cached {
        Some(p) => p,
        None => {
            let p = net.shortest(key.0, key.1);
            if let Ok(mut cache) = path_cache().lock() {
                if cache.len() >= 100_000 {
                    cache.clear();
                }
                cache.insert(key, p);
            }
            p
        }
    };
    Some(da + path? + db)
}

/// [`sea_km`] without the path cache (for benchmarks).
pub fn sea_km_uncached(from: &LatLon, to: &LatLon) -> Option<f64> {
    let net = network();
    let (a, da) = net.nearest(from)?;
    let (b, db) = net.nearest(to)?;
    Some(da + net.shortest(a, b)? + db)
}

/// Warms the tables (so the first request does not pay for parsing).
pub fn preload() {
    let _ = airports().len() + seaports().len() + network().nodes.len();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_load() {
        assert!(airports().len() > 15_000, "{}", airports().len());
        assert!(seaports().len() > 3_000);
        assert!(network().nodes.len() > 9_000);
        assert!(airport("LHR").is_some() && airport("EGLL").is_some());
        assert_eq!(airport("JFK").map(|a| a.country), Some(*b"US"));
        assert!(seaport("NLRTM").is_some());
    }

    #[test]
    fn shanghai_to_rotterdam_goes_through_suez() {
        // commonly published port-to-port distance: about 10,500 nm = 19,450 km via Suez
        let sha = seaport("CNSHA").unwrap();
        let rtm = seaport("NLRTM").unwrap();
        let km = sea_km(&sha, &rtm).unwrap();
        let published = 10_500.0 * 1.852;
        assert!((km - published).abs() / published < 0.10, "{km}");
        eprintln!("CNSHA-NLRTM: {km:.0} km");
        // and the cache gives the same answer
        assert_eq!(sea_km(&sha, &rtm), Some(km));
    }
}
