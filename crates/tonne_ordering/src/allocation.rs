//! Splitting a whole into parts by weights so that the parts sum exactly to the whole.

/// Splits `total` (≥ 0) into integer parts proportional to `weights` by the
/// largest-remainder method: each part gets the floor of its exact share, and the
/// units left over go one each to the largest remainders (ties to the earlier
/// entry). The parts always sum to `total`. All-zero weights give all-zero parts.
///
/// ```
/// use tonne_ordering::allocation::split;
/// assert_eq!(split(10, &[1, 1, 1]), vec![4, 3, 3]);
/// assert_eq!(split(100, &[3333, 3333, 3334]), vec![33, 33, 34]);
/// assert_eq!(split(7, &[0, 5]), vec![0, 7]);
/// ```
pub fn split(total: i64, weights: &[u32]) -> Vec<i64> {
    let total = i128::from(total.max(0));
    let sum: i128 = weights.iter().map(|w| i128::from(*w)).sum();
    if sum == 0 {
        return vec![0; weights.len()];
    }
    let mut parts: Vec<i128> = Vec::with_capacity(weights.len());
    let mut remainders: Vec<(i128, usize)> = Vec::with_capacity(weights.len());
    for (index, weight) in weights.iter().enumerate() {
        let exact = total * i128::from(*weight);
        parts.push(exact / sum);
        remainders.push((exact % sum, index));
    }
    let assigned: i128 = parts.iter().sum();
    let mut left = total - assigned;
    remainders.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (_, index) in remainders {
        if left == 0 {
            break;
        }
        if let Some(part) = parts.get_mut(index) {
            *part += 1;
            left -= 1;
        }
    }
    parts
        .into_iter()
        .map(|p| i64::try_from(p).unwrap_or(i64::MAX))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_always_sum_to_the_whole_and_follow_the_weights() {
        for total in [0_i64, 1, 2, 7, 99, 100, 101, 1_000_003, 999_999_999_999] {
            for weights in [
                vec![1],
                vec![1, 1],
                vec![3333, 3333, 3334],
                vec![1, 2, 3, 4],
                vec![10_000, 0],
                vec![1; 50],
            ] {
                let parts = split(total, &weights);
                assert_eq!(parts.iter().sum::<i64>(), total, "{total} {weights:?}");
                let sum: i128 = weights.iter().map(|w| i128::from(*w)).sum();
                for (part, weight) in parts.iter().zip(&weights) {
                    let exact = i128::from(total) * i128::from(*weight);
                    // each part is within one unit of its exact share
                    assert!(
                        (i128::from(*part) * sum - exact).abs() < sum,
                        "{total} {weights:?} {parts:?}"
                    );
                }
            }
        }
    }
}
