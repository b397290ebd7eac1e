//! The Python package `stp`'s native module (`stp._stp`): bindings only. Every search, table and record
//! comes from the workspace's libraries, read and checked as the commands read and check them; the Python
//! side (`stp/*.py`) adds the drawings and the documented wrappers.

mod blocks;
mod errors;
mod generic;
mod interrupt;
mod tables;
mod tiles;
mod water;

use pyo3::prelude::*;

#[pymodule]
fn _stp(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("TableError", py.get_type::<errors::TableError>())?;
    m.add("LimitReached", py.get_type::<errors::LimitReached>())?;
    m.add_function(wrap_pyfunction!(tiles::solve, m)?)?;
    m.add_function(wrap_pyfunction!(tiles::solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(tiles::estimate, m)?)?;
    m.add_class::<tiles::Solution>()?;
    m.add_class::<tiles::SolveMany>()?;
    m.add_function(wrap_pyfunction!(generic::search_run, m)?)?;
    m.add_class::<generic::SearchResult>()?;
    m.add_class::<tables::Tables>()?;
    m.add_class::<tables::Table>()?;
    m.add_function(wrap_pyfunction!(water::water_solve, m)?)?;
    m.add_function(wrap_pyfunction!(water::water_hint, m)?)?;
    m.add_function(wrap_pyfunction!(water::water_level, m)?)?;
    m.add_function(wrap_pyfunction!(blocks::blocks_solve, m)?)?;
    m.add_function(wrap_pyfunction!(blocks::blocks_explore, m)?)?;
    m.add_function(wrap_pyfunction!(blocks::blocks_levels, m)?)?;
    m.add_function(wrap_pyfunction!(blocks::blocks_level, m)?)?;
    Ok(())
}
