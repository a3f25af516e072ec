//! PyO3 bindings of sctpsim (`sctpsim._native`): conversion, exceptions and GIL release only.
//! Every behaviour lives in the Rust crates or in the pure-Python package; this file only moves
//! values across the boundary. A Rust panic never crosses into Python: it becomes
//! `SimulationError`.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType};
use sctpsim_engine::scenario::{self, overrides, ScenarioError as CoreScenarioError};
use sctpsim_engine::trace::{Layer, PacketTrace, TraceEvent, TraceOptions, PROTOCOL_NAMES};
use sctpsim_engine::{run_scenario, Progress, RunOptions, SimError, TimeSeries};
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
/// `ScenarioError(SctpsimError, ValueError)`: a bad scenario or override is a bad value, so
/// `except ValueError` catches it as it catches other invalid arguments. `create_exception!`
/// takes a single base, so the class is made once by calling `type(name, bases, namespace)`,
/// as a `class` statement would.
static SCENARIO_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// Docstring of `ScenarioError`.
const SCENARIO_ERROR_DOC: &str =
    "A scenario or an override is invalid. `path` names the field; `line` is set for TOML syntax errors.";

/// The `ScenarioError` class, made on first use.
fn scenario_error_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    let ty = SCENARIO_ERROR.get_or_try_init(py, || -> PyResult<Py<PyType>> {
        let bases = PyTuple::new(
            py,
            [py.get_type::<SctpsimError>(), py.get_type::<PyValueError>()],
        )?;
        let namespace = PyDict::new(py);
        // The module `create_exception!(_native, ...)` gives its classes.
        namespace.set_item("__module__", "_native")?;
        namespace.set_item("__doc__", SCENARIO_ERROR_DOC)?;
        let class = py
            .get_type::<PyType>()
            .call1(("ScenarioError", bases, namespace))?;
        Ok(class.cast_into::<PyType>()?.unbind())
    })?;
    Ok(ty.bind(py))
}
create_exception!(
    _native,
    SimulationError,
    SctpsimError,
    "A run failed for a reason other than its scenario."
);

fn scenario_err(py: Python<'_>, e: &CoreScenarioError) -> PyErr {
    let err = match scenario_error_type(py) {
        Ok(ty) => PyErr::from_type(ty.clone(), e.to_string()),
        // Only if the class could not be made (no memory): still an sctpsim error.
        Err(_) => SctpsimError::new_err(e.to_string()),
    };
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

/// The trace options of `run(trace=...)`: a dict with any of `nodes` (names), `flows` (ids),
/// `layers` (names) and `max_rows`; errors name the key (`trace.flows`).
fn trace_options(d: &Bound<'_, PyDict>) -> Result<TraceOptions, CoreScenarioError> {
    let mut opts = TraceOptions::default();
    for (k, v) in d.iter() {
        let key: String = k
            .extract()
            .map_err(|_| CoreScenarioError::at("trace", "option names must be strings"))?;
        let path = format!("trace.{key}");
        let bad = |what: &str| CoreScenarioError::at(path.as_str(), format!("expected {what}"));
        match key.as_str() {
            "nodes" => opts.nodes = v.extract().map_err(|_| bad("a list of node names"))?,
            "flows" => opts.flows = v.extract().map_err(|_| bad("a list of flow ids"))?,
            "layers" => opts.layers = v.extract().map_err(|_| bad("a list of layer names"))?,
            "max_rows" => opts.max_rows = v.extract().map_err(|_| bad("an integer or None"))?,
            _ => {
                return Err(CoreScenarioError::at(
                    path.as_str(),
                    "unknown trace option; expected nodes, flows, layers or max_rows",
                ))
            }
        }
    }
    Ok(opts)
}

/// A column as the bytes of its values in native byte order (`numpy.frombuffer` reads it
/// without a copy); one Python object per column, not per row.
fn column<'py, T: Copy, const N: usize>(
    py: Python<'py>,
    values: Vec<T>,
    to_bytes: fn(T) -> [u8; N],
) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, values.len() * N, |buf| {
        for (b, v) in buf.chunks_exact_mut(N).zip(values) {
            b.copy_from_slice(&to_bytes(v));
        }
        Ok(())
    })
}

/// A string column as codes into its distinct values: (`u32` codes as bytes, the values in
/// order of first appearance). A series has a few dozen distinct scopes, metrics and dirs over
/// millions of rows.
fn dictionary<'py, S: AsRef<str>>(
    py: Python<'py>,
    values: Vec<S>,
) -> PyResult<(Bound<'py, PyBytes>, Vec<String>)> {
    let mut names: Vec<String> = Vec::new();
    let mut index: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    let codes: Vec<u32> = values
        .iter()
        .map(|v| {
            let v = v.as_ref();
            if let Some(&c) = index.get(v) {
                return c;
            }
            let c = names.len() as u32;
            names.push(v.to_string());
            index.insert(v.to_string(), c);
            c
        })
        .collect();
    drop(values);
    Ok((column(py, codes, u32::to_ne_bytes)?, names))
}

/// The time series for Python: `time_s`, `id` and `value` as the bytes of their values,
/// `scope`, `dir` and `metric` as `<name>_codes` bytes plus `<name>_names`. One Python object
/// per column instead of one per row: 10 million rows as Python lists took about 3 GB on top of
/// the core's copy (issue 35 item 1); as columns, 8 bytes a row per column. Each column is
/// freed in the core as soon as its bytes exist.
fn series_dict<'py>(py: Python<'py>, s: TimeSeries) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let TimeSeries {
        time_s,
        scope,
        id,
        dir,
        metric,
        value,
        ..
    } = s;
    d.set_item("rows", time_s.len())?;
    d.set_item("time_s", column(py, time_s, f64::to_ne_bytes)?)?;
    d.set_item("id", column(py, id, u32::to_ne_bytes)?)?;
    d.set_item("value", column(py, value, f64::to_ne_bytes)?)?;
    for (name, col) in [("scope", scope), ("metric", metric)] {
        let (codes, names) = dictionary(py, col)?;
        d.set_item(format!("{name}_codes"), codes)?;
        d.set_item(format!("{name}_names"), names)?;
    }
    let (codes, names) = dictionary(py, dir)?;
    d.set_item("dir_codes", codes)?;
    d.set_item("dir_names", names)?;
    Ok(d)
}

/// The trace for Python: `columns` (name → bytes, dtypes in `docs/metrics.md`'s order) and
/// the names the integer codes stand for. Each column's memory in the core is freed as soon
/// as its bytes exist, so the trace is never held twice over.
fn trace_dict<'py>(py: Python<'py>, t: PacketTrace) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let cols = PyDict::new(py);
    let PacketTrace {
        time_ns,
        node,
        iface,
        layer,
        event,
        reason,
        flow,
        protocol,
        src,
        dst,
        size_bytes,
        uid,
        node_names,
        iface_names,
        max_rows,
        truncated,
    } = t;
    let rows = time_ns.len();
    cols.set_item("time_ns", column(py, time_ns, u64::to_ne_bytes)?)?;
    cols.set_item("node", column(py, node, u32::to_ne_bytes)?)?;
    cols.set_item("iface", column(py, iface, i32::to_ne_bytes)?)?;
    cols.set_item("layer", column(py, layer, u8::to_ne_bytes)?)?;
    cols.set_item("event", column(py, event, u8::to_ne_bytes)?)?;
    cols.set_item("reason", column(py, reason, u8::to_ne_bytes)?)?;
    cols.set_item("flow", column(py, flow, i32::to_ne_bytes)?)?;
    cols.set_item("protocol", column(py, protocol, u8::to_ne_bytes)?)?;
    cols.set_item("src", column(py, src, u32::to_ne_bytes)?)?;
    cols.set_item("dst", column(py, dst, u32::to_ne_bytes)?)?;
    cols.set_item("size_bytes", column(py, size_bytes, u32::to_ne_bytes)?)?;
    cols.set_item("uid", column(py, uid, u64::to_ne_bytes)?)?;
    d.set_item("columns", cols)?;
    d.set_item("rows", rows)?;
    d.set_item("node_names", node_names)?;
    d.set_item("iface_names", iface_names)?;
    d.set_item("layers", Layer::ALL.map(Layer::name).to_vec())?;
    d.set_item("events", TraceEvent::ALL.map(TraceEvent::name).to_vec())?;
    d.set_item("reasons", PacketTrace::reason_names())?;
    d.set_item("protocols", PROTOCOL_NAMES.to_vec())?;
    d.set_item("max_rows", max_rows)?;
    d.set_item("truncated", truncated)?;
    Ok(d)
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

/// The radio ranges of scenario text with overrides, for drawing (`sctpsim view`): a dict
/// `reception_range_m` (the neighbour range of static routing: mean power at the reception
/// threshold) and `carrier_sense_range_m` (mean power at the carrier-sense / CCA level), or
/// `None` when the scenario has no wireless nodes. Computed by the core's
/// `RadioParams`, the same functions that build the simulation.
#[pyfunction]
fn radio_ranges(
    py: Python<'_>,
    text: &str,
    overrides: &Bound<'_, PyList>,
) -> PyResult<Option<Py<PyAny>>> {
    let loaded = load(py, text, overrides)?;
    if !sctpsim_engine::scenario::check_wireless::has_wireless(&loaded.spec) {
        return Ok(None);
    }
    let spec = loaded.spec.radio.clone().unwrap_or_default();
    let params = sctpsim_engine::wireless::profiles::RadioParams::from_spec(&spec)
        .map_err(|e| scenario_err(py, &e))?;
    let d = PyDict::new(py);
    d.set_item("reception_range_m", params.neighbour_range_m())?;
    d.set_item("carrier_sense_range_m", params.carrier_sense_range_m())?;
    Ok(Some(d.into_any().unbind()))
}

/// Run one simulation. Returns a dict: `summary` (JSON text), `manifest` (JSON text),
/// `timeseries` (dict of columns), `pcap_files` (list of paths), `interrupted` (bool),
/// `trace` (`None`, or the per-packet trace's columns when `trace` was given: a dict of
/// options, `{}` for everything).
#[pyfunction]
#[pyo3(signature = (text, overrides, seed=None, pcap_dir=None, progress=None, progress_interval_s=0.2, trace=None))]
#[allow(clippy::too_many_arguments)]
fn run(
    py: Python<'_>,
    text: &str,
    overrides: &Bound<'_, PyList>,
    seed: Option<u64>,
    pcap_dir: Option<PathBuf>,
    progress: Option<Py<PyAny>>,
    progress_interval_s: f64,
    trace: Option<Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let loaded = load(py, text, overrides)?;
    let trace = match trace {
        Some(d) => Some(trace_options(&d).map_err(|e| scenario_err(py, &e))?),
        None => None,
    };
    let opts = RunOptions {
        pcap_dir,
        progress_interval_s: Some(progress_interval_s),
        trace,
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
    let mut result = match outcome {
        Ok(Ok(r)) => r,
        Ok(Err(SimError::Options(e))) => return Err(scenario_err(py, &e)),
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
    let series = std::mem::take(&mut result.timeseries);
    out.set_item("timeseries", series_dict(py, series)?)?;
    let files: Vec<String> = result
        .pcap_files
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    out.set_item("pcap_files", files)?;
    out.set_item("interrupted", result.summary.interrupted)?;
    match result.trace.take() {
        Some(t) => out.set_item("trace", trace_dict(py, t)?)?,
        None => out.set_item("trace", py.None())?,
    }
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

/// The ad hoc routing protocols, in the order of their descriptors
/// (`sctpsim_engine::routing_protocols::AD_HOC`): the names of `routing.protocol`, of the
/// trace's `protocol` column and of the results.
#[pyfunction]
fn routing_protocols() -> Vec<&'static str> {
    sctpsim_engine::routing_protocols::AD_HOC
        .iter()
        .map(|p| p.name)
        .collect()
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
    m.add("ScenarioError", scenario_error_type(py)?)?;
    m.add("SimulationError", py.get_type::<SimulationError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(cli_value, m)?)?;
    m.add_function(wrap_pyfunction!(check_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(resolved_parameters, m)?)?;
    m.add_function(wrap_pyfunction!(radio_ranges, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(bench_kernel, m)?)?;
    m.add_function(wrap_pyfunction!(run_conformance, m)?)?;
    m.add_function(wrap_pyfunction!(routing_protocols, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    Ok(())
}
