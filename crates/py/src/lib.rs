//! PyO3 bindings of sctpsim (`sctpsim._native`): conversion, exceptions and GIL release only.
//! Every behaviour lives in the Rust crates or in the pure-Python package; this file only moves
//! values across the boundary. A Rust panic never crosses into Python: it becomes
//! `SimulationError`.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use sctpsim_engine::scenario::{self, overrides, ScenarioError as CoreScenarioError};
use sctpsim_engine::{run_scenario, Progress, RunOptions};
use sctpsim_kernel::{EventQueue, Rng, SimDuration, SimTime};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::Instant;

create_exception!(
    _native,
    SctpsimError,
    PyException,
    "Base class of every sctpsim error."
);
create_exception!(
    _native,
    ScenarioError,
    SctpsimError,
    "A scenario or an override is invalid. `path` names the field; `line` is set for TOML syntax errors."
);
create_exception!(
    _native,
    SimulationError,
    SctpsimError,
    "A run failed for a reason other than its scenario."
);

fn scenario_err(py: Python<'_>, e: &CoreScenarioError) -> PyErr {
    let err = ScenarioError::new_err(e.to_string());
    let value = err.value(py);
    let _ = value.setattr("path", e.path.clone());
    let _ = value.setattr("line", e.line);
    let _ = value.setattr("column", e.column);
    err
}

/// Convert a Python value to a TOML value; `path` is only for the error message.
fn to_toml(path: &str, v: &Bound<'_, PyAny>) -> Result<toml::Value, CoreScenarioError> {
    if v.is_instance_of::<PyBool>() {
        return Ok(toml::Value::Boolean(v.extract::<bool>().unwrap_or(false)));
    }
    if v.is_instance_of::<PyInt>() {
        return v
            .extract::<i64>()
            .map(toml::Value::Integer)
            .map_err(|_| CoreScenarioError::at(path, "integer out of range for TOML (64-bit)"));
    }
    if v.is_instance_of::<PyFloat>() {
        return Ok(toml::Value::Float(v.extract::<f64>().unwrap_or(f64::NAN)));
    }
    if v.is_instance_of::<PyString>() {
        return Ok(toml::Value::String(
            v.extract::<String>().unwrap_or_default(),
        ));
    }
    if let Ok(list) = v.cast::<PyList>() {
        return list
            .iter()
            .map(|x| to_toml(path, &x))
            .collect::<Result<Vec<_>, _>>()
            .map(toml::Value::Array);
    }
    if let Ok(tuple) = v.cast::<PyTuple>() {
        return tuple
            .iter()
            .map(|x| to_toml(path, &x))
            .collect::<Result<Vec<_>, _>>()
            .map(toml::Value::Array);
    }
    if let Ok(dict) = v.cast::<PyDict>() {
        let mut t = toml::Table::new();
        for (k, x) in dict.iter() {
            let key: String = k
                .extract()
                .map_err(|_| CoreScenarioError::at(path, "table keys must be strings"))?;
            t.insert(key, to_toml(path, &x)?);
        }
        return Ok(toml::Value::Table(t));
    }
    let tname = v
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    Err(CoreScenarioError::at(
        path,
        format!("cannot use a value of Python type {tname} in a scenario"),
    ))
}

fn from_toml(py: Python<'_>, v: &toml::Value) -> PyResult<Py<PyAny>> {
    Ok(match v {
        toml::Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        toml::Value::Integer(i) => i.into_pyobject(py)?.into_any().unbind(),
        toml::Value::Float(f) => f.into_pyobject(py)?.into_any().unbind(),
        toml::Value::Boolean(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        toml::Value::Datetime(d) => d.to_string().into_pyobject(py)?.into_any().unbind(),
        toml::Value::Array(a) => {
            let items = a
                .iter()
                .map(|x| from_toml(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        toml::Value::Table(t) => {
            let d = PyDict::new(py);
            for (k, x) in t {
                d.set_item(k, from_toml(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}

fn load(
    py: Python<'_>,
    text: &str,
    overrides_in: &Bound<'_, PyList>,
) -> PyResult<scenario::LoadedScenario> {
    let mut ov = Vec::with_capacity(overrides_in.len());
    for item in overrides_in.iter() {
        let (path, value): (String, Bound<'_, PyAny>) = item.extract()?;
        let v = to_toml(&path, &value).map_err(|e| scenario_err(py, &e))?;
        ov.push((path, v));
    }
    scenario::load(text, &ov).map_err(|e| scenario_err(py, &e))
}

/// Interpret a command-line value (`--set path=VALUE`): TOML syntax if it parses, else a string.
#[pyfunction]
fn cli_value(py: Python<'_>, text: &str) -> PyResult<Py<PyAny>> {
    from_toml(py, &overrides::value_from_cli(text))
}

/// Check scenario text with overrides; return the canonical scenario as a dict and its hash.
#[pyfunction]
fn check_scenario(
    py: Python<'_>,
    text: &str,
    overrides: &Bound<'_, PyList>,
) -> PyResult<(Py<PyAny>, String)> {
    let loaded = load(py, text, overrides)?;
    let hash = loaded.hash();
    Ok((from_toml(py, &toml::Value::Table(loaded.table))?, hash))
}

/// The effective parameters of scenario text with overrides (`sctpsim show`,
/// `sctpsim_engine::params`): a list of dicts `path`, `value`, `unit`, `default`, `source`.
/// `seed` is the run's seed when it replaces `simulation.seed`.
#[pyfunction]
#[pyo3(signature = (text, overrides, seed=None))]
fn resolved_parameters(
    py: Python<'_>,
    text: &str,
    overrides: &Bound<'_, PyList>,
    seed: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let loaded = load(py, text, overrides)?;
    let paths = overrides
        .iter()
        .map(|item| item.extract::<(String, Bound<'_, PyAny>)>().map(|(p, _)| p))
        .collect::<PyResult<Vec<String>>>()?;
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let rows = sctpsim_engine::params::parameters_of(&loaded, &paths, seed);
    let json = serde_json::to_string(&rows).map_err(|e| SimulationError::new_err(e.to_string()))?;
    Ok(py.import("json")?.call_method1("loads", (json,))?.unbind())
}

/// Run one simulation. Returns a dict: `summary` (JSON text), `manifest` (JSON text),
/// `timeseries` (dict of columns), `pcap_files` (list of paths), `interrupted` (bool).
#[pyfunction]
#[pyo3(signature = (text, overrides, seed=None, pcap_dir=None, progress=None, progress_interval_s=0.2))]
fn run(
    py: Python<'_>,
    text: &str,
    overrides: &Bound<'_, PyList>,
    seed: Option<u64>,
    pcap_dir: Option<PathBuf>,
    progress: Option<Py<PyAny>>,
    progress_interval_s: f64,
) -> PyResult<Py<PyAny>> {
    let loaded = load(py, text, overrides)?;
    let opts = RunOptions {
        pcap_dir,
        progress_interval_s: Some(progress_interval_s),
    };
    let mut pending_err: Option<PyErr> = None;
    let outcome = py.detach(|| {
        let mut observer = |p: Progress| -> bool {
            Python::attach(|py| {
                if let Err(e) = py.check_signals() {
                    pending_err = Some(e);
                    return false;
                }
                if let Some(cb) = &progress {
                    let args = (p.now.as_secs_f64(), p.end.as_secs_f64(), p.events, p.wall_s);
                    if let Err(e) = cb.call1(py, args) {
                        pending_err = Some(e);
                        return false;
                    }
                }
                true
            })
        };
        catch_unwind(AssertUnwindSafe(|| {
            run_scenario(loaded, seed, &opts, &mut observer)
        }))
    });
    let result = match outcome {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => return Err(SimulationError::new_err(e.to_string())),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown".into());
            return Err(SimulationError::new_err(format!(
                "internal error (please report): {msg}"
            )));
        }
    };
    if let Some(e) = pending_err {
        if !e.is_instance_of::<PyKeyboardInterrupt>(py) {
            return Err(e);
        }
    }
    let out = PyDict::new(py);
    let summary = serde_json::to_string(&result.summary)
        .map_err(|e| SimulationError::new_err(e.to_string()))?;
    let manifest = serde_json::to_string(&result.manifest)
        .map_err(|e| SimulationError::new_err(e.to_string()))?;
    out.set_item("summary", summary)?;
    out.set_item("manifest", manifest)?;
    let ts = PyDict::new(py);
    let s = &result.timeseries;
    ts.set_item("time_s", PyList::new(py, &s.time_s)?)?;
    ts.set_item("scope", PyList::new(py, &s.scope)?)?;
    ts.set_item("id", PyList::new(py, &s.id)?)?;
    ts.set_item("dir", PyList::new(py, &s.dir)?)?;
    ts.set_item("metric", PyList::new(py, &s.metric)?)?;
    ts.set_item("value", PyList::new(py, &s.value)?)?;
    out.set_item("timeseries", ts)?;
    let files: Vec<String> = result
        .pcap_files
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    out.set_item("pcap_files", files)?;
    out.set_item("interrupted", result.summary.interrupted)?;
    Ok(out.into_any().unbind())
}

/// The hold-model kernel benchmark: each popped event schedules one more at
/// now + Exp(mean `mean_ns`). Returns one dict per case (`pending`, `events`, `seconds`,
/// `events_per_s`). Runs without the GIL.
#[pyfunction]
#[pyo3(signature = (pending, events, mean_ns=100.0, seed=1))]
fn bench_kernel(
    py: Python<'_>,
    pending: Vec<usize>,
    events: u64,
    mean_ns: f64,
    seed: u64,
) -> PyResult<Vec<(usize, u64, f64, f64)>> {
    Ok(py.detach(|| {
        pending
            .iter()
            .map(|&n| {
                let mut rng = Rng::from_seed(seed);
                let mut q: EventQueue<u32> = EventQueue::with_capacity(n);
                for i in 0..n {
                    q.push(SimTime(rng.exp(mean_ns) as u64), i as u32);
                }
                let t0 = Instant::now();
                for _ in 0..events {
                    let Some((now, id)) = q.pop() else { break };
                    q.push(now + SimDuration(rng.exp(mean_ns) as u64), id);
                }
                let s = t0.elapsed().as_secs_f64();
                (n, events, s, events as f64 / s.max(1e-12))
            })
            .collect()
    }))
}

/// Runs one packetdrill-format SCTP script in virtual time (`sctpsim conformance`).
/// `tolerance_usecs` overrides the script's `--tolerance_usecs`; `defines` are the symbols
/// `#ifdef` tests (default `["FreeBSD"]`). Returns `(passed, reason, line, trace)`. Runs
/// without the GIL; never raises for script content.
#[pyfunction]
#[pyo3(signature = (script_text, path, tolerance_usecs=None, defines=None))]
fn run_conformance(
    py: Python<'_>,
    script_text: &str,
    path: &str,
    tolerance_usecs: Option<u64>,
    defines: Option<Vec<String>>,
) -> (bool, String, Option<u32>, Vec<String>) {
    let mut opts = sctpsim_conformance::RunOptions {
        tolerance_usecs,
        ..Default::default()
    };
    if let Some(d) = defines {
        opts.defines = d;
    }
    let out = py.detach(|| sctpsim_conformance::run_script(script_text, path, &opts));
    (out.passed, out.reason, out.line, out.trace)
}

/// The version of the native core.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("SctpsimError", py.get_type::<SctpsimError>())?;
    m.add("ScenarioError", py.get_type::<ScenarioError>())?;
    m.add("SimulationError", py.get_type::<SimulationError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(cli_value, m)?)?;
    m.add_function(wrap_pyfunction!(check_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(resolved_parameters, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(bench_kernel, m)?)?;
    m.add_function(wrap_pyfunction!(run_conformance, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    Ok(())
}
