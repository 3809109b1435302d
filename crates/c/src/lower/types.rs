//! The types of declarations: which of C's types the subset has (the integer types up to 32
//! bits, `long` in ILP32, `void` for results, pointers, structs and their array members with
//! constant sizes), the arena that interns pointer, struct and array member types ([`Types`]), C's sizes and alignments, and the shape of a declarator
//! (plain, pointer, array, function). Any other type is refused with its C spelling. Nothing here
//! emits IR.

use std::collections::{HashMap, HashSet};

use lang_c::ast::{
    ArraySize, DeclarationSpecifier, Declarator, DeclaratorKind, DerivedDeclarator,
    FunctionDeclarator, SpecifierQualifier, StructDeclaration, StructKind, StructType,
    TypeSpecifier,
};
use lang_c::span::Node;
use symex_ir::cfg::{Operand, Width};

use super::constant;
use super::elements::Location;
use super::Unit;
use crate::error::CError;
use crate::DataModel;

/// A pointer's target in [`Types`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct PointeeId(u32);

/// A struct in [`Types`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct StructId(u32);

/// An array type (of a struct member) in [`Types`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct ArrayId(u32);

/// A function type (parameter and result types) in [`Types`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct SignatureId(u32);

/// A view's bytes in [`Types`] (`lower/views.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct ViewId(u32);

/// The bytes of a struct as a view sees them ([`Types::byte_layout`]).
#[derive(Clone, Debug, Default)]
pub(super) struct ByteLayout {
    /// Each integer leaf (`_Bool`s too): its member path, type and offset in bytes.
    pub integers: Vec<(String, CType, i32)>,
    /// Each pointer leaf: its offset and size in bytes.
    pub opaque: Vec<(i32, i32)>,
}

/// Where [`Types::collect_offsets`] puts integer leaves and, if it may, the other ones.
type LeafLists<'a> = (
    &'a mut Vec<(String, CType, i32)>,
    Option<&'a mut Vec<(i32, i32)>>,
);

/// What a pointer that views the bytes of integer objects points to (`lower/views.rs`): bytes
/// read and written as `unit`s (a character type, or another integer type over `char`s), of
/// objects of the integer type `object`, in one object (`whole`: a variable or a heap object)
/// or in an array of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct View {
    pub unit: CType,
    pub object: CType,
    pub whole: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    /// `long long`, and `long` in LP64: a 64-bit IR number.
    Long,
    /// `unsigned long long`, and `unsigned long` in LP64: a 64-bit IR number read as unsigned.
    ULong,
    Void,
    /// A pointer to the type [`Types::pointee`] gives.
    Pointer(PointeeId),
    /// A pointer of the same C type into an array of objects of the pointee type (an
    /// *element pointer*, `lower/element_pointer.rs`): a variable that pointer arithmetic,
    /// `&a[i]` or an array's decay reaches has this type instead of [`CType::Pointer`]. Its
    /// value is an IR record of the array's cell and an index; it never lives in memory.
    Element(PointeeId),
    /// A struct, whose fields [`Types::fields`] gives.
    Struct(StructId),
    /// The type of a struct member declared as an array (`int a[16]`), whose element type and
    /// dimensions [`Types::array`] gives. Array variables are not values of this type: they
    /// are locals of their element type with dimensions of their own (`lower/array.rs`).
    Array(ArrayId),
    /// A pointer to a function of the signature [`Types::signature`] gives: a 32-bit IR
    /// number naming the function, 0 for null (`lower/function_pointers.rs`).
    Function(SignatureId),
    /// The bytes of integer objects seen through a view ([`Types::view`], `lower/views.rs`):
    /// only what a [`CType::Element`] points to, never a value's type (what is read is of the
    /// view's unit type).
    Byte(ViewId),
}

/// `size_t` (also `uintptr_t`'s width) in the data model.
pub(super) fn size_type(model: crate::DataModel) -> CType {
    match model {
        crate::DataModel::Lp64 => CType::ULong,
        crate::DataModel::Ilp32 => CType::UInt,
    }
}

impl CType {
    /// Whether values of this type are integers (not `void`, pointers, structs or arrays).
    pub(super) fn is_number(self) -> bool {
        !matches!(
            self,
            CType::Void
                | CType::Pointer(_)
                | CType::Element(_)
                | CType::Struct(_)
                | CType::Array(_)
                | CType::Function(_)
                | CType::Byte(_)
        )
    }

    /// Whether this is a character type (`char`, `signed char`, `unsigned char`), whose
    /// arrays a string literal may initialize.
    pub(super) fn is_char(self) -> bool {
        matches!(self, CType::SChar | CType::UChar)
    }

    /// Whether a value of this type is one IR scalar (an integer or a pointer).
    pub(super) fn is_scalar(self) -> bool {
        self.is_number()
            || matches!(
                self,
                CType::Pointer(_) | CType::Element(_) | CType::Function(_)
            )
    }

    /// The type a value of this type has in arithmetic (C's integer promotions: every type
    /// narrower than `int` becomes `int`, which holds all its values).
    pub(super) fn promoted(self) -> CType {
        match self {
            CType::UInt | CType::Long | CType::ULong => self,
            _ => CType::Int,
        }
    }

    /// The type both operands of an arithmetic operator are converted to (C's usual arithmetic
    /// conversions: promote; then the 64-bit type wins, and a signed 64-bit `long long` holds
    /// every `unsigned int`; among types of one width, unsigned wins).
    pub(super) fn common(self, other: CType) -> CType {
        let (a, b) = (self.promoted(), other.promoted());
        if a == CType::ULong || b == CType::ULong {
            CType::ULong
        } else if a == CType::Long || b == CType::Long {
            CType::Long
        } else if a == CType::UInt || b == CType::UInt {
            CType::UInt
        } else {
            CType::Int
        }
    }

    /// Its bits and signedness, for an integer type (others read as `int`).
    pub(super) fn input_type(self) -> crate::InputType {
        let (bits, signed) = match self {
            CType::Bool => (1, false),
            CType::SChar => (8, true),
            CType::UChar => (8, false),
            CType::Short => (16, true),
            CType::UShort => (16, false),
            CType::UInt => (32, false),
            CType::Long => (64, true),
            CType::ULong => (64, false),
            _ => (32, true),
        };
        crate::InputType { bits, signed }
    }

    /// The width of the IR numbers holding values of this type (pointers and aggregates have
    /// the default).
    pub(super) fn width(self) -> Width {
        match self {
            CType::Long | CType::ULong => Width::W64,
            _ => Width::W32,
        }
    }

    /// The IR constant of this type with the bits of `value` (its low 32 bits for the types
    /// of 32 bits and fewer).
    pub(super) fn constant(self, value: i64) -> Operand {
        match self.width() {
            Width::W64 => Operand::Const64(value),
            Width::W32 => Operand::Const(value as i32),
        }
    }

    /// Whether arithmetic on this (promoted) type reads its operands as unsigned.
    pub(super) fn is_unsigned(self) -> bool {
        matches!(self, CType::UInt | CType::ULong)
    }
}

/// A struct type: its name for messages and its fields (`None` until its definition is seen,
/// or when the definition is outside the subset: then why).
struct StructDef {
    name: String,
    fields: Option<Vec<(String, CType)>>,
    /// For a struct with bit-fields, every member in declaration order with its declared type
    /// and width, unnamed bit-fields too (they take room); empty otherwise (the fields are the
    /// layout).
    bit_layout: Vec<LayoutItem>,
    /// For a union, its members, size and alignment; its `fields` are then the one array
    /// member [`UNION_BYTES`] holding its bytes (`lower/unions.rs`).
    union: Option<UnionDef>,
    /// Defined `__attribute__((packed))`: every member at the next free byte (bit, for a
    /// bit-field), the struct aligned at 1 (gcc's layout). Part of the definition: another
    /// definition of the tag must pack it alike.
    packed: bool,
    refused: Option<CError>,
}

/// A union's members (each at offset 0) and its layout: the largest member's size, rounded up
/// to the strictest member's alignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct UnionDef {
    pub members: Vec<(String, CType)>,
    pub size: i32,
    pub align: i32,
}

/// The name of the `k`-th anonymous member of a struct or union is this and `k` (a `-` is in
/// no C identifier).
pub(super) const ANONYMOUS: &str = "anonymous-";

/// Whether a member's name is an anonymous member's.
pub(super) fn is_anonymous(name: &str) -> bool {
    name.starts_with(ANONYMOUS)
}

/// The name of a union's one field: the array of `unsigned char` holding its bytes.
pub(super) const UNION_BYTES: &str = "bytes";

/// A struct member: its name and type.
type Member = (String, CType);

/// A member as C's layout places it, in a struct with bit-fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LayoutItem {
    declared: CType,
    /// The width of a bit-field.
    bits: Option<u32>,
    /// Whether it is a member (an unnamed bit-field is padding).
    named: bool,
}

/// A bit-field member (`unsigned a : 3`): its width, and whether its declared type is signed.
/// Its value type is what C promotes it to (`int` where every value fits one), and every store
/// into it keeps the low `width` bits, sign-extended where `signed` (`FnCx::bit_field_value`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct BitField {
    pub width: u32,
    pub signed: bool,
}

/// The pointer and struct types of a translation unit, interned so that [`CType`] stays a
/// small copyable value. Struct tags live in one file-wide namespace.
pub(super) struct Types {
    pointees: Vec<CType>,
    structs: Vec<StructDef>,
    /// The element type and dimensions of each array member type.
    arrays: Vec<(CType, Vec<u32>)>,
    /// The parameter and result types of each function type.
    signatures: Vec<(Vec<CType>, CType)>,
    views: Vec<View>,
    tags: HashMap<String, StructId>,
    /// Enumeration constants (one file-wide namespace, like struct tags), and the integer type
    /// of each enum tag.
    enum_constants: HashMap<String, i32>,
    enum_tags: HashMap<String, CType>,
    /// Why an enumeration constant has no value (its enumeration's values could not be
    /// computed), for a use of it to say.
    refused_enum_constants: HashMap<String, CError>,
    /// The bit-field members by name (one namespace for the file, as boxes are decided: a name
    /// is a bit-field of one width in every struct, or in none), and the other members' names.
    bit_fields: HashMap<String, BitField>,
    plain_members: HashSet<String>,
    pointer_bytes: i32,
    /// Whether a union has a pointer member, whose bytes a read of an integer then checks
    /// (`lower/unions.rs`).
    pub pointer_unions: bool,
    /// Whether the struct definition [`Types::struct_type`] meets next is declared packed
    /// (`base_type`: `struct t { ... } __attribute__((packed))`); taken by that definition.
    packing_next: bool,
    /// The struct no file can name that opaque objects of untyped memory are made as
    /// ([`Types::untyped_memory`]), once one is.
    untyped: Option<StructId>,
}

/// Whether a struct member (its name and type) is one leaf of its struct rather than its own
/// leaves ([`Types::leaves_until`]).
pub(super) type WholeMember<'a> = &'a dyn Fn(&str, CType) -> bool;

/// Arrays larger than this many elements in all are refused (each element is a value of every
/// state that holds the array).
pub(super) const MAX_ELEMENTS: u64 = 1 << 20;

/// The dimensions of an array, from the sizes of its declarator's parts (`None`: not a
/// constant), if each is a positive integer and the array holds at most [`MAX_ELEMENTS`]
/// elements; else the refusal, for an array variable or an array `member`.
pub(super) fn array_dimensions(
    sizes: impl IntoIterator<Item = Option<i64>>,
    member: bool,
    at: usize,
) -> Result<Vec<u32>, CError> {
    let arrays = if member { "array members" } else { "arrays" };
    let mut dims = Vec::new();
    for size in sizes {
        match size.and_then(|n| u32::try_from(n).ok()) {
            Some(n) if n > 0 => dims.push(n),
            _ => {
                return Err(CError::unsupported(
                    format!("{arrays} whose size is not a positive integer constant"),
                    at,
                ))
            }
        }
    }
    // Checked: three dimensions of 2^30 would wrap a plain product to 0 and pass the cap.
    let elements = dims
        .iter()
        .try_fold(1u64, |n, &d| n.checked_mul(u64::from(d)));
    if elements.is_none_or(|n| n > MAX_ELEMENTS) {
        return Err(CError::unsupported(
            format!("{arrays} of more than {MAX_ELEMENTS} elements"),
            at,
        ));
    }
    Ok(dims)
}

/// Structs nested (by value) deeper than this are refused.
const MAX_STRUCT_DEPTH: u32 = 64;

impl Types {
    pub(super) fn new(model: DataModel) -> Types {
        Types {
            pointees: Vec::new(),
            structs: Vec::new(),
            arrays: Vec::new(),
            signatures: Vec::new(),
            views: Vec::new(),
            tags: HashMap::new(),
            enum_constants: HashMap::new(),
            enum_tags: HashMap::new(),
            refused_enum_constants: HashMap::new(),
            bit_fields: HashMap::new(),
            plain_members: HashSet::new(),
            pointer_bytes: match model {
                DataModel::Ilp32 => 4,
                DataModel::Lp64 => 8,
            },
            pointer_unions: false,
            packing_next: false,
            untyped: None,
        }
    }

    /// The type `ty *`.
    pub(super) fn pointer_to(&mut self, ty: CType) -> CType {
        CType::Pointer(self.pointee_id(ty))
    }

    /// `ty` with every pointer into arrays as the C pointer it is: what C's type rules see
    /// (a cast to it keeps the representation, `lower/elements.rs`).
    pub(super) fn erased(&mut self, ty: CType) -> CType {
        match ty {
            CType::Pointer(p) | CType::Element(p) => {
                let pointee = self.erased(self.pointee(p));
                self.pointer_to(pointee)
            }
            _ => ty,
        }
    }

    /// The type `ty *` of a pointer into an array of `ty` ([`CType::Element`]).
    pub(super) fn element_pointer_to(&mut self, ty: CType) -> CType {
        CType::Element(self.pointee_id(ty))
    }

    /// The type of a pointer that views bytes as `view` says.
    pub(super) fn view_pointer(&mut self, view: View) -> CType {
        let id = match self.views.iter().position(|&v| v == view) {
            Some(i) => i,
            None => {
                self.views.push(view);
                self.views.len() - 1
            }
        };
        self.element_pointer_to(CType::Byte(ViewId(id as u32)))
    }

    /// What the view `id` sees.
    pub(super) fn view(&self, id: ViewId) -> View {
        self.views[id.0 as usize]
    }

    /// The view a pointer of type `ty` is, if it is one.
    pub(super) fn view_of(&self, ty: CType) -> Option<View> {
        match ty {
            CType::Element(p) => match self.pointee(p) {
                CType::Byte(id) => Some(self.view(id)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The type of the value `*p` designates for a pointer `p` to `pointee`: through a view,
    /// its unit.
    pub(super) fn designated(&self, pointee: CType) -> CType {
        match pointee {
            CType::Byte(id) => self.view(id).unit,
            _ => pointee,
        }
    }

    fn pointee_id(&mut self, ty: CType) -> PointeeId {
        let id = match self.pointees.iter().position(|&t| t == ty) {
            Some(i) => i,
            None => {
                self.pointees.push(ty);
                self.pointees.len() - 1
            }
        };
        PointeeId(id as u32)
    }

    /// `ty` with `levels` pointer levels added.
    pub(super) fn pointer_levels(&mut self, ty: CType, levels: u32) -> CType {
        (0..levels).fold(ty, |ty, _| self.pointer_to(ty))
    }

    pub(super) fn pointee(&self, id: PointeeId) -> CType {
        self.pointees[id.0 as usize]
    }

    /// The type of the elements that objects of type `ty` are in an IR array: an array's
    /// elements (an array is a row-major run of them), else `ty`.
    pub(super) fn flattened(&self, ty: CType) -> CType {
        match ty {
            CType::Array(id) => self.array(id).0,
            _ => ty,
        }
    }

    /// What an array of `element`s with dimensions `dims` used as a value points to: its
    /// elements or, for several dimensions, its rows (a pointer to arrays).
    pub(super) fn decayed_pointee(&mut self, element: CType, dims: &[u32]) -> CType {
        match dims {
            [_, inner @ ..] if !inner.is_empty() => self.array_of(element, inner.to_vec()),
            _ => element,
        }
    }

    /// The pointer an array of type `array` decays into used as a value
    /// ([`Types::decayed_pointee`]); `None` for another type.
    pub(super) fn decayed(&mut self, array: CType) -> Option<CType> {
        let CType::Array(id) = array else {
            return None;
        };
        let (element, dims) = self.array(id);
        let pointee = self.decayed_pointee(element, &dims);
        Some(self.element_pointer_to(pointee))
    }

    /// The type of an array member with elements of type `element` and dimensions `dims`; an
    /// array of arrays (through a typedef) is one array of both dimensions.
    pub(super) fn array_of(&mut self, element: CType, mut dims: Vec<u32>) -> CType {
        let element = match element {
            CType::Array(inner) => {
                let (element, inner_dims) = self.array(inner);
                dims.extend(inner_dims);
                element
            }
            _ => element,
        };
        let entry = (element, dims);
        let id = match self.arrays.iter().position(|a| *a == entry) {
            Some(i) => i,
            None => {
                self.arrays.push(entry);
                self.arrays.len() - 1
            }
        };
        CType::Array(ArrayId(id as u32))
    }

    /// The element type and dimensions of an array member type.
    pub(super) fn array(&self, id: ArrayId) -> (CType, Vec<u32>) {
        self.arrays[id.0 as usize].clone()
    }

    /// The type of a pointer to functions taking `params` and returning `result`.
    pub(super) fn function_pointer(&mut self, params: Vec<CType>, result: CType) -> CType {
        let entry = (params, result);
        let id = match self.signatures.iter().position(|s| *s == entry) {
            Some(i) => i,
            None => {
                self.signatures.push(entry);
                self.signatures.len() - 1
            }
        };
        CType::Function(SignatureId(id as u32))
    }

    /// The parameter and result types of a function type.
    pub(super) fn signature(&self, id: SignatureId) -> &(Vec<CType>, CType) {
        &self.signatures[id.0 as usize]
    }

    /// Whether a value of type `ty` can hold a pointer (a pointer, or a struct or array with
    /// one inside).
    pub(super) fn holds_pointers(&self, ty: CType) -> bool {
        match ty {
            CType::Pointer(_) | CType::Element(_) => true,
            CType::Array(id) => self.holds_pointers(self.array(id).0),
            CType::Struct(_) => self
                .leaves(ty)
                .iter()
                .any(|&(_, leaf)| self.holds_pointers(leaf)),
            _ => false,
        }
    }

    /// The struct's fields in declaration order; `None` while it is incomplete.
    pub(super) fn fields(&self, id: StructId) -> Option<&[(String, CType)]> {
        self.structs[id.0 as usize].fields.as_deref()
    }

    /// Why the struct's definition is outside the subset, if it is.
    pub(super) fn refusal(&self, id: StructId) -> Option<&CError> {
        self.structs[id.0 as usize].refused.as_ref()
    }

    /// The struct's name as C spells it (`struct node`).
    pub(super) fn struct_name(&self, id: StructId) -> &str {
        &self.structs[id.0 as usize].name
    }

    /// The type as C spells it, for messages.
    pub(super) fn describe(&self, ty: CType) -> String {
        match ty {
            CType::Int => "int".into(),
            CType::UInt => "unsigned int".into(),
            CType::Long => "long long".into(),
            CType::ULong => "unsigned long long".into(),
            CType::SChar => "char".into(),
            CType::UChar => "unsigned char".into(),
            CType::Short => "short".into(),
            CType::UShort => "unsigned short".into(),
            CType::Bool => "_Bool".into(),
            CType::Void => "void".into(),
            CType::Pointer(p) | CType::Element(p) => {
                format!("{} *", self.describe(self.pointee(p)))
            }
            CType::Struct(s) => self.struct_name(s).to_string(),
            CType::Function(f) => {
                let (params, result) = self.signature(f);
                let params: Vec<String> = params.iter().map(|&p| self.describe(p)).collect();
                let params = if params.is_empty() {
                    "void".to_string()
                } else {
                    params.join(", ")
                };
                format!("{} (*)({params})", self.describe(*result))
            }
            CType::Array(a) => {
                let (element, dims) = self.array(a);
                let dims: String = dims.iter().map(|d| format!("[{d}]")).collect();
                format!("{}{dims}", self.describe(element))
            }
            CType::Byte(view) => self.describe(self.view(view).unit),
        }
    }

    /// The value of an enumeration constant.
    pub(super) fn enum_constant(&self, name: &str) -> Option<i32> {
        self.enum_constants.get(name).copied()
    }

    /// Why the enumeration constant `name` has no value, if its enumeration was refused.
    pub(super) fn enum_refusal(&self, name: &str) -> Option<&CError> {
        self.refused_enum_constants.get(name)
    }

    /// Defines the enumeration of a specifier (or looks up its tag): its constants get their
    /// values, and the type is gcc's, `unsigned int` unless a constant is negative.
    fn enum_type(
        &mut self,
        unit: &Unit<'_>,
        enumeration: &lang_c::ast::EnumType,
        at: usize,
    ) -> Result<CType, CError> {
        let tag = enumeration.identifier.as_ref().map(|i| i.node.name.clone());
        if enumeration.enumerators.is_empty() {
            return match tag.and_then(|t| self.enum_tags.get(&t).copied()) {
                Some(ty) => Ok(ty),
                None => Err(CError::invalid("an enum used before its definition", at)),
            };
        }
        let mut next: i64 = 0;
        let mut negative = false;
        for enumerator in &enumeration.enumerators {
            let at = unit.at(enumerator.span);
            let value = match &enumerator.node.expression {
                Some(e) => self.constant_value(unit, e),
                None => Ok(next),
            }
            .and_then(|n| {
                i32::try_from(n)
                    .map_err(|_| CError::unsupported("an enumerator value outside `int`", at))
            });
            let value = match value {
                Ok(value) => value,
                Err(why) => {
                    // Its constants and the later ones have no value: a use says why.
                    for rest in &enumeration.enumerators {
                        let name = &rest.node.identifier.node.name;
                        if !self.enum_constants.contains_key(name) {
                            self.refused_enum_constants
                                .insert(name.clone(), why.clone());
                        }
                    }
                    return Err(why);
                }
            };
            next = i64::from(value);
            negative |= value < 0;
            let name = enumerator.node.identifier.node.name.clone();
            if self
                .enum_constants
                .insert(name.clone(), value)
                .is_some_and(|old| old != value)
            {
                return Err(CError::unsupported(
                    format!("a second enumeration constant `{name}` (one namespace for the file)"),
                    at,
                ));
            }
            next += 1;
        }
        let ty = if negative { CType::Int } else { CType::UInt };
        if let Some(tag) = tag {
            self.enum_tags.insert(tag, ty);
        }
        Ok(ty)
    }

    /// The value of an integer constant expression in a type definition (an enumerator's
    /// value, an array member's size): no variable is in scope there.
    fn constant_value(
        &mut self,
        unit: &Unit<'_>,
        e: &Node<lang_c::ast::Expression>,
    ) -> Result<i64, CError> {
        let scope = DefinitionScope {
            unit,
            types: std::cell::RefCell::new(self),
        };
        constant::evaluate(&scope, e).map(|(value, _)| value)
    }

    /// The struct a tag names, declared (incomplete) at its first mention.
    fn tag(&mut self, kind: &str, tag: &str) -> StructId {
        if let Some(&id) = self.tags.get(tag) {
            return id;
        }
        let id = self.anonymous(format!("{kind} {tag}"));
        self.tags.insert(tag.to_string(), id);
        id
    }

    /// The type of an allocation of bytes that is only ever a `void *` (`void *p =
    /// malloc(n);`): a struct never defined (an opaque object, `lower/allocation.rs`), of a
    /// name no C tag can spell, so that its type tag matches no type a program converts to.
    pub(super) fn untyped_memory(&mut self) -> CType {
        let id = match self.untyped {
            Some(id) => id,
            None => {
                let id = self.anonymous("untyped memory".into());
                self.untyped = Some(id);
                id
            }
        };
        CType::Struct(id)
    }

    fn anonymous(&mut self, name: String) -> StructId {
        self.structs.push(StructDef {
            name,
            fields: None,
            bit_layout: Vec::new(),
            union: None,
            packed: false,
            refused: None,
        });
        StructId(self.structs.len() as u32 - 1)
    }

    /// `sizeof` of a complete type, in bytes, with C's alignment on x86 (ILP32 or LP64).
    pub(super) fn size(&self, ty: CType) -> Option<i32> {
        self.layout(ty, 0).map(|(size, _)| size)
    }

    /// `sizeof(ty)` in a program, or why there is none: a struct outside the subset says why
    /// (a flexible array member, a layout attribute).
    pub(super) fn size_of_type(&self, ty: CType, at: usize) -> Result<i32, CError> {
        match self.size(ty) {
            Some(size) if ty != CType::Void => Ok(size),
            _ if let CType::Struct(id) = ty
                && let Some(refusal) = self.refusal(id) =>
            {
                Err(refusal.clone())
            }
            _ => Err(CError::unsupported("`sizeof` of this type", at)),
        }
    }

    /// `_Alignof` of a complete type, in bytes (the alignment `sizeof` pads to).
    pub(super) fn alignment(&self, ty: CType) -> Option<i32> {
        self.layout(ty, 0).map(|(_, align)| align)
    }

    /// GNU's `__alignof__` of a complete type: its preferred alignment, which i386 makes 8 for
    /// `long long` and arrays of it (members are still aligned at 4, so structs keep theirs).
    pub(super) fn preferred_alignment(&self, ty: CType) -> Option<i32> {
        match ty {
            CType::Long | CType::ULong => Some(8),
            CType::Array(id) => self.preferred_alignment(self.array(id).0),
            _ => self.alignment(ty),
        }
    }

    /// Size and alignment.
    fn layout(&self, ty: CType, depth: u32) -> Option<(i32, i32)> {
        Some(match ty {
            CType::Int | CType::UInt => (4, 4),
            // i386 aligns `long long` members at 4 bytes.
            CType::Long | CType::ULong => (8, self.pointer_bytes),
            CType::Short | CType::UShort => (2, 2),
            CType::SChar | CType::UChar | CType::Bool | CType::Void | CType::Byte(_) => (1, 1),
            CType::Pointer(_) | CType::Element(_) | CType::Function(_) => {
                (self.pointer_bytes, self.pointer_bytes)
            }
            // A refused struct has no size (its layout may be another than C's default).
            CType::Struct(id) => {
                let (_, size, align) = self.struct_layout(id, depth)?;
                (size, align)
            }
            CType::Array(id) => {
                let (element, dims) = self.array(id);
                let (size, align) = self.layout(element, depth + 1)?;
                let size = dims
                    .iter()
                    .try_fold(size, |size, &d| size.checked_mul(i32::try_from(d).ok()?))?;
                (size, align)
            }
        })
    }

    /// The integer leaves of the struct `ty` with their offsets in bytes (C's layout, as
    /// [`Types::size`] computes it), if every leaf is an integer other than `_Bool`: the
    /// structs whose bytes a union holds (`Types::union_def`). The bytes between leaves are
    /// padding.
    pub(super) fn integer_layout(&self, ty: CType) -> Option<Vec<(String, CType, i32)>> {
        let CType::Struct(_) = ty else {
            return None;
        };
        let mut out = Vec::new();
        self.collect_offsets(ty, "", 0, (&mut out, None), 0)?;
        Some(out)
    }

    /// The bytes of the struct `ty` as a view sees them (`lower/view_access.rs`): its integer
    /// leaves as [`Types::integer_layout`] gives them and its `_Bool`s among them, and the
    /// byte ranges of its pointer leaves, whose bytes symex does not model (a pointer is no
    /// number here). `None` where a leaf is an array or the struct has bit-fields.
    pub(super) fn byte_layout(&self, ty: CType) -> Option<ByteLayout> {
        let CType::Struct(_) = ty else {
            return None;
        };
        let mut layout = ByteLayout::default();
        let parts = (&mut layout.integers, Some(&mut layout.opaque));
        self.collect_offsets(ty, "", 0, parts, 0)?;
        Some(layout)
    }

    /// Collects the leaves of `ty` at `offset` (named by `prefix`): integers into the first
    /// list, and where there is a second, `_Bool`s into the first and pointers as byte ranges
    /// into the second (fails otherwise, as on arrays and bit-fields).
    fn collect_offsets(
        &self,
        ty: CType,
        prefix: &str,
        offset: i32,
        (integers, opaque): LeafLists<'_>,
        depth: u32,
    ) -> Option<()> {
        let CType::Struct(id) = ty else {
            // A view sees a `_Bool`'s byte (0 or 1) where it sees pointers' bytes too.
            if ty.is_number() && (ty != CType::Bool || opaque.is_some()) {
                integers.push((prefix.to_string(), ty, offset));
                return Some(());
            }
            let pointer = matches!(
                ty,
                CType::Pointer(_) | CType::Element(_) | CType::Function(_)
            );
            let opaque = opaque.filter(|_| pointer)?;
            opaque.push((offset, self.size(ty)?));
            return Some(());
        };
        // A bit-field's bytes hold other members' bits too: no view sees them.
        if !self.structs[id.0 as usize].bit_layout.is_empty() {
            return None;
        }
        let (offsets, _, _) = self.struct_layout(id, depth)?;
        let mut opaque = opaque;
        for ((name, field), at) in self.fields(id)?.iter().zip(offsets) {
            let path = match prefix {
                "" => name.clone(),
                _ => format!("{prefix}.{name}"),
            };
            let at = offset.checked_add(at)?;
            let parts = (&mut *integers, opaque.as_deref_mut());
            self.collect_offsets(*field, &path, at, parts, depth + 1)?;
        }
        Some(())
    }

    /// The byte offset of each member of the struct `id` (C's default layout, as `sizeof`).
    pub(super) fn member_offsets(&self, id: StructId) -> Option<Vec<i32>> {
        self.struct_layout(id, 0).map(|(offsets, _, _)| offsets)
    }

    /// The offsets of the struct's members, its size and its alignment (C's default layout);
    /// `None` for a struct nested too deep, incomplete, or refused (its layout may be another,
    /// `layout_refusal`: it has no size).
    fn struct_layout(&self, id: StructId, depth: u32) -> Option<(Vec<i32>, i32, i32)> {
        if depth >= MAX_STRUCT_DEPTH || self.refusal(id).is_some() {
            return None;
        }
        let fields = self.fields(id)?;
        if let Some(union) = &self.structs[id.0 as usize].union {
            return Some((vec![0], union.size, union.align));
        }
        let packed = self.structs[id.0 as usize].packed;
        let bit_layout = &self.structs[id.0 as usize].bit_layout;
        if !bit_layout.is_empty() {
            return self.bit_field_layout(bit_layout, packed, depth);
        }
        let mut offsets = Vec::with_capacity(fields.len());
        let (mut size, mut align) = (0i32, 1i32);
        for &(_, field) in fields {
            let (field_size, field_align) = self.layout(field, depth + 1)?;
            let field_align = if packed { 1 } else { field_align };
            size = size.checked_add(field_align - 1)? / field_align * field_align;
            offsets.push(size);
            size = size.checked_add(field_size)?;
            align = align.max(field_align);
        }
        let size = (size.checked_add(align - 1)? / align * align).max(0);
        Some((offsets, size, align))
    }

    /// [`Types::struct_layout`] of a struct with bit-fields, as gcc lays them out on x86 (the
    /// System V ABI, gcc's `excess_unit_span`): a bit-field goes at the next free bit unless it
    /// would then span more units of its declared type's alignment than the type has, where it
    /// starts at the next such unit (on x86-64, where every integer type's alignment is its
    /// size: unless it would cross a boundary of its type's size); an unnamed one of width 0
    /// pads to its type's alignment and, as unnamed ones do, does not align the struct. A
    /// bit-field's offset is the byte holding its first bit.
    fn bit_field_layout(
        &self,
        items: &[LayoutItem],
        packed: bool,
        depth: u32,
    ) -> Option<(Vec<i32>, i32, i32)> {
        let round_up = |n: i64, to: i64| (n + to - 1) / to * to;
        let mut offsets = Vec::with_capacity(items.len());
        let (mut bit, mut align) = (0i64, 1i32);
        for item in items {
            let (size, item_align) = self.layout(item.declared, depth + 1)?;
            if packed {
                // Packed: the next free bit, or byte; a width of 0 is refused where declared.
                let at = match item.bits {
                    None => round_up(bit, 8),
                    Some(_) => bit,
                };
                if item.named {
                    offsets.push(i32::try_from(at / 8).ok()?);
                }
                bit = at + item.bits.map_or(i64::from(size) * 8, i64::from);
                continue;
            }
            let (size, item_align64) = (i64::from(size), i64::from(item_align));
            match item.bits {
                None => {
                    let at = round_up(round_up(bit, 8) / 8, item_align64);
                    offsets.push(i32::try_from(at).ok()?);
                    bit = (at + size) * 8;
                }
                Some(0) => bit = round_up(bit, item_align64 * 8),
                Some(width) => {
                    let unit = item_align64 * 8;
                    let spanned = (bit + i64::from(width) - 1) / unit - bit / unit + 1;
                    if spanned > size * 8 / unit {
                        bit = round_up(bit, unit);
                    }
                    if item.named {
                        offsets.push(i32::try_from(bit / 8).ok()?);
                    }
                    bit += i64::from(width);
                }
            }
            if item.named {
                align = align.max(item_align);
            }
        }
        let size = round_up(round_up(bit, 8) / 8, i64::from(align));
        Some((offsets, i32::try_from(size).ok()?, align))
    }

    /// The leaves of a value of type `ty` in memory, in declaration order: the dotted path of
    /// each scalar or array member inside nested structs (`""` for a scalar itself) and its
    /// type. An array member is one leaf (it lives in a box, `lower/memory.rs`).
    pub(super) fn leaves(&self, ty: CType) -> Vec<(String, CType)> {
        self.leaves_until(ty, &|_, _| false)
    }

    /// [`Types::leaves`], where a struct member for which `whole(name, type)` holds is one
    /// leaf of its struct type (a member in a box of its own, `lower/memory.rs`).
    pub(super) fn leaves_until(&self, ty: CType, whole: WholeMember) -> Vec<(String, CType)> {
        let mut out = Vec::new();
        self.collect_leaves(ty, "", &mut out, (0, whole));
        out
    }

    fn collect_leaves(
        &self,
        ty: CType,
        prefix: &str,
        out: &mut Vec<(String, CType)>,
        (depth, whole): (u32, WholeMember),
    ) {
        let CType::Struct(id) = ty else {
            out.push((prefix.to_string(), ty));
            return;
        };
        if depth >= MAX_STRUCT_DEPTH {
            return;
        }
        for (name, field) in self.fields(id).unwrap_or_default() {
            let path = match prefix {
                "" => name.clone(),
                _ => format!("{prefix}.{name}"),
            };
            match whole(name, *field) {
                true => out.push((path, *field)),
                false => self.collect_leaves(*field, &path, out, (depth + 1, whole)),
            }
        }
    }

    /// Defines the struct or union of a specifier (or looks up its tag).
    fn struct_type(
        &mut self,
        unit: &Unit<'_>,
        st: &StructType,
        at: usize,
    ) -> Result<CType, CError> {
        let is_union = st.kind.node == StructKind::Union;
        let kind = if is_union { "union" } else { "struct" };
        let tag = st.identifier.as_ref().map(|i| i.node.name.as_str());
        let Some(declarations) = &st.declarations else {
            return match tag {
                Some(tag) => Ok(CType::Struct(self.tag(kind, tag))),
                None => Err(CError::invalid(
                    format!("a {kind} without a tag or members"),
                    at,
                )),
            };
        };
        // Taken before the members, whose own definitions are never packed.
        let packed = std::mem::take(&mut self.packing_next);
        let id = match tag {
            Some(tag) => self.tag(kind, tag),
            None => self.anonymous(format!("an anonymous {kind}")),
        };
        let fields =
            self.struct_fields(unit, id, declarations, at)
                .and_then(|(fields, bit_layout)| match is_union {
                    true => (self.union_def(fields, &bit_layout, at))
                        .map(|(bytes, union)| (bytes, Vec::new(), Some(union))),
                    false => Ok((fields, bit_layout, None)),
                });
        let def = &mut self.structs[id.0 as usize];
        let (fields, bit_layout, union) = match fields {
            Ok(fields) => fields,
            Err(e) => {
                def.refused.get_or_insert(e.clone());
                return Err(e);
            }
        };
        match &def.fields {
            Some(existing) if *existing != fields || def.union != union || def.packed != packed => {
                Err(CError::unsupported(
                    format!(
                        "a second, different definition of `{}` (struct tags have one namespace \
                     for the whole file here)",
                        def.name
                    ),
                    at,
                ))
            }
            _ => {
                def.fields = Some(fields);
                def.bit_layout = bit_layout;
                def.union = union;
                def.packed = packed;
                Ok(CType::Struct(id))
            }
        }
    }

    /// A union of the members `members` (`bit_layout`: its bit-fields): its one field, the
    /// array of its bytes, and its [`UnionDef`]. Its members are what a view sees in bytes
    /// (`lower/unions.rs`): integers other than `_Bool`, arrays of them and structs of them;
    /// the others are refused.
    fn union_def(
        &mut self,
        members: Vec<Member>,
        bit_layout: &[LayoutItem],
        at: usize,
    ) -> Result<(Vec<Member>, UnionDef), CError> {
        if !bit_layout.is_empty() {
            return Err(CError::unsupported("bit-fields in unions", at));
        }
        let (mut size, mut align) = (0, 1);
        for (name, ty) in &members {
            let element = match *ty {
                CType::Array(id) => self.array(id).0,
                other => other,
            };
            let in_bytes = match element {
                // A union inside (not in an array): its bytes are the outer union's, where all
                // its members live in them (no pointer member: no field beside the bytes).
                CType::Struct(inner) if self.union_members(inner).is_some() => {
                    element == *ty && self.union_in_bytes(inner)
                }
                CType::Struct(_) => self.integer_layout(element).is_some(),
                // A pointer member has a field of its own (`lower/unions.rs`).
                CType::Pointer(_) | CType::Element(_) => element == *ty && name != UNION_BYTES,
                _ => element.is_number() && element != CType::Bool,
            };
            if !in_bytes {
                return Err(CError::unsupported(
                    format!(
                        "the union member `{name}` of type `{}` (symex models a union as its \
                         bytes, so its members are integers other than `_Bool`, arrays of \
                         them, structs of them, and pointers other than function pointers)",
                        self.describe(*ty)
                    ),
                    at,
                ));
            }
            let (member_size, member_align) = self.layout(*ty, 0).ok_or_else(|| {
                CError::unsupported(format!("the layout of the union member `{name}`"), at)
            })?;
            size = size.max(member_size);
            align = align.max(member_align);
        }
        if members.is_empty() {
            return Err(CError::unsupported("a union without members", at));
        }
        let size = (size + align - 1) / align * align;
        let bytes = self.array_of(CType::UChar, vec![size as u32]);
        let mut fields = vec![(UNION_BYTES.to_string(), bytes)];
        let pointers = members.iter().filter(|(_, ty)| !ty.is_number());
        fields.extend(pointers.filter(|(_, ty)| ty.is_scalar()).cloned());
        self.pointer_unions |= fields.len() > 1;
        let union = UnionDef {
            members,
            size,
            align,
        };
        Ok((fields, union))
    }

    /// Whether `id` is a union all of whose members live in its bytes (no pointer member: a
    /// field of its own beside them).
    pub(super) fn union_in_bytes(&self, id: StructId) -> bool {
        self.union_members(id).is_some() && self.fields(id).is_some_and(|f| f.len() == 1)
    }

    /// The members of the union `id`; `None` for a struct (or an incomplete union).
    pub(super) fn union_members(&self, id: StructId) -> Option<&[(String, CType)]> {
        let union = self.structs[id.0 as usize].union.as_ref()?;
        Some(&union.members)
    }

    /// The type of the member `name` of the struct or union `id`, if it has one (also a member
    /// of an anonymous member).
    pub(super) fn member_type(&self, id: StructId, name: &str) -> Option<CType> {
        self.member_path(id, name)?.last().map(|step| step.2)
    }

    /// How the member `name` of the struct or union `id` is reached: the member itself, or
    /// C11's anonymous members it lies in and then it (`n.number` of `struct node { int kind;
    /// union { int number; ... }; }` is `n.anonymous-1.number`), each step with the struct or
    /// union it is a member of and its type.
    pub(super) fn member_path(
        &self,
        id: StructId,
        name: &str,
    ) -> Option<Vec<(StructId, String, CType)>> {
        self.member_path_at(id, name, 0)
    }

    fn member_path_at(
        &self,
        id: StructId,
        name: &str,
        depth: u32,
    ) -> Option<Vec<(StructId, String, CType)>> {
        let members = match self.union_members(id) {
            Some(members) => members,
            None => self.fields(id)?,
        };
        if let Some((_, ty)) = members.iter().find(|(f, _)| f == name) {
            return Some(vec![(id, name.to_string(), *ty)]);
        }
        if depth >= MAX_STRUCT_DEPTH {
            return None;
        }
        members.iter().find_map(|(member, ty)| {
            let CType::Struct(inner) = ty else {
                return None;
            };
            if !is_anonymous(member) {
                return None;
            }
            let mut path = self.member_path_at(*inner, name, depth + 1)?;
            path.insert(0, (id, member.clone(), *ty));
            Some(path)
        })
    }

    /// The members of the definition of struct `id`.
    fn struct_fields(
        &mut self,
        unit: &Unit<'_>,
        id: StructId,
        declarations: &[Node<StructDeclaration>],
        at: usize,
    ) -> Result<(Vec<Member>, Vec<LayoutItem>), CError> {
        let mut fields: Vec<(String, CType)> = Vec::new();
        let mut layout: Vec<LayoutItem> = Vec::new();
        for declaration in declarations {
            let StructDeclaration::Field(field) = &declaration.node else {
                return Err(CError::unsupported("`_Static_assert`", at));
            };
            let at = unit.at(field.span);
            let extensions = (field.node.specifiers.iter()).filter_map(|s| match &s.node {
                SpecifierQualifier::Extension(e) => Some(e),
                _ => None,
            });
            let declared = (field.node.declarators.iter())
                .filter_map(|d| d.node.declarator.as_ref())
                .map(|d| &d.node.extensions);
            if let Some(e) = layout_refusal(extensions.chain(declared).flatten(), at) {
                return Err(e);
            }
            let base = type_of(unit, self, &specifier_types(&field.node.specifiers), at)?;
            // C11's anonymous members (`union { int i; char c; };` inside a struct or union)
            // have no declarator: a member of a name no identifier has, whose own members
            // `Types::member_path` finds.
            if field.node.declarators.is_empty() {
                // Only an untagged definition is one (gcc ignores `struct tag;` here).
                let untagged = specifier_types(&field.node.specifiers).iter().any(|t| {
                    matches!(&t.node, TypeSpecifier::Struct(st)
                        if st.node.identifier.is_none() && st.node.declarations.is_some())
                });
                if !untagged {
                    return Err(CError::unsupported(
                        "a member declaration without a name other than an untagged struct or \
                         union (C11's anonymous members)",
                        at,
                    ));
                }
                let anonymous = fields.iter().filter(|(f, _)| is_anonymous(f)).count();
                let name = format!("{ANONYMOUS}{}", anonymous + 1);
                layout.push(LayoutItem {
                    declared: base,
                    bits: None,
                    named: true,
                });
                fields.push((name, base));
                continue;
            }
            for declarator in &field.node.declarators {
                if let Some(width) = &declarator.node.bit_width {
                    let name = (declarator.node.declarator.as_ref())
                        .and_then(|d| declarator_shape(&d.node).0);
                    let width = self.constant_value(unit, width)?;
                    let (item, member) = self.bit_field(name, base, width, at)?;
                    if let Some((name, ty)) = member {
                        if fields.iter().any(|(other, _)| *other == name) {
                            return Err(CError::invalid(
                                format!("the member `{name}` is declared twice"),
                                at,
                            ));
                        }
                        fields.push((name, ty));
                    }
                    layout.push(item);
                    continue;
                }
                let Some(declarator) = &declarator.node.declarator else {
                    return Err(CError::unsupported("anonymous struct members", at));
                };
                let (name, shape) = declarator_shape(&declarator.node);
                let plain = plain_type(unit, self, base, &shape, at)?;
                let ty = match shape {
                    Shape::Plain(_)
                    | Shape::FunctionPointer { array: false, .. }
                    | Shape::ArrayPointer { .. } => {
                        let declared = plain.unwrap_or(base);
                        let name = name.as_deref().unwrap_or_default();
                        let location = Location::Member(name);
                        let ty = (unit.elements).representation(location, declared, self);
                        if ty != declared && unit.boxed_members.contains(name) {
                            return Err(CError::unsupported(
                                format!(
                                    "the address of the member `{name}`, a pointer into arrays"
                                ),
                                at,
                            ));
                        }
                        ty
                    }
                    Shape::Array(_) | Shape::FunctionPointer { array: true, .. } => {
                        let (element, levels) = array_element(unit, self, base, &shape, at)?;
                        let derived = &unparenthesized(declarator).node.derived[levels as usize..];
                        let dims = self.declared_dimensions(unit, derived, true, at)?;
                        self.array_of(element, dims)
                    }
                    other => {
                        return Err(CError::unsupported(
                            format!("struct members of {}", other.describe()),
                            at,
                        ))
                    }
                };
                let name = name.unwrap_or_default();
                let element = match ty {
                    CType::Array(array) => self.array(array).0,
                    _ => ty,
                };
                if element == CType::Void || element == CType::Struct(id) {
                    return Err(CError::invalid(
                        format!("the member `{name}` has an incomplete type"),
                        at,
                    ));
                }
                if let CType::Struct(inner) = element {
                    if self.fields(inner).is_none() {
                        // A definition symex refused is no incomplete type: its refusal says why.
                        return Err(self.refusal(inner).cloned().unwrap_or_else(|| {
                            CError::invalid(
                                format!("the member `{name}` has an incomplete type"),
                                at,
                            )
                        }));
                    }
                }
                if fields.iter().any(|(other, _)| *other == name) {
                    return Err(CError::invalid(
                        format!("the member `{name}` is declared twice"),
                        at,
                    ));
                }
                if self.bit_fields.contains_key(&name) {
                    return Err(mixed_bit_field(&name, at));
                }
                self.plain_members.insert(name.clone());
                layout.push(LayoutItem {
                    declared: ty,
                    bits: None,
                    named: true,
                });
                fields.push((name, ty));
            }
        }
        // Without bit-fields the members are the layout.
        if layout.iter().all(|item| item.bits.is_none()) {
            layout.clear();
        }
        Ok((fields, layout))
    }

    /// The bit-field `name : width` of the declared type `declared`: its place in the layout
    /// and, where named, the member (of the type C promotes its values to).
    fn bit_field(
        &mut self,
        name: Option<String>,
        declared: CType,
        width: i64,
        at: usize,
    ) -> Result<(LayoutItem, Option<Member>), CError> {
        let bits = i64::from(self.size(declared).unwrap_or(0)) * 8;
        if !declared.is_number() {
            return Err(CError::invalid(
                "a bit-field of a type other than an integer type",
                at,
            ));
        }
        if width < 0 || width > bits || (width == 0 && name.is_some()) {
            return Err(CError::invalid(
                format!("a bit-field width of {width} for a type of {bits} bits"),
                at,
            ));
        }
        if width > 32 && width < bits {
            // gcc computes with such a field's own width (`s.x + 1` of a 40-bit field wraps
            // at 2^40), a type symex does not have.
            return Err(CError::unsupported(
                format!("a bit-field of {width} bits (wider than `int`, narrower than its type)"),
                at,
            ));
        }
        let width = width as u32;
        let item = LayoutItem {
            declared,
            bits: Some(width),
            named: name.is_some(),
        };
        let Some(name) = name else {
            return Ok((item, None));
        };
        let signed = !declared.is_unsigned()
            && !matches!(declared, CType::UChar | CType::UShort | CType::Bool);
        let field = BitField { width, signed };
        if self.plain_members.contains(&name)
            || self.bit_fields.get(&name).is_some_and(|f| *f != field)
        {
            return Err(mixed_bit_field(&name, at));
        }
        self.bit_fields.insert(name.clone(), field);
        // C's promotion: `int` where every value fits one, else `unsigned int`, else the type.
        let fits_int = width < 32 || (width == 32 && signed);
        let ty = match declared {
            CType::Bool => CType::Bool,
            _ if fits_int => CType::Int,
            _ if width == 32 => CType::UInt,
            _ => declared,
        };
        Ok((item, Some((name, ty))))
    }

    /// The bit-field member `name`, if it is one.
    pub(super) fn bit_field_named(&self, name: &str) -> Option<BitField> {
        self.bit_fields.get(name).copied()
    }

    /// The dimensions of an array member (`int a[4][N]`) or of an array typedef (`member`
    /// false): positive integer constants; a flexible array member (`int a[]`) is refused.
    fn declared_dimensions(
        &mut self,
        unit: &Unit<'_>,
        derived: &[Node<DerivedDeclarator>],
        member: bool,
        at: usize,
    ) -> Result<Vec<u32>, CError> {
        let mut sizes = Vec::with_capacity(derived.len());
        for part in derived {
            let size = match &part.node {
                DerivedDeclarator::Array(array) => match &array.node.size {
                    ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                        constant::dimension(self.constant_value(unit, e))?
                    }
                    _ if member => {
                        return Err(CError::unsupported(
                            "flexible array members (`T a[]` in a struct)",
                            at,
                        ))
                    }
                    _ => None,
                },
                _ => return Err(CError::unsupported("struct members of this array type", at)),
            };
            sizes.push(size);
        }
        array_dimensions(sizes, member, at)
    }
}

/// What a declarator makes of its base type (C writes pointer levels before the array or
/// function part: `int *a[3]` is an array of pointers, `struct s *f(void)` returns a pointer).
#[derive(Clone, Copy)]
pub(super) enum Shape<'a> {
    /// The base type behind this many pointer levels (0: the base type itself).
    Plain(u32),
    /// An array (its dimensions are the declarator's array parts) of elements of the base type
    /// behind this many pointer levels.
    Array(u32),
    /// A function returning the base type behind this many pointer levels; `None` for an empty
    /// old-style list `f()` (no parameters in a definition).
    Function(Option<&'a Node<FunctionDeclarator>>, u32),
    /// A pointer to functions (`int (*f)(int)`): their parameters (`None` for an empty list
    /// `()`), the pointer levels of their result over the base type, and the pointer levels
    /// of the declared name (1 for a function pointer, 2 for a pointer to one, ...); with
    /// `array`, an array of them (`int (*f[4])(int)`, its dimensions the array parts of
    /// [`unparenthesized`] after the `levels`).
    FunctionPointer {
        function: Option<&'a Node<FunctionDeclarator>>,
        result_levels: u32,
        levels: u32,
        array: bool,
    },
    /// A pointer to arrays (`int (*p)[3]`): the pointer levels of the declared name (1 for a
    /// pointer to arrays), the pointer levels of the arrays' elements over the base type, and
    /// the array parts giving their dimensions.
    ArrayPointer {
        levels: u32,
        element_levels: u32,
        dims: &'a [Node<DerivedDeclarator>],
    },
    /// Old-style (K&R) parameter lists, arrays of function pointers and other nested
    /// declarators.
    Other,
}

impl Shape<'_> {
    pub(super) fn describe(&self) -> &'static str {
        match self {
            Shape::Plain(0) => "a plain declaration",
            Shape::Plain(_) => "pointer types",
            Shape::Array(_) => "array types",
            Shape::Function(..) => "function types here",
            Shape::FunctionPointer { .. } => "function pointer types here",
            Shape::ArrayPointer { .. } => "pointers to arrays here",
            Shape::Other => {
                "this declarator (K&R parameters, arrays of function pointers or functions \
                 returning them without a typedef, nested declarators)"
            }
        }
    }
}

/// The declarator itself, or the one inside its parentheses where they add nothing
/// (`int (a[3])`) or only the functions of an array of function pointers (`int (*a[3])(int)`):
/// the one whose array parts give an array's dimensions.
pub(super) fn unparenthesized(declarator: &Node<Declarator>) -> &Node<Declarator> {
    match &declarator.node.kind.node {
        DeclaratorKind::Declarator(inner) if declarator.node.derived.is_empty() => {
            unparenthesized(inner)
        }
        DeclaratorKind::Declarator(inner)
            if matches!(
                declarator_shape(&declarator.node).1,
                Shape::FunctionPointer { array: true, .. }
            ) =>
        {
            unparenthesized(inner)
        }
        _ => declarator,
    }
}

/// The declared name (none for an abstract declarator) and the declarator's shape.
pub(super) fn declarator_shape(declarator: &Declarator) -> (Option<String>, Shape<'_>) {
    let (name, nested) = match &declarator.kind.node {
        DeclaratorKind::Identifier(id) => (Some(id.node.name.clone()), None),
        DeclaratorKind::Abstract => (None, None),
        // Parentheses around the bare name add nothing: `int (f)(int)` declares the function
        // `f` (libraries write it so that a macro of the same name is not expanded).
        DeclaratorKind::Declarator(inner) => match bare_name(&inner.node) {
            Some(name) => (Some(name), None),
            None => (None, Some(inner)),
        },
    };
    if let Some(inner) = nested {
        let (name, inner_shape) = declarator_shape(&inner.node);
        if declarator.derived.is_empty() {
            return (name, inner_shape);
        }
        // `(*name)` inside, a function's parameters outside: a pointer to functions.
        let result_levels = (declarator.derived.iter())
            .take_while(|d| matches!(d.node, DerivedDeclarator::Pointer(_)))
            .count();
        let function = match &declarator.derived[result_levels..] {
            [f] => match &f.node {
                DerivedDeclarator::Function(f) => Some(Some(f)),
                DerivedDeclarator::KRFunction(names) if names.is_empty() => Some(None),
                _ => None,
            },
            _ => None,
        };
        let (levels, array) = match inner_shape {
            Shape::Plain(levels) => (levels, false),
            Shape::Array(levels) => (levels, true),
            _ => (0, false),
        };
        let arrays = &declarator.derived[result_levels..];
        let all_arrays = (arrays.iter()).all(|d| matches!(d.node, DerivedDeclarator::Array(_)));
        return match function {
            Some(function) if levels > 0 => (
                name,
                Shape::FunctionPointer {
                    function,
                    result_levels: result_levels as u32,
                    levels,
                    array,
                },
            ),
            None if levels > 0 && !array && all_arrays => (
                name,
                Shape::ArrayPointer {
                    levels,
                    element_levels: result_levels as u32,
                    dims: arrays,
                },
            ),
            _ => (name, Shape::Other),
        };
    }
    let derived: Vec<&DerivedDeclarator> = declarator.derived.iter().map(|d| &d.node).collect();
    let levels = derived
        .iter()
        .take_while(|d| matches!(d, DerivedDeclarator::Pointer(_)))
        .count();
    let rest = &derived[levels..];
    let levels = levels as u32;
    let shape = match rest {
        [] => Shape::Plain(levels),
        [DerivedDeclarator::Function(f)] => Shape::Function(Some(f), levels),
        [DerivedDeclarator::KRFunction(names)] if names.is_empty() => Shape::Function(None, levels),
        parts
            if parts
                .iter()
                .all(|d| matches!(d, DerivedDeclarator::Array(_))) =>
        {
            Shape::Array(levels)
        }
        _ => Shape::Other,
    };
    (name, shape)
}

/// The name a declarator declares where it is nothing but the name, in parentheses or not.
fn bare_name(declarator: &Declarator) -> Option<String> {
    if !declarator.derived.is_empty() {
        return None;
    }
    match &declarator.kind.node {
        DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
        DeclaratorKind::Declarator(inner) => bare_name(&inner.node),
        DeclaratorKind::Abstract => None,
    }
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
    types: &mut Types,
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
    let words_fit = int <= 1 && signed + unsigned <= 1 && char + short <= 1 && long <= 2;
    let wide = long == 2 || (long == 1 && unit.options.data_model == DataModel::Lp64);
    if integer_words == kinds.len() && words_fit && char + short + long <= 2 {
        // In ILP32 `long` has the width of `int`, and C's conversions treat them alike there
        // (a `long` cannot hold every `unsigned int`, so both become `unsigned long`).
        let ty = match (char, short, unsigned) {
            _ if char + short > 0 && long > 0 => None,
            (1, _, _) if int == 1 => None,
            _ if wide && unsigned == 0 => Some(CType::Long),
            _ if wide => Some(CType::ULong),
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
        [T::Struct(st)] => types.struct_type(unit, &st.node, at),
        [T::Enum(e)] => types.enum_type(unit, &e.node, at),
        // GNU C's `typeof`: of a type name, that type; of an expression, the type a function
        // body found for it before this type was asked for (`FnCx::note_typeofs`).
        [T::TypeOf(of)] => match &of.node {
            lang_c::ast::TypeOf::Type(name) => type_name_in(unit, types, &name.node, at),
            lang_c::ast::TypeOf::Expression(e) => {
                let found = unit.typeof_types.borrow().get(&e.span.start).copied();
                found.ok_or_else(|| {
                    CError::unsupported(
                        "`typeof` of this expression (of variables, `*p`, members and casts \
                         it is supported)",
                        at,
                    )
                })
            }
        },
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
                    "type `{}` (the integer types, pointers and structs are supported so far)",
                    words.join(" ")
                ),
                at,
            ))
        }
    }
}

/// The type specifiers among a list of specifiers and qualifiers.
fn specifier_types(specifiers: &[Node<SpecifierQualifier>]) -> Vec<&Node<TypeSpecifier>> {
    specifiers
        .iter()
        .filter_map(|s| match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => Some(t),
            _ => None,
        })
        .collect()
}

/// The type a function-pointer declarator (`int *(*f)(char, int)`, [`Shape::FunctionPointer`])
/// gives over the base type of its result, `base`: a [`CType::Function`] behind
/// `levels - 1` more pointer levels. The parameters are C's types as written (an empty list
/// `()`, variadic functions and array parameters are refused).
pub(super) fn function_pointer(
    unit: &Unit<'_>,
    types: &mut Types,
    base: CType,
    function: Option<&Node<FunctionDeclarator>>,
    (result_levels, levels): (u32, u32),
    at: usize,
) -> Result<CType, CError> {
    let Some(function) = function else {
        return Err(CError::unsupported(
            "a function pointer type with an empty parameter list `()` (its calls could pass \
             anything; write `(void)` or the parameters)",
            at,
        ));
    };
    if function.node.ellipsis == lang_c::ast::Ellipsis::Some {
        return Err(CError::unsupported("pointers to variadic functions", at));
    }
    let mut params = Vec::with_capacity(function.node.parameters.len());
    for param in &function.node.parameters {
        let at = unit.at(param.span);
        let specifiers: Vec<&Node<TypeSpecifier>> = (param.node.specifiers.iter())
            .filter_map(|s| match &s.node {
                DeclarationSpecifier::TypeSpecifier(t) => Some(t),
                _ => None,
            })
            .collect();
        let param_base = type_of(unit, types, &specifiers, at)?;
        let shape = param
            .node
            .declarator
            .as_ref()
            .map(|d| declarator_shape(&d.node).1);
        let shape = shape.unwrap_or(Shape::Plain(0));
        let Some(ty) = plain_type(unit, types, param_base, &shape, at)? else {
            return Err(CError::unsupported(
                format!("function pointer parameters of {}", shape.describe()),
                at,
            ));
        };
        params.push(ty);
    }
    if let [CType::Void] = params.as_slice() {
        params.clear();
    }
    if params.contains(&CType::Void) {
        return Err(CError::invalid("a parameter of type `void`", at));
    }
    let result = types.pointer_levels(base, result_levels);
    let pointer = types.function_pointer(params, result);
    Ok(types.pointer_levels(pointer, levels - 1))
}

/// The type a declarator of `shape` declares over the base type `base`: `base` behind its
/// pointer levels, or a function pointer ([`Shape::FunctionPointer`]); `None` for the shapes
/// whose sites decide (arrays, functions, others).
pub(super) fn plain_type(
    unit: &Unit<'_>,
    types: &mut Types,
    base: CType,
    shape: &Shape<'_>,
    at: usize,
) -> Result<Option<CType>, CError> {
    if let (CType::Array(_), Shape::Array(1..)) = (base, *shape) {
        return Err(pointers_to_arrays(at));
    }
    match *shape {
        Shape::Plain(levels) => Ok(Some(types.pointer_levels(base, levels))),
        Shape::ArrayPointer {
            levels,
            element_levels,
            dims,
        } => {
            let element = types.pointer_levels(base, element_levels);
            let dims = types.declared_dimensions(unit, dims, false, at)?;
            let array = types.array_of(element, dims);
            Ok(Some(types.pointer_levels(array, levels)))
        }
        Shape::FunctionPointer {
            function,
            result_levels,
            levels,
            array: false,
        } => function_pointer(unit, types, base, function, (result_levels, levels), at).map(Some),
        _ => Ok(None),
    }
}

fn pointers_to_arrays(at: usize) -> CError {
    CError::unsupported(
        "arrays of pointers to arrays (an array typedef behind `*`)",
        at,
    )
}

/// The type an array typedef (`typedef int row[3];`, its declarator of `shape`) names: an
/// array of the base type, of one array's dimensions where the base is one too.
pub(super) fn array_typedef(
    unit: &Unit<'_>,
    types: &mut Types,
    base: CType,
    (declarator, shape): (&Node<Declarator>, &Shape<'_>),
    at: usize,
) -> Result<CType, CError> {
    let (element, levels) = array_element(unit, types, base, shape, at)?;
    let derived = &unparenthesized(declarator).node.derived[levels as usize..];
    let dims = types.declared_dimensions(unit, derived, false, at)?;
    Ok(types.array_of(element, dims))
}

/// The element type of an array declarator over the base type `base` ([`Shape::Array`], or
/// an array of function pointers), and the pointer levels before its dimensions in the
/// derived parts of [`unparenthesized`].
pub(super) fn array_element(
    unit: &Unit<'_>,
    types: &mut Types,
    base: CType,
    shape: &Shape<'_>,
    at: usize,
) -> Result<(CType, u32), CError> {
    match *shape {
        Shape::FunctionPointer {
            function,
            result_levels,
            levels,
            array: true,
        } => {
            let parts = (result_levels, levels);
            Ok((
                function_pointer(unit, types, base, function, parts, at)?,
                levels,
            ))
        }
        Shape::Array(1..) if matches!(base, CType::Array(_)) => Err(pointers_to_arrays(at)),
        Shape::Array(levels) => Ok((types.pointer_levels(base, levels), levels)),
        _ => Err(CError::unsupported(shape.describe(), at)),
    }
}

/// The base type of a declaration's specifiers (defining the structs they define).
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
    let mut table = unit.types.borrow_mut();
    let extensions: Vec<&Node<lang_c::ast::Extension>> = specifiers
        .iter()
        .filter_map(|s| match &s.node {
            DeclarationSpecifier::Extension(e) => Some(e),
            _ => None,
        })
        .flatten()
        .collect();
    let defines = types
        .iter()
        .any(|t| matches!(&t.node, TypeSpecifier::Struct(st) if st.node.declarations.is_some()));
    // `struct t { ... } __attribute__((packed))`: gcc packs a struct only where the attribute
    // follows its closing brace (a leading one, or one after a qualifier, it ignores).
    let packed = defines
        && packs_struct(specifiers)
        && extensions.iter().all(|e| !attribute_named(e, "aligned"));
    table.packing_next = packed;
    let ty = type_of(unit, &mut table, &types, at);
    table.packing_next = false;
    let ty = ty?;
    if let (true, CType::Struct(id)) = (packed, ty) {
        let def = &table.structs[id.0 as usize];
        // A zero-width bit-field's place in a packed struct is gcc's own.
        let zero_width = def.bit_layout.iter().any(|item| item.bits == Some(0));
        if def.union.is_none() && !zero_width {
            return Ok(ty);
        }
    }
    // Any other `packed` or `aligned`: the struct defined here is refused where it is used,
    // as a struct with a member outside the subset is.
    if let Some(refusal) = layout_refusal(extensions.into_iter(), at) {
        match ty {
            CType::Struct(id) if defines => {
                table.structs[id.0 as usize].refused.get_or_insert(refusal);
            }
            // `typedef struct t __attribute__((aligned(16))) u;`, `typedef __attribute__
            // ((aligned(16))) int a;`: a type of another layout.
            _ => return Err(refusal),
        }
    }
    Ok(ty)
}

/// Whether `specifiers` hold a struct definition followed at once by attributes among which
/// is `packed` (and no `packed` elsewhere).
fn packs_struct(specifiers: &[Node<DeclarationSpecifier>]) -> bool {
    let packs = |s: &Node<DeclarationSpecifier>| matches!(&s.node, DeclarationSpecifier::Extension(e) if e.iter().any(|e| attribute_named(e, "packed")));
    let Some(at) = specifiers.iter().position(|s| {
        matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t)
            if matches!(&t.node, TypeSpecifier::Struct(st) if st.node.declarations.is_some()))
    }) else {
        return false;
    };
    let after = specifiers[at + 1..]
        .iter()
        .take_while(|s| matches!(s.node, DeclarationSpecifier::Extension(_)));
    let right_after = after.clone().any(packs);
    let elsewhere = specifiers[..at].iter().any(packs)
        || specifiers[at + 1 + after.count()..].iter().any(packs);
    right_after && !elsewhere
}

/// Whether `extension` is `__attribute__((name))` (with or without underscores).
fn attribute_named(extension: &Node<lang_c::ast::Extension>, name: &str) -> bool {
    matches!(&extension.node, lang_c::ast::Extension::Attribute(a)
        if a.name.node.trim_matches('_') == name)
}

/// The refusal of a struct whose declaration has an attribute that changes its layout
/// (`packed` but right after a struct's definition, `aligned`) among `extensions`: `sizeof`
/// and member offsets follow C's default layout or gcc's packed one only.
pub(super) fn layout_refusal<'a>(
    mut extensions: impl Iterator<Item = &'a Node<lang_c::ast::Extension>>,
    at: usize,
) -> Option<CError> {
    extensions.find_map(|e| match &e.node {
        lang_c::ast::Extension::Attribute(a)
            if matches!(a.name.node.trim_matches('_'), "packed" | "aligned") =>
        {
            Some(CError::unsupported(
                format!(
                    "`__attribute__(({}))` (struct layouts other than C's default)",
                    a.name.node
                ),
                at,
            ))
        }
        _ => None,
    })
}

/// The type a type name denotes (in casts and `sizeof`): its specifiers' type behind the
/// pointer levels of its abstract declarator; arrays and functions are refused.
pub(super) fn type_name(
    unit: &Unit<'_>,
    name: &lang_c::ast::TypeName,
    at: usize,
) -> Result<CType, CError> {
    type_name_in(unit, &mut unit.types.borrow_mut(), name, at)
}

/// [`type_name`] with the unit's types at hand (while one of them is being defined).
fn type_name_in(
    unit: &Unit<'_>,
    types: &mut Types,
    name: &lang_c::ast::TypeName,
    at: usize,
) -> Result<CType, CError> {
    // A type name's `packed` or `aligned` (`sizeof(struct t { ... } __attribute__((packed)))`)
    // would change the layout; only a declaration's definition packs (`base_type`).
    let extensions = name.specifiers.iter().filter_map(|s| match &s.node {
        SpecifierQualifier::Extension(e) => Some(e),
        _ => None,
    });
    if let Some(refusal) = layout_refusal(extensions.flatten(), at) {
        return Err(refusal);
    }
    let base = type_of(unit, types, &specifier_types(&name.specifiers), at)?;
    let Some(declarator) = &name.declarator else {
        return Ok(base);
    };
    match declarator_shape(&declarator.node).1 {
        // `sizeof(int[3])`.
        shape @ Shape::Array(_) => array_typedef(unit, types, base, (declarator, &shape), at),
        shape => match plain_type(unit, types, base, &shape, at)? {
            Some(ty) => Ok(ty),
            None => Err(CError::unsupported(
                format!("type names of {}", shape.describe()),
                at,
            )),
        },
    }
}

/// The value of an integer constant expression outside any function body (a parameter's
/// array dimension): enumeration constants and types, no variable.
pub(super) fn file_constant(
    unit: &Unit<'_>,
    e: &Node<lang_c::ast::Expression>,
) -> Result<i64, CError> {
    unit.types.borrow_mut().constant_value(unit, e)
}

/// Where a type is being defined (an enumerator's value, an array member's size): the
/// constants and types defined so far, and no variable.
struct DefinitionScope<'t, 'u, 'a> {
    unit: &'u Unit<'a>,
    types: std::cell::RefCell<&'t mut Types>,
}

impl constant::Scope for DefinitionScope<'_, '_, '_> {
    fn data_model(&self) -> DataModel {
        self.unit.options.data_model
    }

    fn text(&self, span: lang_c::span::Span) -> &str {
        self.unit
            .preprocessed
            .get(span.start..span.end)
            .unwrap_or_default()
    }

    fn offset(&self, span: lang_c::span::Span) -> usize {
        self.unit.at(span)
    }

    fn enum_constant(&self, name: &str) -> Option<i32> {
        self.types.borrow().enum_constant(name)
    }

    fn type_name(&self, name: &lang_c::ast::TypeName, at: usize) -> Result<CType, CError> {
        type_name_in(self.unit, &mut self.types.borrow_mut(), name, at)
    }

    fn size_of_expression(&self, _: &Node<lang_c::ast::Expression>) -> Option<i32> {
        None
    }

    fn types(&self) -> std::cell::Ref<'_, Types> {
        std::cell::Ref::map(self.types.borrow(), |types| &**types)
    }
}

/// The refusal of a member name that is a bit-field in one struct and not (or of another
/// width) in another: stores decide by the name.
fn mixed_bit_field(name: &str, at: usize) -> CError {
    CError::unsupported(
        format!(
            "the member name `{name}` as a bit-field in one struct and as another member (or a \
             bit-field of another width or signedness) in another"
        ),
        at,
    )
}
