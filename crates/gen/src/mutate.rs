//! Mutations of program text, for fuzzing the front ends: delete, duplicate or swap characters,
//! insert a token of a front end's vocabulary. On characters, not bytes, so the text stays valid
//! UTF-8 as files must be. With the `proptest` feature, [`mutation`] draws them.
//!
//! Nothing here knows a language: the vocabulary is the caller's.

/// One change to a text; positions are taken modulo the text's length.
#[derive(Clone, Debug)]
pub enum Mutation {
    Delete { at: usize, len: usize },
    Duplicate { at: usize, len: usize },
    Insert { at: usize, token: &'static str },
    Swap { a: usize, b: usize },
}

/// `text` with `mutations` applied in order.
pub fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for m in mutations {
        let n = chars.len().max(1);
        match *m {
            Mutation::Delete { at, len } => {
                let at = (at % n).min(chars.len());
                let end = (at + len).min(chars.len());
                chars.drain(at..end);
            }
            Mutation::Duplicate { at, len } => {
                let at = (at % n).min(chars.len());
                let end = (at + len).min(chars.len());
                let copy: Vec<char> = chars[at..end].to_vec();
                chars.splice(end..end, copy);
            }
            Mutation::Insert { at, token } => {
                let at = (at % n).min(chars.len());
                chars.splice(at..at, format!(" {token} ").chars());
            }
            Mutation::Swap { a, b } => {
                if !chars.is_empty() {
                    let (a, b) = (a % chars.len(), b % chars.len());
                    chars.swap(a, b);
                }
            }
        }
    }
    chars.into_iter().collect()
}

/// A random mutation whose inserted tokens come from `vocabulary`.
#[cfg(feature = "proptest")]
pub fn mutation(
    vocabulary: &'static [&'static str],
) -> impl proptest::strategy::Strategy<Value = Mutation> {
    use proptest::prelude::*;
    prop_oneof![
        (any::<usize>(), 1..20usize).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), 1..80usize).prop_map(|(at, len)| Mutation::Duplicate { at, len }),
        (any::<usize>(), prop::sample::select(vocabulary))
            .prop_map(|(at, token)| Mutation::Insert { at, token }),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::Swap { a, b }),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_wrap_their_positions_and_keep_characters_whole() {
        let text = "añb";
        assert_eq!(mutate(text, &[Mutation::Delete { at: 4, len: 1 }]), "ab");
        assert_eq!(
            mutate(text, &[Mutation::Duplicate { at: 1, len: 2 }]),
            "añbñb"
        );
        assert_eq!(
            mutate(text, &[Mutation::Insert { at: 3, token: "x" }]),
            " x añb"
        );
        assert_eq!(mutate(text, &[Mutation::Swap { a: 0, b: 5 }]), "bña");
        assert_eq!(mutate("", &[Mutation::Delete { at: 7, len: 3 }]), "");
    }
}
