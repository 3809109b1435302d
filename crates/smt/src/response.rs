//! Reading values out of SMT-LIB2 solver answers (`get-value` responses).
//!
//! Understands the forms z3, cvc5 and yices print: `true`/`false`; `#b...`, `#x...` and
//! `(_ bvN w)`; `N` and `(- N)`; arrays as `((as const S) v)` under a chain of
//! `(store a i v)`; and `let` bindings around any of these. Anything else (for example z3's
//! `(_ as-array k!0)` or a `lambda`) is a clear error, never a panic. Store chains are walked
//! iteratively.

use rustc_hash::FxHashMap;

use crate::bv::BvConst;
use crate::sexp::Sexp;
use crate::sort::{Sort, SortTable};
use crate::value::{ArrayValue, Value};

type Env<'a> = FxHashMap<&'a str, &'a Sexp>;

/// The value of sort `sort` written as `sexp`.
pub fn value_of(sorts: &SortTable, sort: Sort, sexp: &Sexp) -> Result<Value, String> {
    value_in(sorts, sort, sexp, &Env::default())
}

/// Follows `let` bindings and bound names until a real expression appears.
fn resolve<'a>(mut sexp: &'a Sexp, env: &Env<'a>) -> Result<(&'a Sexp, Env<'a>), String> {
    let mut env = env.clone();
    loop {
        match sexp {
            Sexp::Atom(name) => match env.get(name.as_str()) {
                Some(bound) => sexp = bound,
                None => return Ok((sexp, env)),
            },
            Sexp::List(items) if items.len() == 3 && items[0].is_atom("let") => {
                let bindings = items[1]
                    .list()
                    .ok_or_else(|| format!("malformed let: {sexp:?}"))?;
                let mut inner = env.clone();
                for b in bindings {
                    match b.list() {
                        Some([Sexp::Atom(name), value]) => {
                            inner.insert(name.as_str(), value);
                        }
                        _ => return Err(format!("malformed let binding: {b:?}")),
                    }
                }
                env = inner;
                sexp = &items[2];
            }
            _ => return Ok((sexp, env)),
        }
    }
}

fn value_in<'a>(
    sorts: &SortTable,
    sort: Sort,
    sexp: &'a Sexp,
    env: &Env<'a>,
) -> Result<Value, String> {
    let (sexp, env) = resolve(sexp, env)?;
    match sort {
        Sort::Bool => match sexp.text() {
            Some("true") => Ok(Value::Bool(true)),
            Some("false") => Ok(Value::Bool(false)),
            _ => Err(format!("expected a Boolean, got {sexp:?}")),
        },
        Sort::BitVec(w) => bv_value(w, sexp).map(Value::Bv),
        Sort::Int => int_value(sexp).map(Value::Int),
        Sort::Array(_) => array_value(sorts, sort, sexp, &env).map(Value::Array),
    }
}

fn bv_value(width: u32, sexp: &Sexp) -> Result<BvConst, String> {
    let bad = || format!("expected a bit-vector of width {width}, got {sexp:?}");
    let (digits, radix, bits_per_digit) = match sexp {
        Sexp::Atom(s) if s.starts_with("#b") => (&s[2..], 2, 1),
        Sexp::Atom(s) if s.starts_with("#x") => (&s[2..], 16, 4),
        Sexp::List(items) => match items.as_slice() {
            [u, Sexp::Atom(n), Sexp::Atom(w)] if u.is_atom("_") && n.starts_with("bv") => {
                if w.parse::<u32>().ok() != Some(width) {
                    return Err(bad());
                }
                let v = n[2..].parse::<u128>().map_err(|_| bad())?;
                return BvConst::new(width, v).map_err(|e| e.to_string());
            }
            _ => return Err(bad()),
        },
        _ => return Err(bad()),
    };
    if digits.len() as u64 * bits_per_digit != u64::from(width) {
        return Err(bad());
    }
    let v = u128::from_str_radix(digits, radix).map_err(|_| bad())?;
    BvConst::new(width, v).map_err(|e| e.to_string())
}

fn int_value(sexp: &Sexp) -> Result<i128, String> {
    let bad = || format!("expected an integer within i128, got {sexp:?}");
    match sexp {
        Sexp::Atom(s) => s.parse::<i128>().map_err(|_| bad()),
        Sexp::List(items) => match items.as_slice() {
            [minus, Sexp::Atom(s)] if minus.is_atom("-") => {
                let magnitude = s.parse::<u128>().map_err(|_| bad())?;
                0i128.checked_sub_unsigned(magnitude).ok_or_else(bad)
            }
            _ => Err(bad()),
        },
        Sexp::Str(_) => Err(bad()),
    }
}

fn array_value<'a>(
    sorts: &SortTable,
    sort: Sort,
    sexp: &'a Sexp,
    env: &Env<'a>,
) -> Result<ArrayValue, String> {
    let (index_sort, elem_sort) = sorts
        .array_parts(sort)
        .ok_or_else(|| "unknown array sort".to_string())?;
    let mut writes: Vec<(&Sexp, &Sexp, Env<'a>)> = Vec::new();
    let (mut cur, mut cur_env) = resolve(sexp, env)?;
    let base = loop {
        let items = cur
            .list()
            .ok_or_else(|| format!("unsupported array value {cur:?}"))?;
        match items {
            [head, a, i, v] if head.is_atom("store") => {
                writes.push((i, v, cur_env.clone()));
                let (next, next_env) = resolve(a, &cur_env)?;
                cur = next;
                cur_env = next_env;
            }
            [head, v] if is_const_head(head) => {
                break value_in(sorts, elem_sort, v, &cur_env)?;
            }
            _ => return Err(format!("unsupported array value {cur:?}")),
        }
    };
    let mut array = ArrayValue::constant(base);
    for (i, v, e) in writes.into_iter().rev() {
        let index = value_in(sorts, index_sort, i, &e)?;
        let value = value_in(sorts, elem_sort, v, &e)?;
        array.set(index, value);
    }
    Ok(array)
}

/// `(as const S)`.
fn is_const_head(head: &Sexp) -> bool {
    matches!(head.list(), Some([a, c, _]) if a.is_atom("as") && c.is_atom("const"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sexp::{parse, Parsed};

    fn sx(text: &str) -> Sexp {
        match parse(text) {
            Ok(Parsed::Done(s, _)) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn scalars() {
        let t = SortTable::default();
        let b8 = |v| Value::Bv(BvConst::new(8, v).expect("c"));
        assert_eq!(value_of(&t, Sort::BitVec(8), &sx("#x2a")), Ok(b8(42)));
        assert_eq!(value_of(&t, Sort::BitVec(8), &sx("#b00101010")), Ok(b8(42)));
        assert_eq!(value_of(&t, Sort::BitVec(8), &sx("(_ bv42 8)")), Ok(b8(42)));
        assert!(value_of(&t, Sort::BitVec(8), &sx("#x2")).is_err());
        assert_eq!(value_of(&t, Sort::Int, &sx("(- 6)")), Ok(Value::Int(-6)));
        assert_eq!(value_of(&t, Sort::Int, &sx("17")), Ok(Value::Int(17)));
        assert!(value_of(
            &t,
            Sort::Int,
            &sx("99999999999999999999999999999999999999999")
        )
        .is_err());
        assert_eq!(
            value_of(&t, Sort::Bool, &sx("false")),
            Ok(Value::Bool(false))
        );
        assert!(value_of(&t, Sort::Bool, &sx("garbage")).is_err());
    }

    #[test]
    fn arrays_from_z3_and_cvc5() {
        let mut t = SortTable::default();
        let arr = t.array(Sort::BitVec(8), Sort::BitVec(8)).expect("sort");
        let z3 = sx("(store ((as const (Array (_ BitVec 8) (_ BitVec 8))) #x05) #x02 #x07)");
        let cvc5 = sx(
            "(store (store ((as const (Array (_ BitVec 8) (_ BitVec 8))) #b00000000) \
                       #b00000001 #b00000101) #b00000010 #b00000111)",
        );
        let a = value_of(&t, arr, &z3).expect("z3 array");
        let b = value_of(&t, arr, &cvc5).expect("cvc5 array");
        let at = |v: &Value, i| {
            v.as_array()
                .expect("array")
                .get(&Value::Bv(BvConst::new(8, i).expect("c")))
                .clone()
        };
        assert_eq!(at(&a, 1), at(&b, 1));
        assert_eq!(at(&a, 2), at(&b, 2));
        let nested = t.array(Sort::Int, arr).expect("sort");
        let text = "(let ((a!1 ((as const (Array (_ BitVec 8) (_ BitVec 8))) #x01))) \
                    (store ((as const (Array Int (Array (_ BitVec 8) (_ BitVec 8)))) a!1) 3 a!1))";
        assert!(value_of(&t, nested, &sx(text)).is_ok());
        assert!(value_of(&t, arr, &sx("(_ as-array k!0)")).is_err());
    }
}
