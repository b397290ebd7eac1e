//! From the libraries' errors to Python's exceptions, with the commands' one-line messages: the user's
//! input is a `ValueError`, a missing, corrupt or mismatched table a `TableError`, a limit a `LimitReached`
//! (only where the caller asks for it), anything else a `RuntimeError`.

use cli_common::{one_line, Usage};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeError, PyValueError};
use pyo3::PyErr;

create_exception!(
    stp,
    TableError,
    PyException,
    "A pattern database is missing, corrupt or not for this board and pattern."
);
create_exception!(
    stp,
    LimitReached,
    PyException,
    "A search stopped at its time or node limit (raised only when asked for)."
);

/// Whether a cause says something about a table file.
fn is_table(cause: &(dyn std::error::Error + 'static)) -> bool {
    use engine::Error as E;
    match cause.downcast_ref::<E>() {
        Some(E::MissingTable { .. } | E::Table(_) | E::CorruptTable(_)) => true,
        Some(_) => false,
        None => {
            cause.is::<puzzle::pdb_file::PdbError>()
                || cause
                    .downcast_ref::<pdb_builder::Error>()
                    .is_some_and(|e| matches!(e, pdb_builder::Error::Table(_) | pdb_builder::Error::Misnamed { .. }))
        }
    }
}

/// The Python exception for an error of the libraries or of the command's option reading.
pub fn to_py(e: anyhow::Error) -> PyErr {
    let line = one_line(&e);
    // A usage mark wraps its error without a source chain: look inside it too.
    let inner = e.chain().filter_map(|c| c.downcast_ref::<Usage>()).flat_map(|u| u.0.chain());
    if e.chain().chain(inner).any(is_table) {
        TableError::new_err(line)
    } else if cli_common::exit_code(&e) == cli_common::EXIT_USAGE {
        PyValueError::new_err(line)
    } else {
        PyRuntimeError::new_err(line)
    }
}

/// A `ValueError` with `message`, for arguments the bindings read themselves.
pub fn bad(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}
