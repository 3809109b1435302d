//! The types of declarations: which of C's types the subset has (the integer types up to 32
//! bits, `long` in ILP32, and `void` for results),
//! and the shape of a declarator (plain, pointer, array, function). Any other type is refused
//! with its C spelling. Nothing here emits IR.

use lang_c::ast::{
    DeclarationSpecifier, Declarator, DeclaratorKind, DerivedDeclarator, FunctionDeclarator,
    SpecifierQualifier, TypeSpecifier,
};
use lang_c::span::Node;

use super::Unit;
use crate::error::CError;
use crate::DataModel;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CType {
    /// `int`, `signed`, `signed int`: 32-bit two's complement.
    Int,
    /// `unsigned`, `unsigned int`: 32 bits read as unsigned.
    UInt,
    /// `char` (signed, as on x86 with gcc) and `signed char`: -128..=127.
    SChar,
    /// `unsigned char`: 0..=255.
    UChar,
    /// `short`: -32768..=32767.
    Short,
    /// `unsigned short`: 0..=65535.
    UShort,
    /// `_Bool`: 0 or 1.
    Bool,
    Void,
}

impl CType {
    /// Whether values of this type are numbers (not `void`).
    pub(super) fn is_number(self) -> bool {
        self != CType::Void
    }

    /// The type a value of this type has in arithmetic (C's integer promotions: every type
    /// narrower than `int` becomes `int`, which holds all its values).
    pub(super) fn promoted(self) -> CType {
        match self {
            CType::UInt => CType::UInt,
            _ => CType::Int,
        }
    }

    /// The type both operands of an arithmetic operator are converted to (C's usual arithmetic
    /// conversions among types of at most 32 bits: promote, then unsigned wins).
    pub(super) fn common(self, other: CType) -> CType {
        if self.promoted() == CType::UInt || other.promoted() == CType::UInt {
            CType::UInt
        } else {
            CType::Int
        }
    }

    /// `sizeof` of the type, in bytes (the same in ILP32 and LP64).
    pub(super) fn size(self) -> i32 {
        match self {
            CType::Int | CType::UInt => 4,
            CType::Short | CType::UShort => 2,
            CType::SChar | CType::UChar | CType::Bool => 1,
            CType::Void => 1,
        }
    }
}

/// What a declarator makes of its base type.
pub(super) enum Shape<'a> {
    Plain,
    Pointer,
    Array,
    /// A function; `None` for an empty old-style list `f()` (no parameters in a definition).
    Function(Option<&'a Node<FunctionDeclarator>>),
    /// Old-style (K&R) parameter lists, function pointers and other nested declarators.
    Other,
}

impl Shape<'_> {
    pub(super) fn describe(&self) -> &'static str {
        match self {
            Shape::Plain => "a plain declaration",
            Shape::Pointer => "pointer types",
            Shape::Array => "array types",
            Shape::Function(_) => "function types here",
            Shape::Other => {
                "this declarator (K&R parameters, function pointers, nested declarators)"
            }
        }
    }
}

/// The declared name (none for an abstract declarator) and the declarator's shape.
pub(super) fn declarator_shape(declarator: &Declarator) -> (Option<String>, Shape<'_>) {
    let (name, nested) = match &declarator.kind.node {
        DeclaratorKind::Identifier(id) => (Some(id.node.name.clone()), None),
        DeclaratorKind::Abstract => (None, None),
        DeclaratorKind::Declarator(inner) => (None, Some(inner)),
    };
    if let Some(inner) = nested {
        return match declarator.derived.is_empty() {
            true => declarator_shape(&inner.node),
            false => (declarator_shape(&inner.node).0, Shape::Other),
        };
    }
    let derived: Vec<&DerivedDeclarator> = declarator.derived.iter().map(|d| &d.node).collect();
    let shape = match derived.as_slice() {
        [] => Shape::Plain,
        [DerivedDeclarator::Function(f)] => Shape::Function(Some(f)),
        [DerivedDeclarator::KRFunction(names)] if names.is_empty() => Shape::Function(None),
        parts
            if parts
                .iter()
                .any(|d| matches!(d, DerivedDeclarator::Pointer(_))) =>
        {
            Shape::Pointer
        }
        parts
            if parts
                .iter()
                .any(|d| matches!(d, DerivedDeclarator::Array(_))) =>
        {
            Shape::Array
        }
        _ => Shape::Other,
    };
    (name, shape)
}

fn spelling(specifier: &TypeSpecifier) -> String {
    match specifier {
        TypeSpecifier::Void => "void".into(),
        TypeSpecifier::Char => "char".into(),
        TypeSpecifier::Short => "short".into(),
        TypeSpecifier::Int => "int".into(),
        TypeSpecifier::Long => "long".into(),
        TypeSpecifier::Float => "float".into(),
        TypeSpecifier::Double => "double".into(),
        TypeSpecifier::Signed => "signed".into(),
        TypeSpecifier::Unsigned => "unsigned".into(),
        TypeSpecifier::Bool => "_Bool".into(),
        TypeSpecifier::Complex => "_Complex".into(),
        TypeSpecifier::Atomic(_) => "_Atomic".into(),
        TypeSpecifier::Struct(_) => "struct".into(),
        TypeSpecifier::Enum(_) => "enum".into(),
        TypeSpecifier::TypedefName(name) => name.node.name.clone(),
        TypeSpecifier::TypeOf(_) => "typeof".into(),
        TypeSpecifier::TS18661Float(_) => "_FloatN".into(),
    }
}

/// The type named by a list of type specifiers (qualifiers such as `const` and `volatile` do not
/// change a sequential program's meaning and are ignored by the callers).
fn type_of(
    unit: &Unit<'_>,
    specifiers: &[&Node<TypeSpecifier>],
    at: usize,
) -> Result<CType, CError> {
    use TypeSpecifier as T;
    let kinds: Vec<&TypeSpecifier> = specifiers.iter().map(|s| &s.node).collect();
    let count = |wanted: fn(&TypeSpecifier) -> bool| kinds.iter().filter(|k| wanted(k)).count();
    let int = count(|k| matches!(k, T::Int));
    let signed = count(|k| matches!(k, T::Signed));
    let unsigned = count(|k| matches!(k, T::Unsigned));
    let char = count(|k| matches!(k, T::Char));
    let short = count(|k| matches!(k, T::Short));
    let long = count(|k| matches!(k, T::Long));
    // Only the words that make up `[un]signed [char|short|long] [int]` (and old C's implicit
    // `int` when there is none at all, as in `main() { ... }`).
    let integer_words = int + signed + unsigned + char + short + long;
    let words_fit = int <= 1 && signed + unsigned <= 1 && char + short + long <= 1;
    if integer_words == kinds.len() && words_fit {
        if long == 1 && unit.options.data_model == DataModel::Lp64 {
            return Err(CError::unsupported(
                "type `long` (64 bits in the LP64 data model; 64-bit integers are not supported \
                 yet, `--data-model ilp32` gives `long` 32 bits)",
                at,
            ));
        }
        // In ILP32 `long` has the width of `int`, and C's conversions treat them alike there
        // (a `long` cannot hold every `unsigned int`, so both become `unsigned long`).
        let ty = match (char, short, unsigned) {
            (1, _, _) if int == 1 => None,
            (1, _, 0) => Some(CType::SChar),
            (1, _, _) => Some(CType::UChar),
            (_, 1, 0) => Some(CType::Short),
            (_, 1, _) => Some(CType::UShort),
            (_, _, 0) => Some(CType::Int),
            _ => Some(CType::UInt),
        };
        if let Some(ty) = ty {
            return Ok(ty);
        }
    }
    match kinds.as_slice() {
        [T::Void] => Ok(CType::Void),
        [T::Bool] => Ok(CType::Bool),
        [T::TypedefName(name)] => match unit.typedefs.get(&name.node.name) {
            Some(Ok(ty)) => Ok(*ty),
            Some(Err(why)) => Err(CError::unsupported(
                format!("type `{}` ({why})", name.node.name),
                at,
            )),
            None => Err(CError::invalid(
                format!("unknown type name `{}`", name.node.name),
                at,
            )),
        },
        other => {
            let words: Vec<String> = other.iter().map(|s| spelling(s)).collect();
            Err(CError::unsupported(
                format!(
                    "type `{}` (integer types up to 32 bits are supported so far)",
                    words.join(" ")
                ),
                at,
            ))
        }
    }
}

/// The base type of a declaration's specifiers.
pub(super) fn base_type(
    unit: &Unit<'_>,
    specifiers: &[Node<DeclarationSpecifier>],
) -> Result<CType, CError> {
    let at = specifiers.first().map_or(0, |s| unit.at(s.span));
    let types: Vec<&Node<TypeSpecifier>> = specifiers
        .iter()
        .filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => Some(t),
            _ => None,
        })
        .collect();
    type_of(unit, &types, at)
}

/// The base type of a type name's specifiers (in casts).
pub(super) fn type_name_base(
    unit: &Unit<'_>,
    specifiers: &[Node<SpecifierQualifier>],
    at: usize,
) -> Result<CType, CError> {
    let types: Vec<&Node<TypeSpecifier>> = specifiers
        .iter()
        .filter_map(|s| match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => Some(t),
            _ => None,
        })
        .collect();
    type_of(unit, &types, at)
}
