//! Raw declarations of the part of Z3's C API that the Z3 back end uses.
//!
//! Written by hand from Debian's `/usr/include/z3_api.h` (Z3 4.8.12) so that the crate needs
//! no bindgen/libclang and links only functions that 4.8.12 has; it links the system `libz3`.
//! Only the layout-stable enums are used (`Z3_lbool`, `Z3_ast_kind`, `Z3_error_code == 0`);
//! declaration kinds are recognised by name, never by `Z3_decl_kind` number. This module
//! declares; it must not contain logic (that is `z3_backend.rs`).

#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_int, c_uint};

macro_rules! opaque {
    ($($handle:ident => $opaque:ident),* $(,)?) => {$(
        #[doc = concat!("Opaque Z3 object behind `", stringify!($handle), "`.")]
        #[repr(C)]
        pub struct $opaque {
            _private: [u8; 0],
        }
        #[doc = concat!("Z3's `", stringify!($handle), "` handle.")]
        pub type $handle = *mut $opaque;
    )*};
}

opaque! {
    Z3_config => _Z3_config,
    Z3_context => _Z3_context,
    Z3_symbol => _Z3_symbol,
    Z3_sort => _Z3_sort,
    Z3_ast => _Z3_ast,
    Z3_app => _Z3_app,
    Z3_func_decl => _Z3_func_decl,
    Z3_solver => _Z3_solver,
    Z3_model => _Z3_model,
    Z3_params => _Z3_params,
    Z3_func_interp => _Z3_func_interp,
    Z3_func_entry => _Z3_func_entry,
    Z3_ast_vector => _Z3_ast_vector,
    Z3_stats => _Z3_stats,
}

/// Z3's three-valued Boolean.
pub type Z3_lbool = c_int;
/// `Z3_L_FALSE`.
pub const Z3_L_FALSE: Z3_lbool = -1;
/// `Z3_L_UNDEF`.
pub const Z3_L_UNDEF: Z3_lbool = 0;
/// `Z3_L_TRUE`.
pub const Z3_L_TRUE: Z3_lbool = 1;

/// Z3's error codes (a C enum).
pub type Z3_error_code = c_int;
/// `Z3_OK`.
pub const Z3_OK: Z3_error_code = 0;

/// Z3's AST kinds (a C enum).
pub type Z3_ast_kind = c_int;
/// `Z3_NUMERAL_AST`.
pub const Z3_NUMERAL_AST: Z3_ast_kind = 0;
/// `Z3_APP_AST`.
pub const Z3_APP_AST: Z3_ast_kind = 1;

/// Z3's error handler callback type.
pub type Z3_error_handler = unsafe extern "C" fn(c: Z3_context, e: Z3_error_code);

#[link(name = "z3")]
extern "C" {
    pub fn Z3_get_full_version() -> *const c_char;
    pub fn Z3_mk_config() -> Z3_config;
    pub fn Z3_del_config(c: Z3_config);
    pub fn Z3_set_param_value(c: Z3_config, param_id: *const c_char, param_value: *const c_char);
    pub fn Z3_mk_context_rc(c: Z3_config) -> Z3_context;
    pub fn Z3_del_context(c: Z3_context);
    pub fn Z3_interrupt(c: Z3_context);
    pub fn Z3_set_error_handler(c: Z3_context, h: Z3_error_handler);
    pub fn Z3_get_error_code(c: Z3_context) -> Z3_error_code;
    pub fn Z3_get_error_msg(c: Z3_context, err: Z3_error_code) -> *const c_char;
    pub fn Z3_inc_ref(c: Z3_context, a: Z3_ast);
    pub fn Z3_dec_ref(c: Z3_context, a: Z3_ast);

    pub fn Z3_mk_string_symbol(c: Z3_context, s: *const c_char) -> Z3_symbol;
    pub fn Z3_mk_bool_sort(c: Z3_context) -> Z3_sort;
    pub fn Z3_mk_int_sort(c: Z3_context) -> Z3_sort;
    pub fn Z3_mk_bv_sort(c: Z3_context, sz: c_uint) -> Z3_sort;
    pub fn Z3_mk_array_sort(c: Z3_context, domain: Z3_sort, range: Z3_sort) -> Z3_sort;
    pub fn Z3_sort_to_ast(c: Z3_context, s: Z3_sort) -> Z3_ast;

    pub fn Z3_mk_const(c: Z3_context, s: Z3_symbol, ty: Z3_sort) -> Z3_ast;
    pub fn Z3_mk_true(c: Z3_context) -> Z3_ast;
    pub fn Z3_mk_false(c: Z3_context) -> Z3_ast;
    pub fn Z3_mk_numeral(c: Z3_context, numeral: *const c_char, ty: Z3_sort) -> Z3_ast;
    pub fn Z3_mk_not(c: Z3_context, a: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_and(c: Z3_context, num_args: c_uint, args: *const Z3_ast) -> Z3_ast;
    pub fn Z3_mk_or(c: Z3_context, num_args: c_uint, args: *const Z3_ast) -> Z3_ast;
    pub fn Z3_mk_xor(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_implies(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_ite(c: Z3_context, t1: Z3_ast, t2: Z3_ast, t3: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_eq(c: Z3_context, l: Z3_ast, r: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvnot(c: Z3_context, t1: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvneg(c: Z3_context, t1: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvand(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvor(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvxor(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvadd(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvsub(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvmul(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvudiv(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvsdiv(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvurem(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvsrem(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvshl(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvlshr(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvashr(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvult(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvule(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvslt(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_bvsle(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_extract(c: Z3_context, high: c_uint, low: c_uint, t1: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_zero_ext(c: Z3_context, i: c_uint, t1: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_sign_ext(c: Z3_context, i: c_uint, t1: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_concat(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_select(c: Z3_context, a: Z3_ast, i: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_store(c: Z3_context, a: Z3_ast, i: Z3_ast, v: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_const_array(c: Z3_context, domain: Z3_sort, v: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_unary_minus(c: Z3_context, arg: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_add(c: Z3_context, num_args: c_uint, args: *const Z3_ast) -> Z3_ast;
    pub fn Z3_mk_sub(c: Z3_context, num_args: c_uint, args: *const Z3_ast) -> Z3_ast;
    pub fn Z3_mk_mul(c: Z3_context, num_args: c_uint, args: *const Z3_ast) -> Z3_ast;
    pub fn Z3_mk_div(c: Z3_context, arg1: Z3_ast, arg2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_mod(c: Z3_context, arg1: Z3_ast, arg2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_le(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;
    pub fn Z3_mk_lt(c: Z3_context, t1: Z3_ast, t2: Z3_ast) -> Z3_ast;

    pub fn Z3_mk_solver(c: Z3_context) -> Z3_solver;
    pub fn Z3_mk_solver_for_logic(c: Z3_context, logic: Z3_symbol) -> Z3_solver;
    pub fn Z3_mk_simple_solver(c: Z3_context) -> Z3_solver;
    pub fn Z3_solver_inc_ref(c: Z3_context, s: Z3_solver);
    pub fn Z3_solver_dec_ref(c: Z3_context, s: Z3_solver);
    pub fn Z3_solver_push(c: Z3_context, s: Z3_solver);
    pub fn Z3_solver_pop(c: Z3_context, s: Z3_solver, n: c_uint);
    pub fn Z3_solver_assert(c: Z3_context, s: Z3_solver, a: Z3_ast);
    pub fn Z3_solver_check_assumptions(
        c: Z3_context,
        s: Z3_solver,
        num_assumptions: c_uint,
        assumptions: *const Z3_ast,
    ) -> Z3_lbool;
    pub fn Z3_solver_get_model(c: Z3_context, s: Z3_solver) -> Z3_model;
    pub fn Z3_solver_get_assertions(c: Z3_context, s: Z3_solver) -> Z3_ast_vector;
    pub fn Z3_ast_vector_inc_ref(c: Z3_context, v: Z3_ast_vector);
    pub fn Z3_ast_vector_dec_ref(c: Z3_context, v: Z3_ast_vector);
    pub fn Z3_ast_vector_size(c: Z3_context, v: Z3_ast_vector) -> c_uint;
    pub fn Z3_ast_vector_get(c: Z3_context, v: Z3_ast_vector, i: c_uint) -> Z3_ast;
    pub fn Z3_solver_get_reason_unknown(c: Z3_context, s: Z3_solver) -> *const c_char;
    pub fn Z3_solver_get_statistics(c: Z3_context, s: Z3_solver) -> Z3_stats;
    pub fn Z3_stats_inc_ref(c: Z3_context, s: Z3_stats);
    pub fn Z3_stats_dec_ref(c: Z3_context, s: Z3_stats);
    pub fn Z3_stats_size(c: Z3_context, s: Z3_stats) -> c_uint;
    pub fn Z3_stats_get_key(c: Z3_context, s: Z3_stats, idx: c_uint) -> *const c_char;
    pub fn Z3_stats_is_uint(c: Z3_context, s: Z3_stats, idx: c_uint) -> bool;
    pub fn Z3_stats_get_uint_value(c: Z3_context, s: Z3_stats, idx: c_uint) -> c_uint;
    pub fn Z3_stats_get_double_value(c: Z3_context, s: Z3_stats, idx: c_uint) -> f64;
    pub fn Z3_solver_set_params(c: Z3_context, s: Z3_solver, p: Z3_params);
    pub fn Z3_mk_params(c: Z3_context) -> Z3_params;
    pub fn Z3_params_inc_ref(c: Z3_context, p: Z3_params);
    pub fn Z3_params_dec_ref(c: Z3_context, p: Z3_params);
    pub fn Z3_params_set_uint(c: Z3_context, p: Z3_params, k: Z3_symbol, v: c_uint);
    pub fn Z3_params_set_bool(c: Z3_context, p: Z3_params, k: Z3_symbol, v: bool);

    pub fn Z3_translate(source: Z3_context, a: Z3_ast, target: Z3_context) -> Z3_ast;
    pub fn Z3_model_translate(c: Z3_context, m: Z3_model, dst: Z3_context) -> Z3_model;
    pub fn Z3_model_inc_ref(c: Z3_context, m: Z3_model);
    pub fn Z3_model_dec_ref(c: Z3_context, m: Z3_model);
    pub fn Z3_model_eval(
        c: Z3_context,
        m: Z3_model,
        t: Z3_ast,
        model_completion: bool,
        v: *mut Z3_ast,
    ) -> bool;
    pub fn Z3_get_ast_kind(c: Z3_context, a: Z3_ast) -> Z3_ast_kind;
    pub fn Z3_get_bool_value(c: Z3_context, a: Z3_ast) -> Z3_lbool;
    pub fn Z3_get_numeral_string(c: Z3_context, a: Z3_ast) -> *const c_char;
    pub fn Z3_ast_to_string(c: Z3_context, a: Z3_ast) -> *const c_char;
    pub fn Z3_is_as_array(c: Z3_context, a: Z3_ast) -> bool;
    pub fn Z3_get_as_array_func_decl(c: Z3_context, a: Z3_ast) -> Z3_func_decl;
    pub fn Z3_model_get_func_interp(c: Z3_context, m: Z3_model, f: Z3_func_decl) -> Z3_func_interp;
    pub fn Z3_func_interp_inc_ref(c: Z3_context, f: Z3_func_interp);
    pub fn Z3_func_interp_dec_ref(c: Z3_context, f: Z3_func_interp);
    pub fn Z3_func_interp_get_num_entries(c: Z3_context, f: Z3_func_interp) -> c_uint;
    pub fn Z3_func_interp_get_entry(c: Z3_context, f: Z3_func_interp, i: c_uint) -> Z3_func_entry;
    pub fn Z3_func_interp_get_else(c: Z3_context, f: Z3_func_interp) -> Z3_ast;
    pub fn Z3_func_entry_inc_ref(c: Z3_context, e: Z3_func_entry);
    pub fn Z3_func_entry_dec_ref(c: Z3_context, e: Z3_func_entry);
    pub fn Z3_func_entry_get_num_args(c: Z3_context, e: Z3_func_entry) -> c_uint;
    pub fn Z3_func_entry_get_arg(c: Z3_context, e: Z3_func_entry, i: c_uint) -> Z3_ast;
    pub fn Z3_func_entry_get_value(c: Z3_context, e: Z3_func_entry) -> Z3_ast;
    pub fn Z3_to_app(c: Z3_context, a: Z3_ast) -> Z3_app;
    pub fn Z3_get_app_decl(c: Z3_context, a: Z3_app) -> Z3_func_decl;
    pub fn Z3_get_app_num_args(c: Z3_context, a: Z3_app) -> c_uint;
    pub fn Z3_get_app_arg(c: Z3_context, a: Z3_app, i: c_uint) -> Z3_ast;
    pub fn Z3_get_decl_name(c: Z3_context, d: Z3_func_decl) -> Z3_symbol;
    pub fn Z3_get_symbol_string(c: Z3_context, s: Z3_symbol) -> *const c_char;
}
