//! Affine equalities among numbers, guessed from samples: the relations `c·x + c0 == 0` that
//! every sample satisfies, a basis of the null space of the matrix whose rows are the samples
//! with a trailing 1 (dynamic invariant generation, as in DIG: Nguyen, Kapur, Weimer and
//! Forrest, ICSE 2012). `induction.rs` samples a loop header's reachable states and proposes
//! these relations (`a + b == 3*i`) as candidates; they are guesses, never trusted: Houdini
//! keeps only what every segment establishes.
//!
//! Exact integer arithmetic (fraction-free Gauss-Jordan elimination); nothing here knows terms,
//! states or the solver.

/// A basis of the affine equalities every sample satisfies, each as integer coefficients (one
/// per column of the samples, then the constant) whose greatest common divisor is 1 and whose
/// first non-zero coefficient is positive; `None` when a number outgrows `i128` on the way.
/// Every sample must have the same number of columns.
pub fn affine_equalities(samples: &[Vec<i128>]) -> Option<Vec<Vec<i128>>> {
    let columns = samples.first().map_or(0, Vec::len) + 1;
    let mut rows: Vec<Vec<i128>> = samples
        .iter()
        .map(|s| s.iter().copied().chain([1]).collect())
        .collect();
    // Reduced row echelon form: each kept row has a pivot column no other row mentions.
    let mut pivots: Vec<usize> = Vec::new();
    for column in 0..columns {
        let r = pivots.len();
        let Some(found) = (r..rows.len()).find(|&i| rows[i][column] != 0) else {
            continue;
        };
        rows.swap(r, found);
        let pivot_row = rows[r].clone();
        let pivot = pivot_row[column];
        for (i, row) in rows.iter_mut().enumerate() {
            let factor = row[column];
            if i == r || factor == 0 {
                continue;
            }
            for (x, &p) in row.iter_mut().zip(&pivot_row) {
                *x = x.checked_mul(pivot)?.checked_sub(p.checked_mul(factor)?)?;
            }
            reduce(row);
        }
        pivots.push(column);
        if pivots.len() == rows.len() {
            break;
        }
    }
    rows.truncate(pivots.len());
    // One solution per free column: it is set, every pivot column follows from its row.
    let mut basis = Vec::new();
    for free in (0..columns).filter(|c| !pivots.contains(c)) {
        let mut scale = 1i128;
        for (row, &p) in rows.iter().zip(&pivots) {
            if row[free] != 0 {
                scale = lcm(scale, row[p].checked_abs()?)?;
            }
        }
        let mut solution = vec![0i128; columns];
        solution[free] = scale;
        for (row, &p) in rows.iter().zip(&pivots) {
            if row[free] != 0 {
                solution[p] = row[free].checked_mul(scale / row[p])?.checked_neg()?;
            }
        }
        basis.push(canonical(solution)?);
    }
    Some(basis)
}

/// `basis`, then the combinations of two of its equalities that cancel a column, each once.
/// Over fixed-width numbers a basis implies less than over the integers: `i == 2a` and
/// `i == 2b` do not give `a == b` modulo 2^32 (`a = b + 2^31`), but the combination that
/// cancels `i` is `a == b` itself.
pub fn with_eliminations(basis: Vec<Vec<i128>>) -> Vec<Vec<i128>> {
    let mut out = basis.clone();
    for (n, u) in basis.iter().enumerate() {
        for v in &basis[n + 1..] {
            for k in (0..u.len()).filter(|&k| u[k] != 0 && v[k] != 0) {
                let Some(w) = (u.iter().zip(v))
                    .map(|(&x, &y)| v[k].checked_mul(x)?.checked_sub(u[k].checked_mul(y)?))
                    .collect::<Option<Vec<i128>>>()
                    .and_then(canonical)
                else {
                    continue;
                };
                if w.iter().any(|&c| c != 0) && !out.contains(&w) {
                    out.push(w);
                }
            }
        }
    }
    out
}

/// `row` divided by the greatest common divisor of its entries, its first non-zero entry
/// made positive: one form per equality, so that equal ones compare equal.
fn canonical(mut row: Vec<i128>) -> Option<Vec<i128>> {
    reduce(&mut row);
    if row.iter().find(|&&c| c != 0).is_some_and(|&c| c < 0) {
        for c in &mut row {
            *c = c.checked_neg()?;
        }
    }
    Some(row)
}

/// Divides `row` by the greatest common divisor of its entries.
fn reduce(row: &mut [i128]) {
    let divisor = row.iter().fold(0i128, |g, &c| gcd(g, c));
    if divisor > 1 {
        for c in row {
            *c /= divisor;
        }
    }
}

/// The greatest common divisor, non-negative (`gcd(0, 0) = 0`); `i128::MIN` counts as its
/// absolute value's neighbour, which only makes a reduction miss.
fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i128::try_from(a).unwrap_or(1)
}

fn lcm(a: i128, b: i128) -> Option<i128> {
    match gcd(a, b) {
        0 => Some(0),
        g => (a / g).checked_mul(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `equality` holds on `sample` (`None`: the sum outgrows `i128`).
    fn holds_exactly(equality: &[i128], sample: &[i128]) -> Option<bool> {
        let (constant, coefficients) = equality.split_last().expect("a constant");
        let mut sum = *constant;
        for (x, c) in sample.iter().zip(coefficients) {
            sum = sum.checked_add(x.checked_mul(*c)?)?;
        }
        Some(sum == 0)
    }

    fn holds(equality: &[i128], sample: &[i128]) -> bool {
        holds_exactly(equality, sample) == Some(true)
    }

    #[test]
    fn finds_the_relation_of_counted_steps() {
        // (i, a, b, n) of `while (i < n) { if (*) { a += 1; b += 2 } else { a += 2; b += 1 }
        // i++ }` with two values of n: only `a + b == 3 * i` holds on all.
        let samples = vec![
            vec![0, 0, 0, 5],
            vec![1, 1, 2, 5],
            vec![1, 2, 1, 5],
            vec![2, 3, 3, 5],
            vec![2, 4, 2, 5],
            vec![1, 1, 2, 9],
            vec![3, 5, 4, 9],
        ];
        let basis = affine_equalities(&samples).expect("small numbers");
        assert_eq!(basis, vec![vec![3, -1, -1, 0, 0]]);
    }

    #[test]
    fn a_constant_column_gives_its_value() {
        // `n` never changes in the samples: `n == 7` is one of the equalities, next to
        // `i + j == n` (which holds for any n).
        let samples = vec![vec![0, 7, 7], vec![1, 6, 7], vec![2, 5, 7]];
        let basis = affine_equalities(&samples).expect("small numbers");
        assert_eq!(basis.len(), 2);
        for equality in &basis {
            assert!(samples.iter().all(|s| holds(equality, s)));
        }
        // Together they imply `i + j - n == 0`, which holds beyond these samples.
        assert!(basis.contains(&vec![0, 0, 1, -7]) || basis.contains(&vec![1, 1, -1, 0]));
    }

    #[test]
    fn independent_samples_leave_nothing() {
        let samples = vec![vec![0, 0], vec![1, 0], vec![0, 1], vec![5, 3]];
        assert_eq!(affine_equalities(&samples), Some(Vec::new()));
    }

    #[test]
    fn every_basis_vector_holds_on_every_sample() {
        // Random-looking samples on the plane 2x - 3y + z == 4, w free.
        let samples: Vec<Vec<i128>> = (0..9i128)
            .map(|k| {
                let (x, y, w) = (k * 7 % 11, k * k % 5, k * 13 % 17);
                vec![x, y, 4 - 2 * x + 3 * y, w]
            })
            .collect();
        let basis = affine_equalities(&samples).expect("small numbers");
        assert_eq!(basis, vec![vec![2, -3, 1, 0, -4]]);
        for equality in &basis {
            assert!(samples.iter().all(|s| holds(equality, s)));
        }
    }

    #[test]
    fn eliminations_give_what_the_basis_implies_only_over_the_integers() {
        // (i, a, b) with i == 2a == 2b: the basis says `i == 2a`, `i == 2b` (or the like);
        // cancelling `i` gives `a == b`.
        let samples = vec![vec![0, 0, 0], vec![2, 1, 1], vec![4, 2, 2], vec![8, 4, 4]];
        let basis = affine_equalities(&samples).expect("small numbers");
        let all = with_eliminations(basis.clone());
        assert_eq!(all[..basis.len()], basis[..]);
        assert!(all.contains(&vec![0, 1, -1, 0]), "{all:?}");
        for equality in &all {
            assert!(samples.iter().all(|s| holds(equality, s)));
        }
    }

    #[test]
    fn overflow_is_none_not_a_wrong_answer() {
        let big = i128::MAX / 3;
        let samples = vec![vec![big, 1], vec![1, big], vec![big - 1, big - 2]];
        for equality in affine_equalities(&samples).unwrap_or_default() {
            for sample in &samples {
                assert_ne!(holds_exactly(&equality, sample), Some(false));
            }
        }
    }
}
